#!/usr/bin/env bash
# make -C tgen bench: tgen's transmit + receive rate beside testpmd's flowgen, at 64 B, in
# the same run, alternating tgen and flowgen ROUNDS times, on two wirings:
#   host: the host wiring (testpmd io as the DUT over vhost-user/virtio-user, --no-huge);
#         on a small machine the one-core DUT is the bottleneck, so this compares what each
#         generator gets through a DUT;
#   null: net_null ports (no DUT: every frame sent is taken, every poll returns 32 frames),
#         the generators' own cost per packet.
# Not a test: it prints figures and ratios and writes build/tgen/bench.json. Both generators
# send on both ports, unpaced, on one lcore.
#   bench/bench.sh [SECONDS] [ROUNDS]
# shellcheck disable=SC1091,SC2034,SC2154 # lib.sh (sourced) sets tmp and id, reads NAME, PORTS, TG_EAL
set -euo pipefail
secs=${1:-5}
rounds=${2:-2}
NAME=tgen-bench
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
logs=$TOP/build/tgen/bench-logs
mkdir -p "$logs"

bench_dut_io "net_virtio_user0,path=$tmp/p0.sock,server=1,queue_size=1024" \
	"net_virtio_user1,path=$tmp/p1.sock,server=1,queue_size=1024"
HOST_PORTS=(--vdev "net_vhost0,iface=$tmp/p0.sock,client=1"
	--vdev "net_vhost1,iface=$tmp/p1.sock,client=1")
NULL_PORTS=(--vdev net_null0 --vdev net_null1)
PORTS=("${HOST_PORTS[@]}")

run_tgen() { # -> "tx_pps rx_pps"
	bench_tgen "$logs/tgen-$wiring-$r.log"
	# frames received: ours, plus foreign ones (what net_null returns)
	jq -r '.trial | "\(.tx_pps - (.tx_refused / .duration_s)) \(.rx_pps + .rx_other / .duration_s)"' \
		"$tmp/tgen.json"
}

run_flowgen() { bench_flowgen "$logs/flowgen-$wiring-$r.log"; } # -> "tx_pps rx_pps"

TG_EAL=(--no-huge -m 512 --no-pci --file-prefix "tg-$id" --log-level=5)

# compare WIRING: rounds of tgen then flowgen; prints a table, sets json_WIRING
compare() {
	local wiring=$1 r tx rx tg_tx=0 tg_rx=0 fg_tx=0 fg_rx=0
	printf '%-6s %-6s %-8s %14s %14s\n' wiring round tg tx_pps rx_pps
	for r in $(seq 1 "$rounds"); do
		read -r tx rx < <(run_tgen)
		printf '%-6s %-6s %-8s %14.0f %14.0f\n' "$wiring" "$r" tgen "$tx" "$rx"
		tg_tx=$(echo "$tg_tx + $tx" | bc -l) tg_rx=$(echo "$tg_rx + $rx" | bc -l)
		read -r tx rx < <(run_flowgen)
		printf '%-6s %-6s %-8s %14.0f %14.0f\n' "$wiring" "$r" flowgen "$tx" "$rx"
		fg_tx=$(echo "$fg_tx + $tx" | bc -l) fg_rx=$(echo "$fg_rx + $rx" | bc -l)
	done
	local m_tg_tx m_tg_rx m_fg_tx m_fg_rx ratio
	m_tg_tx=$(echo "$tg_tx / $rounds / 1000000" | bc -l)
	m_tg_rx=$(echo "$tg_rx / $rounds / 1000000" | bc -l)
	m_fg_tx=$(echo "$fg_tx / $rounds / 1000000" | bc -l)
	m_fg_rx=$(echo "$fg_rx / $rounds / 1000000" | bc -l)
	ratio=$(echo "($tg_tx + $tg_rx) / ($fg_tx + $fg_rx)" | bc -l)
	printf '%s: tgen tx %.3f rx %.3f Mpps, flowgen tx %.3f rx %.3f Mpps, tgen/flowgen (tx+rx) %.2f\n' \
		"$wiring" "$m_tg_tx" "$m_tg_rx" "$m_fg_tx" "$m_fg_rx" "$ratio"
	printf -v "json_$wiring" '{"tgen": {"tx_mpps": %.3f, "rx_mpps": %.3f}, "flowgen": {"tx_mpps": %.3f, "rx_mpps": %.3f}, "ratio_tx_rx": %.3f}' \
		"$m_tg_tx" "$m_tg_rx" "$m_fg_tx" "$m_fg_rx" "$ratio"
}

json_host="" json_null=""
PORTS=("${HOST_PORTS[@]}")
compare host
PORTS=("${NULL_PORTS[@]}")
compare null
printf '{"frame_size": 64, "seconds": %s, "rounds": %s, "host": %s, "null": %s}\n' \
	"$secs" "$rounds" "$json_host" "$json_null" >"$TOP/build/tgen/bench.json"
