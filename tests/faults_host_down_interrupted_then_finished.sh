#!/usr/bin/env bash
# `fwdlab down` interrupted halfway on the host topology, then run again; and `fwdlab up`
# twice. Proves: a second `up` is a no-op (same vfwd, same supervisor, one of each, no
# restart); a `down` stopped by SIGINT after vfwd stopped, by SIGTERM after the files went,
# or by SIGKILL while the supervisor is stopping vfwd, exits non-zero, and the next `down`
# leaves nothing: no process naming the lab folder, no socket, no DPDK runtime or hugepage
# file of the lab's prefix, no lab folder. A finished run is untouched throughout.
# Faults are injected at named points (FWDLAB_FAULT=POINT:SIGNAL, lab/lib/results.sh
# fault_point) and, for SIGKILL, by timing.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/faults_host_lib.sh
. "$top/tests/faults_host_lib.sh"
count() { # PATTERN: processes whose command line starts with PATTERN and names the lab
	local p n=0
	for p in $(our_procs); do
		if { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qE "^$1"; then n=$((n + 1)); fi
	done
	echo "$n"
}
stage "up" quiet lab up || exit 1
lab run --rate 2000 --duration 1 --run kept >/dev/null 2>&1 || true
kept=$(run_dir kept)
check "a finished run to keep" eval '[ "$(status_of "$kept")" = complete ]'
kept_sums=$(sums "$kept")

vfwd=$(cat "$FWDLAB_STATE/vfwd.pid")
sup=$(cat "$FWDLAB_STATE/vfwd-supervisor.pid")
lab up >"$tmp/up2.out" 2>&1 || true
sed 's/^/# /' "$tmp/up2.out"
check "a second up says vfwd already runs" grep -q "vfwd already runs (pid $vfwd" "$tmp/up2.out"
check "after two ups: the same vfwd and supervisor, one of each, no tgen at rest" eval '
	[ "$(cat "$FWDLAB_STATE/vfwd.pid")" = "$vfwd" ] &&
	[ "$(cat "$FWDLAB_STATE/vfwd-supervisor.pid")" = "$sup" ] &&
	[ "$(count "$FWDLAB_STATE/vfwd/bin/vfwd ")" -eq 1 ] &&
	[ "$(count "bash $top/topologies/host/supervise ")" -eq 1 ] &&
	[ "$(count "$top/build/tgen/bin/tgen ")" -eq 0 ] && [ ! -s "$FWDLAB_STATE/vfwd-restarts.jsonl" ]'

# interrupted NAME HOW: `down` was interrupted; what it left; a second `down` leaves nothing.
interrupted() {
	local name=$1 rc=$2 left
	left=$(leftovers)
	printf '# %s left: %s\n' "$name" "$(echo "$left" | tr '\n' ';' | cut -c1-300)"
	check "down interrupted $name exits non-zero (got $rc) and left something to finish" eval '
		[ "$rc" -ne 0 ] && [ -n "$left" ]'
	lab down >"$tmp/down2.out" 2>&1 || true
	check "the next down leaves nothing (after $name)" eval '[ -z "$(leftovers)" ]'
	leftovers | sed 's/^/# left: /'
}

# 1. SIGINT right after vfwd stopped.
rc=0
FWDLAB_FAULT=down:vfwd-stopped:INT lab down >/dev/null 2>&1 || rc=$?
interrupted "by SIGINT after vfwd stopped" "$rc"

# 2. SIGTERM after the lab's files were removed (DPDK's runtime files still there).
stage "up again" quiet lab up || exit 1
rc=0
FWDLAB_FAULT=down:files-removed:TERM lab down >/dev/null 2>&1 || rc=$?
interrupted "by SIGTERM after the files went" "$rc"

# 3. SIGKILL to down (its process group) while the supervisor is stopping vfwd.
stage "up a third time" quiet lab up || exit 1
bg down "$top/lab/fwdlab" --topology host down
wait_for 30 grep -q "stopping vfwd" "$tmp/down.out" || true
kill -KILL -- -"$BG" 2>/dev/null || true
rc=$(bg_wait down 5)
if [ "$rc" = 999 ]; then rc=137; fi
interrupted "by SIGKILL while stopping vfwd" "$rc"
check "the finished run was not touched (sha256)" eval '[ "$kept_sums" = "$(sums "$kept")" ]'
exit "$TAP_FAILED"
