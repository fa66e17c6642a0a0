#!/usr/bin/env bash
# TRex and VPP on the host topology: TRex as the generator (memif clients), VPP as the DUT
# (`swap vpp:default`: VPP's memif ports serve the sockets TRex connects to), no VM, no
# hugepages. Proves: the swap puts VPP on memif with vfwd's routes; a run at a fixed rate
# through TRex is complete and names trex and vpp; TRex's counters and VPP's own agree in
# that trial (VPP port0 rx = TRex tx, VPP port1 tx = ip4-rewrite = TRex rx); an NDR search
# through TRex and VPP completes with NDR and PDR and a VPP dump per trial, each agreeing
# with TRex's counts; the swap back to vfwd stops VPP; down leaves no TRex process.
# TRex and VPP come from the build cache, or are built now; a failed build fails the test.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=trex/tests/lib.sh
. "$top/trex/tests/lib.sh" # trex_home: TRex built (or taken from the cache) now
need "the VPP build default (peers/vpp/build)" "$top/peers/vpp/build" >/dev/null
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
host_lab_extra_cleanup() { lab swap "$top/build/vfwd/default" >/dev/null 2>&1 || true; }
status_of() { jq -r .status "$1/meta.json" 2>/dev/null || echo none; }
run_dir() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" -print -quit; }
stl=$trex_home/scripts/stl/udp_for_benchmarks.py

# trial_agrees DIR TX RX: VPP's own counters in the trial dump DIR agree with TRex's TX and RX
# (every frame TRex sent was received on port0; what VPP sent on port1 is what ip4-rewrite
# handled and what TRex received).
trial_agrees() {
	local rx0 tx1 rw
	rx0=$(jq -r .port0.rx "$1/stats.json" 2>/dev/null || echo -1)
	tx1=$(jq -r .port1.tx "$1/stats.json" 2>/dev/null || echo -1)
	rw=$(runtime_vectors "$1/show_runtime.txt" ip4-rewrite)
	echo "#   $(basename "$1"): TRex tx $2 rx $3; VPP port0 rx $rx0, ip4-rewrite $rw, port1 tx $tx1"
	[ "$2" -gt 0 ] && [ "$rx0" -eq "$2" ] && [ "$rw" -eq "$tx1" ] && [ "$tx1" -eq "$3" ]
}

stage "up --generator trex" quiet lab up --generator trex || exit 1
stage "swap vpp:default" lab swap vpp:default || exit 1
check "VPP's ports are memif, serving the lab's sockets, with the cached VPP build" eval '
	grep -q "^port0 memif:" "$FWDLAB_STATE/peer/config" &&
	grep -q "^vpp-prefix $(readlink -f "$top/build/vpp/default")" "$FWDLAB_STATE/peer/config"'

# 1. A run at a fixed rate with TRex's own profile.
stage "run udp_for_benchmarks.py 64 B at 3 kpps for 3 s" lab run --label trexvpp --profile "$stl" \
	--tunables "--packet_len 64" --rate 3000 --duration 3 --run fixed || true
r=$(run_dir fixed)
check "the run is complete, by trex, through vpp" eval '
	[ "$(status_of "$r")" = complete ] &&
	jq -e ".generator.name == \"trex\" and .dut.backend == \"vpp\"" "$r/meta.json" >/dev/null'
check "the run's frame size is the profile's 64 B, not --size's default (meta.json)" eval '
	[ "$(jq -r .frame_size "$r/meta.json")" = 64 ]'
read -r tx rx < <(jq -r '"\(.trial.tx_packets // 0) \(.trial.rx_packets // 0)"' "$r/tgen.json" 2>/dev/null) || tx=0 rx=0
check "TRex sent about 9000 packets and received every one" eval '
	[ "$tx" -ge 8000 ] && [ "$tx" -le 10000 ] && [ "$rx" -eq "$tx" ]'
check "VPP's own counters agree with TRex's in the run's trial dump" \
	trial_agrees "$r/trials/000" "$tx" "$rx"

# 2. NDR/PDR through TRex and VPP: a VPP dump per trial, each agreeing with TRex.
stage "ndr through TRex and VPP, 64 B up to 20 kpps" lab ndr --label trexvpp --profile "$stl" \
	--tunables "--packet_len 64" --max-rate 20000 --min-rate 500 --trial-duration 1 \
	--final-duration 2 --run ndr || true
n=$(run_dir ndr)
echo "# NDR $(jq -r '.ndr.rate_pps' "$n/tgen.json" 2>/dev/null) pps ($(jq -r '.ndr.limited_by' "$n/tgen.json" 2>/dev/null)), $(jq -r '.trials | length' "$n/tgen.json" 2>/dev/null) trials"
check "the ndr run is complete with NDR and PDR, by trex through vpp" eval '
	[ "$(status_of "$n")" = complete ] &&
	jq -e ".mode == \"ndr\" and .tool == \"trex\" and .ndr.rate_pps > 0 and .pdr.rate_pps >= .ndr.rate_pps" \
		"$n/tgen.json" >/dev/null && jq -e ".dut.backend == \"vpp\"" "$n/meta.json" >/dev/null'
check "a VPP dump (show runtime, stats) for every trial of the search" eval '
	t=$(jq ".trials | length" "$n/tgen.json") && [ "$t" -gt 1 ] &&
	[ "$(find "$n/trials" -mindepth 2 -maxdepth 2 -name show_runtime.txt | wc -l)" -eq "$t" ] &&
	[ "$(find "$n/trials" -mindepth 2 -maxdepth 2 -name stats.json | wc -l)" -eq "$t" ]'
lossless=0 agree=1
while read -r i t x; do
	d=$(printf '%s/trials/%03d' "$n" "$i")
	if [ "$t" -eq "$x" ]; then
		lossless=$((lossless + 1))
		trial_agrees "$d" "$t" "$x" || agree=0
	fi
done < <(jq -r '.trials[] | "\(.index) \(.tx_packets) \(.rx_packets)"' "$n/tgen.json" 2>/dev/null)
check "in each of the $lossless trials without loss VPP's counters equal TRex's" \
	eval '[ "$lossless" -ge 1 ] && [ "$agree" = 1 ]'

# 3. vfwd back, down.
stage "swap build/vfwd/default (vfwd back)" quiet lab swap "$top/build/vfwd/default" || true
check "VPP is stopped after the swap back" \
	bash -c '! pgrep -f -- "-c $1/peer/run/startup.conf" >/dev/null' _ "$FWDLAB_STATE"
stage "down" quiet lab down || true
check "down leaves no TRex, VPP or vfwd process of this lab" eval '! pgrep -f -- "$FWDLAB_STATE" >/dev/null'
echo "1..$TAP_N"
exit "$TAP_FAILED"
