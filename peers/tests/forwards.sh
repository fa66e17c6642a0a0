#!/usr/bin/env bash
# One backend forwards the reference traffic: N_FWD frames 16.0.0.1:1025 -> 48.0.0.1:12 into
# port0 and N_REV frames back into port1; every frame comes out of the other port, rewritten
# as the backend should (EXPECT), the backend's own counters agree, and its dump is complete.
#   forwards.sh BACKEND LINK EXPECT
#   LINK:   pcap  - the DUT's ports are net_pcap files
#           vhost - a testpmd generator plays the pcaps over vhost-user; the DUT is virtio-user
#           veth  - the same generator over net_af_packet on veth pairs (kernel DUT)
#           memif - the same generator as net_memif clients of the DUT's memif sockets (VPP)
#   EXPECT: io | mac | routed | routed-own-mac (see check_out in lib.sh)
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

name=$1 link=$2 expect=$3
test_init
make_pcaps 64
cfg=$T/$name.cfg
out0=$T/out0.pcap out1=$T/out1.pcap

case "$link" in
pcap)
	write_config "$cfg" "net_pcap0,rx_pcap=$T/in0.pcap,tx_pcap=$out0" \
		"net_pcap1,rx_pcap=$T/in1.pcap,tx_pcap=$out1" "eal-args --no-huge -m 1024"
	backend_up "$name" "$cfg" ;;
vhost)
	out0=$T/tg_out0.pcap out1=$T/tg_out1.pcap
	tg_start "net_vhost0,iface=$T/vh0.sock" "net_vhost1,iface=$T/vh1.sock"
	write_config "$cfg" "net_virtio_user0,path=$T/vh0.sock,queue_size=1024" \
		"net_virtio_user1,path=$T/vh1.sock,queue_size=1024" "eal-args --no-huge -m 1024"
	backend_up "$name" "$cfg"
	tg_cmd start ;;
veth)
	out0=$T/tg_out0.pcap out1=$T/tg_out1.pcap
	v0=pt$$a v1=pt$$b
	write_config "$cfg" "veth:$v0" "veth:$v1"
	backend_up "$name" "$cfg"
	tg_start "net_af_packet0,iface=$v0" "net_af_packet1,iface=$v1"
	tg_cmd start ;;
memif)
	# VPP is the memif master: it makes the sockets, the generator connects to them; the
	# frames go only once both links are up (memif drops what it cannot send).
	out0=$T/tg_out0.pcap out1=$T/tg_out1.pcap
	write_config "$cfg" "memif:$T/m0.sock" "memif:$T/m1.sock"
	backend_up "$name" "$cfg"
	tg_start "net_memif0,role=client,id=0,socket=$T/m0.sock,socket-abstract=no,mac=$TG_MAC0" \
		"net_memif1,role=client,id=0,socket=$T/m1.sock,socket-abstract=no,mac=$TG_MAC1"
	vpp_wait_memif_up "$cfg" 60 || true
	tg_cmd start ;;
*)
	echo "forwards.sh: unknown link $link" >&2
	exit 2 ;;
esac

wait_frames "$out1" "$N_FWD" 30 || true
wait_frames "$out0" "$N_REV" 10 || true
stats=$("$BACKEND_CMD" "$name" stats "$cfg")
"$BACKEND_CMD" "$name" dump "$cfg" "$T/dump"
cleared=""
case "$name" in
testpmd-*) "$BACKEND_CMD" "$name" clear "$cfg" && cleared=$("$BACKEND_CMD" "$name" stats "$cfg") ;;
esac
[ "$link" = pcap ] || tg_stop # closing the generator's pcap ports flushes them
"$BACKEND_CMD" "$name" stop "$cfg"

check_out "$name fwd 16.0.0.1->48.0.0.1 port0->port1" "$out1" fwd "$expect"
check_out "$name rev 48.0.0.1->16.0.0.1 port1->port0" "$out0" rev "$expect"
stats_ok "$name" "$stats" "$N_FWD" "$N_FWD" "$N_REV" "$N_REV"

case "$name" in
testpmd-*)
	dump_ok "$name" "$T/dump" fwd_stats.txt port_stats.txt xstats.json
	check "$name: dump has --record-core-cycles figures" \
		grep -q 'CPU cycles/packet=' "$T/dump/fwd_stats.txt"
	stats_ok "$name after clear" "$cleared" 0 0 0 0 ;;
l3fwd)
	dump_ok "$name" "$T/dump" ethdev_stats.json xstats.json log.txt ;;
l3fwd-graph)
	dump_ok "$name" "$T/dump" graph_stats.txt ethdev_stats.json xstats.json
	check "$name: graph stats count the routed frames at ip4_rewrite" \
		awk -v n=$((N_FWD + N_REV)) -F'|' '$2 ~ /ip4_rewrite/ && $4 + 0 == n { f = 1 } END { exit !f }' \
		"$T/dump/graph_stats.txt" ;;
ovs-dpdk)
	dump_ok "$name" "$T/dump" pmd_perf_show.txt pmd_stats_show.txt dump_flows.txt interfaces.txt
	check "$name: pmd-stats-show counts every frame received" \
		grep -Eq "packets received: $((N_FWD + N_REV))\$" "$T/dump/pmd_stats_show.txt"
	check "$name: each route flow matched its frames" \
		bash -c 'grep -q "n_packets=$1,.*nw_dst=48.0.0.0/8" "$3" && grep -q "n_packets=$2,.*nw_dst=16.0.0.0/8" "$3"' \
		_ "$N_FWD" "$N_REV" "$T/dump/dump_flows.txt" ;;
vpp)
	dump_ok "$name" "$T/dump" show_runtime.txt show_errors.txt show_interfaces.txt \
		show_version.txt show_hardware.txt
	check "$name: show runtime has VPP 26's header (Packet-Clocks)" \
		grep -Eq "Name +State +Calls +Vectors +Suspends +Packet-Clocks +Vectors/Call" "$T/dump/show_runtime.txt"
	check "$name: show runtime's ip4-rewrite row counts every routed frame ($((N_FWD + N_REV)))" \
		awk -v n=$((N_FWD + N_REV)) '$1 == "ip4-rewrite" && $4 + 0 == n { f = 1 } END { exit !f }' \
		"$T/dump/show_runtime.txt"
	check "$name: show version names the build that ran" \
		grep -q "^vpp v" "$T/dump/show_version.txt" ;;
vfwd)
	dump_ok "$name" "$T/dump" show_runtime.txt show_errors.txt show_interfaces.txt show_version.txt
	check "$name: show runtime has VPP's header and an ip4-rewrite row" \
		bash -c 'grep -q "Name  *State  *Calls  *Vectors  *Suspends  *Clocks  *Vectors/Call" "$1" && grep -q "^ip4-rewrite " "$1"' _ "$T/dump/show_runtime.txt" ;;
linux)
	dump_ok "$name" "$T/dump" snmp.txt ip_link_stats.txt route.txt neigh.txt
	check "$name: /proc/net/snmp Ip ForwDatagrams counts every frame" \
		awk -v n=$((N_FWD + N_REV)) '/^Ip:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }
			else if ($(c["ForwDatagrams"]) == n) f = 1 } END { exit !f }' "$T/dump/snmp.txt" ;;
esac
echo "1..$tap_n"
exit "$tap_failed"
