#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# export_openmetrics_counters_match_the_dump: a real run on the host topology (`fwdlab
# --topology host up`, `run`, `down`) exported with `--openmetrics` gives a .om file that a
# strict OpenMetrics reader (tests/openmetrics_parse.py) accepts, with CSIT's runtime
# families (vpp_runtime_calls, _vectors, _suspends counters, vpp_runtime_clocks gauge)
# labelled name/state/thread_name/thread_id/thread_lcore, one sample per node row and
# family whose value is the dump's; the record's telemetry holds the same samples and still
# validates. The same for a VPP dump with two workers and process nodes (tests/data).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
here=$top/lab/fwdstat/tests
data=${FWDSTAT_DATA:-$here/data}
schema=$top/../shared/csit/test_case.schema.yaml
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"

check "lab_up" quiet lab up
check "run_at_2000pps" quiet lab run --frame-size 64 --rate 2000 --duration 1
check "lab_down" quiet lab down
run=$(find "$tmp/results" -name meta.json -printf '%h\n' | head -n1)

# expect_samples DUMP: the samples the dump's rows call for, one `family labels value` line
# each, read from the text with a reader of its own (not fwdstat's).
expect_samples() {
	/usr/bin/python3 - "$1" <<'PY'
import json, re, sys
tid = tname = lcore = None
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"Thread (\d+) (\S+)(?: \(lcore (\d+)\))?", line)
    if m:
        tid, tname, lcore = m.group(1), m.group(2), m.group(3)
        continue
    f = line.split()
    if len(f) < 7 or f[0] == "Name" or not all(re.fullmatch(r"[0-9.e+-]+", x) for x in f[-5:]):
        continue
    # VPP's widths: the name in 30 columns, the state centred in 12 ("interrupt wait" is
    # cut to "interrupt wa" there).
    state = line[30:42].strip()
    state = "interrupt wait" if state == "interrupt wa" else state
    lab = {"name": line[:30].strip(), "state": state, "thread_id": tid, "thread_name": tname}
    if lcore is not None:
        lab["thread_lcore"] = lcore
    for fam, v in (("calls", f[-5]), ("vectors", f[-4]), ("suspends", f[-3]), ("clocks", f[-2])):
        print(f"vpp_runtime_{fam}\t{json.dumps(lab, sort_keys=True)}\t{float(v)!r}")
PY
}
# got_samples OM: the reader's samples as `family labels value` lines.
got_samples() {
	/usr/bin/python3 "$here/openmetrics_parse.py" "$1" |
		/usr/bin/python3 -c '
import sys
for l in sys.stdin:
    fam, _, lab, v = l.rstrip("\n").split("\t")
    print(f"{fam}\t{lab}\t{float(v)!r}")'
}

# check_om NAME RUN_DIR OUT: export RUN_DIR with --openmetrics into OUT and check it.
check_om() {
	local name=$1 dir=$2 out=$3 om rec
	check "${name}_export_exits_0" quiet_to "$out.list" "$FWDSTAT" export --csit --openmetrics "$dir" --out "$out"
	om=$(grep '\.om$' "$out.list" || true)
	rec=$(grep '\.info\.json$' "$out.list" || true)
	check "${name}_om_file_beside_the_record" eval '[ -s "$om" ] && [ "${om%.om}" = "${rec%.info.json}" ]'
	check "${name}_strict_openmetrics_reader_accepts_it" quiet /usr/bin/python3 "$here/openmetrics_parse.py" "$om"
	check "${name}_families_and_types_are_csits" eval '
		[ "$(grep "^# TYPE" "$om")" = "# TYPE vpp_runtime_calls counter
# TYPE vpp_runtime_vectors counter
# TYPE vpp_runtime_suspends counter
# TYPE vpp_runtime_clocks gauge" ]'
	expect_samples "$dir/show_runtime.txt" | sort >"$out.want"
	got_samples "$om" | sort >"$out.got"
	check "${name}_one_sample_per_node_row_and_family_with_the_dumps_value" eval '
		[ -s "$out.want" ] && diff "$out.want" "$out.got" >&2'
	check "${name}_record_telemetry_is_the_om_samples" eval '
		[ "$(jq -r ".telemetry[]" "$rec")" = "$(grep -v "^#" "$om")" ]'
	if [ -r "$schema" ]; then
		check "${name}_record_with_telemetry_validates" quiet /usr/bin/python3 "$here/csit_validate.py" "$schema" "$rec"
	fi
	OM=$om
}

OM=""
check_om vfwd "$run" "$tmp/om1"
check "vfwd_ip4_lookup_vectors_are_the_packets_forwarded" eval '
	[ "$(grep "^vpp_runtime_vectors_total{name=\"ip4-lookup\"" "$OM" | awk "{ s += \$NF } END { print s }")" = \
	  "$(jq .trial.rx_packets "$run/tgen.json")" ]'

# The same run folder with VPP's two-worker dump in place of vfwd's.
vpp=$tmp/vpp/20260101T000000Z-host-vpp/run-udp-64
mkdir -p "$vpp"
cp "$run/meta.json" "$run/tgen.json" "$vpp/"
cp "$data/vpp_2workers.txt" "$vpp/show_runtime.txt"
check_om vpp "$vpp" "$tmp/om2"
check "vpp_two_worker_threads_and_their_lcores" eval '
	grep -q "thread_name=\"vpp_wk_0\",thread_id=\"1\",thread_lcore=\"" "$OM" &&
	grep -q "thread_name=\"vpp_wk_1\",thread_id=\"2\",thread_lcore=\"" "$OM"'
check "vpp_process_node_state_with_a_space_and_its_suspends" eval '
	grep -Eq "^vpp_runtime_suspends_total\{name=\"[^\"]+\",state=\"(event|any) wait\",.*\} [1-9]" "$OM"'

# The reader can fail: a counter sample without _total, and text after # EOF.
sed 's/^vpp_runtime_calls_total/vpp_runtime_calls/' "$OM" >"$tmp/bad1.om"
{ cat "$OM"; echo 'x 1'; } >"$tmp/bad2.om"
for b in bad1 bad2; do
	rc=0
	/usr/bin/python3 "$here/openmetrics_parse.py" "$tmp/$b.om" >/dev/null 2>&1 || rc=$?
	check "reader_refuses_$b" test "$rc" -eq 1
done
tap_done
