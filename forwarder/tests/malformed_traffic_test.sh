#!/usr/bin/env bash
# Malformed traffic: a pcap of broken frames (runts below an Ethernet header,
# random bytes behind unknown ethertypes, cut IPv4 headers, version != 4,
# IHL < 5, total length past the frame, bad checksum, TTL 0/1) mixed with good
# UDP goes through vfwd on net_pcap ports. Pass 1 (finite pcap): the good
# frames leave port1 byte for byte and every bad one is counted under its
# reason. Pass 2 (infinite_rx soak, SOAK_SECONDS): vfwd stays alive, the
# counters keep the pcap's proportions and VmRSS stays flat.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-bad-$$-1" "vfwd-bad-$$-2"
soak=${SOAK_SECONDS:-6}
n_frames=1200

ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
rx_packets() { ctl show interfaces | awk '$1 == "port0" { print $NF; exit }'; }
rx_at_least() { [ "$(rx_packets)" -ge "$1" ]; }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status"; }

start() { # pass rx-vdev-args
	"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8 --no-icmp-error
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
		--prefix "vfwd-bad-$$-$1" --port port0 net_pcap "$2" \
		--pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap" --plugins "$build/plugins"
	rm -f "$tmp/cli.sock"
	"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd-$1.log" 2>&1 &
	pid=$!
	wait_for test -S "$tmp/cli.sock"
}

# reason table: class in counts.txt, node, counter text
reasons=(
	"eth_short|ethernet-input|frame too short"
	"ethertype|ethernet-input|unknown ethertype"
	"ip_short|ip4-input|ip4 truncated header"
	"version|ip4-input|ip4 version != 4"
	"ihl|ip4-input|ip4 bad header length"
	"length|ip4-input|ip4 length > l2 length"
	"cksum|ip4-input|ip4 bad checksum"
	"ttl|ip4-rewrite|ip4 ttl <= 1"
)

# ---- pass 1: finite pcap, exact output and exact counters ----
"$pcaptool" vfwd-malformed "$tmp" 00:00:00:00:00:00 "$n_frames"
start 1 "rx_pcap=$tmp/in.pcap,tx_pcap=$tmp/out0.pcap"
if ! wait_for rx_at_least "$(count in)"; then
	sed 's/^/# /' "$tmp/vfwd-1.log"
	tap fail "vfwd_takes_in_every_malformed_frame"
	echo "1..$n_tap"
	exit 1
fi
tap ok "vfwd_takes_in_every_malformed_frame"
wait_walked "$tmp/cli.sock" || true # (the counts below then say what is missing)
mac=$(ctl show hardware | awk '/^port1 /{p=1} p && $1 == "mac" { print $2; exit }')
"$pcaptool" vfwd-malformed "$tmp" "$mac" "$n_frames"
ctl show errors | sed 's/^/# /'
counted_under_reasons "%s_frames_are_dropped_and_counted_under_their_reason" "${reasons[@]}"
ctl show version >/dev/null
kill_wait "$pid"
pid=""
if "$pcaptool" cmp "$tmp/out1.pcap" "$tmp/expect1.pcap"; then
	tap ok "good_frames_amid_malformed_ones_leave_port1_byte_exact"
else
	tap fail "good_frames_amid_malformed_ones_leave_port1_byte_exact"
fi

# ---- pass 2: soak with infinite_rx ----
start 2 "rx_pcap=$tmp/in.pcap,tx_pcap=/dev/null,infinite_rx=1"
# the warm-up before the baseline: the pcap replayed 50 times (every mbuf and table in use)
warm=$((50 * n_frames))
poll_until 60 "vfwd to take in $warm frames (the soak's warm-up)" rx_at_least "$warm" || true
rss0=$(rss_kb)
rss_max=$rss0
rx0=$(rx_packets)
for _ in $(seq 1 "$soak"); do
	sleep 1 # the soak's duration is the subject: VmRSS once a second for $soak s
	kill -0 "$pid" 2>/dev/null || break
	r=$(rss_kb)
	if [ "$r" -gt "$rss_max" ]; then rss_max=$r; fi
done
if kill -0 "$pid" 2>/dev/null && ctl show version >/dev/null; then
	tap ok "vfwd_survives_a_${soak}s_malformed_soak"
else
	sed 's/^/# /' "$tmp/vfwd-2.log"
	tap fail "vfwd_survives_a_${soak}s_malformed_soak"
fi
rx=$(rx_packets)
echo "# soak: $((rx - rx0)) frames in ${soak}s; VmRSS ${rss0} kB -> max ${rss_max} kB"
# flat: under 2 MiB of growth after the warm-up (mbufs and tables are preallocated)
if [ "$((rss_max - rss0))" -lt 2048 ] && [ "$((rx - rx0))" -gt "$n_frames" ]; then
	tap ok "rss_stays_flat_during_the_soak"
else
	tap fail "rss_stays_flat_during_the_soak (+$((rss_max - rss0)) kB, $((rx - rx0)) frames)"
fi
# every reason keeps its share of the mix: one snapshot of show errors, each
# reason's counter / all bad frames counted within 1 point of its pcap share
ctl show errors >"$tmp/soak-errors.txt"
sed 's/^/# /' "$tmp/soak-errors.txt"
ok=ok
bad_total=0
for r in "${reasons[@]}"; do
	bad_total=$((bad_total + $(count "${r%%|*}")))
done
counted_total=0
for r in "${reasons[@]}"; do
	IFS='|' read -r class node text <<<"$r"
	got=$(awk -v n="$node" -v r="$text" '{ c = $1; node = $2; $1 = ""; $2 = "";
		sub(/^  */, ""); if (node == n && $0 == r) print c }' "$tmp/soak-errors.txt")
	eval "got_$class=${got:-0}"
	counted_total=$((counted_total + ${got:-0}))
done
for r in "${reasons[@]}"; do
	class=${r%%|*}
	got_var=got_$class
	# per-mille shares
	want=$(($(count "$class") * 1000 / bad_total))
	got=$((${!got_var} * 1000 / (counted_total > 0 ? counted_total : 1)))
	if [ "$got" -lt "$((want - 10))" ] || [ "$got" -gt "$((want + 10))" ]; then
		echo "# $class: share ${got}/1000, want ${want}/1000"
		ok=fail
	fi
done
[ "$counted_total" -gt "$n_frames" ] || ok=fail
tap "$ok" "soak_counts_every_reason_in_proportion_to_the_mix"
echo "1..$n_tap"
exit "$failed"
