#!/usr/bin/env bash
# Shared helpers of tgen's integration tests (sourced). Every test gets its own folder,
# sockets and --file-prefix, and a trap that stops what it started.
# shellcheck disable=SC2034 # variables are used by the sourcing tests
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
TGEN=${TGEN:-$TOP/build/tgen/bin/tgen}
CAPDUT=${CAPDUT:-$TOP/build/tgen/tests/capdut}
VFWD=${VFWD:-$TOP/build/vfwd/default/bin/vfwd}
VFWD_CONF=$TOP/tests/lib/vfwd-conf # writes startup.conf and setup.cli
tmp=$(mktemp -d /tmp/tgen-test.XXXXXX)
id=$(basename "$tmp")
dut_pid=""
# TAP lines (check, ...): tests/lib/tap.sh; ntap and nfail are its TAP_N and TAP_NFAIL.
# shellcheck source=tests/lib/tap.sh
. "$TOP/tests/lib/tap.sh"
tap_alias ntap tgen_tap_failed nfail
: "${ntap:=0}" "${nfail:=0}" # (assigned, for shellcheck, which does not follow namerefs)

pid_gone() { ! kill -0 "$1" 2>/dev/null; } # PID: the process has ended
cleanup() {
	if [ -n "$dut_pid" ] && kill -0 "$dut_pid" 2>/dev/null; then
		kill "$dut_pid" 2>/dev/null || true
		poll_until 3 "the DUT (pid $dut_pid) to end after SIGTERM; SIGKILL next" \
			pid_gone "$dut_pid" || kill -9 "$dut_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp" "/var/run/dpdk/dut-$id" "/var/run/dpdk/tg-$id"
}
trap cleanup EXIT

ok() { tap_result "$1" "$2"; } # condition-status name

finish() { tap_done; }

need() { # file: skip the whole test when a binary is missing
	if [ ! -x "$1" ]; then
		echo "1..0 # SKIP $1 not built"
		exit 77
	fi
}

DUT_EAL=(--no-huge -m 512 --no-pci --file-prefix "dut-$id" --log-level=5
	--vdev "net_virtio_user0,path=$tmp/port0.sock,server=1,queue_size=4096"
	--vdev "net_virtio_user1,path=$tmp/port1.sock,server=1,queue_size=4096")
TG_EAL=(-l 0 --no-huge -m 512 --no-pci --file-prefix "tg-$id" --log-level=5
	--vdev "net_vhost0,iface=$tmp/port0.sock,client=1"
	--vdev "net_vhost1,iface=$tmp/port1.sock,client=1")

# need_vfwd_dut: tgen, vfwd and vfwdctl built (else skip); VFWDCTL, and the fixed MACs of
# vfwd's two virtio-user ports, mac0 and mac1 (tgen sends to them).
need_vfwd_dut() {
	need "$TGEN"
	need "$VFWD"
	VFWDCTL=${VFWDCTL:-$(dirname "$VFWD")/vfwdctl}
	need "$VFWDCTL"
	mac0=02:fe:00:00:00:01
	mac1=02:fe:00:00:00:02
}

start_testpmd() { # extra testpmd args
	setsid dpdk-testpmd -l 0,1 "${DUT_EAL[@]}" -- --total-num-mbufs=32768 \
		--forward-mode=io --rxd=4096 --txd=4096 --stats-period 1 "$@" >"$tmp/dut.log" 2>&1 </dev/null &
	dut_pid=$!
}

start_capdut() { # capdut args
	setsid "$CAPDUT" -l 1 "${DUT_EAL[@]}" -- "$@" >"$tmp/dut.log" 2>&1 </dev/null &
	dut_pid=$!
}

stop_dut() {
	kill "$dut_pid" 2>/dev/null || true
	wait "$dut_pid" 2>/dev/null || true
	dut_pid=""
}

# vfwd_wait_cli: until vfwd answers on $tmp/cli.sock (20 s at most, then a comment naming
# what it waited for; the test's checks say what failed)
vfwd_wait_cli() {
	poll_until 20 "vfwd's CLI to answer show version on $tmp/cli.sock" \
		"$VFWDCTL" -s "$tmp/cli.sock" show version
}

tgen() { # tgen mode args... ; output in $tmp/tgen.out
	"$TGEN" "${TG_EAL[@]}" -- "$@" >"$tmp/tgen.out" 2>&1
}

jq_num() { # file filter
	jq -r "$2" "$1"
}

jqe() { # jq -e, quietly
	jq -e "$@" >/dev/null
}

show() { # file: print as TAP comments
	sed 's/^/# /' "$1"
}
