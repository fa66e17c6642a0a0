#!/usr/bin/env bash
# `fwdlab swap` on the host topology: a second vfwd build (debug variant, its own label)
# replaces the running one, `show version` names it, a run afterwards records it in
# meta.json and still forwards; a folder that is not a vfwd build is refused.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
debug_build_then_up swap "build a second vfwd (debug, label %s)"
before=$(lab ssh dut "$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" show version)
check "before swap, show version does not name $label" eval '! grep -qF "$label" <<<"$before"'
stage "swap" lab swap "$tmp/b/build/vfwd/debug" || true
after=$(lab ssh dut "$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" show version)
echo "$after" | head -n 5 | sed 's/^/# /'
check "after swap, show version names $label" grep -qF "\"label\": \"$label\"" <<<"$after"
check "after swap, show version says variant debug" grep -qF '"variant": "debug"' <<<"$after"
stage "run after swap" quiet lab run --label after-swap --rate 2000 --duration 2 || true
meta=$(find "$tmp/results" -name meta.json -print -quit)
check "run after swap records the new build in meta.json" \
	eval '[ "$(jq -r .dut.build_label "$meta")" = "$label" ]'
check "run after swap forwarded packets" \
	eval '[ "$(runtime_vectors "$(dirname "$meta")/show_runtime.txt" ip4-rewrite)" -gt 0 ]'
mkdir -p "$tmp/not-a-build"
rc=0
out=$(lab swap "$tmp/not-a-build" 2>&1) || rc=$?
check "swap of a folder without bin/vfwd is refused clearly" \
	eval '[ "$rc" -ne 0 ] && grep -q "bin/vfwd is missing" <<<"$out"'
check "vfwd still runs the swapped build after the refusal" \
	eval 'lab ssh dut "$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" show version | grep -qF "$label"'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
