#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# Bad input gets a clear message and a non-zero exit: a bad profile, a missing port, an
# impossible rate, a bad frame size (udp6: below its 82 B minimum), bad IPv6 addresses, a DUT that never comes up, a gateway that never answers.
# Runs on net_null ports (no DUT needed) except where a vhost port is the point.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"

NULL_EAL=(-l 0 --no-huge -m 256 --no-pci --file-prefix "tg-$id" --log-level=5
	--vdev net_null0 --vdev net_null1)

fails_with() { # regex tgen-args... : exit status non-zero and stderr/stdout matches
	local re=$1 rc=0
	shift
	"$TGEN" "${NULL_EAL[@]}" -- "$@" >"$tmp/out" 2>&1 || rc=$?
	grep -v -E '^(EAL|TELEMETRY)' "$tmp/out" | sed 's/^/# /' | tail -n 3
	[ "$rc" -ne 0 ] && grep -Eq "$re" "$tmp/out"
}

check "bad_profile_is_refused" fails_with "unknown profile" run --profile tcp
check "bad_frame_size_is_refused" fails_with "frame size must be" run --size 10000
check "rate_above_line_rate_is_impossible" fails_with "rate impossible" \
	run --rate 20mpps --duration 1 --warmup 0
check "rate_above_a_1g_link_is_impossible" fails_with "rate impossible" \
	run --link 1gbps --rate 2mpps --duration 1 --warmup 0
check "bad_rate_unit_is_refused" fails_with "bad rate" run --rate 5furlongs
check "unknown_mode_is_refused" fails_with "unknown mode" sweep
check "udp6_frame_below_its_82_byte_minimum_is_refused" \
	fails_with "^tgen: --size 78: a udp6 frame is at least 82 B \(Ethernet 14 \+ IPv6 40" \
	run --profile udp6 --size 78
check "bad_ipv6_source_is_refused" fails_with "^tgen: --src6 2001:db8::g: bad IPv6 address\$" \
	run --profile udp6 --src6 2001:db8::g
check "ipv4_address_as_ipv6_destination_is_refused" \
	fails_with "^tgen: --dst6 48.0.0.1: bad IPv6 address\$" run --profile udp6 --dst6 48.0.0.1
check "ipv6_addresses_without_the_udp6_profile_are_refused" \
	fails_with "^tgen: --src6/--dst6 apply to the udp6 profile only\$" run --src6 2001:db8::5
check "min_rate_above_max_rate_is_refused" fails_with "above --max-rate" \
	ndr --min-rate 2mpps --max-rate 1mpps --warmup 0

# every option's argument error names the option (its family: --gw for --gw1) and the rule
while IFS='|' read -r name args msg; do
	# shellcheck disable=SC2086 # args are words
	check "option_error_$name" fails_with "^tgen: $msg\$" run $args
done <<'EOF'
flows_zero|--flows 0|--flows 0: must be an integer in 1..16777216
flow_field|--flow-field x|--flow-field x: src or dst
flow_order|--flow-order random|--flow-order random: inc or rnd
queues_nine|--queues 9|--queues 9: queues per port in 1..8
duration_zero|--duration 0|--duration 0: seconds in 0.001..86400
drain_too_long|--drain 61|--drain 61: seconds in 0..60
pacing_unknown|--pacing lazy|--pacing lazy: busy, sleep or auto
link_in_pps|--link 5kpps|--link 5kpps: bits per second, e.g. 10gbps
ports_one|--ports 1|--ports 1: give two ethdev ids, e.g. 0,1
dst_mac1|--dst-mac1 zz|--dst-mac zz: bad MAC address
gw1|--gw1 1.2.3|--gw 1.2.3: bad IPv4 address
pdr_loss|--pdr-loss 2|--pdr-loss 2: a ratio in 0..1 \(or 0..100%\)
width|--width 0.6|--width 0.6: a ratio in 0.000001..0.5
rate_tolerance|--rate-tolerance 60%|--rate-tolerance 60%: a ratio in 0..0.5 \(or 0..50%\)
max_trials|--max-trials 0|--max-trials 0: 1..10000
desc|--desc 10|--desc 10: 64..16384
method|--method bisect|--method bisect: binary or mlrsearch
exceed_ratio|--exceed-ratio 100%|--exceed-ratio 100%: a ratio in 0..0.99 \(or 0..99%\)
duration_sum|--duration-sum 0|--duration-sum 0: seconds in 0.001..86400
latency_loads_range|--latency-loads 0,120|--latency-loads 0,120: comma-separated percents of the PDR in 0..100 \(at most 8\), or none
latency_loads_junk|--latency-loads 10,x|--latency-loads 10,x: comma-separated percents of the PDR in 0..100 \(at most 8\), or none
EOF

rc=0
"$TGEN" -l 0 --no-huge -m 256 --no-pci --file-prefix "tg-$id" --vdev net_null0 -- run \
	>"$tmp/out" 2>&1 || rc=$?
check "one_port_is_not_enough" test "$rc" -ne 0 -a "$(grep -c 'need two ports' "$tmp/out")" -eq 1

rc=0
"$TGEN" "${NULL_EAL[@]}" -- run --ports 0,5 >"$tmp/out" 2>&1 || rc=$?
check "missing_port_id_is_named" test "$rc" -ne 0 -a "$(grep -c 'port 5 does not exist' "$tmp/out")" -eq 1

# a vhost port with no DUT behind it: the link never comes up
start=$(date +%s)
rc=0
"$TGEN" "${TG_EAL[@]}" -- run --link-timeout 1 >"$tmp/out" 2>&1 || rc=$?
check "absent_dut_gives_link_down_error_quickly" test "$rc" -ne 0 \
	-a "$(grep -c 'link down after' "$tmp/out")" -ge 1 -a $(($(date +%s) - start)) -lt 20

# net_null ports: every frame is sent, what comes back is not ours (counted, not crashed)
rc=0
"$TGEN" "${NULL_EAL[@]}" -- run --rate 10kpps --duration 1 --warmup 0 --drain 0.1 \
	--json "$tmp/null.json" >"$tmp/out" 2>&1 || rc=$?
check "null_ports_run_and_foreign_frames_are_counted_as_other" test "$rc" -eq 0 -a \
	"$(jq '.trial.rx_packets' "$tmp/null.json")" -eq 0 -a \
	"$(jq '.trial.rx_other > 0 and .trial.loss_ratio == 1' "$tmp/null.json")" = true

# a gateway that never answers ARP
rc=0
"$TGEN" "${NULL_EAL[@]}" -- run --gw 10.0.0.1 --ip 10.0.0.2 --link-timeout 1 \
	>"$tmp/out" 2>&1 || rc=$?
check "silent_gateway_gives_arp_error" test "$rc" -ne 0 -a "$(grep -c 'no ARP reply' "$tmp/out")" -eq 1
finish
