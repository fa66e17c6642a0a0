#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154,SC2016 # lib.sh (sourced) sets tmp, TGEN, ...; jq programs
# Latency at load (CSIT): after the NDR/PDR search on a DUT of known capacity (capdut,
# 10000 pps), one trial at each of 0/10/50/90 % of the PDR lower bound (0 % and anything below
# the minimal rate at --min-rate); each direction that carried packets has min/avg/max and an
# HDR histogram whose independent decoding (hdrh_decode.py) holds exactly the packets measured.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"
need "$CAPDUT"

start_capdut --pps 10000 --depth 64
hook_log=$tmp/hooks.log
rc=0
tgen ndr --max-rate 20kpps --min-rate 2kpps --width 2% --trial-duration 0.5 --final-duration 1 \
	--drain 0.3 --latency-loads 0,10,50,90 --latency-duration 1 --json "$tmp/ndr.json" \
	--post-trial "echo \$TGEN_TRIAL_PHASE \$TGEN_TRIAL_RATE_PPS >>$hook_log" || rc=$?
show "$tmp/tgen.out"
check "ndr_with_latency_loads_exits_0" test "$rc" -eq 0
check "four_loads_at_their_share_of_the_pdr_or_the_minimal_rate" jqe '
	.latency as $l | .pdr.rate_pps as $p |
	($l.pdr_lower_pps == $p) and
	([0, 10, 50, 90] | all(. as $k | $l["pdr_\($k)"].percent == $k and
	   ($l["pdr_\($k)"].rate_pps - ([($p * $k / 100), 2000] | max) | fabs) < 0.01))' "$tmp/ndr.json"
check "latency_trials_ran_with_hooks_and_stay_out_of_the_search_trials" test \
	"$(grep -c '^latency ' "$hook_log")" -eq 4 -a \
	"$(jq '[.trials[] | select(.phase == "latency")] | length' "$tmp/ndr.json")" -eq 0
check "forward_numbers_in_us_and_ordered_reverse_absent_when_unidirectional" jqe '
	[.latency.pdr_0, .latency.pdr_10, .latency.pdr_50, .latency.pdr_90] | all(
	  .forward.unit == "us" and .forward.count > 0 and .forward.min <= .forward.avg and
	  .forward.avg <= .forward.max and .forward.max > 0 and .reverse == null and
	  .trial.latency_us[0].count == .forward.count and
	  .forward.count <= .trial.rx_packets)' "$tmp/ndr.json"
good=0
for k in 0 10 50 90; do
	h=$(jq -r ".latency.pdr_$k.forward.hdrh" "$tmp/ndr.json")
	cnt=$(jq -r ".latency.pdr_$k.forward.count" "$tmp/ndr.json")
	mx=$(jq -r ".latency.pdr_$k.forward.max" "$tmp/ndr.json")
	dec=$(python3 "$here/hdrh_decode.py" "$h" | awk '{ n += $3; hi = $2 } END { print n, hi }')
	echo "# pdr_$k: count $cnt max $mx us, decoded: total and top bucket $dec"
	read -r dn dhi <<<"$dec"
	if [ "$dn" -eq "$cnt" ] && [ "$dhi" -ge "$mx" ] && [ "$dhi" -le $((mx + mx / 1000 + 1)) ]; then
		good=$((good + 1))
	fi
done
check "each_histogram_decodes_to_its_packet_count_and_its_max" test "$good" -eq 4
check "stdout_has_the_latency_table" grep -Eq '^latency +pdr_90 .* forward ' "$tmp/tgen.out"
finish
