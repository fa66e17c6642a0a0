#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# A rate tgen did not offer is never reported. The "DUT" is a pair of net_ring ports (each
# loops what tgen sends straight back: lossless, no capacity limit), so on a 100 Gb/s link
# (148.8 Mpps at 64 B) the generator is the only bottleneck: `ndr` must stop at the rate tgen
# offered, mark it limited_by generator and say so; `run` must mark its trial. Every trial's
# generator_limited flag is checked against tx_packets / duration_s computed here. A search
# whose top rate (50 pps) tgen keeps must not be marked; a host too busy to keep even that
# is reported as a skip of that one check, never as a pass.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"

RING_EAL=(-l 0 --no-huge -m 256 --no-pci --file-prefix "tg-$id" --log-level=5
	--vdev net_ring0 --vdev net_ring1)
tgen_ring() { # args... ; output in $tmp/tgen.out
	"$TGEN" "${RING_EAL[@]}" -- "$@" >"$tmp/tgen.out" 2>&1
}

# every trial: offered == tx / duration, and marked exactly when it fell short of requested
# by more than the tolerance (1 %) plus one burst (bursts are 1..32 packets by rate)
trials_marked_right() { # json jq-path-to-trials
	jq -e "[$2[] | (.tx_packets / .duration_s) as \$o |
		((.rate_pps_requested / 500000) | ceil | if . < 1 then 1 elif . > 32 then 32
		 else . end) as \$burst |
		((\$o - .rate_pps_offered) | fabs) <= 0.001 * (\$o + 1) and
		.generator_limited == (.rate_pps_requested > 0 and
			\$o < .rate_pps_requested * 0.99 - \$burst / .duration_s)] | all" "$1" >/dev/null
}

# ---- ndr: the generator is the bottleneck
rc=0
tgen_ring ndr --link 100gbps --trial-duration 0.5 --final-duration 1 --warmup 0.5 \
	--drain 0.1 --json "$tmp/ndr.json" || rc=$?
show "$tmp/tgen.out"
check "generator_bound_ndr_exits_0" test "$rc" -eq 0
check "generator_bound_ndr_and_pdr_are_marked" jqe '.ndr.limited_by == "generator" and
	.pdr.limited_by == "generator" and .ndr.trial.generator_limited and
	.ndr.below_minimum == false' "$tmp/ndr.json"
# shellcheck disable=SC2016 # $t is jq's
check "generator_bound_ndr_is_the_offered_rate_of_its_lossless_trial" jqe '
	.ndr.trial as $t | $t.loss_packets == 0 and $t.tx_packets > 0 and
	.ndr.rate_pps <= $t.rate_pps_offered and
	.ndr.rate_pps >= $t.rate_pps_offered * 0.99 and
	((.ndr.rate_pps - $t.tx_packets / $t.duration_s) | fabs) <= 0.01 * .ndr.rate_pps' \
	"$tmp/ndr.json"
check "generator_bound_ndr_is_far_below_the_rate_requested" jqe \
	'.ndr.rate_pps < .ndr.trial.rate_pps_requested * 0.99 and
	 .ndr.rate_pps < .params.max_rate_pps * 0.99' "$tmp/ndr.json"
check "generator_bound_pdr_is_at_or_above_ndr" jqe '.pdr.rate_pps >= .ndr.rate_pps' \
	"$tmp/ndr.json"
check "generator_bound_search_stops_climbing" jqe '(.trials | length) <= 6' "$tmp/ndr.json"
check "stdout_says_bounded_by_the_generator" grep -Eq \
	'^NDR >= [0-9]+ pps \([0-9.]+ Gbps L1\): bounded by the generator, not the DUT$' \
	"$tmp/tgen.out"
check "every_ndr_trial_is_marked_by_its_measured_offered_rate" trials_marked_right \
	"$tmp/ndr.json" .trials
check "params_count_the_limited_trials" jqe '.params.trials_behind_schedule ==
	([.trials[] | select(.generator_limited)] | length) and .params.rate_tolerance == 0.01
	and .params.strict_rate == true' "$tmp/ndr.json"

# ---- run: one trial at 100 % of a 100 Gb/s link
rc=0
tgen_ring run --link 100gbps --rate 100% --duration 1 --warmup 0.5 --drain 0.1 \
	--json "$tmp/run.json" || rc=$?
show "$tmp/tgen.out"
check "generator_bound_run_is_marked_and_says_so" test "$rc" -eq 0 -a \
	"$(jq '.trial.generator_limited' "$tmp/run.json")" = true -a \
	"$(grep -c 'the generator, not the DUT, limited this trial' "$tmp/tgen.out")" -eq 1
check "run_trial_is_marked_by_its_measured_offered_rate" trials_marked_right \
	"$tmp/run.json" '[.trial]'
check "strict_rate_is_still_accepted" tgen_ring run --strict-rate --rate 1kpps --duration 0.2 \
	--warmup 0

# ---- ndr whose top rate is easily met: not marked. 50 pps: the pacer lets tgen fall 80 ms
# behind before it skips a slot (a host here descheduled a busy loop for up to 32 ms, 75 %
# of the time, and then 500 pps was not kept). Three tries, then the unmarked check is
# skipped (the marks themselves are still checked against the measured rates).
met=""
for try in 1 2 3; do
	rc=0
	tgen_ring ndr --max-rate 50 --min-rate 10 --trial-duration 1 --final-duration 2 \
		--warmup 0.5 --drain 0.1 --json "$tmp/met.json" || rc=$?
	show "$tmp/tgen.out"
	check "met_ndr_try_${try}_exits_0_and_marks_follow_the_measured_rates" \
		eval "[ $rc -eq 0 ] && trials_marked_right '$tmp/met.json' .trials"
	if jqe '[.trials[].generator_limited] | any | not' "$tmp/met.json"; then
		met=1
		break
	fi
done
if [ -n "$met" ]; then
	check "rate_easily_met_gives_an_unmarked_result_at_the_top_of_the_range" jqe \
		'.ndr.limited_by == "max_rate" and .pdr.limited_by == "max_rate" and
		 .ndr.rate_pps <= 50 and .ndr.rate_pps >= 49 and
		 .ndr.rate_pps <= .ndr.trial.rate_pps_offered' "$tmp/met.json"
	check "stdout_has_no_generator_bound_line" eval \
		"! grep -q 'bounded by the generator' '$tmp/tgen.out'"
else
	ntap=$((ntap + 1))
	echo "ok $ntap - rate_easily_met_gives_an_unmarked_result # SKIP busy host: tgen fell" \
		"behind even 50 pps in 3 searches"
fi
finish
