#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# trend_flags_a_slowed_build_and_not_an_identical_one: three vfwd builds at three git
# revisions of a clone of this repository: rev 1 (HEAD), rev 2 (a commit that changes no
# code: an identical build), rev 3 (a commit that sets VFWD_SLOW_LOOKUP_CYCLES, a spin in
# ip4-lookup). On the host topology the three run in turn, interleaved (rev 1 2 3, 3 2 1,
# 1 2 3, ...: the order of the runs cannot favour a build), TREND_ROUNDS times (default 7),
# each a fixed-rate `run`. `fwdlab trend --node ip4-lookup` groups the runs by revision in
# commit order and marks rev 3 a regression (two-sided Mann-Whitney U against rev 1 and 2,
# p < 0.001) and not rev 2 (under the null hypothesis 7 against 7 runs flag it with
# probability 2/3432, 0.06 %, the chance of a complete separation).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"
rounds=${TREND_ROUNDS:-7}
slow_cycles=50000
src=$tmp/src
git_c() { git -C "$src" -c user.name=fwdlab-test -c user.email=test@fwdlab.invalid "$@"; }

# The clone builds from the objects of this checkout's default build when this checkout's
# forwarder/ has no uncommitted change (they are then the clone's too): a relink, and for
# rev 3 one object, instead of three full builds.
build_rev() { # NAME: builds the clone's HEAD into $tmp/NAME
	make -s -C "$src/forwarder" TOP="$src" >/dev/null &&
		rm -rf "${tmp:?}/$1" && cp -a "$src/build/vfwd/default" "$tmp/$1"
}
prepare() {
	git clone -q "$top" "$src" || return 1
	if [ -z "$(git -C "$top" status --porcelain -- forwarder)" ] &&
		make -s -C "$top/forwarder" >/dev/null 2>&1; then
		mkdir -p "$src/build" && cp -a "$top/build/vfwd-obj" "$src/build/" &&
			find "$src/build/vfwd-obj" -type f -exec touch {} +
	fi
	build_rev rev1 || return 1
	git_c commit -q --allow-empty -m "trend test: no code change" && build_rev rev2 || return 1
	sed -i "s/^#define VFWD_SLOW_LOOKUP_CYCLES 0$/#define VFWD_SLOW_LOOKUP_CYCLES $slow_cycles/" \
		"$src/forwarder/src/nodes/ip4_lookup.c"
	git_c commit -q -am "trend test: ip4-lookup spins $slow_cycles cycles a packet" &&
		build_rev rev3
}
check "three_revisions_built" prepare
revs=()
for n in 1 2 3; do revs+=("$(jq -r .git_rev "$tmp/rev$n/build-info.json")"); done
check "three_distinct_clean_revisions" eval '
	[ "$(printf "%s\n" "${revs[@]}" | sort -u | grep -vc dirty)" -eq 3 ]'
check "rev3_is_built_with_the_spin" eval '
	! cmp -s "$tmp/rev1/lib/libvfwd.so" "$tmp/rev3/lib/libvfwd.so" &&
	cmp -s "$tmp/rev1/lib/libvfwd.so" "$tmp/rev2/lib/libvfwd.so"'

check "lab_up" quiet lab up
camp=$tmp/results/20260101T000000Z-host-trend
runs_ok=1 cur=""
for ((r = 1; r <= rounds; r++)); do
	order="1 2 3"
	if [ $((r % 2)) -eq 0 ]; then order="3 2 1"; fi # 1 2 3 3 2 1 ...: fewer swaps
	for n in $order; do
		if [ "$n" != "$cur" ] && ! quiet lab swap "$tmp/rev$n"; then runs_ok=0; fi
		cur=$n
		if ! quiet lab run --campaign "$camp" --run "r$r-rev$n" --frame-size 64 \
				--rate 1000 --duration 1; then
			runs_ok=0
		fi
	done
done
check "all_$((3 * rounds))_runs_interleaved_and_complete" eval '
	[ "$runs_ok" = 1 ] &&
	[ "$(find "$camp" -name meta.json | xargs jq -r .status | grep -c "^complete$")" -eq $((3 * rounds)) ]'
check "lab_down" quiet lab down

check "trend_exits_0" quiet_to "$tmp/trend.json" lab trend "$tmp/results" --node ip4-lookup --json
check "trend_md_exits_0" quiet_to "$tmp/trend.md" lab trend "$tmp/results" --node ip4-lookup
sed 's/^/# /' "$tmp/trend.md"
j=$tmp/trend.json
check "one_test_three_builds_in_commit_order" eval '
	[ "$(jq ".tests | length" "$j")" -eq 1 ] &&
	[ "$(jq -r ".tests[0].test" "$j")" = 10ge2p1vhost-64b-1t1c-ethip4-ip4base-mrr ] &&
	[ "$(jq -r "[.tests[0].builds[].git_rev] | join(\" \")" "$j")" = "${revs[*]}" ] &&
	[ "$(jq "[.tests[0].builds[].runs] | unique" -c "$j")" = "[$rounds]" ]'
check "identical_build_is_not_flagged" \
	holds "$j" '.tests[0].builds[1] | .verdict == "no change" and .group == 1 and .p >= 0.001'
check "slowed_build_is_flagged_a_regression" \
	holds "$j" '.tests[0].builds[2] | .verdict == "regression" and .group == 3 and .p < 0.001'
check "slowed_build_costs_more_clocks_than_the_spin" \
	holds "$j" ".tests[0].builds[2].median - .tests[0].builds[0].median > $slow_cycles * 0.9"
check "summary_counts_one_regression" grep -q '^1 test(s): 1 regression(s), 0 progression(s)$' "$tmp/trend.md"
rc=0
lab trend "$tmp/results" --node ip4-lookup --alpha 2 >/dev/null 2>&1 || rc=$?
check "alpha_outside_0_1_is_a_usage_error" test "$rc" -eq 2
tap_done
