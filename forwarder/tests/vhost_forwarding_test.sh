#!/usr/bin/env bash
# Integration over vhost-user/virtio-user with --no-huge, dpdk-testpmd as the
# peer (net_vhost client=1, io forwarding between its two ports). testpmd's
# tx_first burst (32 packets per port, TTL 64) loops through vfwd until the
# TTL runs out, so the counts are exact: every packet is forwarded 63 times and
# then dropped as "ip4 ttl <= 1". testpmd then quits and a new one connects:
# vfwd keeps running and forwards for the second peer as well. vfwd takes only
# frames for its own MACs, so its ports get fixed MACs, testpmd sends to them,
# and the neighbour behind port1 is given port0's MAC (testpmd's io loop
# returns each frame to port0 unchanged).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dpdk-testpmd >/dev/null || { echo "# dpdk-testpmd not installed"; exit 77; }
vhost_test_setup "vfwd-vh-$$" "vfwd-tp-$$-1" "vfwd-tp-$$-2"
counter() { # port counter-name
	ctl show interfaces | awk -v p="$1" -v c="$2" '
		$1 == p { cur = 1 } $1 ~ /^port/ && $1 != p { cur = 0 }
		cur { line = $0; sub(/^.* {2,}/, "", line) } cur && index($0, c) { print $NF; exit }'
}

start_testpmd() { # log
	vhost_peer_start "vfwd-tp-$$-$1" 1 "$tmp/tp.in.$1" "$tmp/testpmd-$1.log"
}

vhost_vfwd_start "vfwd-vh-$$" 1

round() { # n: one testpmd session
	local n=$1 want=$((64 * $1))
	start_testpmd "$n"
	if ! wait_for test -S "$tmp/cli.sock" || ! wait_for links_up; then
		echo "# round $n: links not up"; sed 's/^/# /' "$tmp/vfwd.log" | tail -20
		tap fail "round${n}_virtio_user_links_come_up"
		return
	fi
	tap ok "round${n}_virtio_user_links_come_up"
	sleep 1
	echo "start tx_first" >&3
	if wait_for ttl_drops_are "$want"; then
		tap ok "round${n}_every_packet_is_forwarded_until_its_ttl_expires"
	else
		echo "# ttl drops: $(ttl_drops), want $want"
		tap fail "round${n}_every_packet_is_forwarded_until_its_ttl_expires"
	fi
	local tx1 rx0
	tx1=$(counter port1 "tx packets")
	rx0=$(counter port0 "rx packets")
	if [ "$tx1" = $((4032 * n)) ] && [ "$rx0" = $((4064 * n)) ]; then
		tap ok "round${n}_interface_counters_match_the_ttl_arithmetic"
	else
		echo "# port1 tx $tx1 (want $((4032 * n))), port0 rx $rx0 (want $((4064 * n)))"
		tap fail "round${n}_interface_counters_match_the_ttl_arithmetic"
	fi
	echo "quit" >&3
	exec 3>&-
	for _ in $(seq 1 50); do kill -0 "$tpid" 2>/dev/null || break; sleep 0.2; done
	kill_wait "$tpid"
	tpid=""
}

round 1
round 2
if kill -0 "$vpid" 2>/dev/null && ctl show version >/dev/null; then
	tap ok vfwd_survives_peer_disconnects
else
	tap fail vfwd_survives_peer_disconnects
fi
kill "$vpid"
rc=0
wait "$vpid" || rc=$?
vpid=""
if [ "$rc" = 0 ]; then
	tap ok vfwd_exits_cleanly_on_sigterm
else
	echo "# vfwd exit status $rc"; tail -5 "$tmp/vfwd.log" | sed 's/^/# /'
	tap fail vfwd_exits_cleanly_on_sigterm
fi
echo "1..$n_tap"
exit "$failed"
