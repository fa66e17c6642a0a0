#!/usr/bin/env bash
# `fwdlab compare` on the host topology: two vfwd builds (default, and debug with its own
# label), 2 runs each of a short NDR search at a low max rate, interleaved A B A B. The
# campaign holds 4 complete run folders with groups A/B and repeats 1/2, each run's dump
# names the build that ran it, and the compare table names both groups and the nodes.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
debug_build_then_up cmp "build B: vfwd debug, label %s"
out=$tmp/compare.txt
compare_ab() {
	lab compare "$top/build/vfwd/default" "$tmp/b/build/vfwd/debug" --runs 2 \
		--profiles udp:64 --max-rate 2000 --trial-duration 1 --final-duration 1 >"$out"
}
stage "compare default vs $label, 2 runs" compare_ab || true
sed 's/^/# /' "$out"
camp=$(find "$tmp/results" -mindepth 1 -maxdepth 1 -type d -name '*-host-compare-*')
check "one campaign folder named <UTC>-host-compare-<label>" eval '[ "$(wc -l <<<"$camp")" -eq 1 ] && [ -d "$camp" ]'
metas=$(find "$camp" -mindepth 2 -maxdepth 2 -name meta.json | sort)
check "4 run folders" eval '[ "$(wc -l <<<"$metas")" -eq 4 ]'
check "all 4 complete" eval '[ "$(xargs jq -r .status <<<"$metas" | grep -c "^complete$")" -eq 4 ]'
groups=$(xargs jq -r '"\(.group) \(.repeat)"' <<<"$metas" | sort | tr '\n' ' ')
check "groups and repeats A1 A2 B1 B2 (got: $groups)" eval '[ "$groups" = "A 1 A 2 B 1 B 2 " ]'
check "B runs record build label $label, A runs not" eval '
	[ "$(xargs jq -r "select(.group == \"B\") | .dut.build_label" <<<"$metas" | sort -u)" = "$label" ] &&
	! xargs jq -r "select(.group == \"A\") | .dut.build_label" <<<"$metas" | grep -qF "$label"'
order=$(xargs jq -r '"\(.started_at) \(.group)"' <<<"$metas" | sort | awk '{printf "%s", $2}')
check "runs interleaved A B A B (got $order)" eval '[ "$order" = ABAB ]'
check "each run forwarded packets (ip4-lookup vectors > 0)" eval '
	for m in $metas; do [ "$(runtime_vectors "$(dirname "$m")/show_runtime.txt" ip4-lookup)" -gt 0 ] || exit 1; done'
check "compare table names group A and group B" eval 'grep -q "group A (base): 2 runs" "$out" && grep -q "group B: 2 runs" "$out"'
check "compare table has NDR rows" grep -q '| udp/64B | NDR (pps)' "$out"
check "compare table has ethernet-input and ip4-lookup clocks/packet" eval '
	grep -q "| ethernet-input | clocks/packet" "$out" && grep -q "| ip4-lookup .*| clocks/packet" "$out"'
rc=0
msg=$(lab compare "$top/build/vfwd/default" "$tmp" 2>&1) || rc=$?
check "a folder that is not a build is refused by name" eval '[ "$rc" -ne 0 ] && grep -q "is not a vfwd build" <<<"$msg"'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
