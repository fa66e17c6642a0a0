#!/usr/bin/env bash
# Our C feature plugin on VPP's ip4-unicast arc (peers/vpp/plugins/example, the build's
# `example` variant): a testpmd generator sends UDP into port0 and ICMP into port1 over memif;
# every UDP frame is routed out of port1 (TTL 63), no ICMP frame comes out of port0, VPP's
# show errors counts each as "icmp packets dropped" under the example node, and show runtime
# has the example node with every frame of both flows.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default example
VPP_PREFIX=$("$PEERS/vpp/build" --variant example --print-prefix)
export VPP_PREFIX
test_init
make_pcaps 64
# port1's flow is ICMP (48.0.0.1 -> 16.0.0.1, protocol 1), routed towards port0 unless dropped.
"$PCAPTOOL" gen "$T/in1.pcap" --count "$N_REV" --size 64 --src-mac "$TG_MAC1" --dst-mac "$DUT_MAC1" \
	--src-ip 48.0.0.1 --dst-ip 16.0.0.1 --proto 1
cfg=$T/vpp.cfg
write_config "$cfg" "memif:$T/m0.sock" "memif:$T/m1.sock"
backend_up vpp "$cfg"
plugins=$(vppctl_cfg "$cfg" show plugins)
check "the plugin is loaded from the build's fwdlab/plugins" grep -q example_plugin.so <<<"$plugins"
tg_start "net_memif0,role=client,id=0,socket=$T/m0.sock,socket-abstract=no,mac=$TG_MAC0" \
	"net_memif1,role=client,id=0,socket=$T/m1.sock,socket-abstract=no,mac=$TG_MAC1"
vpp_wait_memif_up "$cfg" 60 || true
tg_cmd start
wait_frames "$T/tg_out1.pcap" "$N_FWD" 30 || true
# shellcheck disable=SC2317 # called by poll_until
port1_rx_all() { [ "$("$BACKEND_CMD" vpp stats "$cfg" | jq .port1.rx)" -ge "$N_REV" ]; }
poll_until 10 "VPP's port1 to count the $N_REV ICMP frames received" port1_rx_all || true
# a frame counted at port1's input is still on its way through the graph: the dump waits until
# the example node's runtime has every frame of both flows (its errors are counted as it runs)
# shellcheck disable=SC2317 # called by poll_until
example_saw_all() {
	vppctl_cfg "$cfg" show runtime |
		awk -v n=$((N_FWD + N_REV)) '$1 == "example" { v += $4 } END { exit !(v >= n) }'
}
poll_until 10 "VPP's example node to count all $((N_FWD + N_REV)) frames (show runtime)" \
	example_saw_all || true
"$BACKEND_CMD" vpp dump "$cfg" "$T/dump"
tg_stop
check_out "example passes UDP port0->port1" "$T/tg_out1.pcap" fwd routed-own-mac
n0=$("$PCAPTOOL" count "$T/tg_out0.pcap" 2>/dev/null || echo "?")
check "no ICMP frame comes out of port0 (${n0:-?} frames)" test "${n0:-x}" = 0
check "show errors: example counts $N_REV icmp packets dropped" \
	awk -v n="$N_REV" '/icmp packets dropped/ && $2 == "example" && $1 == n { f = 1 } END { exit !f }' \
	"$T/dump/show_errors.txt"
check "show runtime: the example node saw every frame ($((N_FWD + N_REV)))" \
	awk -v n=$((N_FWD + N_REV)) '$1 == "example" { v += $4 } END { exit !(v == n) }' "$T/dump/show_runtime.txt"
echo "1..$tap_n"
exit "$tap_failed"
