#!/usr/bin/env bash
# A full results disk on the host topology: results on a small tmpfs, filled up (ENOSPC)
# once run 2 of a 3-size sweep has begun its first trial. Proves: the sweep fails with a message that
# names the folder it could not write; the run that hit the full disk is not complete and
# holds no half-written file (no *.tmp*, no empty file, every JSON file parses); a `fwdlab
# run` on the full disk fails the same way and leaves no run folder; run 1 is untouched
# (sha256); once space is freed, `--resume` completes the campaign.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
mkdir -p "$tmp/results"
mount -t tmpfs -o size=8m,mode=0755 fwdlab-test-results "$tmp/results" ||
	{ echo "# cannot mount a tmpfs (not root?)"; exit 77; }
stage "up" quiet lab up || exit 1

complete_run() { [ "$(status_of "$(run_dir "$1")")" = complete ]; }
bg sweep "$top/lab/fwdlab" --topology host sweep --sizes 64,128,256 --max-rate 2000 \
	--trial-duration 1 --final-duration 1
wait_for 120 trial_started A-udp128 || true
camp=$(campaign sweep)
check "run 1 finished, run 2 began its first trial" eval '
	complete_run A-udp64 && trial_started A-udp128'
before=$(sums "$camp/A-udp64")
# Fill the file system: head stops at ENOSPC.
head -c 64M /dev/zero >"$tmp/results/filler" 2>/dev/null || true
df -h "$tmp/results" | sed 's/^/# /'
rc=$(bg_wait sweep 120)
sed 's/^/# /' "$tmp/sweep.out" | grep 'fwdlab:' || true
check "the sweep fails (got $rc)" eval '[ "$rc" -ne 0 ] && [ "$rc" -ne 999 ]'
check "the message says the results disk is full and names the folder" \
	grep -qE "results disk full: (cannot write|writing into) $camp" "$tmp/sweep.out"
r2=$camp/A-udp128
check "run 2 is not complete; run 3 never began" eval '
	[ "$(status_of "$r2")" != complete ] && [ ! -e "$camp/A-udp256" ]'
check "no half-written file: no *.tmp*, no empty file, every JSON file parses" eval '
	[ -z "$(find "$camp" -name "*.tmp*")" ] && [ -z "$(find "$camp" -type f -empty)" ] &&
	find "$camp" -name "*.json" -print0 | xargs -0 -r -n1 jq -e . >/dev/null'
find "$r2" -type f 2>/dev/null | sed "s|^$camp/|# run 2 kept |" || true
rc=0
lab run --rate 2000 --duration 1 --run onfull >"$tmp/run.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/run.out" | grep 'fwdlab:' || true
check "a run on the full disk fails (got $rc), names the folder, leaves no run folder" eval '
	[ "$rc" -ne 0 ] && grep -q "results disk full: cannot write $tmp/results/" "$tmp/run.out" &&
	[ -z "$(run_dir onfull)" ]'
check "run 1 is untouched (sha256)" eval '[ "$before" = "$(sums "$camp/A-udp64")" ]'

rm -f "$tmp/results/filler"
resume() { lab sweep --resume "$camp" >"$tmp/resume.out" 2>&1; }
stage "resume after freeing space" resume || sed 's/^/# /' "$tmp/resume.out" | tail -n 20
check "the campaign is complete: 64 skipped, 128 and 256 complete" eval '
	grep -q "\[1/3\] A 64B: done before, skipped" "$tmp/resume.out" &&
	[ "$(status_of "$(find "$camp" -maxdepth 1 -name "A-udp128*" | sort -V | tail -n1)")" = complete ] &&
	[ "$(status_of "$camp/A-udp256")" = complete ] &&
	[ "$(grep -cE "^\| *(64|128|256) *\|" "$tmp/resume.out")" -eq 3 ]'
check "run 1 is still untouched (sha256)" eval '[ "$before" = "$(sums "$camp/A-udp64")" ]'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
