#!/usr/bin/env bash
# shellcheck disable=SC2034 # dut_pid is read by cleanup() in lib.sh
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# tgen -> vfwd -> tgen over the host wiring (vfwd owns the virtio-user sockets): every
# packet routed comes back with its destination MAC rewritten; with the 16.0.0.0/8 route
# missing, the reverse direction of a --bidir run is lost, exactly, and vfwd counts the
# same packets under "no route"; with only 48.0.0.0/30 routed, 8 destination flows lose
# 5 of 8 packets, again matched to vfwd's counter; tgen learns vfwd's MAC by ARP; vfwd takes
# a second tgen after the first one exits (HACKING.md, host topology wiring).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_vfwd_dut
"$VFWD_CONF" setup "$tmp/setup.cli" --addr4 --nbr0 02:00:00:00:00:02 --nbr1 02:00:00:00:01:02 \
	--route1 48.0.0.0/8 --no-icmp-error
# (ICMP errors off: vfwd's destination-unreachable replies to 16.0.0.0/8, which has no
# route back, would add themselves to the "no route" count this test compares with tgen's.)
sed 's|^ip route add 48.0.0.0/8 |ip route add 48.0.0.0/30 |' "$tmp/setup.cli" >"$tmp/setup30.cli"
"$VFWD_CONF" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/SETUP" \
	--prefix "dut-$id" --mem 512 --no-pci --log-level 5 --mbufs 16384 \
	--virtio-user port0 "path=$tmp/port0.sock,server=1,queue_size=4096,mac=$mac0" \
	--virtio-user port1 "path=$tmp/port1.sock,server=1,queue_size=4096,mac=$mac1"
start_vfwd() { # [setup file name]
	rm -f "$tmp/port0.sock" "$tmp/port1.sock"
	sed "s|SETUP|${1:-setup.cli}|" "$tmp/startup.conf" >"$tmp/startup.run.conf"
	setsid "$VFWD" -c "$tmp/startup.run.conf" >>"$tmp/dut.log" 2>&1 </dev/null &
	dut_pid=$!
}
ctl() { "$VFWDCTL" -s "$tmp/cli.sock" "$@"; }
# run_counted JSON ARGS...: a tgen run whose packets vfwd all took. On a busy host vfwd can
# be kept off its core long enough for its receive ring to fill; the packets the port then
# refuses (tx_refused) are lost without a vfwd counter, so such a run is repeated (up to 3
# times, vfwd's errors cleared before each; the first time there is nothing to clear).
run_counted() {
	local json=$1 try refused
	shift
	for try in 1 2 3; do
		ctl clear errors >/dev/null 2>&1 || true
		rc=0
		tgen run "$@" --json "$json" || rc=$?
		show "$tmp/tgen.out"
		[ "$rc" -eq 0 ] || return 0
		refused=$(jq '.trial.tx_refused' "$json")
		[ "$refused" -gt 0 ] || return 0
		echo "# try $try: vfwd's ring refused $refused packets (the host stalled it)"
	done
}
start_vfwd

rc=0
# vfwd's server-mode ports wait for tgen to connect before vfwd runs its setup file and starts
# its workers, so the ARP reply can come only after that: on a loaded host more than tgen's
# default 10 s after the links came up (2026-12-07, beside two TCG guests). tgen waits for the
# reply, asking every 200 ms, for up to 30 s.
tgen link --gw0 10.0.0.1 --ip0 10.0.0.2 --ip1 10.0.1.2 --link-timeout 30 || rc=$?
show "$tmp/tgen.out"
check "tgen_learns_vfwd_port0_mac_by_arp" test "$rc" -eq 0 -a \
	"$(grep -c "^port0: .* dst $mac0" "$tmp/tgen.out")" -eq 1

fwd_run() {
	run_counted "$tmp/fwd.json" --dst-mac0 "$mac0" --rate 10kpps --duration 2 --flows 253 \
		--link-timeout 5 --drain 2
}
fwd_run
check "vfwd_takes_a_second_tgen_after_the_first_exits" test "$rc" -eq 0
if [ "$rc" -ne 0 ]; then
	echo "# restarting vfwd to go on with the other checks"
	stop_dut
	start_vfwd
	fwd_run
fi
check "every_routed_packet_comes_back" test "$rc" -eq 0 -a "$(jq '.trial.tx_packets > 0 and
	.trial.rx_packets == .trial.tx_packets' "$tmp/fwd.json")" = true

stop_dut
start_vfwd
run_counted "$tmp/bidir.json" --dst-mac0 "$mac0" --dst-mac1 "$mac1" --bidir --rate 10kpps \
	--duration 2 --drain 2
ctl show errors >"$tmp/errors.txt" 2>&1 || true
show "$tmp/errors.txt"
tx1=$(jq '.trial.directions[1].tx_packets' "$tmp/bidir.json")
check "reverse_direction_without_route_is_lost_exactly" test "$rc" -eq 0 -a "$tx1" -gt 0 -a \
	"$(jq '.trial.directions[1].rx_packets == 0 and
	.trial.directions[0].rx_packets == .trial.directions[0].tx_packets and
	.trial.loss_packets == .trial.directions[1].tx_packets' "$tmp/bidir.json")" = true
# vfwd's own "no route" counter holds exactly the packets tgen lost, plus at most the warm-up
# packets tgen sent on port1 (a fresh vfwd; warm-up packets that reach a DUT still setting up
# its queues can vanish without a count)
noroute=$(awk '/no route/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; exit } }' \
	"$tmp/errors.txt")
wu1=$(jq '.warmup.tx_packets[1]' "$tmp/bidir.json")
echo "# tgen lost $tx1 of direction 1 (+ $wu1 warm-up); vfwd no route: ${noroute:-none}"
check "vfwd_counts_the_same_drops_under_no_route" test -n "$noroute" -a \
	"${noroute:-0}" -ge "$tx1" -a "${noroute:-0}" -le $((tx1 + wu1))
no_route() { # errors file -> the "no route" count
	awk '/no route/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; exit } }' "$1"
}

# 8 flows over the destination, 48.0.0.1 .. 48.0.0.8; only 48.0.0.0/30 is routed, so the
# flows to .1 .. .3 pass and those to .4 .. .8 (sequence numbers 3..7 mod 8) are dropped
stop_dut
start_vfwd setup30.cli
run_counted "$tmp/dst.json" --dst-mac0 "$mac0" --flows 8 --flow-field dst --rate 10kpps \
	--duration 2 --drain 2
ctl show errors >"$tmp/errors30.txt" 2>&1 || true
show "$tmp/errors30.txt"
loss=$(jq '.trial.loss_packets' "$tmp/dst.json")
wu=$(jq '.warmup.tx_packets[0]' "$tmp/dst.json")
wu_lost=$(awk -v w="$wu" 'BEGIN { n = 0; for (k = 0; k < w; k++) if (k % 8 >= 3) n++; print n }')
nr=$(no_route "$tmp/errors30.txt")
echo "# tgen lost $loss (+ $wu_lost of $wu warm-up); vfwd no route: ${nr:-none}"
check "unrouted_destinations_are_lost_and_match_vfwd_no_route" test "$rc" -eq 0 -a \
	-n "$nr" -a "${nr:-0}" -ge "$loss" -a "${nr:-0}" -le $((loss + wu_lost))
check "five_of_eight_destination_flows_are_lost" awk \
	-v r="$(jq '.trial.loss_ratio' "$tmp/dst.json")" 'BEGIN { exit !(r > 0.6 && r < 0.65) }'
finish
