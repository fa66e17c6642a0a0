#!/usr/bin/env bash
# tgen killed (SIGKILL) mid-trial on the host topology: during run 2 of a sweep started with
# --on-fault stop, then during a `fwdlab run`. Proves: the run is marked invalid (status,
# failure naming the signal), keeps tgen.log and the DUT's dumps and gets no tgen.json of
# another run; vfwd is untouched (same pid, no restart record); the sweep stops at the
# fault (exit 3, says how to resume) and starts no further run; `--resume` finishes it;
# no finished run's file changes (sha256 before and after).
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
stage "up" quiet lab up || exit 1
vfwd_pid=$(cat "$FWDLAB_STATE/vfwd.pid")

# 1. The sweep, --on-fault stop: SIGKILL to tgen once run 2 has started its first trial.
bg sweep "$top/lab/fwdlab" --topology host sweep --on-fault stop --sizes 64,128,256 \
	--max-rate 2000 --trial-duration 1 --final-duration 1
wait_for 120 trial_started A-udp128 || true
camp=$(campaign sweep)
r2=$camp/A-udp128
check "the sweep reached run 2's first trial" trial_started A-udp128
victim=$(cat "$FWDLAB_STATE/tgen.pid" 2>/dev/null || echo none)
check "tgen.pid names a running tgen" eval '
	[ "$victim" != none ] && [ "$(cat /proc/$victim/comm 2>/dev/null)" = tgen ]'
kill -KILL "$victim" 2>/dev/null || true
rc=$(bg_wait sweep 120)
sed 's/^/# /' "$tmp/sweep.out" | grep -E 'fwdlab:' | head -n 20
check "the sweep exits 3 (got $rc)" eval '[ "$rc" -eq 3 ]'
check "it stops at the fault and says how to resume" eval '
	grep -q "A 128B: invalid (tgen was killed by signal 9 (KILL) during the run (log: tgen.log)); stopping (--on-fault stop)" "$tmp/sweep.out" &&
	grep -q -- "--resume $camp" "$tmp/sweep.out"'
check "run 1 complete, run 2 invalid, run 3 never started" eval '
	[ "$(status_of "$camp/A-udp64")" = complete ] && [ "$(status_of "$r2")" = invalid ] &&
	[ ! -e "$camp/A-udp256" ]'
check "run 2 keeps tgen.log and the DUT dumps, holds no tgen.json" eval '
	[ -s "$r2/tgen.log" ] && [ -s "$r2/show_runtime.txt" ] && [ -s "$r2/show_errors.txt" ] &&
	[ ! -e "$r2/tgen.json" ]'
check "no half-written file in the campaign" eval '[ -z "$(find "$camp" -name "*.tmp*")" ]'
check "vfwd was not touched (same pid, no restart recorded)" eval '
	[ "$(cat "$FWDLAB_STATE/vfwd.pid")" = "$vfwd_pid" ] &&
	[ ! -s "$FWDLAB_STATE/vfwd-restarts.jsonl" ]'
before=$(sums "$camp/A-udp64" "$r2")

# 2. A single run: SIGKILL to tgen during its trial.
bg run "$top/lab/fwdlab" --topology host run --rate 3000 --duration 4 --run killed
wait_for 60 trial_started killed || true
rk=$(run_dir killed)
poll_until 10 "the run's trial to have sent for 1 s (tgen's progress line)" \
	trial_sent_1s killed || true
victim=$(cat "$FWDLAB_STATE/tgen.pid" 2>/dev/null || echo none)
kill -KILL "$victim" 2>/dev/null || true
rc=$(bg_wait run 60)
sed 's/^/# /' "$tmp/run.out" | grep 'fwdlab:' || true
check "fwdlab run exits 3 (got $rc): invalid, tgen killed by signal 9" eval '
	[ "$rc" -eq 3 ] && grep -q "is invalid: tgen was killed by signal 9 (KILL)" "$tmp/run.out" &&
	[ "$(status_of "$rk")" = invalid ] &&
	jq -e ".failure | test(\"tgen was killed by signal 9\")" "$rk/meta.json" >/dev/null'
check "the killed run keeps its per-trial counter and the DUT dumps" eval '
	[ -s "$rk/trials/.count" ] && [ -s "$rk/show_runtime.txt" ] && [ -s "$rk/tgen.log" ]'

# 3. --resume finishes the campaign; nothing finished changes.
resume() { lab sweep --resume "$camp" >"$tmp/resume.out" 2>&1; }
stage "resume" resume || sed 's/^/# /' "$tmp/resume.out" | tail -n 20
check "resume skips run 1, redoes run 2 (A-udp128.2) and runs run 3, all complete" eval '
	grep -q "\[1/3\] A 64B: done before, skipped" "$tmp/resume.out" &&
	[ "$(status_of "$camp/A-udp128.2")" = complete ] &&
	[ "$(status_of "$camp/A-udp256")" = complete ]'
check "the sweep table has rows 64, 128, 256" eval '
	[ "$(grep -cE "^\| *(64|128|256) *\|" "$tmp/resume.out")" -eq 3 ]'
check "no finished or invalid run's file changed (sha256)" eval '
	[ "$before" = "$(sums "$camp/A-udp64" "$r2")" ]'
stage "down" quiet lab down || true
check "down leaves nothing" eval '[ -z "$(leftovers)" ]'
exit "$TAP_FAILED"
