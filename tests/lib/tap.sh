# shellcheck shell=bash
# shellcheck disable=SC2034 # TAP_N, TAP_FAILED and TAP_NFAIL are read by the sourcing tests
# The tree's one TAP library (sourced; sourcing it twice keeps the count). Every test
# script prints its results through it:
#   check NAME CMD...     "ok N - NAME" when CMD succeeds, else "not ok N - NAME"
#   tap_ok NAME / tap_not_ok NAME / tap_result STATUS NAME   one line, from a verdict
#   tap_skip NAME REASON  "ok N - NAME # SKIP REASON"
#   skip_all REASON       the whole test skipped: one SKIP line and the plan, exit 0; only for
#                         what this machine cannot do (KVM, a real NIC), never for a missing build
#   need WHAT CMD...      runs CMD, which makes something the test needs (a build): when it
#                         fails, one "not ok" line naming WHAT and the plan, exit 1
#   stage NAME CMD...     a stage of a long test: its duration, and one TAP line
#   tap_done              the plan line "1..N"; returns 1 when a line was "not ok"
# State: TAP_N (lines so far), TAP_FAILED (0, or 1 once a line failed), TAP_NFAIL (how many
# failed). The suites' older names for them (tap_n, n_tap, ntap, failed, nfail) are bound to
# these by the suites' own lib.sh with tap_alias.
if [ -z "${TAP_LIB_LOADED:-}" ]; then
	TAP_LIB_LOADED=1
	TAP_N=0
	TAP_FAILED=0
	TAP_NFAIL=0
fi

tap_result() { # STATUS NAME...: ok when STATUS is 0
	local st=$1
	shift
	TAP_N=$((TAP_N + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $TAP_N - $*"
	else
		echo "not ok $TAP_N - $*"
		TAP_FAILED=1
		TAP_NFAIL=$((TAP_NFAIL + 1))
	fi
}
tap_ok() { tap_result 0 "$@"; }
tap_not_ok() { tap_result 1 "$@"; }
tap_skip() { # NAME REASON...
	local name=$1
	shift
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $name # SKIP $*"
}

check() { # NAME CMD...
	local name=$1
	shift
	if "$@"; then tap_result 0 "$name"; else tap_result 1 "$name"; fi
}

# A skip is one TAP line with the reason, so that tests/runner.sh records SKIP, not PASS.
skip_all() { echo "ok 1 - $(basename "$0") # SKIP $*"; echo "1..1"; exit 0; }

need() {
	local what=$1
	shift
	if ! "$@"; then
		tap_not_ok "$(basename "$0") needs $what: '$*' failed (above)"
		echo "1..$TAP_N"
		exit 1
	fi
}

tap_done() {
	echo "1..$TAP_N"
	return "$TAP_FAILED"
}

stage() { # NAME CMD...: runs a stage, prints its duration; its status is the stage's
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	echo "# stage $name: start $(date -u +%H:%M:%S)"
	"$@" || rc=$?
	echo "# stage $name: $(($(date +%s) - t0)) s (exit $rc)"
	if [ "$rc" -eq 0 ]; then
		tap_ok "stage $name succeeds ($(($(date +%s) - t0)) s)"
	else
		tap_not_ok "stage $name succeeds (exit $rc)"
	fi
	return "$rc"
}

# tap_alias COUNT_NAME FAILED_NAME [NFAIL_NAME]: binds a suite's older variable names to
# TAP_N, TAP_FAILED and TAP_NFAIL (bash namerefs: reading or setting one is the other).
tap_alias() {
	declare -gn "$1=TAP_N"
	declare -gn "$2=TAP_FAILED"
	if [ -n "${3:-}" ]; then declare -gn "$3=TAP_NFAIL"; fi
}

# Waiting and retrying, so that a test proves what its name says (issue 29):
#   poll_until SECONDS WHAT CMD...  runs CMD (its output thrown away) every 0.1 s until it
#                         succeeds (returns 0) or SECONDS (whole or decimal) have passed; then
#                         prints "# timed out after SECONDS s waiting for WHAT" (stderr) and
#                         returns 1. A test waits on a condition with it instead of a fixed
#                         sleep; a sleep stays only where the time is the test's subject.
#   tap_retry N M REASON  one more try of something, allowed only around a documented external
#                         race: prints "# retry N of M: REASON" and counts it in TAP_RETRIES
#   tap_retries           "# retries: K" (with each reason) for the end of a test that may retry
: "${TAP_RETRIES:=0}" "${TAP_RETRY_WHY:=}"
poll_until() {
	local secs=$1 what=$2 now end
	shift 2
	now=${EPOCHREALTIME//[!0-9]/}
	end=$((now + $(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000000 }')))
	while :; do
		if "$@" >/dev/null 2>&1; then return 0; fi
		now=${EPOCHREALTIME//[!0-9]/}
		if [ "$now" -ge "$end" ]; then
			echo "# timed out after ${secs} s waiting for $what" >&2
			return 1
		fi
		sleep 0.1
	done
}
tap_retry() { # N M REASON...
	local n=$1 m=$2
	shift 2
	TAP_RETRIES=$((TAP_RETRIES + 1))
	TAP_RETRY_WHY+="${TAP_RETRY_WHY:+; }$*"
	echo "# retry $n of $m: $*"
}
tap_retries() {
	if [ "$TAP_RETRIES" -eq 0 ]; then
		echo "# retries: 0"
	else
		echo "# retries: $TAP_RETRIES ($TAP_RETRY_WHY)"
	fi
}
