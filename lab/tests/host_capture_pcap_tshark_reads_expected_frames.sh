#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check(); helpers called by poll_until
# fwdlab capture NODE PORT on the host topology: vfwd's pcap trace takes what crosses the
# link during a real tgen trial; tshark reads the file and finds exactly --count frames,
# each the udp profile's frame with the link's addresses (link 0 seen at vfwd's port0:
# tgen's port0 MAC, net_vhost's 56:48:4f:53:54:00 ("VHOST" and the port id), -> vfwd's
# port0 MAC; link 1 named by its tgen end: vfwd's port1 MAC ->
# tgen's port1 MAC), 16.0.0.1 -> 48.0.0.1, UDP 1025 -> 12, 1496 bytes (the 1500-byte
# frame without its FCS). With no traffic, --duration stops it with an empty, readable
# file. After a capture nothing is left in vfwd's path: pcap trace is off and a trial
# counts every packet. Bad arguments and a lab that is down are refused by name. `report`
# of the runs adds the topology's graph (dot and svg).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
command -v tshark >/dev/null || { echo "1..0 # SKIP tshark is not installed (lab/apt-packages.txt)"; exit 0; }
ctl() { "$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" "$@"; }
# frames PCAP: one line per frame: eth.src eth.dst ip.src ip.dst udp ports, frame length
frames() {
	tshark -r "$1" -T fields -e eth.src -e eth.dst -e ip.src -e ip.dst -e udp.srcport \
		-e udp.dstport -e frame.len 2>/dev/null | tr '\t' ' '
}

rc=0
out=$(lab capture vfwd port0 --count 5 --out "$tmp/down.pcap" 2>&1) || rc=$?
check "capture with the lab down is refused" eval '[ "$rc" -ne 0 ] && grep -q "host lab is not up" <<<"$out"'

stage "up" quiet lab up || exit 1

pcap_trace_on() { ctl show pcap trace | grep -q ' on, '; }
# capture_during_trial NODE PORT COUNT OUT: the capture in the background, a 3 s trial at
# 1 kpps once vfwd says the capture is on, then the capture's end.
capture_during_trial() {
	lab capture "$1" "$2" --count "$3" --duration 60 --out "$4" >"$tmp/cap.log" 2>&1 &
	local cap=$!
	poll_until 20 "vfwd's pcap trace to be on (show pcap trace)" pcap_trace_on || true
	lab run --label cap --rate 1000 --duration 3 >"$tmp/run.log" 2>&1 || echo "# the trial failed"
	wait "$cap"
}
capture_during_trial vfwd port0 50 "$tmp/link0.pcap" || echo "# capture exited $?"
sed 's/^/# /' "$tmp/cap.log"
check "capture wrote the file it printed" eval 'grep -qx "$tmp/link0.pcap" "$tmp/cap.log" && [ -s "$tmp/link0.pcap" ]'
check "tshark reads it as pcap" eval 'capinfos -t "$tmp/link0.pcap" 2>/dev/null | grep -q "File type:.*pcap"'
frames "$tmp/link0.pcap" >"$tmp/link0.txt"
sort "$tmp/link0.txt" | uniq -c | sed 's/^/# /'
check "link 0: exactly --count 50 frames" [ "$(wc -l <"$tmp/link0.txt")" -eq 50 ]
check "link 0: every frame is tgen port0 -> vfwd port0, 16.0.0.1 -> 48.0.0.1 udp 1025 -> 12, 1496 bytes" \
	eval '[ "$(grep -cx "56:48:4f:53:54:00 02:00:00:00:00:01 16.0.0.1 48.0.0.1 1025 12 1496" "$tmp/link0.txt")" -eq 50 ]'

capture_during_trial tgen port1 20 "$tmp/link1.pcap" || echo "# capture exited $?"
frames "$tmp/link1.pcap" >"$tmp/link1.txt"
sort "$tmp/link1.txt" | uniq -c | sed 's/^/# /'
check "link 1 (named by its tgen end): exactly 20 frames, vfwd port1 -> tgen port1, routed udp" \
	eval '[ "$(grep -cx "02:00:00:00:01:01 02:00:00:00:01:02 16.0.0.1 48.0.0.1 1025 12 1496" "$tmp/link1.txt")" -eq 20 ] &&
		[ "$(wc -l <"$tmp/link1.txt")" -eq 20 ]'

t0=$(date +%s)
rc=0
lab capture vfwd port1 --count 1000 --duration 2 --out "$tmp/idle.pcap" >"$tmp/idle.log" 2>&1 || rc=$?
t1=$(date +%s)
check "no traffic: --duration 2 ends the capture (exit 0, under 30 s)" \
	eval '[ "$rc" -eq 0 ] && [ $((t1 - t0)) -lt 30 ]'
check "no traffic: tshark reads an empty capture" \
	eval 'tshark -r "$tmp/idle.pcap" >/dev/null 2>&1 && [ "$(frames "$tmp/idle.pcap" | wc -l)" -eq 0 ]'

check "after the captures vfwd's pcap trace is off" eval 'ctl show pcap trace | grep -qx "pcap trace: off"'
lab run --label after --run after --rate 1000 --duration 2 >/dev/null 2>&1 || true
arun=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name after -print -quit)
tx=$(jq -r '.trial.tx_packets // 0' "$arun/tgen.json" 2>/dev/null || echo 0)
rx=$(jq -r '.trial.rx_packets // 0' "$arun/tgen.json" 2>/dev/null || echo 0)
check "after the captures a trial passes tx == rx ($tx)" eval '[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ]'
check "after the captures vfwd counts every packet (ethernet-input == tx)" \
	[ "$(runtime_vectors "$arun/show_runtime.txt" ethernet-input)" -eq "$tx" ]

rc=0
out=$(lab capture vfwd port7 --out "$tmp/x.pcap" 2>&1) || rc=$?
check "an unknown port is refused by name" eval '[ "$rc" -ne 0 ] && grep -q "not .port7." <<<"$out"'
rc=0
out=$(lab capture vfwd port0 --count 0 2>&1) || rc=$?
check "--count 0 is refused" eval '[ "$rc" -ne 0 ] && grep -q "count 0: a whole number" <<<"$out"'
rc=0
out=$(lab capture 2>&1) || rc=$?
check "capture without NODE PORT says what it needs" eval '[ "$rc" -ne 0 ] && grep -q "capture NODE PORT" <<<"$out"'
# report includes the graph of the runs' topology (fwdlab graph)
lab report "$tmp/results" --out "$tmp/report" >"$tmp/report.log" 2>&1 || echo "# report failed"
check "report adds the graph of the host topology its runs name" \
	eval 'grep -q "\"vfwd\" \[label=\"vfwd (dut)" "$tmp/report/topology-host.dot" &&
		grep -q "<title>vfwd</title>" "$tmp/report/topology-host.svg"'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
