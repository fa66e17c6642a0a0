#!/usr/bin/env bash
# Integration: `dpdk { rx-burst N }` caps the packets read per rte_eth_rx_burst() call, and so
# the vectors a walk starts with. A pcap of mixed traffic goes through vfwd twice, with
# rx-burst 16 and with the default (64): show runtime's ethernet-input takes in every packet
# in at least ceil(packets / cap) calls (with 256 the pcap's 600 packets come in 3). A bad value
# is refused with FILE:LINE.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-rxb-$$"

"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8
"$pcaptool" vfwd-mixed "$tmp" 00:00:00:00:00:00
want=$(awk '$1 == "in" { print $2 }' "$tmp/counts.txt")

run_with() { # CAP (empty: the default) NAME
	local cap=$1 name=$2 calls vectors
	rm -f "$tmp/cli.sock"
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
		--prefix "vfwd-rxb-$$" ${cap:+--rx-burst "$cap"} \
		--pcap port0 "$tmp/in.pcap" "$tmp/out0.pcap" --pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap"
	vfwd_start_or_bail "${name}_vfwd_starts"
	if wait_for port0_rx_packets_are "$want"; then
		tap ok "${name}_takes_in_every_packet"
	else
		tap fail "${name}_takes_in_every_packet"
	fi
	ctl show runtime json >"$tmp/rt.json"
	# ethernet-input gets one call per rx vector (port1's pcap is empty): it takes in
	# every packet, in at least ceil(packets / cap) calls
	read -r calls vectors < <(jq -r '[.threads[].nodes[] | select(.name == "ethernet-input")] |
		[(map(.calls) | add), (map(.vectors) | add)] | @tsv' "$tmp/rt.json")
	cap=${cap:-64}
	echo "# rx-burst $cap: ethernet-input calls $calls vectors $vectors (packets $want)"
	if [ "$vectors" -eq "$want" ] && [ "$calls" -ge $(((want + cap - 1) / cap)) ]; then
		tap ok "${name}_reads_at_most_${cap}_packets_per_call"
	else
		sed 's/^/# /' "$tmp/rt.json" | head -40
		tap fail "${name}_reads_at_most_${cap}_packets_per_call"
	fi
	kill_wait "$pid"
	pid=""
}

run_with 16 rx_burst_16
run_with "" rx_burst_default

printf 'dpdk {\n\teal-args "--no-huge"\n\trx-burst 0\n}\n' >"$tmp/bad.conf"
rc=0
"$vfwd" --check -c "$tmp/bad.conf" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q "^$tmp/bad.conf:3: 'rx-burst' wants a number in 1..256, not '0'" "$tmp/out"; then
	tap ok "rx_burst_0_is_refused_with_file_and_line"
else
	sed 's/^/# /' "$tmp/out"
	tap fail "rx_burst_0_is_refused_with_file_and_line"
fi
echo "1..$n_tap"
