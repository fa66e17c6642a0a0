#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # checks are eval'd later, by check()
# fwdlab validate on the host topology runs the topology file's validate.N checks against
# the real lab (vfwd answering show version with its live build, a 1 kpps trial through
# vfwd with tx == rx): exit 2 while the lab is down (every check
# "could not run"), 0 when all hold, 1 when one fails (its FAIL line names FILE:LINE);
# `up` runs the checks and prints them; a bad validate line is refused with FILE:LINE,
# exit 2 for validate, and `up` refuses it before it starts anything.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
conf=$top/topologies/host/topology.conf
vrun() { # CONF: validate with that topology file; sets out and rc
	rc=0
	out=$(FWDLAB_TOPOLOGY_CONF=$1 "$top/lab/fwdlab" --topology host validate 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
}

vrun "$conf"
check "lab down: validate exits 2" [ "$rc" -eq 2 ]
check "lab down: every check could not run" \
	eval 'grep -q "validate: 2 checks: 0 hold, 0 failed, 2 could not run" <<<"$out" && [ "$(grep -c "^SKIP .*lab is not up" <<<"$out")" -eq 2 ]'

cp "$conf" "$tmp/bad.conf"
echo "validate.7 = trail 1000" >>"$tmp/bad.conf"
bad=$(wc -l <"$tmp/bad.conf")
echo "validate.8 = port port9 up" >>"$tmp/bad.conf"
vrun "$tmp/bad.conf"
check "bad validate line: validate exits 2" [ "$rc" -eq 2 ]
check "bad validate line: refused with FILE:LINE and what is wrong" \
	grep -qF "$tmp/bad.conf:$bad: validate.7 = trail 1000: unknown check 'trail'" <<<"$out"
check "bad port: refused with FILE:LINE, naming the DUT's ports" \
	grep -qF "$tmp/bad.conf:$((bad + 1)): validate.8 = port port9 up: port port9: not a port of the DUT (port0 port1)" <<<"$out"
rc=0
out=$(FWDLAB_TOPOLOGY_CONF=$tmp/bad.conf "$top/lab/fwdlab" --topology host up 2>&1) || rc=$?
check "up refuses a bad validate line with FILE:LINE" \
	eval '[ "$rc" -ne 0 ] && grep -qF "$tmp/bad.conf:$bad:" <<<"$out"'
check "up started nothing for it" [ ! -e "$FWDLAB_STATE/vfwd.pid" ]

rc=0
lab up >"$tmp/up.log" 2>&1 || rc=$?
sed 's/^/# up: /' "$tmp/up.log" | grep -v VHOST | tail -n 8
check "up succeeds" [ "$rc" -eq 0 ]
check "up prints the version check, held" grep -q '^ok   validate.1 = version: vfwd .*names the live build' "$tmp/up.log"
check "up prints the trial check, held with tx == rx" \
	grep -Eq '^ok   validate.2 = trial 1000 1: tx ([1-9][0-9]*), rx \1$' "$tmp/up.log"

vrun "$conf"
check "lab up: validate exits 0" [ "$rc" -eq 0 ]
check "lab up: both checks hold" grep -q "validate: 2 checks: 2 hold, 0 failed, 0 could not run" <<<"$out"

cp "$conf" "$tmp/fail.conf"
echo "validate.3 = version build-that-is-not-running" >>"$tmp/fail.conf"
fline=$(wc -l <"$tmp/fail.conf")
vrun "$tmp/fail.conf"
check "one check fails: validate exits 1" [ "$rc" -eq 1 ]
check "the failed check names FILE:LINE and what vfwd said" \
	grep -q "^FAIL validate.3 = version build-that-is-not-running: 'vfwd .*' does not contain 'build-that-is-not-running' ($tmp/fail.conf:$fline)" <<<"$out"
check "the others still ran and held" grep -q "validate: 3 checks: 2 hold, 1 failed, 0 could not run" <<<"$out"
stage "down" quiet lab down || true
exit "$TAP_FAILED"
