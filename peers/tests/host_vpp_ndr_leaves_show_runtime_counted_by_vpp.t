#!/usr/bin/env bash
# The host topology with VPP as its DUT: `fwdlab swap peer:vpp` (memif facing tgen), then
# `fwdlab ndr`: a complete run whose folder holds VPP's show runtime (26.x heading), read by
# fwdstat; every trial cleared before and dumped after, VPP's own counters (show interface,
# show runtime) agree with what tgen sent in that trial; workers pinned as the plan says.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
# shellcheck source=./lib.sh
. "$top/peers/tests/lib.sh"
vpp_need_build default
# shellcheck source=../../tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"

lab_up || { echo "1..$tap_n"; exit 1; }
stage "fwdlab swap peer:vpp" lab swap peer:vpp || { echo "1..$tap_n"; exit 1; }
check "the lab's peer config names memif ports and the cached VPP build" \
	bash -c 'grep -q "^port0 memif:" "$1" && grep -q "^vpp-prefix $2" "$1"' _ "$FWDLAB_STATE/peer/config" \
	"$(readlink -f "$VPP_PREFIX")"
stage "ndr through VPP" lab ndr --label vpp --trial-duration 1 --final-duration 1 --min-rate 100 \
	--max-rate 3000 || true
run=$(dirname "$(find "$FWDLAB_RESULTS" -path '*-host-vpp/*' -name tgen.json | head -n1)")
nj=$run/tgen.json
echo "# run folder: $run"
check "ndr run complete, dut.backend vpp, dut.build.version names VPP" \
	test "$(jq -r '"\(.status) \(.dut.backend) \(.dut.build.version | startswith("vpp v"))"' "$run/meta.json" 2>/dev/null)" = "complete vpp true"
check "ndr found a rate > 0" test "$(jq -r '.ndr.rate_pps // 0 | floor' "$nj" 2>/dev/null || echo 0)" -gt 0
check "the run folder holds VPP's show runtime with the 26.x heading" \
	grep -Eq "Name +State +Calls +Vectors +Suspends +Packet-Clocks +Vectors/Call" "$run/show_runtime.txt"
for f in show_errors.txt show_interfaces.txt show_version.txt show_hardware.txt backend.json stats.json; do
	check "run folder has VPP's $f" test -s "$run/$f"
done
check "VPP ran with its worker on the plan's lcore (vfwd.workers = 1)" \
	grep -Eq "vpp_wk_0 +workers +[0-9]+ +[a-z]+ +\([0-9]+\) +1 " "$run/show_threads.txt"
clk=$("$top/build/lab/bin/fwdstat" runtime "$run/show_runtime.txt" --node ip4-rewrite --json 2>/dev/null |
	jq -r '.median_clocks_per_packet // empty' 2>/dev/null || true)
echo "# fwdstat runtime ip4-rewrite: ${clk:-nothing} clocks/packet"
check "fwdstat reads VPP's ip4-rewrite clocks/packet from the run folder (${clk:-none})" \
	awk -v c="${clk:-0}" 'BEGIN { exit !(c > 0) }'
ntrials=$(jq -r '.trials | length' "$nj" 2>/dev/null || echo 0)
ndumps=$(find "$run/trials" -name show_runtime.txt 2>/dev/null | wc -l)
check "one VPP dump per ndr trial ($ntrials trials, $ndumps dumps)" test "$ntrials" -gt 0 -a "$ntrials" -eq "$ndumps"
# Trial i's dump: VPP's counters, cleared by the pre-trial hook, count that trial alone
# (tgen's frames of that trial: every tx frame was received by VPP on port0, and VPP's
# ip4-rewrite saw each frame it sent on port1).
bad=0 seen=0
for ((i = 0; i < ntrials; i++)); do
	d=$run/trials/$(printf '%03d' "$(jq -r ".trials[$i].index" "$nj")")
	[ -d "$d" ] || continue
	tx=$(jq -r ".trials[$i].tx_packets" "$nj") rx=$(jq -r ".trials[$i].rx_packets" "$nj")
	rx0=$(jq -r .port0.rx "$d/stats.json") tx1=$(jq -r .port1.tx "$d/stats.json")
	rw=$(awk '$1 == "ip4-rewrite" { v += $4 } END { print v + 0 }' "$d/show_runtime.txt")
	seen=$((seen + 1))
	if [ "$rx0" -lt "$tx" ] || [ "$tx1" -lt "$rx" ] || [ "$rw" -ne "$tx1" ] || [ "$rx0" -gt $((tx + 1000)) ]; then
		echo "# trial $i: tgen tx $tx rx $rx; VPP port0 rx $rx0, port1 tx $tx1, ip4-rewrite $rw"
		bad=$((bad + 1))
	fi
done
check "in each of $seen trial dumps VPP's own counters agree with tgen's (port0 rx >= tx, port1 tx >= rx, ip4-rewrite vectors = port1 tx)" \
	test "$seen" -gt 0 -a "$bad" -eq 0
stage "fwdlab swap build/vfwd/default (vfwd back)" lab swap "$top/build/vfwd/default" || true
check "VPP is stopped after the swap back" \
	bash -c '! pgrep -f -- "-c $1/peer/run/startup.conf" >/dev/null' _ "$FWDLAB_STATE"
echo "1..$tap_n"
exit "$tap_failed"
