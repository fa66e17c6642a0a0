#!/usr/bin/env bash
# fwdlab's Rust and C VPP feature plugins loaded into one VPP at once (build-plugin --tree with
# both) and both enabled on both ports: show plugins lists both .so files, each port's
# ip4-unicast arc has both nodes (example-rs, example) before its end ip4-lookup; UDP into
# port0 passes both nodes and comes out of port1; the ICMP into port1 is dropped by whichever
# node comes first on the arc and counted under it, and never reaches the second; show runtime
# has one row per node, which the vectors tell apart (first: UDP + ICMP, second: UDP only).
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
# shellcheck source=./vpp_plugin_lib.sh
. "$(dirname "$(readlink -f "$0")")/vpp_plugin_lib.sh"
vpp_need_build default
test_init
plugin_pcaps

plugin_tree "$T/vpp-both" example-rs example
plugin_up "$T/vpp-both"
plugins=$(plugin_vppctl show plugins)
for so in example_rs_plugin.so example_plugin.so; do
	check "show plugins lists $so" grep -q "$so" <<<"$plugins"
done
mapfile -t feats1 < <(arc_features port1)
for p in port0 port1; do
	f=$(arc_features "$p")
	check "$p's ip4-unicast arc: example-rs and example before ip4-lookup (${f//$'\n'/, })" \
		awk '$1 == "example-rs" { r = 1 } $1 == "example" { c = 1 } $0 == "[end] ip4-lookup" { e = 1 }
			END { exit !(r && c && e) }' <<<"$f"
done
first=${feats1[0]:-} second=${feats1[1]:-}
[ "$first" = example ] || [ "$first" = example-rs ] || first=example-rs second=example
echo "# the arc's order: $first, then $second"
plugin_traffic "$first"
poll_until 10 "VPP's $second node to count the $N_FWD UDP frames" node_saw "$second" "$N_FWD" || true
"$BACKEND_CMD" vpp dump "$PLUGIN_CFG" "$T/dump" >/dev/null
plugin_down
check_out "both plugins pass UDP port0->port1" "$T/tg_out1.pcap" fwd routed-own-mac
n0=$("$PCAPTOOL" count "$T/tg_out0.pcap" 2>/dev/null || echo "?")
check "no ICMP frame comes out of port0 (${n0:-?} frames)" test "${n0:-x}" = 0
check "show errors: $first, first on the arc, counts $N_REV icmp packets dropped" \
	awk -v n="$N_REV" -v node="$first" '/icmp packets dropped/ && $2 == node && $1 == n { f = 1 }
		END { exit !f }' "$T/dump/show_errors.txt"
check "show errors: $second counts no icmp packets dropped" \
	awk -v node="$second" '/icmp packets dropped/ && $2 == node && $1 > 0 { f = 1 } END { exit f }' \
	"$T/dump/show_errors.txt"
vec() { awk -v node="$1" '$1 == node { v += $4 } END { print v + 0 }' "$T/dump/show_runtime.txt"; }
check "show runtime: $first saw UDP and ICMP ($(vec "$first") of $((N_FWD + N_REV)))" \
	test "$(vec "$first")" = $((N_FWD + N_REV))
check "show runtime: $second saw the UDP only ($(vec "$second") of $N_FWD)" \
	test "$(vec "$second")" = "$N_FWD"
clocks_line example-rs "$T/dump/show_runtime.txt"
clocks_line example "$T/dump/show_runtime.txt"
echo "1..$tap_n"
exit "$tap_failed"
