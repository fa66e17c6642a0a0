#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# NDR search on a DUT with a known capacity (capdut forwards at most 10000 pps of tgen's
# schedule): NDR lands within the search width below it; the hooks run around every trial
# with the trial's index, phase and rate.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"
need "$CAPDUT"

cap=10000
start_capdut --pps "$cap" --depth 64
hook_log=$tmp/hooks.log
rc=0
tgen ndr --max-rate 20kpps --min-rate 1kpps --width 0.5% --rate-tolerance 0.5% --trial-duration 0.5 \
	--final-duration 2 --drain 0.5 --json "$tmp/ndr.json" \
	--pre-trial "echo pre \$TGEN_TRIAL_INDEX \$TGEN_TRIAL_PHASE \$TGEN_TRIAL_RATE_PPS >>$hook_log" \
	--post-trial "echo post \$TGEN_TRIAL_INDEX \$TGEN_TRIAL_LOSS_RATIO >>$hook_log" || rc=$?
show "$tmp/tgen.out"
check "ndr_search_exits_0" test "$rc" -eq 0
ndr=$(jq_num "$tmp/ndr.json" .ndr.rate_pps)
echo "# capacity $cap pps, NDR $ndr pps"
limited_by=$(jq_num "$tmp/ndr.json" .ndr.limited_by)
echo "# limited by: $limited_by"
# the bucket (depth 64) lets at most 64 extra packets through a 2 s final trial: +0.4 %
if [ "$limited_by" = dut ]; then
	check "ndr_is_within_the_width_of_the_capacity" awk -v n="$ndr" -v c="$cap" \
		'BEGIN { exit !(n >= c * (1 - 0.005) && n <= c * 1.004) }'
else
	# a host that keeps tgen from offering ~10 kpps: the search must say so, and report
	# no more than its trial offered and the DUT can take
	ntap=$((ntap + 1))
	echo "ok $ntap - ndr_is_within_the_width_of_the_capacity # SKIP busy host: tgen could" \
		"not offer the capacity, NDR $ndr pps limited by $limited_by"
	# shellcheck disable=SC2016 # $c is jq's
	check "generator_bound_ndr_is_marked_and_at_most_offered_and_capacity" jqe \
		--argjson c "$cap" '.ndr.limited_by == "generator" and .ndr.trial.generator_limited
		and .ndr.rate_pps <= .ndr.trial.rate_pps_offered and .ndr.rate_pps <= $c * 1.004
		and .ndr.trial.loss_packets == 0' "$tmp/ndr.json"
fi
check "pdr_is_at_or_above_ndr" jqe '.pdr.rate_pps >= .ndr.rate_pps and
	.pdr.below_minimum == false' "$tmp/ndr.json"
check "ndr_trial_is_a_final_lossless_trial_that_offered_the_rate" jqe '.ndr.trial.phase ==
	"final" and .ndr.trial.loss_packets == 0 and .ndr.trial.duration_s >= 1.99 and
	.ndr.rate_pps <= .ndr.trial.rate_pps_offered' "$tmp/ndr.json"
check "json_params_and_every_trial" jqe '.mode == "ndr" and .params.width_ratio == 0.005
	and .params.final_duration_s == 2 and
	(.trials | length) >= (if .ndr.limited_by == "dut" then 4 else 2 end) and
	([.trials[].index] == [range(0; .trials | length)])' "$tmp/ndr.json"
trials=$(jq '.trials | length' "$tmp/ndr.json")
check "hooks_ran_before_and_after_every_trial" test "$(grep -c '^pre ' "$hook_log")" -eq "$trials" \
	-a "$(grep -c '^post ' "$hook_log")" -eq "$trials"
check "hook_sees_index_phase_rate" grep -Eq '^pre 0 max 20000\.000$' "$hook_log"
finish
