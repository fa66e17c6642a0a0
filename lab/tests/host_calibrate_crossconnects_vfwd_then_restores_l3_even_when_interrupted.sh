#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check(); cleanup runs from the EXIT trap
# `fwdlab calibrate` on the host topology: the DUT becomes a plain wire for the search (vfwd's
# two ports cross-connected, `set interface l2 xconnect`), and every calibration trial's own
# `show runtime` proves it: its frames went through l2-xconnect, none through ip4-lookup. Before
# it, the generator alone (tgen's ports looped on a memif pair) has its own NDR. The ceilings
# go to the lab's calibration.json (generator tgen, 64 B). After it vfwd routes
# again: a 1000-frame trial goes through ip4-lookup, none through l2-xconnect, every frame
# received, and the run's meta.json carries the ceiling. A calibration interrupted by SIGINT
# (as Ctrl-C, to its process group) mid-search exits 130, keeps its run marked incomplete,
# and still puts vfwd back to l3.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
cal=$FWDLAB_STATE/calibration.json
search=(--frame-size 64 --max-rate 400000 --min-rate 10000 --trial-duration 1 --final-duration 1)

# routed_trial NAME: a 1000 pps, 1 s trial; its one trial's l2-xconnect and ip4-lookup
# vectors and tgen's tx/rx, as "XC LOOKUP TX RX".
routed_trial() {
	lab run --frame-size 64 --rate 1000 --duration 1 --run "$1" >"$tmp/$1.log" 2>&1 || true
	local d rt
	d=$(run_dir "$1")
	rt=$d/trials/000/show_runtime.txt
	[ -s "$rt" ] || { echo "none none none none"; return 0; }
	echo "$(runtime_vectors "$rt" l2-xconnect) $(runtime_vectors "$rt" ip4-lookup)" \
		"$(jq -r '"\(.trial.tx_packets) \(.trial.rx_packets)"' "$d/tgen.json")"
}

stage "up" quiet lab up || exit 1
lab calibrate "${search[@]}" >"$tmp/cal.log" 2>&1 || true
grep -E "^path ceilings|^  64 B|fwdlab: error" "$tmp/cal.log" | sed 's/^/# /' || true
d=$(run_dir wire-64)
check "calibrate writes calibration.json: tgen, 64 B, the DUT as an l2 cross-connect" \
	eval '[ -s "$cal" ] && jq -e ".generator == \"tgen\" and (.dut_as | startswith(\"wire (l2 xconnect\")) and .frame_sizes[\"64\"].path_ndr_pps > 0 and .frame_sizes[\"64\"].run == \"$d\"" "$cal" >/dev/null'
g=$(dirname "$d")/generator-64
check "the generator alone (its ports looped on memif, no DUT) has an NDR, kept beside, not as a run" \
	eval '[ -s "$g/tgen.json" ] && [ ! -e "$g/meta.json" ] && grep -q "net_memif" "$g/tgen.log" &&
		jq -e --slurpfile t "$g/tgen.json" ".frame_sizes[\"64\"].generator_ndr_pps == \$t[0].ndr.rate_pps and \$t[0].ndr.rate_pps > 0" "$cal" >/dev/null'
xc_total=0 lk_total=0 ntr=0
for rt in "$d"/trials/*/show_runtime.txt; do
	[ -s "$rt" ] || continue
	ntr=$((ntr + 1))
	xc=$(runtime_vectors "$rt" l2-xconnect) lk=$(runtime_vectors "$rt" ip4-lookup)
	if [ "$xc" -gt 0 ]; then xc_total=$((xc_total + 1)); fi
	lk_total=$((lk_total + lk))
done
echo "# $ntr calibration trials: $xc_total with l2-xconnect vectors, $lk_total ip4-lookup vectors in all"
check "every calibration trial went through l2-xconnect and none through ip4-lookup" \
	eval '[ "$ntr" -ge 1 ] && [ "$xc_total" = "$ntr" ] && [ "$lk_total" = 0 ]'

read -r xc lk tx rx <<<"$(routed_trial routed)"
echo "# after calibrate: l2-xconnect $xc, ip4-lookup $lk, tx $tx, rx $rx"
check "after calibrate vfwd routes again: ip4-lookup, no l2-xconnect, every frame back" \
	eval '[ "$xc" = 0 ] && [ "$lk" -ge 1000 ] && [ "$tx" = 1000 ] && [ "$rx" = 1000 ]'
check "the run's meta.json carries the 64 B ceiling of the calibration" \
	eval 'jq -e --slurpfile c "$cal" ".calibration.path_ceiling_pps == \$c[0].frame_sizes[\"64\"].path_ndr_pps" "$(run_dir routed)/meta.json" >/dev/null'

# interrupted: SIGINT to the group once the second calibration's first trial has begun
bg cal2 "$top/lab/fwdlab" --topology host calibrate --frame-size 64 --max-rate 400000 \
	--min-rate 10000 --trial-duration 3 --final-duration 3 --campaign "$tmp/results/c2"
d2=$tmp/results/c2/wire-64
wait_for 120 test -e "$d2/trials/.count" || true
kill -INT -- -"$BG" 2>/dev/null || true
rc=$(bg_wait cal2 60)
grep -E "fwdlab|interrupted" "$tmp/cal2.out" | sed 's/^/# /' || true
check "the interrupted calibration exits 130 (got $rc), its run incomplete (SIGINT)" \
	eval '[ "$rc" = 130 ] && jq -e ".status == \"incomplete\" and (.failure | test(\"SIGINT\"))" "$d2/meta.json" >/dev/null'
read -r xc lk tx rx <<<"$(routed_trial routed2)"
echo "# after the interrupted calibrate: l2-xconnect $xc, ip4-lookup $lk, tx $tx, rx $rx"
check "after the interrupted calibrate vfwd routes again" \
	eval '[ "$xc" = 0 ] && [ "$lk" -ge 1000 ] && [ "$tx" = 1000 ] && [ "$rx" = 1000 ]'
exit "$TAP_FAILED"
