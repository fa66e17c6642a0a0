#!/usr/bin/env bash
# Every configured RX queue is polled: port0 is a net_pcap port with three rx
# queues (one pcap file each, 100 distinct frames per queue) and one worker; all
# 300 frames leave port1, queue 2's included, and show hardware says 3 queues.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-rxq-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }

for q in 0 1 2; do
	"$pcaptool" gen "$tmp/q$q.pcap" --count 100 --size 60 --dst-mac 02:70:63:61:70:00 \
		--src-mac 02:00:00:00:00:02 --src-ip 16.0.0.1 --dst-ip "48.0.$q.1" --dst-ips 100
done
"$pcaptool" gen "$tmp/empty.pcap" --count 0
"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8
"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
	--prefix "vfwd-rxq-$$" --port-opts "num-rx-queues 3" --port port0 net_pcap \
	"rx_pcap=$tmp/q0.pcap,rx_pcap=$tmp/q1.pcap,rx_pcap=$tmp/q2.pcap,tx_pcap=$tmp/out0.pcap" \
	--pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap"
vfwd_start_or_bail
tx1() { ctl show interfaces | awk '$1 == "port1" { p = 1 } p && /tx packets/ { print $NF; exit }'; }
tx_is_300() { [ "$(tx1)" = 300 ]; }
if grep -q "rx queues 3," <<<"$(ctl show hardware)"; then
	tap ok port0_has_three_rx_queues
else
	tap fail port0_has_three_rx_queues
fi
if wait_for tx_is_300; then
	tap ok every_frame_of_every_rx_queue_is_forwarded
else
	echo "# port1 tx $(tx1), want 300"
	ctl show errors | sed 's/^/# /'
	tap fail every_frame_of_every_rx_queue_is_forwarded
fi
kill_wait "$pid"
pid=""
# queue 2's frames (48.0.2.x) are among those sent
n2=$("$pcaptool" check "$tmp/out1.pcap" --dst-ip 48.0.2.0 --dst-ips 256 | awk '{ print $4 }') || true
if [ "$n2" = 100 ]; then
	tap ok queue_2_frames_leave_port1
else
	tap fail "queue_2_frames_leave_port1 ($n2 of 100)"
fi
# asking for more rx queues than the port has is refused, naming the port (was: silently
# fewer queues)
sed -i 's/rx_pcap=[^,]*q1.pcap,rx_pcap=[^,]*q2.pcap,//' "$tmp/startup.conf"
rc=0
timeout 60 "$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd2.log" 2>&1 || rc=$?
if [ "$rc" != 0 ] && grep -q "port0 (net_pcap): num-rx-queues 3, but the port has at most 1 rx queues" "$tmp/vfwd2.log"; then
	tap ok more_rx_queues_than_the_port_has_are_refused_naming_the_port
else
	echo "# exit $rc"; sed 's/^/# /' "$tmp/vfwd2.log" | tail -5
	tap fail more_rx_queues_than_the_port_has_are_refused_naming_the_port
fi
echo "1..$n_tap"
exit "$failed"
