#!/usr/bin/env bash
# SIGINT (as Ctrl-C: to the process group) to `fwdlab compare` on the host topology during
# its second run, then `--resume`; and, while a run's tgen and vfwd are up, what the lab
# exposes. Proves: no process of the lab (vfwd, its supervisor, tgen) listens on any TCP or
# UDP socket (ss -ltnup/-lunp, by pid), its unix sockets are in its own folders and none is
# world-writable, vfwd's CLI socket is 0600, neither the lab folder nor the results folder
# holds anything world-writable; the interrupted compare exits 130, says how to resume, the
# finished run is intact and the interrupted one is marked incomplete (SIGINT); the resume
# redoes only that run and prints the compare table; no file of either run changes.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
stage "up" quiet lab up || exit 1
build=$top/build/vfwd/default
bg compare "$top/lab/fwdlab" --topology host compare "$build" "$build" --runs 1 \
	--profiles udp:64 --rate 2000 --duration 3
wait_for 120 trial_started r1-A-udp64 || true
check "run 1's trial began" trial_started r1-A-udp64

# Least privilege, while vfwd and tgen run.
pids=$(our_procs | tr '\n' ' ')
comms=$(for p in $pids; do cat "/proc/$p/comm" 2>/dev/null || true; done | sort | tr '\n' ' ')
echo "# the lab's processes: $pids ($comms)"
check "tgen and vfwd are among them" eval '
	grep -qw tgen <<<"$comms" && grep -qw vfwd <<<"$comms"'
pids=${pids% }
re="pid=($(tr ' ' '|' <<<"$pids")),"
ours=$( { ss -ltnupH; ss -lunpH; } 2>/dev/null | grep -E "$re" || true)
check "no process of the lab listens on a TCP or UDP socket" eval '[ -z "$ours" ]'
{ ss -ltnupH; ss -lunpH; } 2>/dev/null |
	awk '$5 !~ /^(127\.|\[::1\]|\[::ffff:127\.)/ { print "# (not the lab'"'"'s) listening: " $1, $5, $7 }'
unix=$(ss -xlpH 2>/dev/null | grep -E "$re" | awk '{ print $5 }' | sort -u)
echo "# the lab's unix listeners: $(echo "$unix" | tr '\n' ' ')"
prefix=$(printf '%s' "$FWDLAB_STATE" | md5sum | cut -c1-8)
check "its unix sockets are in the lab folder or DPDK's folder of its prefix" eval '
	[ -n "$unix" ] && ! grep -vE "^($FWDLAB_STATE/|/var/run/dpdk/(vfwd|tgen)-$prefix/|/run/dpdk/(vfwd|tgen)-$prefix/)" <<<"$unix"'
check "none of them is world-writable" eval '
	for s in $unix; do [ ! -e "$s" ] || [ $(( 0$(stat -c %a "$s") & 2 )) -eq 0 ] || exit 1; done'
check "vfwd's CLI socket is 0600" eval '[ "$(stat -c %a "$FWDLAB_STATE/run/cli.sock")" = 600 ]'
check "nothing world-writable in the lab folder or the results" eval '
	[ -z "$(find "$FWDLAB_STATE" "$tmp/results" -perm -o+w ! -type l)" ]'

# SIGINT to the compare's process group once run 2 has begun its trial.
wait_for 120 trial_started r1-B-udp64 || true
camp=$(campaign compare)
check "run 2's trial began" trial_started r1-B-udp64
kill -INT -- -"$BG" 2>/dev/null || true
rc=$(bg_wait compare 60)
sed 's/^/# /' "$tmp/compare.out" | grep 'fwdlab:' || true
check "the compare exits 130 (got $rc) and says how to resume" eval '
	[ "$rc" -eq 130 ] && grep -q -- "compare --resume $camp" "$tmp/compare.out"'
check "run 1 complete; run 2 incomplete, interrupted by SIGINT" eval '
	[ "$(status_of "$camp/r1-A-udp64")" = complete ] &&
	[ "$(status_of "$camp/r1-B-udp64")" = incomplete ] &&
	jq -e ".failure | test(\"interrupted by SIGINT\")" "$camp/r1-B-udp64/meta.json" >/dev/null'
check "no half-written file in the campaign" eval '[ -z "$(find "$camp" -name "*.tmp*")" ]'
before=$(sums "$camp/r1-A-udp64" "$camp/r1-B-udp64")
resume() { lab compare --resume "$camp" >"$tmp/resume.out" 2>&1; }
stage "resume" resume || sed 's/^/# /' "$tmp/resume.out" | tail -n 20
check "resume skips run 1, redoes run 2 into r1-B-udp64.2, complete, and prints the table" eval '
	grep -q "\[1/2\] A r1 udp:64: done before, skipped" "$tmp/resume.out" &&
	[ "$(status_of "$camp/r1-B-udp64.2")" = complete ] &&
	grep -q "group B" "$tmp/resume.out"'
check "no file of the finished or the interrupted run changed (sha256)" eval '
	[ "$before" = "$(sums "$camp/r1-A-udp64" "$camp/r1-B-udp64")" ]'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
