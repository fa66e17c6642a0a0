#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check(); the cleanup runs from the EXIT trap
# Two host-topology labs at once, --instance 1 and --instance 2 (FWDLAB_INSTANCE too): each
# has its own state folder, vhost-user sockets, CLI socket and DPDK file prefixes; both are up
# together and a 1 kpps trial through each passes tx == rx with its own vfwd counting every
# packet; `down` of one stops that one only: the other's vfwd keeps its pid, answers, and
# forwards a second trial; then the second goes down too and nothing of either is left.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
inst() { local i=$1; shift; "$top/lab/fwdlab" --topology host --instance "$i" "$@"; }
host_lab_extra_cleanup() {
	inst 1 down >/dev/null 2>&1 || true
	FWDLAB_INSTANCE=2 "$top/lab/fwdlab" --topology host down >/dev/null 2>&1 || true
}
s1=$FWDLAB_STATE-1 s2=$FWDLAB_STATE-2
prefix() { printf '%s' "$1" | md5sum | cut -c1-8; }
ctl() { "$1/vfwd/bin/vfwdctl" -s "$1/run/cli.sock" show version; }

stage "up instance 1" quiet inst 1 up || exit 1
stage "up instance 2 (FWDLAB_INSTANCE=2)" quiet env FWDLAB_INSTANCE=2 "$top/lab/fwdlab" --topology host up || exit 1
p1=$(cat "$s1/vfwd.pid") p2=$(cat "$s2/vfwd.pid")
echo "# instance 1: $s1 vfwd $p1; instance 2: $s2 vfwd $p2"
check "each instance has its own state folder and vfwd" \
	eval '[ -d "$s1/run" ] && [ -d "$s2/run" ] && [ "$p1" != "$p2" ] && kill -0 "$p1" && kill -0 "$p2"'
check "each instance has its own vhost-user and CLI sockets" \
	eval '[ -S "$s1/run/port0.sock" ] && [ -S "$s2/run/port0.sock" ] && [ -S "$s1/run/cli.sock" ] && [ -S "$s2/run/cli.sock" ]'
check "each vfwd runs with its own DPDK file prefix" \
	eval 'grep -q "file-prefix vfwd-$(prefix "$s1")" "$s1/run/startup.conf" &&
		grep -q "file-prefix vfwd-$(prefix "$s2")" "$s2/run/startup.conf" && [ "$(prefix "$s1")" != "$(prefix "$s2")" ]'
check "both answer show version at once" eval 'ctl "$s1" >/dev/null && ctl "$s2" >/dev/null'
inst 2 status >"$tmp/status2" 2>&1 || true
check "status of instance 2 names its own folder and its own vfwd" \
	eval 'grep -qF "lab folder $s2" "$tmp/status2" && grep -qx "  vfwd pid $p2" "$tmp/status2"'
check "status of instance 2 names instance 1 running beside it (shared CPUs)" \
	grep -qxF "    $s1 (vfwd pid $p1)" "$tmp/status2"

# trial I RUN: a 1 kpps, 2 s trial on instance I; prints "tx rx ethernet-input"
trial() {
	inst "$1" run --label "i$1" --run "$2" --rate 1000 --duration 2 >"$tmp/$2.log" 2>&1 || echo "# trial $2 on instance $1 failed" >&2
	local d
	d=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$2" -print -quit)
	printf '%s %s %s\n' "$(jq -r '.trial.tx_packets // 0' "$d/tgen.json" 2>/dev/null || echo 0)" \
		"$(jq -r '.trial.rx_packets // 0' "$d/tgen.json" 2>/dev/null || echo 0)" \
		"$(runtime_vectors "$d/show_runtime.txt" ethernet-input 2>/dev/null || echo 0)"
}
read -r tx1 rx1 e1 < <(trial 1 t1)
read -r tx2 rx2 e2 < <(trial 2 t2)
echo "# instance 1: tx $tx1 rx $rx1 vfwd $e1; instance 2: tx $tx2 rx $rx2 vfwd $e2"
check "trial on instance 1: tx == rx, its vfwd counted every packet" \
	eval '[ "$tx1" -gt 0 ] && [ "$tx1" -eq "$rx1" ] && [ "$e1" -eq "$tx1" ]'
check "trial on instance 2: tx == rx, its vfwd counted every packet" \
	eval '[ "$tx2" -gt 0 ] && [ "$tx2" -eq "$rx2" ] && [ "$e2" -eq "$tx2" ]'

stage "down instance 1" quiet inst 1 down || true
check "down of instance 1 stopped its vfwd and removed its folder" \
	eval '! kill -0 "$p1" 2>/dev/null && [ ! -e "$s1" ]'
check "instance 2's vfwd still runs, same pid" eval 'kill -0 "$p2" && [ "$(cat "$s2/vfwd.pid")" = "$p2" ]'
check "instance 2 still answers" eval 'ctl "$s2" >/dev/null'
check "instance 2's sockets are still there" eval '[ -S "$s2/run/port0.sock" ] && [ -S "$s2/run/port1.sock" ]'
inst 2 status >"$tmp/status2b" 2>&1 || true
check "after instance 1's down, instance 2's status names no other lab" \
	eval '! grep -q "other labs running" "$tmp/status2b"'
check "instance 2's DPDK runtime folder is still there" [ -d "/var/run/dpdk/vfwd-$(prefix "$s2")" ]
read -r tx3 rx3 e3 < <(trial 2 t3)
echo "# instance 2 after the other's down: tx $tx3 rx $rx3 vfwd $e3"
check "instance 2 forwards a trial after instance 1's down: tx == rx, counted" \
	eval '[ "$tx3" -gt 0 ] && [ "$tx3" -eq "$rx3" ] && [ "$e3" -eq "$tx3" ]'
stage "down instance 2" quiet inst 2 down || true
check "down of instance 2 stopped its vfwd, removed its folder and DPDK files" \
	eval '! kill -0 "$p2" 2>/dev/null && [ ! -e "$s2" ] && [ ! -e "/var/run/dpdk/vfwd-$(prefix "$s2")" ]'
rc=0
out=$(inst 0 status 2>&1) || rc=$?
check "--instance 0 is refused" eval '[ "$rc" -ne 0 ] && grep -q "instance 0: a number from 1 to 99" <<<"$out"'
exit "$TAP_FAILED"
