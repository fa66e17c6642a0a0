#!/usr/bin/env bash
# `fwdlab sweep --resume` on the host topology: a 3-size sweep is interrupted (SIGTERM to
# its process group) during its second run; the resumed campaign skips the finished run
# (same files, same checksums and mtimes), leaves the interrupted run as it was
# (incomplete), redoes it into a fresh folder and finishes the rest.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
pid=""
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
host_lab_extra_cleanup() {
	if [ -n "$pid" ]; then kill -TERM -- -"$pid" 2>/dev/null || true; fi
}
fwdstat=$top/build/lab/bin/fwdstat
stage "up" quiet lab up || exit 1
# The sweep in its own process group, as a terminal's Ctrl-C would reach it.
setsid "$top/lab/fwdlab" --topology host sweep --sizes 64,128,256 --max-rate 2000 \
	--trial-duration 1 --final-duration 1 >"$tmp/first.txt" 2>&1 &
pid=$!
# sweep_campaign: the sweep's campaign folder (empty until there is one)
sweep_campaign() { find "$tmp/results" -mindepth 1 -maxdepth 1 -type d -name '*-host-sweep-*' 2>/dev/null || true; }
second_run_started() { [ -s "$(sweep_campaign)/A-udp128/meta.json" ]; }
poll_until 120 "the sweep's second run (A-udp128/meta.json)" second_run_started || true
camp=$(sweep_campaign)
check "the sweep reached its second run" test -s "$camp/A-udp128/meta.json"
kill -TERM -- -"$pid" 2>/dev/null || true
rc=0
wait "$pid" || rc=$?
pid=""
sed 's/^/# /' "$tmp/first.txt" | tail -n 5
check "interrupted sweep exits non-zero (got $rc)" eval '[ "$rc" -ne 0 ]'
check "it says how to resume" grep -q -- "--resume $camp" "$tmp/first.txt"
check "run 1 complete, run 2 incomplete" eval '
	[ "$(jq -r .status "$camp/A-udp64/meta.json")" = complete ] &&
	[ "$(jq -r .status "$camp/A-udp128/meta.json")" = incomplete ]'
snap() { (cd "$camp" && find "$1" -type f -printf '%p %T@\n' | sort && find "$1" -type f -print0 | sort -z | xargs -0 md5sum); }
before1=$(snap A-udp64)
before2=$(snap A-udp128)
out=$tmp/resume.txt
resume() { lab sweep --resume "$camp" >"$out" 2>"$tmp/resume.err"; }
stage "resume" resume || true
sed 's/^/# /' "$tmp/resume.err" | grep -F '] ' || true
check "the finished run is skipped" grep -q '\[1/3\] A 64B: done before, skipped' "$tmp/resume.err"
check "finished run untouched (paths, mtimes, checksums)" eval '[ "$before1" = "$(snap A-udp64)" ]'
check "interrupted run folder not rewritten" eval '[ "$before2" = "$(snap A-udp128)" ]'
check "the interrupted run is redone into A-udp128.2, complete" eval '
	[ "$(jq -r .status "$camp/A-udp128.2/meta.json")" = complete ]'
check "fwdstat status: 3 complete, 1 incomplete" eval '
	[ "$("$fwdstat" status "$camp" --list complete | wc -l)" -eq 3 ] &&
	[ "$("$fwdstat" status "$camp" --list incomplete | wc -l)" -eq 1 ]'
check "the sweep table has rows 64, 128, 256" eval '
	[ "$(grep -cE "^\| *(64|128|256) *\|" "$out")" -eq 3 ]'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
