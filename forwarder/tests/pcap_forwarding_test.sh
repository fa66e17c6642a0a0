#!/usr/bin/env bash
# Integration: a pcap of mixed traffic enters port0 (net_pcap) and port1
# (net_pcap) must emit exactly the expected packets, byte for byte; every
# dropped packet is counted under its reason. Run twice: plain, and with the
# example feature on port0 (ICMP disappears and is counted).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-pcap-$$"

rx_packets_are() { [ "$(rx_packets)" = "$1" ]; }
rx_packets() {
	"$vfwdctl" -s "$tmp/cli.sock" show interfaces | awk '$1 == "port0" { print $NF; exit }'
}

run() { # name [--example]
	local name=$1 example=${2:-} want got mac
	rm -f "$tmp"/out*.pcap "$tmp/expect1.pcap"
	"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8 --no-icmp-error
	if [ -n "$example" ]; then
		echo "set interface feature port0 example arc ip4-unicast" >>"$tmp/setup.cli"
	fi
	"$pcaptool" vfwd-mixed "$tmp" 00:00:00:00:00:00 ${example:+"$example"}
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
		--prefix "vfwd-pcap-$$" --pcap port0 "$tmp/in.pcap" "$tmp/out0.pcap" \
		--pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap" --plugins "$build/plugins"
	"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd-$name.log" 2>&1 &
	pid=$!
	want=$(count in)
	if ! wait_for test -S "$tmp/cli.sock" || ! wait_for rx_packets_are "$want"; then
		echo "# vfwd did not take in $want packets; log:"
		sed 's/^/# /' "$tmp/vfwd-$name.log"
		tap fail "${name}_vfwd_received_the_pcap"
		return
	fi
	wait_walked "$tmp/cli.sock" || true # (the counts below then say what is missing)
	mac=$("$vfwdctl" -s "$tmp/cli.sock" show hardware | awk '/^port1 /{p=1} p && $1 == "mac" { print $2; exit }')
	"$pcaptool" vfwd-mixed "$tmp" "$mac" ${example:+"$example"}
	"$vfwdctl" -s "$tmp/cli.sock" show errors >"$tmp/errors-$name.txt"
	sed 's/^/# /' "$tmp/errors-$name.txt"
	check_counts "$name" "$example"
	kill_wait "$pid"
	pid=""
	if "$pcaptool" cmp "$tmp/out1.pcap" "$tmp/expect1.pcap"; then
		tap ok "${name}_port1_emits_exactly_the_expected_packets"
	else
		tap fail "${name}_port1_emits_exactly_the_expected_packets"
	fi
	got=$("$pcaptool" count "$tmp/out0.pcap")
	if [ "$got" = "$(count arp)" ] && tcpdump -nr "$tmp/out0.pcap" 2>/dev/null |
		grep -q "Reply 10.0.0.1 is-at"; then
		tap ok "${name}_arp_requests_are_answered_on_port0"
	else
		tap fail "${name}_arp_requests_are_answered_on_port0 (got $got replies)"
	fi
}

check_counts() { # name example
	local name=$1 ok=ok icmp
	[ "$(err_count ip4-rewrite 'ip4 ttl <= 1')" = "$(count ttl)" ] || ok=fail
	[ "$(err_count ip4-input 'ip4 bad checksum')" = "$(count cksum)" ] || ok=fail
	[ "$(err_count ip4-input 'ip4 bad header length')" = "$(count ihl)" ] || ok=fail
	[ "$(err_count ip4-input 'ip4 length > l2 length')" = "$(count length)" ] || ok=fail
	[ "$(err_count ip4-input 'ip4 truncated header')" = "$(count short)" ] || ok=fail
	[ "$(err_count ethernet-input 'unknown ethertype')" = "$(count ethertype)" ] || ok=fail
	[ "$(err_count ip4-lookup 'no route')" = "$(count noroute)" ] || ok=fail
	tap "$ok" "${name}_each_drop_is_counted_under_its_reason"
	icmp=$(err_count example 'icmp packets dropped')
	if [ -n "$2" ]; then
		[ "$icmp" = "$(count icmp)" ] && ok=ok || ok=fail
		tap "$ok" "${name}_example_feature_counts_dropped_icmp"
	else
		[ -z "$icmp" ] && ok=ok || ok=fail
		tap "$ok" "${name}_without_the_feature_no_icmp_is_dropped"
	fi
}

run plain
run example --example
echo "1..$n_tap"
exit "$failed"
