# shellcheck shell=bash
# shellcheck disable=SC2034 # TAP_FAILED is read by the sourcing test
# TAP helpers for the integration tests: check NAME CMD... prints "ok N - NAME" or
# "not ok N - NAME"; stage NAME CMD... runs a stage, prints its duration, fails the test
# (bail out) when it fails.
TAP_N=0
TAP_FAILED=0
check() {
	local name=$1
	shift
	TAP_N=$((TAP_N + 1))
	if "$@"; then
		echo "ok $TAP_N - $name"
	else
		echo "not ok $TAP_N - $name"
		TAP_FAILED=1
	fi
}
stage() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	echo "# stage $name: start $(date -u +%H:%M:%S)"
	"$@" || rc=$?
	echo "# stage $name: $(($(date +%s) - t0)) s (exit $rc)"
	TAP_N=$((TAP_N + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $TAP_N - stage $name succeeds ($(($(date +%s) - t0)) s)"
	else
		echo "not ok $TAP_N - stage $name succeeds (exit $rc)"
		TAP_FAILED=1
	fi
	return "$rc"
}
# runtime_vectors FILE NODE: the node's vectors summed over every thread of a VPP-format
# `show runtime` dump (0 when the node is absent).
runtime_vectors() {
	awk -v n="$2" '$1 == n && NF >= 7 { s += $(NF - 3) } END { print s + 0 }' "$1"
}
# quiet CMD...: CMD with its stdout thrown away (for stage, whose own lines must show).
quiet() { "$@" >/dev/null; }
