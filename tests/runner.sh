#!/usr/bin/env bash
# fwdlab test runner: runs test executables with a timeout each and records results.
#
#   tests/runner.sh --suite NAME [--timeout SECONDS] [--jobs N] [--] TEST...
#
# --jobs N runs up to N of the TESTs at a time (default 1: one after the other). It is for tests
# that share no state and measure no rate (unit tests, pcap files in and out, parsers): a test
# that offers traffic at a rate or waits on a live process's pace goes in a list run without it.
# Each test's results are recorded when it ends, in the order they end.
# A TEST is an executable (C test binary or script). If it prints TAP lines
# ("ok N - name" / "not ok N - name" / "ok N - name # SKIP why") each line counts
# as one test; otherwise the exit code decides: 0 pass, 77 skip, anything else fail.
# Results are appended to $FWDLAB_TEST_RESULTS (default build/test-results.tsv at the
# top of the tree) as "suite<TAB>test<TAB>PASS|FAIL|SKIP<TAB>seconds".
# Exit status: 0 when nothing failed, 1 otherwise. Output of a failing test is shown;
# the output of every test is kept under build/test-logs/SUITE/.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
suite=""
timeout_s=300
jobs=1
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "runner: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ -n "$suite" ] || { echo "runner: --suite is required" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "runner: --jobs takes a count of 1 or more, not '$jobs'" >&2; exit 2; }

results=${FWDLAB_TEST_RESULTS:-$top/build/test-results.tsv}
logdir=$top/build/test-logs/$suite
mkdir -p "$(dirname "$results")" "$logdir"

failed=0
record() { # test status seconds
	printf '%s\t%s\t%s\t%s\n' "$suite" "$1" "$2" "$3" >>"$results"
	printf '%-4s %s/%s (%ss)\n' "$2" "$suite" "$1" "$3"
	if [ "$2" = FAIL ]; then failed=1; fi
}

# descendants PID: PID's process tree (pid, seconds running, state, command), a line each
descendants() {
	ps -e -o pid=,ppid=,etimes=,stat=,args= | awk -v root="$1" '
		{ pid[NR] = $1; ppid[NR] = $2; line[NR] = $0 }
		END {
			keep[root] = 1
			for (changed = 1; changed;) {
				changed = 0
				for (i = 1; i <= NR; i++)
					if ((ppid[i] in keep) && !(pid[i] in keep)) { keep[pid[i]] = 1; changed = 1 }
			}
			for (i = 1; i <= NR; i++) if (pid[i] in keep) print substr(line[i], 1, 200)
		}'
}

# A test that outlives its time gets, 5 s before the end, its process tree written to its log
# (what it was waiting for), then timeout stops it.
watch_test() { # PID LOG
	local after=$((timeout_s > 10 ? timeout_s - 5 : timeout_s))
	sleep "$after" 2>/dev/null || return 0
	kill -0 "$1" 2>/dev/null || return 0
	{
		echo "# runner: still running after $after s of ${timeout_s} s; its processes (pid ppid seconds state command):"
		descendants "$1" | sed 's/^/#   /'
	} >>"$2"
}

# run_one TEST LOG: runs TEST under its timeout with its watcher; writes "rc seconds" to LOG.rc
run_one() {
	local t=$1 log=$2 start tpid wpid rc secs
	start=$(date +%s.%N)
	timeout --kill-after=10 "$timeout_s" "$t" >"$log" 2>&1 &
	tpid=$!
	# The watcher writes only to the log: its own output is not the runner's (a reader of the
	# runner's output must not wait for the watcher's sleep to end).
	watch_test "$tpid" "$log" >/dev/null 2>&1 &
	wpid=$!
	wait "$tpid"
	rc=$?
	pkill -P "$wpid" sleep 2>/dev/null # its sleep first, then the watcher
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
	echo "$rc $secs" >"$log.rc"
}

# report TEST LOG: records the results of TEST, which has ended (LOG.rc written by run_one)
report() {
	local name log=$2 rc secs line
	name=$(basename "$1")
	read -r rc secs <"$log.rc" 2>/dev/null || { rc=1 secs=0; echo "# runner: $1 left no status" >>"$log"; }
	rm -f "$log.rc"
	if grep -Eq '^(not )?ok [0-9]+' "$log"; then
		while IFS= read -r line; do
			case "$line" in
			"not ok "*) record "$name: ${line#*- }" FAIL "$secs" ;;
			"ok "*"# SKIP"*) record "$name: ${line#*- }" SKIP "$secs" ;;
			"ok "*) record "$name: ${line#*- }" PASS "$secs" ;;
			esac
		done < <(grep -E '^(not )?ok [0-9]+' "$log")
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			record "$name (timed out after ${timeout_s}s)" FAIL "$secs"
		elif [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$log"; then
			record "$name (exit $rc)" FAIL "$secs"
		fi
	elif [ "$rc" -eq 0 ]; then
		record "$name" PASS "$secs"
	elif [ "$rc" -eq 77 ]; then
		record "$name" SKIP "$secs"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		record "$name (timed out after ${timeout_s}s)" FAIL "$secs"
	else
		record "$name (exit $rc)" FAIL "$secs"
	fi
	if grep -q '^not ok' "$log" || { [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; }; then
		echo "---- output of $suite/$name (last 60 lines; full log $log)"
		tail -n 60 "$log"
		echo "----"
	fi
}

# Up to $jobs tests at a time; each is reported when it ends.
declare -A running=() # pid -> test
# reap_one: waits for one running test to end and reports it
reap_one() {
	local done_pid
	wait -n -p done_pid "${!running[@]}"
	report "${running[$done_pid]}" "$logdir/$(basename "${running[$done_pid]}").log"
	unset "running[$done_pid]"
}
set +e
for t in "$@"; do
	while [ "${#running[@]}" -ge "$jobs" ]; do reap_one; done
	run_one "$t" "$logdir/$(basename "$t").log" &
	running[$!]=$t
done
while [ "${#running[@]}" -gt 0 ]; do reap_one; done
exit "$failed"
