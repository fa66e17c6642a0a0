#!/usr/bin/env bash
# The same pcaps through vfwd (net_pcap in and out, --no-huge), once with the C example
# feature and once with example-rs, each plugin loaded alone through the startup file:
# the packets written out are byte-identical (pcap header and every record; only the
# timestamps net_pcap stamps at transmit differ), `show interfaces` is identical and
# `show errors` is identical but for the node name. Each run also drops and counts every
# ICMP packet and forwards every other routable IPv4 packet, so two runs that did nothing
# cannot pass. Three scenarios: one input port (whole vectors move on the fast path, mixed
# ones split), two input ports whose packets share vectors (split by input port), and two
# busy ports whose merged vectors outgrow the next nodes' streams.
# shellcheck disable=SC2016,SC2317 # functions run through check(), conditions are eval'd
set -euo pipefail
top=$(cd "$(dirname "$0")/../../../.." && pwd)
# shellcheck source=forwarder/plugins/example-rs/tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
need_builds "$PCAPTOOL"
tmp=$(mktemp -d)
trap 'vfwd_cleanup; rm -rf "$tmp"' EXIT

# run DIR FEATURE PLUGIN-TO-DISABLE IN0 IN1 PORT...: one vfwd run, its dumps left in DIR.
run() {
	local d=$1 feature=$2 off=$3 in0=$4 in1=$5 c p rc=0
	shift 5
	mkdir -p "$d"
	vfwd_plugins "$d"
	vfwd_setup "$d" "$feature" "$@"
	vfwd_conf "$d" "net_pcap0,rx_pcap=$in0,tx_pcap=$d/out0.pcap" \
		"net_pcap1,rx_pcap=$in1,tx_pcap=$d/out1.pcap" "$off"
	vfwd_start "$d" || return 1
	if wait_rx "$d" "$(summary "$in0" packets)" "$(summary "$in1" packets)"; then
		for c in errors interfaces runtime plugins; do
			ctl "$d" show "$c" >"$d/show_$c.txt"
		done
	else
		rc=1
	fi
	vfwd_stop "$d" || { echo "# vfwd did not exit cleanly"; rc=1; }
	[ "$rc" -eq 0 ] || return 1
	for p in out0 out1; do
		"$PCAPTOOL" dump "$d/$p.pcap" >"$d/$p.txt"
	done
	# `show errors` rows with the centring squeezed out and the feature node named FEATURE
	awk -v f="$feature" 'NR > 1 { if ($2 == f) $2 = "FEATURE"; $1 = $1; print }' \
		"$d/show_errors.txt" >"$d/errors.txt"
}

same() { # same FILE-A FILE-B: identical, else the first differences
	if cmp -s "$1" "$2"; then
		return 0
	fi
	diff "$1" "$2" | head -n 10 | cut -c1-160 | sed 's/^/# /'
	return 1
}

has_line() { # has_line FILE LINE
	grep -qxF "$2" "$1" || { echo "# $1 has no line '$2':"; sed 's/^/#   /' "$1"; return 1; }
}

eq() { # eq WHAT GOT WANT
	[ "$2" = "$3" ] || { echo "# $1: got $2, want $3"; return 1; }
}

# routed IN: IPv4 packets of IN that are neither ICMP nor expiring (those the arc passes)
routed() { echo $(($(summary "$1" ip4) - $(summary "$1" icmp) - $(summary "$1" ttl-expiring))); }
# arc_in IN: IPv4 packets of IN that reach the ip4-unicast arc: all of them, since the TTL is
# checked after the arc, in ip4-rewrite (as VPP does), not in ip4-input
arc_in() { summary "$1" ip4; }

scenario() { # scenario ID NAME IN0 IN1 PORT...
	local s=$2 in0=$3 in1=$4 c=$tmp/$1-c r=$tmp/$1-rs icmp d f
	shift 4
	icmp=$(($(summary "$in0" icmp) + $(summary "$in1" icmp)))
	check "$s: vfwd forwards the pcap with the C example" \
		run "$c" example example_rs_plugin.so "$in0" "$in1" "$@"
	check "$s: vfwd forwards the pcap with example-rs" \
		run "$r" example-rs example_plugin.so "$in0" "$in1" "$@"
	[ -f "$c/errors.txt" ] && [ -f "$r/errors.txt" ] || return 0
	check "$s: port0 output is byte-identical (C vs Rust)" same "$c/out0.txt" "$r/out0.txt"
	check "$s: port1 output is byte-identical (C vs Rust)" same "$c/out1.txt" "$r/out1.txt"
	check "$s: show interfaces is identical" same "$c/show_interfaces.txt" "$r/show_interfaces.txt"
	check "$s: show errors is identical but for the node name" same "$c/errors.txt" "$r/errors.txt"
	for d in "$c" "$r"; do
		f=${d##*-}
		check "$s ($f): $icmp ICMP packets dropped and counted" \
			has_line "$d/errors.txt" "$icmp FEATURE icmp packets dropped"
		check "$s ($f): no ICMP leaves vfwd" \
			eq "icmp out" "$(($(summary "$d/out0.pcap" icmp) + $(summary "$d/out1.pcap" icmp)))" 0
		check "$s ($f): every routed non-ICMP IPv4 packet leaves port1" \
			eq "ip4 out of port1" "$(summary "$d/out1.pcap" ip4)" "$(routed "$in0")"
		check "$s ($f): every routed non-ICMP IPv4 packet leaves port0" \
			eq "ip4 out of port0" "$(summary "$d/out0.pcap" ip4)" "$(routed "$in1")"
	done
	check "$s: example-rs saw every IPv4 packet that passed ip4-input" \
		eq "example-rs vectors" "$(runtime_row "$r/show_runtime.txt" example-rs vectors)" \
		$(($(arc_in "$in0") + $(arc_in "$in1")))
	check "$s: only example_rs_plugin.so is loaded in the Rust run" \
		eval 'grep -q " example_rs_plugin.so " "$r/show_plugins.txt" &&
			! grep -q " example_plugin.so " "$r/show_plugins.txt"'
}

"$PCAPTOOL" mixed "$tmp/mixed0.pcap"
"$PCAPTOOL" gen "$tmp/empty.pcap" --count 0
scenario one "one port" "$tmp/mixed0.pcap" "$tmp/empty.pcap" port0

# 120 packets a port: both rx bursts fit in one vector, so the feature node sees packets of
# two ports together and must split them by input port.
"$PCAPTOOL" mixed "$tmp/small0.pcap" --count 120
"$PCAPTOOL" mixed "$tmp/small1.pcap" --count 120 --reverse
scenario two "two ports" "$tmp/small0.pcap" "$tmp/small1.pcap" port0 port1
check "two ports: example-rs vectors held packets of both ports (vectors/call > 120)" \
	eval '[ "$(runtime_row "$tmp/two-rs/show_runtime.txt" example-rs vpc | cut -d. -f1)" -gt 120 ]'

# 700 packets a port: two full rx bursts merge into vectors of up to 512 packets, past the
# 256 a node's stream holds at first (streams grow through __rte_node_stream_alloc_size).
"$PCAPTOOL" mixed "$tmp/mixed1.pcap" --reverse
scenario big "two busy ports" "$tmp/mixed0.pcap" "$tmp/mixed1.pcap" port0 port1
check "two busy ports: example-rs vectors held more than 256 packets" \
	eval '[ "$(runtime_row "$tmp/big-rs/show_runtime.txt" example-rs vpc | cut -d. -f1)" -gt 256 ]'
exit "$TAP_FAILED"
