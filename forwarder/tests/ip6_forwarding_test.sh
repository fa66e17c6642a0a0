#!/usr/bin/env bash
# IPv6 through real DPDK ports (net_pcap), with frames built by pcaptool (peers/tools)
# (stdlib struct, independently of vfwd): good UDP of six sizes leaves port1
# byte for byte as RFC 8200 routing makes it (hop limit - 1, new MACs); hop
# limit 1, version != 6, payload length past the frame, multicast, loopback
# source and link-local destination are each counted under their reason; a
# neighbour solicitation for port0's address gets a neighbour advertisement
# (RFC 4861 7.2.4) and its sender is learned; an echo request gets its reply.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-ip6-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
rx0() { ctl show interfaces | awk '$1 == "port0" { print $NF; exit }'; }
rx_all() { [ "$(rx0)" -ge "$(count in)" ]; }
mac0=02:70:63:61:70:00
mac1=02:70:63:61:70:01

"$pcaptool" vfwd-ip6 "$tmp" "$mac0" "$mac1"
"$vfwd_conf" setup "$tmp/setup.cli" --line "set interface ip address port0 2001:db8::1/64" \
	--line "set interface ip address port1 2001:db8:ff::1/64" \
	--line "set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02" \
	--line "set ip neighbor port0 2001:db8::3 02:00:00:00:00:03" \
	--line "ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1"
"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
	--prefix "vfwd-ip6-$$" --pcap port0 "$tmp/in.pcap" "$tmp/out0.pcap" \
	--pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap"
"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd.log" 2>&1 &
pid=$!
if ! wait_for ctl show version || ! wait_for rx_all; then
	sed 's/^/# /' "$tmp/vfwd.log"
	tap fail vfwd_takes_in_every_frame
	echo "1..$n_tap"
	exit 1
fi
tap ok vfwd_takes_in_every_frame
wait_walked "$tmp/cli.sock" || true # (the counts below then say what is missing)
if [ "$(ctl show hardware | awk '/^port1 /{p=1} p && $1 == "mac" { print $2; exit }')" = "$mac1" ]; then
	tap ok port1_has_the_expected_pcap_mac
else
	tap fail port1_has_the_expected_pcap_mac
fi
ctl show errors | sed 's/^/# /'
counted_under_reasons "ip6_%s_packets_are_dropped_and_counted" \
	"hlim|ip6-rewrite|ip6 hop limit <= 1" "version|ip6-input|ip6 version != 6" \
	"length|ip6-input|ip6 length > l2 length" "mcast|ip6-input|ip6 multicast not forwarded" \
	"msrc|ip6-input|ip6 martian source address" "mdst|ip6-input|ip6 martian destination address"
# the main lcore learns what ip6-nd passed it (its punt ring, polled every 50 ms)
solicitor_learned() {
	ctl show ip6 neighbors | grep -Eq "^port0 +2001:db8::2 +02:00:00:00:00:02 +[0-9]+s +D$"
}
if poll_until 20 "2001:db8::2 learned on port0 (show ip6 neighbors)" solicitor_learned; then
	tap ok soliciting_host_is_learned_as_a_neighbor
else
	ctl show ip6 neighbors | sed 's/^/# /'
	tap fail soliciting_host_is_learned_as_a_neighbor
fi
if grep -Eq "^2001:db8:1::/48 +via 2001:db8:ff::2 port1 resolved" <<<"$(ctl show ip6 fib)"; then
	tap ok show_ip6_fib_lists_the_route
else
	tap fail show_ip6_fib_lists_the_route
fi
kill_wait "$pid"
pid=""
if "$pcaptool" cmp "$tmp/out1.pcap" "$tmp/expect1.pcap"; then
	tap ok "ip6_udp_leaves_port1_byte_exact ($(count good) packets)"
else
	tap fail ip6_udp_leaves_port1_byte_exact
fi
if "$pcaptool" check-nd6 "$tmp/out0.pcap" "$mac0"; then
	tap ok neighbor_solicitation_gets_an_advertisement_and_echo_a_reply
else
	tap fail neighbor_solicitation_gets_an_advertisement_and_echo_a_reply
fi
echo "1..$n_tap"
exit "$failed"
