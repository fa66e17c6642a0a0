#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# bisect_finds_the_commit_that_slowed_vfwd: a clone of this repository gets two commits
# on top of its HEAD (GOOD): one that changes no code, then one that sets
# VFWD_SLOW_LOOKUP_CYCLES (BAD). `fwdlab --topology host bisect GOOD BAD --node ip4-lookup`
# builds vfwd at the commits it probes, runs each against GOOD interleaved (7 runs each, 1
# kpps), and by trend's rule finds BAD a regression, the no-code commit no change, and so
# names the slowing commit as the first regression; its probes are in the campaign folder.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"
src=$tmp/src
git_c() { git -C "$src" -c user.name=fwdlab-test -c user.email=test@fwdlab.invalid "$@"; }
prepare() {
	git clone -q "$top" "$src" &&
		git_c commit -q --allow-empty -m "bisect test: no code change" &&
		sed -i 's/^#define VFWD_SLOW_LOOKUP_CYCLES 0$/#define VFWD_SLOW_LOOKUP_CYCLES 50000/' \
			"$src/forwarder/src/nodes/ip4_lookup.c" &&
		git_c commit -q -am "bisect test: ip4-lookup spins 50000 cycles a packet"
}
check "clone_with_two_commits" prepare
good=$(git -C "$src" rev-parse HEAD~2)
quiet_commit=$(git -C "$src" rev-parse HEAD~1)
bad=$(git -C "$src" rev-parse HEAD)

rc=0
msg=$(lab bisect "$bad" "$good" --repo "$src" 2>&1) || rc=$?
check "bad_before_good_is_refused_by_name" eval '[ "$rc" -ne 0 ] && grep -q "is not an ancestor of" <<<"$msg"'
rc=0
msg=$(lab --topology b2b bisect "$good" "$bad" --repo "$src" 2>&1) || rc=$?
check "b2b_is_refused" eval '[ "$rc" -ne 0 ] && grep -q "host topology only" <<<"$msg"'

check "lab_up" quiet lab up
rc=0
lab bisect "$good" "$bad" --repo "$src" --node ip4-lookup --frame-size 64 --rate 1000 \
	--duration 1 >"$tmp/out" 2>&1 || rc=$?
grep 'bisect:' "$tmp/out" | sed 's/^/# /'
check "bisect_exits_0" test "$rc" -eq 0
check "lab_down" quiet lab down
camp=$(find "$tmp/results" -mindepth 1 -maxdepth 1 -name '*-host-bisect-*' | head -n1)
check "bisect_json_names_the_slowing_commit" eval '
	jq -e --arg c "$bad" ".first_change == \$c and .change == \"regression\" and .probes == 2" "$camp/bisect.json" >/dev/null'
check "bad_probe_is_a_regression_and_the_no_code_commit_no_change" eval '
	jq -e ".tests[0].builds[1].verdict == \"regression\"" "$camp/probe-1.json" >/dev/null &&
	jq -e --arg c "${quiet_commit:0:12}" ".tests[0].builds[] | select(.git_rev == \$c) | .verdict == \"no change\"" "$camp/probe-2.json" >/dev/null'
check "28_runs_complete_7_per_build_and_probe" eval '
	[ "$(find "$camp" -name meta.json | xargs jq -r .status | grep -c "^complete$")" -eq 28 ] &&
	[ "$(jq "[.tests[0].builds[].runs] | unique" -c "$camp/probe-2.json")" = "[7]" ]'
check "the_clone_and_its_builds_are_removed" test ! -e "$FWDLAB_STATE/bisect"
check "last_line_names_the_commit" grep -q "bisect: first regression: ${bad:0:7}.* bisect test: ip4-lookup spins" "$tmp/out"
tap_done
