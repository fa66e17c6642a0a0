#!/usr/bin/env bash
# Shared helpers for the forwarder's shell tests (sourced).
# shellcheck disable=SC2034
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=${TOP:-$(cd "$here/../.." && pwd)}
build=${VFWD_BUILD:-$top/build/vfwd/default}
testbin=${VFWD_TESTBIN:-$top/build/vfwd-tests}
vfwd=$build/bin/vfwd
vfwdctl=$build/bin/vfwdctl
# the one pcap tool of the tree (peers/tools; `make -C forwarder check` builds it)
pcaptool=${PCAPTOOL:-$top/build/peers/tools/pcaptool}
# the one writer of startup.conf and setup.cli (tests/lib/vfwd-conf)
vfwd_conf=$top/tests/lib/vfwd-conf
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
tap_alias n_tap failed # the tests' names for TAP_N and TAP_FAILED
: "${n_tap:=0}" "${failed:=0}" # (assigned, for shellcheck, which does not follow namerefs)

tap() { # ok|fail name
	if [ "$1" = ok ]; then tap_ok "$2"; else tap_not_ok "$2"; fi
}

# wait_for CMD... : waits up to 20 s for CMD to succeed (tap.sh's poll_until; a timeout
# prints "# timed out after 20 s waiting for CMD...")
wait_for() { poll_until 20 "$*" "$@"; }

# gone PID: the process has exited (a poll_until condition)
gone() { ! kill -0 "$1" 2>/dev/null; }

# rx_calls SOCK: the calls of every <port>-rx node of every worker (`show runtime json`), one
# number per node; each worker calls each of its rx nodes once per graph walk
rx_calls() {
	"$vfwdctl" -s "$1" show runtime json |
		jq -c '[.threads[].nodes[] | select(.name | endswith("-rx")) | .calls]'
}
rx_calls_past() { # SOCK BASE: every rx node was called at least twice since BASE (rx_calls)
	"$vfwdctl" -s "$1" show runtime json | jq -e --argjson b "$2" '
		[.threads[].nodes[] | select(.name | endswith("-rx")) | .calls] as $c |
		($c | length) == ($b | length) and all(range(0; $c | length); $c[.] >= $b[.] + 2)'
}
# wait_walked [SOCK]: waits until every worker has walked its graph twice more, so the walk
# that took in the last frame counted so far is over: its packets are sent, dropped or held,
# and counted. SOCK defaults to $tmp/cli.sock.
wait_walked() {
	local sock=${1:-$tmp/cli.sock} base
	base=$(rx_calls "$sock")
	poll_until 20 "two more graph walks of every worker (the walk of the last frame taken in to end)" \
		rx_calls_past "$sock" "$base"
}

# peer_links_up LOG: testpmd's log (a vhost-user peer) reports the link state change of
# both its ports: its vhost queues take packets from then on
peer_links_up() {
	grep -q '^Port 0: link state change event' "$1" &&
		grep -q '^Port 1: link state change event' "$1"
}

# need_testpmd: dpdk-testpmd is installed (Debian's dpdk-dev, in forwarder/apt-packages.txt,
# which `make deps` installs); when it is not, one "not ok" naming it and exit 1
have_testpmd() { command -v dpdk-testpmd >/dev/null; }
need_testpmd() {
	need "dpdk-testpmd (Debian package dpdk-dev, listed in forwarder/apt-packages.txt: make deps)" \
		have_testpmd
}

# kill_wait PID: stop a process we started and reap it
kill_wait() {
	local pid=$1
	kill "$pid" 2>/dev/null || return 0
	poll_until 5 "pid $pid to exit on SIGTERM (SIGKILL next)" gone "$pid" || true
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# dpdk_runtime_cleanup PREFIX...: remove the EAL runtime folders our processes left
dpdk_runtime_cleanup() {
	local p base=${XDG_RUNTIME_DIR:-/var/run}
	[ "$(id -u)" = 0 ] && base=/var/run
	for p in "$@"; do
		rm -rf -- "$base/dpdk/$p"
	done
}

# vfwd_test_setup PREFIX...: the set-up of a test that runs one vfwd at a time: $tmp, an
# empty $pid (set it to vfwd's pid), and an EXIT trap that stops that vfwd, removes the
# DPDK runtime folders of the given file prefixes, and removes $tmp.
vfwd_test_setup() {
	vfwd_test_prefixes=("$@")
	tmp=$(mktemp -d)
	pid=""
	trap vfwd_test_cleanup EXIT
}
vfwd_test_cleanup() {
	if [ -n "$pid" ]; then kill_wait "$pid"; fi
	dpdk_runtime_cleanup "${vfwd_test_prefixes[@]}"
	rm -rf "$tmp"
}

# vfwd_start_or_bail [TAP-NAME]: vfwd on $tmp/startup.conf in the background (its log in
# $tmp/vfwd.log, its pid in $pid), waited for until its CLI ($tmp/cli.sock) answers; if it
# does not: its log as TAP comments, "not ok - TAP-NAME" (vfwd_starts), the plan, exit 1.
vfwd_start_or_bail() {
	"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd.log" 2>&1 &
	pid=$!
	if ! wait_for "$vfwdctl" -s "$tmp/cli.sock" show version; then
		sed 's/^/# /' "$tmp/vfwd.log"
		tap fail "${1:-vfwd_starts}"
		echo "1..$n_tap"
		exit 1
	fi
}

# vhost_test_setup PREFIX...: the set-up of a test of vfwd (its pid in $vpid) against a
# testpmd peer (its pid in $tpid, its stdin on fd 3): $tmp, and an EXIT trap that stops both,
# closes fd 3, removes the DPDK runtime folders of the given prefixes and (unless KEEP is
# set) $tmp. The helpers below read vfwd's CLI on $tmp/cli.sock.
vhost_test_setup() {
	vhost_test_prefixes=("$@")
	tmp=$(mktemp -d)
	vpid="" tpid=""
	trap vhost_test_cleanup EXIT
}
vhost_test_cleanup() {
	if [ -n "$tpid" ]; then kill_wait "$tpid"; fi
	if [ -n "$vpid" ]; then kill_wait "$vpid"; fi
	exec 3>&- || true
	dpdk_runtime_cleanup "${vhost_test_prefixes[@]}"
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
# port0's rx packets in `show interfaces`, and a wait_for condition on them
port0_rx_packets() { ctl show interfaces | awk '$1 == "port0" { print $NF; exit }'; }
port0_rx_packets_are() { [ "$(port0_rx_packets)" = "$1" ]; }
ttl_drops() { ctl show errors | awk '$2 == "ip4-rewrite" && /ttl <= 1/ { print $1 }'; }
ttl_drops_are() { [ "$(ttl_drops)" = "$1" ]; }
links_up() { [ "$(ctl show interfaces | awk '$1 ~ /^port/ && $3 == "up"' | wc -l)" = 2 ]; }
# vhost_vfwd_start PREFIX QUEUES [PORT-OPTS]: vfwd with two net_virtio_user ports (servers on
# $tmp/vh0.sock and vh1.sock, QUEUES queues, MACs 02:00:00:00:aa:00 and :01, PORT-OPTS such as
# "num-rx-queues 2"), routing 198.18/16 back to port0's MAC through port1; its pid in $vpid.
vhost_vfwd_start() {
	local prefix=$1 q=$2
	local -a po=()
	[ -z "${3:-}" ] || po=(--port-opts "$3")
	"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:aa:00 \
		--route1 198.18.0.0/16 --no-icmp-error
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
		--prefix "$prefix" --mbufs 8192 \
		"${po[@]}" --virtio-user port0 "path=$tmp/vh0.sock,server=1,queues=$q,mac=02:00:00:00:aa:00" \
		"${po[@]}" --virtio-user port1 "path=$tmp/vh1.sock,server=1,queues=$q,mac=02:00:00:00:aa:01"
	"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd.log" 2>&1 &
	vpid=$!
}
# vhost_peer_start PREFIX QUEUES FIFO LOG [TESTPMD-ARG...]: dpdk-testpmd as vfwd's vhost-user
# peer on $tmp/vh0.sock and vh1.sock (QUEUES queues each; io forwarding back to vfwd's port
# MACs), reading commands from the fifo FIFO (held open on fd 3), its pid in $tpid.
vhost_peer_start() {
	local prefix=$1 q=$2 fifo=$3 log=$4
	shift 4
	mkfifo "$fifo"
	dpdk-testpmd -l 0,1 --no-huge -m 256 --file-prefix "$prefix" --no-pci \
		--log-level='*:warning' \
		--vdev "net_vhost0,iface=$tmp/vh0.sock,queues=$q,client=1" \
		--vdev "net_vhost1,iface=$tmp/vh1.sock,queues=$q,client=1" \
		-- -i --forward-mode=io --nb-cores=1 "$@" --total-num-mbufs=4096 \
		--eth-peer=0,02:00:00:00:aa:00 --eth-peer=1,02:00:00:00:aa:01 \
		<"$fifo" >"$log" 2>&1 &
	tpid=$!
	exec 3>"$fifo"
}

# count CLASS: CLASS's line in $tmp/counts.txt (what pcaptool wrote); err_count NODE REASON:
# vfwd's counter of that error (show errors).
count() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/counts.txt"; }
err_count() {
	"$vfwdctl" -s "$tmp/cli.sock" show errors | awk -v n="$1" -v r="$2" '
		{ c = $1; node = $2; $1 = ""; $2 = ""; sub(/^  */, ""); if (node == n && $0 == r) print c }'
}

# counted_under_reasons NAME-FORMAT CLASS|NODE|REASON...: one TAP line per reason, ok when
# vfwd counted NODE/REASON as often as counts.txt has frames of CLASS (%s in NAME-FORMAT is
# the class).
counted_under_reasons() {
	local fmt=$1 r class node text got name
	shift
	for r in "$@"; do
		IFS='|' read -r class node text <<<"$r"
		got=$(err_count "$node" "$text")
		# shellcheck disable=SC2059 # the format is the caller's
		name=$(printf "$fmt" "$class")
		if [ "${got:-0}" = "$(count "$class")" ]; then
			tap ok "$name"
		else
			tap fail "$name (got ${got:-0}, want $(count "$class"))"
		fi
	done
}
