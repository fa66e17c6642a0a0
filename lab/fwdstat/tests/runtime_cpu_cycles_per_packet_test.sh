#!/usr/bin/env bash
# fwdstat runtime reports cycles per packet from the workers' CPU time beside the nodes'
# clocks, with the rx mode that ran, so that an adaptive-mode figure is never read as a
# poll-mode one. Fixtures: a real vfwd dump (text and JSON) of an adaptive worker forwarding
# a pcap (infinite_rx); the figure must be the dump's CPU clocks over its <port>-rx packets.
# A dump without vfwd's rx-mode line (VPP's, or vfwd's before it) has no such figure.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
data=${FWDSTAT_DATA:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data}
txt=$data/vfwd_adaptive_show_runtime.txt
json=$data/vfwd_adaptive_show_runtime.json
use_tmp

# from the text: clocks in the rx-mode line over the Vectors of the -rx rows
want_txt=$(awk '/^  rx-mode / { gsub(/[()]/, ""); for (i = 1; i <= NF; i++) if ($i == "clocks") c = $(i - 1) }
	$1 ~ /-rx$/ && NF == 7 { p += $4 } END { printf "%.1f", c / p }' "$txt")
quiet_to "$tmp/txt.out" "$FWDSTAT" runtime "$txt" --node ip4-lookup
check "text_dump_gives_cycles_per_packet_from_cpu_time_with_its_rx_mode" grep -qF \
	"$txt: $want_txt cycles/packet from the workers' CPU time (rx-mode adaptive)" "$tmp/txt.out"
quiet_to "$tmp/json.out" "$FWDSTAT" runtime "$json" --node ip4-lookup --json
# shellcheck disable=SC2016 # jq's
check "json_dump_gives_cpu_clocks_over_rx_packets" quiet jq -e --slurpfile d "$json" '
	($d[0].threads[1]) as $t |
	([$t.nodes[] | select(.name | endswith("-rx")) | .vectors] | add) as $p |
	.files[0].cpu_clocks_per_packet - $t.cpu_clocks / $p | fabs < 1e-6' "$tmp/json.out"
check "json_says_the_rx_mode" quiet jq -e '.files[0].rx_mode == "adaptive"' "$tmp/json.out"
check "cpu_figure_is_beside_not_instead_of_the_nodes_clocks" quiet jq -e '.files[0] |
	.clocks_per_packet > 0 and .cpu_clocks_per_packet > .clocks_per_packet' "$tmp/json.out"
quiet_to "$tmp/vpp.out" "$FWDSTAT" runtime "$data/vpp_2workers.txt" --node ip4-lookup --json
check "dump_without_cpu_time_has_no_cpu_figure" quiet jq -e '.files[0].cpu_clocks_per_packet == null
	and .files[0].rx_mode == ""' "$tmp/vpp.out"
tap_done
