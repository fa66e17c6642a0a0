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
need_testpmd
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
	# vfwd's ports and testpmd's (its vhost queues take packets only once it saw the link up;
	# tx_first sends at once, and the counts below are exact)
	if ! wait_for test -S "$tmp/cli.sock" || ! wait_for links_up ||
		! poll_until 20 "testpmd's links up (both ports' link state change in its log)" \
			peer_links_up "$tmp/testpmd-$n.log"; then
		echo "# round $n: links not up"; sed 's/^/# /' "$tmp/vfwd.log" | tail -20
		sed 's/^/# testpmd: /' "$tmp/testpmd-$n.log" | tail -20
		tap fail "round${n}_virtio_user_links_come_up"
		return
	fi
	tap ok "round${n}_virtio_user_links_come_up"
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
	poll_until 10 "testpmd (pid $tpid) to exit on 'quit'" gone "$tpid" || true
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
