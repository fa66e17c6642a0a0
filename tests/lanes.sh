#!/usr/bin/env bash
# The suites of `make test`, in two lanes:
#   host lane -> every suite's host tests (unit tests, then the host topology's), in SUITES order;
#   VM lane   -> what boots guests or needs libvirtd: b2b's up faults, the fresh-clone lab, the
#                field lab (TRex VM + VPP VM), then the images suite (a DUT boot).
# By default the host lane runs, then the VM lane. TEST_LANES=side-by-side runs them at the same
# time (the VM lane's lines prefixed "[vm] "): they share no state (the VM labs have their own
# names, folders and subnets; the host lane touches neither libvirt nor hugepages), but they do
# share CPUs: on our 2-CPU machines the TCG guests took half of the host lane's CPU, the host
# lane ran 2-3x slower and its live tests lost packets (tgen's ARP, l3fwd-graph at 20 kpps, the
# Linux peer's frames, a host `up`; docs/measurements.md), so side by side is for machines whose
# guests get CPUs of their own.
#
#   tests/lanes.sh SUITE...        (SUITES of the top Makefile; a suite not named is not run)
#
# build/test-suites.tsv gets a row per suite (suite, seconds, lane) and one per lane
# ("lane host", seconds, wall); exits 0 when every suite's make target succeeded.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
results=${FWDLAB_TEST_RESULTS:-$top/build/test-results.tsv}
suites_tsv=$(dirname "$results")/test-suites.tsv
wanted=" $* "
t_all=$(date +%s)
# total: the suites' wall time, the last row of test-suites.tsv
total() { printf 'all suites (%s)\t%s\ttotal\n' "${TEST_LANES:-sequence}" "$(($(date +%s) - t_all))" >>"$suites_tsv"; }

# Each lane: SUITE[:TARGET] in order (TARGET defaults to check).
HOST_LANE=(forwarder forwarder/plugins/example-rs tgen lab/fwdstat peers trex lab topologies
	tests:check-fast)
VM_LANE=(tests:check-vm images)
# A suite of SUITES that neither lane names (a new folder with a check target) joins the host lane.
for s in "$@"; do
	[[ " ${HOST_LANE[*]%%:*} ${VM_LANE[*]%%:*} " == *" $s "* ]] || HOST_LANE+=("$s")
done

# run_lane NAME ENTRY...: each wanted suite's target; a target that failed without recording a
# result gets a FAIL row naming it, so a build or setup failure is not lost.
run_lane() {
	local lane=$1 e s target t0 l0 secs rc=0
	shift
	l0=$(date +%s)
	for e in "$@"; do
		s=${e%%:*}
		target=check
		if [ "$e" != "$s" ]; then target=${e#*:}; fi
		[[ $wanted == *" $s "* ]] || continue
		[ -f "$top/$s/Makefile" ] || continue
		grep -q "^$target:" "$top/$s/Makefile" || continue
		echo "==== suite $s ($target, $lane lane)"
		t0=$(date +%s)
		if ! make --no-print-directory -C "$top/$s" "$target"; then
			rc=1
			grep -q "^$s	" "$results" 2>/dev/null ||
				printf '%s\t%s\tFAIL\t0\n' "$s" "make $target (build or setup failed)" >>"$results"
		fi
		printf '%s\t%s\t%s\n' "$s" "$(($(date +%s) - t0))" "$lane" >>"$suites_tsv"
	done
	secs=$(($(date +%s) - l0))
	printf 'lane %s\t%s\twall\n' "$lane" "$secs" >>"$suites_tsv"
	echo "==== $lane lane: $secs s"
	return "$rc"
}

# One after the other (the default): the host lane, then the VM lane.
if [ "${TEST_LANES:-sequence}" != side-by-side ]; then
	rc=0
	run_lane host "${HOST_LANE[@]}" || rc=1
	run_lane vm "${VM_LANE[@]}" || rc=1
	total
	exit "$rc"
fi

# Side by side (TEST_LANES=side-by-side): the VM lane in the background, its output prefixed as
# it comes; stopped with us.
vm_rc_file=$(mktemp)
(
	rc=0
	run_lane vm "${VM_LANE[@]}" || rc=$?
	echo "$rc" >"$vm_rc_file"
) > >(sed -u 's/^/[vm] /') 2>&1 &
vm=$!
# A background lane ignores the terminal's SIGINT: on ours, its whole process tree gets TERM.
# shellcheck disable=SC2317 # called from the traps below
kill_tree() { # PID
	local c
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null || true
}
trap 'kill_tree $vm; rm -f "$vm_rc_file"; exit 130' INT
trap 'kill_tree $vm; rm -f "$vm_rc_file"; exit 143' TERM

rc=0
run_lane host "${HOST_LANE[@]}" || rc=1
if kill -0 "$vm" 2>/dev/null; then
	echo "==== host lane done; waiting for the VM lane (its tests: build/test-logs/tests-vm/)"
fi
wait "$vm"
vm_rc=$(cat "$vm_rc_file" 2>/dev/null)
rm -f "$vm_rc_file"
if [ "${vm_rc:-1}" != 0 ]; then
	rc=1
	[ -n "$vm_rc" ] || printf '%s\t%s\tFAIL\t0\n' vm-lane "the VM lane ended without its status" >>"$results"
fi
total
exit "$rc"
