#!/usr/bin/env bash
# vfwd killed (SIGKILL) mid-trial on the host topology, twice: during run 2 of a 3-size
# sweep, then during a `fwdlab run`. Proves: the supervisor restarts vfwd with its setup
# (routes) and records the restart; the run is marked invalid (meta.json status, failure,
# faults) and keeps its dumps; the sweep goes on (--on-fault continue, the default), its
# table leaves the invalid run out and it exits 3; `--resume` redoes only the invalid run;
# no finished run's file changes (sha256 before and after).
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
stage "up" quiet lab up || exit 1
sup=$(cat "$FWDLAB_STATE/vfwd-supervisor.pid")

# 1. The sweep: SIGKILL to vfwd once run 2 (A-udp128) has started its first trial.
bg sweep "$top/lab/fwdlab" --topology host sweep --sizes 64,128,256 --max-rate 2000 \
	--trial-duration 1 --final-duration 1
wait_for 120 trial_started A-udp128 || true
camp=$(campaign sweep)
r2=$camp/A-udp128
check "the sweep reached run 2's first trial" trial_started A-udp128
# the kill lands in the trial, not in the hook that clears vfwd's counters before it
poll_until 10 "run 2's first trial to be sending (its pre-trial hook ended)" \
	trial_sending A-udp128 || true
victim=$(cat "$FWDLAB_STATE/vfwd.pid")
kill -KILL "$victim"
rc=$(bg_wait sweep 180)
sed 's/^/# /' "$tmp/sweep.out" | grep -E 'fwdlab:|^# \|' | head -n 20
check "the sweep exits 3 (a run invalid) (got $rc)" eval '[ "$rc" -eq 3 ]'
check "the sweep says run 2 is invalid because vfwd was killed, and goes on" \
	grep -qE 'A 128B: invalid \(the DUT restarted during the run: vfwd \(pid [0-9]+\) killed by signal 9 \(KILL\).*goes on' \
	"$tmp/sweep.out"
check "runs 1 and 3 complete, run 2 invalid" eval '
	[ "$(status_of "$camp/A-udp64")" = complete ] && [ "$(status_of "$r2")" = invalid ] &&
	[ "$(status_of "$camp/A-udp256")" = complete ]'
check "meta.json of run 2: failure names the kill, faults has the exit and the restart" eval '
	jq -e --argjson v "$victim" "(.failure | test(\"killed by signal 9\")) and
		([.faults[] | select(.event == \"exit\" and .pid == \$v)] | length == 1) and
		([.faults[] | select(.event == \"restarted\" and .ready)] | length == 1)" \
		"$r2/meta.json" >/dev/null'
check "run 2 keeps its dumps (tgen.log, show_version.txt, show_runtime.txt)" eval '
	[ -s "$r2/tgen.log" ] && [ -s "$r2/show_version.txt" ] && [ -s "$r2/show_runtime.txt" ]'
check "no half-written file anywhere in the campaign" eval '
	[ -z "$(find "$camp" -name "*.tmp*")" ]'
check "the sweep table has rows 64 and 256, not the invalid 128" eval '
	grep -qE "^\| *64 *\|" "$tmp/sweep.out" && grep -qE "^\| *256 *\|" "$tmp/sweep.out" &&
	! grep -qE "^\| *128 *\|" "$tmp/sweep.out"'
check "it says how to redo the invalid run" grep -q -- "--resume $camp" "$tmp/sweep.out"
check "fwdstat status: 2 complete, 1 invalid" eval '
	[ "$("$fwdstat" status "$camp" --list complete | wc -l)" -eq 2 ] &&
	[ "$("$fwdstat" status "$camp" --list invalid | wc -l)" -eq 1 ]'
check "the supervisor restarted vfwd (new pid, same supervisor) and recorded it" eval '
	[ "$(cat "$FWDLAB_STATE/vfwd.pid")" != "$victim" ] &&
	[ "$(cat "$FWDLAB_STATE/vfwd-supervisor.pid")" = "$sup" ] &&
	jq -se --argjson v "$victim" "map(select(.event == \"exit\" and .pid == \$v)) | length == 1" \
		"$FWDLAB_STATE/vfwd-restarts.jsonl" >/dev/null'
ctl=("$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock")
check "the restarted vfwd has its setup again (route 48.0.0.0/8 via port1)" eval '
	grep -qE "^48\.0\.0\.0/8 +via 10\.0\.1\.2 port1" <<<"$("${ctl[@]}" show ip fib)"'
before=$(sums "$camp/A-udp64" "$camp/A-udp256" "$r2")

# 2. A single run: SIGKILL to vfwd during its trial.
bg run "$top/lab/fwdlab" --topology host run --rate 3000 --duration 4 --run killed
wait_for 60 trial_started killed || true
rk=$(run_dir killed)
check "the run reached its trial" trial_started killed
poll_until 10 "the run's trial to have sent for 1 s (tgen's progress line)" \
	trial_sent_1s killed || true
victim=$(cat "$FWDLAB_STATE/vfwd.pid")
kill -KILL "$victim"
rc=$(bg_wait run 120)
sed 's/^/# /' "$tmp/run.out" | grep 'fwdlab:' || true
check "fwdlab run exits 3 (got $rc) and says the run is invalid because vfwd was killed" eval '
	[ "$rc" -eq 3 ] && grep -q "is invalid: the DUT restarted during the run: vfwd (pid $victim) killed by signal 9" "$tmp/run.out"'
# Whether tgen outlives the restart depends on how fast the supervisor brings vfwd back
# (tgen reconnects to the new vhost-user server and finishes its trial when it is quick):
# either tgen failed and left no JSON, or its JSON shows the frames the kill cost.
check "the run is invalid, keeps tgen.log and the dumps; no tgen.json, or one that shows the loss" eval '
	[ "$(status_of "$rk")" = invalid ] && [ -s "$rk/tgen.log" ] &&
	[ -s "$rk/show_runtime.txt" ] &&
	{ [ ! -e "$rk/tgen.json" ] || jq -e ".trial.loss_packets > 0" "$rk/tgen.json" >/dev/null; }'
check "vfwd answers again (restarted once more)" eval '
	[ "$(cat "$FWDLAB_STATE/vfwd.pid")" != "$victim" ] && "${ctl[@]}" show version >/dev/null'

# 3. --resume redoes the invalid run only; nothing finished changes.
resume() { lab sweep --resume "$camp" >"$tmp/resume.out" 2>&1; }
stage "resume" resume || sed 's/^/# /' "$tmp/resume.out" | tail -n 20
check "resume skips runs 1 and 3" eval '
	grep -q "\[1/3\] A 64B: done before, skipped" "$tmp/resume.out" &&
	grep -q "\[3/3\] A 256B: done before, skipped" "$tmp/resume.out"'
check "the invalid run is redone into A-udp128.2, complete" eval '
	[ "$(status_of "$camp/A-udp128.2")" = complete ]'
check "no finished or invalid run's file changed (sha256)" eval '
	[ "$before" = "$(sums "$camp/A-udp64" "$camp/A-udp256" "$r2")" ]'
stage "down" quiet lab down || true
check "down leaves nothing" eval '[ -z "$(leftovers)" ]'
exit "$TAP_FAILED"
