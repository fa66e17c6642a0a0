#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# export_csit_records_validate_against_csit_schema: real runs on the host topology (vfwd
# and tgen as processes: `fwdlab --topology host up`, two `ndr` runs (64 B, IMIX), a
# fixed-rate `run`, a `dump`, `down`) are exported with `fwdstat export --csit`; every
# record validates against CSIT's UTI test_case schema 1.5.1 (../shared/csit, read by
# Debian's python3-jsonschema, draft 2020-12), has CSIT's names, tags and versions, and
# carries the rates of its tgen.json; a run made invalid exports as a failed test; a
# record with a field taken out or a wrong type is refused by the same validator.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
schema=$top/../shared/csit/test_case.schema.yaml
validate=$top/lab/fwdstat/tests/csit_validate.py
if [ ! -r "$schema" ]; then
	echo "1..0 # SKIP $schema is absent (CSIT's schema is not part of the project)"
	exit 0
fi
if ! /usr/bin/python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	echo "not ok 1 - Debian's python3-jsonschema and python3-yaml are installed (lab/fwdstat/apt-packages.txt)"
	echo "1..1"
	exit 1
fi
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"
out=$tmp/export

check "lab_up" quiet lab up
check "ndr_64B_with_latency_at_load" quiet lab ndr --frame-size 64 --max-rate 20kpps --trial-duration 1 \
	--final-duration 1 --latency-loads 0,10,50,90
check "ndr_imix" quiet lab ndr --profile imix --max-rate 20kpps --trial-duration 1 --final-duration 1
check "run_at_2000pps" quiet lab run --frame-size 1518 --rate 2000 --duration 1
check "dump" quiet lab dump
check "lab_down" quiet lab down

runs=$(find "$tmp/results" -name meta.json -printf '%h\n' | sort)
ndr64=$(grep -m1 '/ndr-udp-64$' <<<"$runs")
imix=$(grep -m1 '/ndr-imix' <<<"$runs")
mrr=$(grep -m1 '/run-udp-1518$' <<<"$runs")
check "four_run_folders_made" test "$(wc -l <<<"$runs")" -eq 4

check "export_exits_0" quiet_to "$tmp/list" "$FWDSTAT" export --csit "$tmp/results" --out "$out"
sed 's/^/# /' "$tmp/list"
check "one_record_per_ndr_or_run_run_and_none_for_the_dump" test "$(grep -c '\.info\.json$' "$tmp/list")" -eq 3
rec() { find "$out/$(basename "$(dirname "$1")")/$(basename "$1")" -name '*.info.json'; }
r64=$(rec "$ndr64")
rimix=$(rec "$imix")
rmrr=$(rec "$mrr")
check "names_are_csit_test_name_long" eval '
	[ "$(basename "$r64")" = 10ge2p1vhost-64b-1t1c-ethip4-ip4base-ndrpdr.info.json ] &&
	[ "$(basename "$rimix")" = 10ge2p1vhost-imix-1t1c-ethip4-ip4base-ndrpdr.info.json ] &&
	[ "$(basename "$rmrr")" = 10ge2p1vhost-1518b-1t1c-ethip4-ip4base-mrr.info.json ]'

/usr/bin/python3 "$validate" "$schema" "$r64" "$rimix" "$rmrr" >"$tmp/val" 2>&1 || true
sed 's/^/# /' "$tmp/val"
check "every_record_validates_against_test_case_schema_1_5_1" test "$(grep -c '^valid ' "$tmp/val")" -eq 3

check "record_fields_are_csits" eval '
	jq -e ".version == \"1.5.1\" and .test_type == \"ndrpdr\" and .result.type == \"ndrpdr\"
		and .test_name_short == \"ethip4-ip4base-ndrpdr\"
		and .test_id == \"tests.fwdlab.perf.ip4.2n1l-10ge2p1vhost-ethip4-ip4base-ndrpdr.64b-1c-ethip4-ip4base-ndrpdr\"
		and .passed and .message == \"\" and .dut_type == \"VFWD\" and .tg_type == \"TGEN\"
		and (.tags | index(\"NDRPDR\") and index(\"64B\") and index(\"1T1C\") and index(\"2_NODE_SINGLE_LINK_TOPO\"))" "$r64" >/dev/null'
check "mrr_record_has_the_trials_rx_rate" eval '
	[ "$(jq .result.receive_rate.rate.values[0] "$rmrr")" = "$(jq .trial.rx_pps "$mrr/tgen.json")" ] &&
	jq -e ".result.type == \"mrr\" and .test_type == \"mrr\" and (.tags | index(\"MRR\"))" "$rmrr" >/dev/null'
check "ndr_and_pdr_lower_bounds_are_tgens_rates" eval '
	for p in "$ndr64:$r64" "$imix:$rimix"; do
		t=${p%%:*}/tgen.json r=${p#*:}
		[ "$(jq .ndr.rate_pps "$t")" = "$(jq .result.ndr.lower.rate.value "$r")" ] || exit 1
		[ "$(jq .pdr.rate_pps "$t")" = "$(jq .result.pdr.lower.rate.value "$r")" ] || exit 1
	done'
# The upper bound is the lowest rate offered by a trial that failed (loss > 0 for NDR),
# above the lower bound; with no failing trial there is none.
upper_expect() {
	jq '.ndr.rate_pps as $l | [.trials[] | select(.loss_ratio > 0 and .rate_pps_offered > $l) | .rate_pps_offered] |
		if length == 0 then null else min end' "$1"
}
check "ndr_upper_bound_is_the_lowest_failing_trial_or_absent" eval '
	[ "$(upper_expect "$ndr64/tgen.json")" = "$(jq .result.ndr.upper.rate.value "$r64")" ]'
# Latency at load (tgen --latency-loads): CSIT's latency_forward pdr_0..pdr_90, tgen's numbers
# and histograms; no latency_reverse for a unidirectional profile; none without latency trials.
check "latency_forward_has_the_four_loads_from_tgen" eval '
	jq -e --slurpfile t "$ndr64/tgen.json" "
		.result.latency_forward as \$l | \$t[0].latency as \$g |
		([\"pdr_0\", \"pdr_10\", \"pdr_50\", \"pdr_90\"] | all(. as \$k |
		  \$l[\$k].hdrh == \$g[\$k].forward.hdrh and \$l[\$k].max == \$g[\$k].forward.max and
		  \$l[\$k].min == \$g[\$k].forward.min and \$l[\$k].unit == \"us\" and
		  (\$l[\$k].hdrh | startswith(\"HISTF\")))) and
		(.result | has(\"latency_reverse\") | not)" "$r64" >/dev/null'
check "no_latency_without_latency_trials" eval 'jq -e ".result | has(\"latency_forward\") | not" "$rimix" >/dev/null'
check "bandwidth_is_l1_of_the_rate" eval '
	[ "$(jq ".result.ndr.lower.rate.value * 84 * 8 | round" "$r64")" = "$(jq .result.ndr.lower.bandwidth.value "$r64")" ]'
check "dut_and_tg_versions_name_the_builds_git_revisions" eval '
	jq -e --arg d "$(jq -r .dut.build.git_rev "$ndr64/meta.json")" \
		--arg t "$(jq -r .build.git_rev "$ndr64/tgen.json")" \
		".dut_version == \"0.1.0-g\" + \$d and .tg_version == \"0.1.0-g\" + \$t" "$r64" >/dev/null'
check "times_are_the_runs" eval '
	jq -e --slurpfile m "$ndr64/meta.json" ".start_time == \$m[0].started_at and .end_time == \$m[0].finished_at and .duration >= 0" "$r64" >/dev/null'
check "telemetry_is_empty_without_openmetrics" eval 'jq -e ".telemetry == []" "$r64" >/dev/null'

# An invalid run (a copy of the real one, as fwdlab marks a run whose DUT restarted).
bad=$tmp/bad/20260101T000000Z-host-fault
mkdir -p "$bad"
cp -a "$ndr64" "$bad/ndr-udp-64"
jq '.status = "invalid" | .failure = "the DUT restarted during the run"' "$ndr64/meta.json" >"$bad/ndr-udp-64/meta.json"
check "invalid_run_exports" quiet_to "$tmp/list2" "$FWDSTAT" export --csit "$tmp/bad" --out "$tmp/export2"
rbad=$(cat "$tmp/list2")
check "invalid_run_is_a_failed_test_with_its_reason" eval '
	jq -e ".passed == false and .message == \"run invalid: the DUT restarted during the run\" and .result.type == \"unknown\"" "$rbad" >/dev/null'
check "failed_test_record_validates" quiet /usr/bin/python3 "$validate" "$schema" "$rbad"

# The validator itself refuses what the schema refuses.
jq 'del(.version)' "$r64" >"$tmp/no-version.info.json"
jq '.result.ndr.lower.rate.unit = "packets"' "$r64" >"$tmp/bad-unit.info.json"
jq '.passed = true | .message = "oops"' "$r64" >"$tmp/bad-message.info.json"
jq '.start_time = "yesterday"' "$r64" >"$tmp/bad-time.info.json"
for f in no-version bad-unit bad-message bad-time; do
	rc=0
	/usr/bin/python3 "$validate" "$schema" "$tmp/$f.info.json" >/dev/null 2>&1 || rc=$?
	check "validator_refuses_$f" test "$rc" -eq 1
done

rc=0
msg=$("$FWDSTAT" export "$tmp/results" --out "$out" 2>&1) || rc=$?
check "export_without_csit_is_a_usage_error" eval '[ "$rc" -eq 2 ] && grep -q -- "--csit" <<<"$msg"'
tap_done
