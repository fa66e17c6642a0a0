# shellcheck shell=bash
# shellcheck disable=SC2034 # TAP_N, TAP_FAILED and TAP_NFAIL are read by the sourcing tests
# The tree's one TAP library (sourced; sourcing it twice keeps the count). Every test
# script prints its results through it:
#   check NAME CMD...     "ok N - NAME" when CMD succeeds, else "not ok N - NAME"
#   tap_ok NAME / tap_not_ok NAME / tap_result STATUS NAME   one line, from a verdict
#   tap_skip NAME REASON  "ok N - NAME # SKIP REASON"
#   skip_all REASON       the whole test skipped: one SKIP line and the plan, exit 0
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
