#!/usr/bin/env bash
# Bad configs and command lines are refused with FILE:LINE and exit 2, before anything runs;
# status of a backend that is not running says so with exit 3.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
test_init

refused() { # NAME WANT_REGEX BACKEND VERB CONFIG_TEXT
	local name=$1 want=$2 b=$3 verb=$4 rc=0 err
	printf '%s\n' "$5" >"$T/bad.cfg"
	err=$("$BACKEND_CMD" "$b" "$verb" "$T/bad.cfg" 2>&1 >/dev/null) || rc=$?
	if [ $rc -eq 2 ] && [[ $err =~ $want ]]; then
		ok "$name ($err)"
	else
		not_ok "$name: exit $rc, stderr '$err', want exit 2 and /$want/"
	fi
}

good="port0 net_null0
port1 net_null1
neighbor port1 10.0.1.2 02:00:00:00:01:02"
refused "unknown key names FILE:LINE" "bad.cfg:4: unknown key 'colour'" testpmd-io start \
	"$good
colour blue"
refused "bad prefix length names FILE:LINE" "bad.cfg:4: bad prefix '48.0.0.0/33'" l3fwd start \
	"$good
route 48.0.0.0/33 via 10.0.1.2 port1"
refused "bad MAC names FILE:LINE" "bad.cfg:2: bad MAC '02:00:00:00:01'" linux start \
	"port0 veth:a
neighbor port0 10.0.0.2 02:00:00:00:01"
refused "unknown port names FILE:LINE" "bad.cfg:1: unknown port 'port7'" ovs-dpdk start \
	"address port7 10.0.0.1/24"
refused "route without a neighbor is refused" "route 16.0.0.0/8: no neighbor 10.0.0.2 on port0" \
	l3fwd start "$good
route 16.0.0.0/8 via 10.0.0.2 port0"
refused "missing port1 is refused" "bad.cfg:1: port1 is missing" testpmd-io start "port0 net_null0"
refused "l3fwd refuses two next hops on one port" "one next-hop MAC per port" l3fwd start \
	"$good
neighbor port1 10.0.1.3 02:00:00:00:01:03
route 48.0.0.0/8 via 10.0.1.2 port1
route 49.0.0.0/8 via 10.0.1.3 port1
run-dir $T/run"
refused "linux refuses a DPDK device string" "linux port0 must be veth:NAME or iface:NAME" linux start \
	"$good
run-dir $T/run"

printf '%s\nrun-dir %s\nfile-prefix peers-test-%s\n' "$good" "$T/run" $$ >"$T/good.cfg"
rc=0
out=$("$BACKEND_CMD" l3fwd status "$T/good.cfg") || rc=$?
check "status of a stopped backend exits 3 and says stopped ($out)" test "$rc:$out" = "3:stopped"
rc=0
"$BACKEND_CMD" no-such-backend start "$T/good.cfg" 2>/dev/null || rc=$?
check "an unknown backend is refused with exit 2" test $rc -eq 2
check "list names the seven peers and vfwd" test "$("$BACKEND_CMD" list | tr '\n' ' ')" = \
	"l3fwd l3fwd-graph linux ovs-dpdk testpmd-io testpmd-mac vfwd vpp "
echo "1..$tap_n"
exit "$tap_failed"
