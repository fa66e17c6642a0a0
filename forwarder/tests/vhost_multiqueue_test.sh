#!/usr/bin/env bash
# Multi-queue virtio-user: both vfwd ports are net_virtio_user with queues=2 and
# `num-rx-queues 2`, the peer is dpdk-testpmd (net_vhost, --rxq=2 --txq=2, io).
# virtio-user has no RSS (the vhost peer picks the queue it sends on), so vfwd must
# not ask the PMD for RSS: before, it did, and DPDK 22.11's virtio refused to
# configure the port ("RSS support requested but not supported by the device").
# testpmd's tx_first sends 32 packets on each of its 4 tx queues; they loop through
# vfwd until their TTL runs out, so the counts are exact: 128 TTL drops, 8064 sent
# on port1, 8192 received, 32 of them on queue 1 of each port (one worker polls all
# four queues).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_testpmd
vhost_test_setup "vfwd-mq-$$" "vfwd-mqtp-$$"
counter() { # port counter-name
	ctl show interfaces | awk -v p="$1" -v c="$2" '
		$1 == p { cur = 1 } $1 ~ /^port/ && $1 != p { cur = 0 }
		cur && index($0, c) { print $NF; exit }'
}
xstat() { # port name: from show hardware
	ctl show hardware | awk -v p="$1" -v x="$2" '
		$1 == p { cur = 1; next } $1 ~ /^port/ { cur = 0 } cur && $1 == x { print $2; exit }'
}

vhost_vfwd_start "vfwd-mq-$$" 2 "num-rx-queues 2"
vhost_peer_start "vfwd-mqtp-$$" 2 "$tmp/tp.in" "$tmp/testpmd.log" --rxq=2 --txq=2

# vfwd's ports and testpmd's (its vhost queues take packets only once it saw the link up;
# tx_first sends at once, and the counts below are exact)
if ! wait_for test -S "$tmp/cli.sock" || ! wait_for links_up ||
	! poll_until 20 "testpmd's links up (both ports' link state change in its log)" \
		peer_links_up "$tmp/testpmd.log"; then
	echo "# links not up"
	sed 's/^/# vfwd: /' "$tmp/vfwd.log" | tail -20
	sed 's/^/# testpmd: /' "$tmp/testpmd.log" | tail -20
	tap fail virtio_user_ports_with_two_queues_start_and_link
	echo "1..$n_tap"
	exit 1
fi
tap ok virtio_user_ports_with_two_queues_start_and_link
if grep -q "rx queues 2," <<<"$(ctl show hardware)" &&
	grep -q "rx queue spread: by the sender" <<<"$(ctl show hardware)"; then
	tap ok show_hardware_gives_two_rx_queues_spread_by_the_sender
else
	ctl show hardware | sed 's/^/# /' | head -20
	tap fail show_hardware_gives_two_rx_queues_spread_by_the_sender
fi
echo "start tx_first" >&3
if wait_for ttl_drops_are 128; then
	tap ok every_packet_of_both_queues_is_forwarded_until_its_ttl_expires
else
	echo "# ttl drops: $(ttl_drops), want 128"
	tap fail every_packet_of_both_queues_is_forwarded_until_its_ttl_expires
fi
tx1=$(counter port1 "tx packets")
rx=$(($(counter port0 "rx packets") + $(counter port1 "rx packets")))
if [ "$tx1" = 8064 ] && [ "$rx" = 8192 ]; then
	tap ok counters_add_up_rx_equals_tx_plus_ttl_drops
else
	echo "# port1 tx $tx1 (want 8064), rx $rx (want 8192)"
	tap fail counters_add_up_rx_equals_tx_plus_ttl_drops
fi
q1_0=$(xstat port0 rx_q1_good_packets) q1_1=$(xstat port1 rx_q1_good_packets)
if [ "$q1_0" = 32 ] && [ "$q1_1" = 32 ]; then
	tap ok queue_1_of_each_port_is_polled
else
	echo "# rx_q1_good_packets: port0 $q1_0, port1 $q1_1 (want 32 each)"
	ctl show hardware | sed 's/^/# /' | head -40
	tap fail queue_1_of_each_port_is_polled
fi
echo "quit" >&3
exec 3>&-
poll_until 10 "testpmd (pid $tpid) to exit on 'quit'" gone "$tpid" || true
kill_wait "$tpid"
tpid=""
echo "1..$n_tap"
exit "$failed"
