#!/usr/bin/env bash
# Multi-queue links on the host topology (issue 15, the suites' cores columns): with
# `vfwd.queues = 2` each vhost-user link has two queue pairs; tgen sends each flow on its
# queue (--queues 2, flow mod 2) and vfwd polls all four rx queues (num-rx-queues 2, here on
# one worker: this machine has no CPU for a second). Checked on the counters: tgen received
# every packet it sent, vfwd counted them all, and both rx queues of port0 carried packets
# in the proportion of the flows (8 and 8 of 16); with one flow, one queue only.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"

conf=$tmp/topology.conf
sed '/^vfwd\.queues/d' "$top/topologies/host/topology.conf" >"$conf"
echo "vfwd.queues = 2" >>"$conf"
export FWDLAB_TOPOLOGY_CONF=$conf
ctl() { "$top/build/vfwd/${VARIANT:-default}/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" "$@"; }
# rxq PORT Q: vfwd's xstat rx_qQ_good_packets of PORT (virtio; 0 when not counted)
rxq() {
	ctl show hardware 2>/dev/null | awk -v p="$1" -v k="rx_q$2_good_packets" '
		$1 ~ /^port[0-9]+$/ { cur = $1 } cur == "port" p && $1 == k { print $2; f = 1 }
		END { if (!f) print 0 }'
}

stage "up with vfwd.queues = 2" quiet lab up || exit 1
check "vfwd's ports have 2 rx queues, spread by the sender" \
	eval 'grep -q "rx queue spread: by the sender" <<<"$(ctl show hardware)"'

# mq_run NAME ARGS...: a 2 s run at 5 kpps named NAME; sets run (its folder), tx and rx
# (tgen's), q0 and q1 (port0's rx queues, as deltas: vfwd's xstats count from its start,
# ARP and the warm-up too).
mq_run() {
	local name=$1 a0 a1
	shift
	a0=$(rxq 0 0) a1=$(rxq 0 1)
	stage "run $name: $*, 5 kpps, 2 s" quiet lab run --label mq "$@" --rate 5000 --duration 2 --run "$name" || true
	run=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$name" -print -quit)
	tx=$(jq -r '.trial.tx_packets // 0' "$run/tgen.json" 2>/dev/null || echo 0)
	rx=$(jq -r '.trial.rx_packets // 0' "$run/tgen.json" 2>/dev/null || echo 0)
	q0=$(($(rxq 0 0) - a0)) q1=$(($(rxq 0 1) - a1))
	echo "# $name: tgen tx $tx rx $rx; vfwd port0 rx_q0 +$q0 rx_q1 +$q1"
}

mq_run mq16 --flows 16
check "tgen.json says 2 queues and 16 flows" \
	eval 'jq -e ".queues == 2 and .profile.flows == 16" "$run/tgen.json" >/dev/null'
check "tgen received every packet it sent ($rx of $tx)" eval '[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ]'
check "vfwd's ip4-rewrite counted exactly tgen's tx" \
	eval '[ "$(runtime_vectors "$run/show_runtime.txt" ip4-rewrite)" -eq "$tx" ]'
check "both rx queues of port0 carried packets, half each (16 flows, flow mod 2)" \
	eval '[ "$q0" -gt 0 ] && [ "$q1" -gt 0 ] && [ $((q0 + q1)) -ge "$tx" ] &&
		[ $((q0 > q1 ? q0 - q1 : q1 - q0)) -le $(((q0 + q1) / 50 + 64)) ]'

mq_run mq1 --flows 1
check "one flow: every packet back, all on queue 0 (flow 0 mod 2)" \
	eval '[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ] && [ "$q0" -ge "$tx" ] && [ "$q1" -lt 16 ]'

stage "down" quiet lab down || true
tap_done
