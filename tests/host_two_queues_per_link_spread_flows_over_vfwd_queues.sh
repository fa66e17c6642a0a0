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
	eval 'ctl show hardware | grep -q "rx queue spread: by the sender"'

# vfwd's xstats count from its start (ARP and the warm-up too): each run is read as a delta
a0=$(rxq 0 0) a1=$(rxq 0 1)
stage "run 16 flows, 5 kpps, 2 s" quiet lab run --label mq --flows 16 --rate 5000 --duration 2 --run mq16 || true
run=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name 'mq16*' -print -quit)
j=$run/tgen.json
tx=$(jq -r '.trial.tx_packets // 0' "$j" 2>/dev/null || echo 0)
rx=$(jq -r '.trial.rx_packets // 0' "$j" 2>/dev/null || echo 0)
q0=$(($(rxq 0 0) - a0)) q1=$(($(rxq 0 1) - a1))
echo "# tgen tx $tx rx $rx; vfwd port0 rx_q0 $q0 rx_q1 $q1"
check "tgen.json says 2 queues and 16 flows" \
	eval 'jq -e ".queues == 2 and .profile.flows == 16" "$j" >/dev/null'
check "tgen received every packet it sent ($rx of $tx)" eval '[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ]'
check "vfwd's ip4-rewrite counted exactly tgen's tx" \
	eval '[ "$(runtime_vectors "$run/show_runtime.txt" ip4-rewrite)" -eq "$tx" ]'
check "both rx queues of port0 carried packets, half each (16 flows, flow mod 2)" \
	eval '[ "$q0" -gt 0 ] && [ "$q1" -gt 0 ] && [ $((q0 + q1)) -ge "$tx" ] &&
		[ $((q0 > q1 ? q0 - q1 : q1 - q0)) -le $(((q0 + q1) / 50 + 64)) ]'

b0=$(rxq 0 0) b1=$(rxq 0 1)
stage "run 1 flow, 5 kpps, 2 s" quiet lab run --label mq --rate 5000 --duration 2 --run mq1 || true
run1=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name 'mq1' -print -quit)
tx1=$(jq -r '.trial.tx_packets // 0' "$run1/tgen.json" 2>/dev/null || echo 0)
rx1=$(jq -r '.trial.rx_packets // 0' "$run1/tgen.json" 2>/dev/null || echo 0)
d0=$(($(rxq 0 0) - b0)) d1=$(($(rxq 0 1) - b1))
echo "# one flow: tgen tx $tx1 rx $rx1; vfwd port0 rx_q0 +$d0 rx_q1 +$d1"
check "one flow: every packet back, all on queue 0 (flow 0 mod 2)" \
	eval '[ "$tx1" -gt 0 ] && [ "$tx1" -eq "$rx1" ] && [ "$d0" -ge "$tx1" ] && [ "$d1" -lt 16 ]'

stage "down" quiet lab down || true
tap_done
