#!/usr/bin/env bash
# compare on a campaign of real run folders: A B A B A B over two profiles, one B run
# interrupted. Checks medians, spreads, deltas, verdicts, the geomean and the skipped run.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
c=$tmp/20260101T000000Z-host-ab
# 1500 B: B is 20 % faster on NDR; 64 B: no change. Node example: B costs 20 clocks, A 12.
i=0
for spec in "${AB_RUNS[@]}"; do
	read -r g ndr ex lk <<<"$spec"
	i=$((i + 1))
	make_run "$c" "$(printf '%03d' "$i")-$g-udp1500" "$g" udp 1500 "$ndr" $((ndr + 5000)) vfwd complete "$ex" "$lk"
	make_run "$c" "$(printf '%03d' "$i")-$g-udp64" "$g" udp 64 $((2000000 + i * 1000)) $((2100000 + i * 1000)) vfwd complete "$ex" "$lk"
done
make_run "$c" 007-B-udp1500 B udp 1500 9000000 9000000 vfwd incomplete 1.0 1.0

check "compare_exits_0_on_a_campaign" quiet_to "$tmp/out.md" "$FWDSTAT" compare "$c"
sed 's/^/# /' "$tmp/out.md"
"$FWDSTAT" compare "$c" 2>"$tmp/err" >/dev/null || true
check "json_output_is_valid_json" quiet_to "$tmp/out.json" "$FWDSTAT" compare "$c" --json
check "json_parses" quiet jq -e . "$tmp/out.json"

q() { jq -r "$1" "$tmp/out.json"; }
check "incomplete_run_is_skipped_and_named_on_stderr" grep -q '007-B-udp1500: skipped, status incomplete' "$tmp/err"
check "two_groups_A_is_base" test "$(q '.base + (.groups|join(","))')" = "AA,B"
check "group_info_counts_runs_per_group" test "$(q '.group_info.A.runs, .group_info.B.runs, .group_info.B.dut' | xargs)" = "6 6 vfwd"
check "runs_counted_without_the_incomplete_one" test "$(q .runs)" = 12
ndr() { q ".figures[] | select(.profile==\"$1\" and .figure==\"ndr_pps\") | $2"; }
check "ndr_median_of_A_at_1500" test "$(ndr udp/1500B '.groups.A.median')" = 1000000
check "ndr_spread_of_A_is_range_over_median" test "$(ndr udp/1500B '.groups.A.rel_spread')" = 0.04
check "ndr_delta_B_vs_A_is_plus_20_percent" test "$(ndr udp/1500B '.vs_base.B.delta')" = 0.2
check "ndr_verdict_at_1500_is_faster" test "$(ndr udp/1500B '.vs_base.B.verdict')" = faster
check "ndr_at_64_overlapping_ranges_are_noise" test "$(ndr udp/64B '.vs_base.B.verdict')" = "within noise"
node() { q ".figures[] | select(.profile==\"udp/1500B\" and .node==\"$1\" and .figure==\"$2\") | $3"; }
check "example_clocks_median_per_group" test "$(node example clocks_per_packet '.groups.A.median, .groups.B.median' | xargs)" = "12 20"
check "example_clocks_up_is_slower" test "$(node example clocks_per_packet '.vs_base.B.verdict')" = slower
check "ip4_lookup_unchanged_is_noise" test "$(node ip4-lookup clocks_per_packet '.vs_base.B.verdict')" = "within noise"
check "vectors_per_call_over_workers" test "$(node port0-rx vectors_per_call '.groups.A.median')" = 125
check "main_thread_nodes_are_left_out" test -z "$(node unix-epoll-input clocks_per_packet .figure)"
# geomean of 1.2 (1500 B) and about 1.0 (64 B)
gm=$(q '.geomean.B.ndr_ratio')
check "geomean_of_ndr_ratios_over_profiles" awk -v g="$gm" 'BEGIN { exit !(g > 1.094 && g < 1.097) }'
check "markdown_has_the_verdict_row" grep -Eq '^\| udp/1500B +\| NDR \(pps\) +\| +1\.000 M \| +0\.980 M\.\.1\.020 M \(4\.0 %\) .*\+20\.0 % \| faster' "$tmp/out.md"
check "markdown_node_row_reads_clocks_per_packet" grep -Eq '^\| udp/1500B +\| example +\| clocks/packet +\| +12\.00 \|.*\| slower +\|$' "$tmp/out.md"
check "markdown_node_row_reads_vectors_per_call" grep -Eq '^\| udp/1500B +\| port0-rx +\| vectors/call +\| +125\.00 \|' "$tmp/out.md"
check "markdown_states_the_geomean" grep -q 'Geometric mean of the NDR change, B vs A, over 2 profiles: +9.6 %' "$tmp/out.md"
"$FWDSTAT" compare "$c" --base B --node example --json >"$tmp/b.json" 2>/dev/null
check "base_B_flips_the_verdict" test "$(jq -r '.figures[] | select(.profile=="udp/1500B" and .figure=="ndr_pps") | .vs_base.A.verdict' "$tmp/b.json")" = slower
check "node_filter_keeps_only_that_node" test "$(jq -r '[.figures[] | .node | select(. != null)] | unique | join(",")' "$tmp/b.json")" = example
# Fixed-rate runs (tgen mode "run") give a received rate, never an NDR.
r=$tmp/20260101T020000Z-host-run
for spec in "001 A 5000" "002 B 4000" "003 A 5000" "004 B 4000"; do
	read -r n g rx <<<"$spec"
	make_run "$r" "$n" "$g" udp 1500 0 0 vfwd complete
	printf '{"tool": "tgen", "mode": "run", "link_bps": 10000000000, "profile": {"name": "udp", "frame_size": 1500},\n "trial": {"rx_pps": %s, "tx_pps": 5000}}\n' "$rx" >"$r/$n/tgen.json"
done
check "run_mode_compare" quiet_to "$tmp/run.json" "$FWDSTAT" compare "$r" --json
check "run_mode_gives_rx_rate_not_ndr" test "$(jq -r '[.figures[].figure] | unique | join(",")' "$tmp/run.json")" = rx_pps
check "run_mode_rx_drop_is_slower" test "$(jq -r '.figures[0].vs_base.B.verdict' "$tmp/run.json")" = slower
tap_done
