#!/usr/bin/env bash
# make -C tgen bench: tgen's transmit + receive rate beside testpmd's flowgen, at 64 B, on
# the host wiring (testpmd io as the DUT over vhost-user/virtio-user, --no-huge), in the same
# run, alternating tgen and flowgen ROUNDS times. Not a test: it prints figures and the ratio,
# and writes build/tgen/bench.json. Both generators send on both ports, unpaced, one lcore.
#   bench/bench.sh [SECONDS] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOP=${TOP:-$(cd "$here/.." && pwd)}
TGEN=${TGEN:-$TOP/build/tgen/bin/tgen}
secs=${1:-5}
rounds=${2:-2}
tmp=$(mktemp -d /tmp/tgen-bench.XXXXXX)
id=$(basename "$tmp")
dut_pid=""
cleanup() {
	if [ -n "$dut_pid" ]; then
		kill "$dut_pid" 2>/dev/null || true
		wait "$dut_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp" "/var/run/dpdk/dut-$id" "/var/run/dpdk/tg-$id"
}
trap cleanup EXIT

setsid dpdk-testpmd -l 0,1 --no-huge -m 512 --no-pci --file-prefix "dut-$id" \
	--vdev "net_virtio_user0,path=$tmp/p0.sock,server=1,queue_size=1024" \
	--vdev "net_virtio_user1,path=$tmp/p1.sock,server=1,queue_size=1024" \
	-- --total-num-mbufs=16384 --forward-mode=io --stats-period 5 \
	>"$tmp/dut.log" 2>&1 </dev/null &
dut_pid=$!
TG_EAL=(--no-huge -m 512 --no-pci --file-prefix "tg-$id" --log-level=5
	--vdev "net_vhost0,iface=$tmp/p0.sock,client=1"
	--vdev "net_vhost1,iface=$tmp/p1.sock,client=1")

run_tgen() { # -> "tx_pps rx_pps"
	"$TGEN" -l 0 "${TG_EAL[@]}" -- run --rate max --bidir --duration "$secs" --drain 0.2 \
		--json "$tmp/tgen.json" >"$tmp/tgen.out" 2>&1
	jq -r '"\(.trial.tx_pps - (.trial.tx_refused / .trial.duration_s)) \(.trial.rx_pps)"' \
		"$tmp/tgen.json"
}

run_flowgen() { # -> "tx_pps rx_pps"
	{
		sleep 3
		echo start
		sleep "$secs"
		echo stop
		sleep 1
		echo quit
	} | dpdk-testpmd --lcores 0@0,1@0 --main-lcore 0 "${TG_EAL[@]}" -- -i \
		--total-num-mbufs=16384 --forward-mode=flowgen --txpkts=60 --burst=32 \
		>"$tmp/flowgen.out" 2>&1 || true
	# the all-ports block after "stop": RX-packets ... / TX-packets ...
	awk -v s="$secs" '/Accumulated forward statistics for all ports/ { a = 1 }
		a && /RX-packets:/ { rx = $2 } a && /TX-packets:/ { tx = $2; a = 0 }
		END { printf "%.0f %.0f\n", tx / s, rx / s }' "$tmp/flowgen.out"
}

printf '%-8s %-8s %14s %14s\n' round tg tx_pps rx_pps
tg_tx=0 tg_rx=0 fg_tx=0 fg_rx=0
for r in $(seq 1 "$rounds"); do
	read -r tx rx < <(run_tgen)
	printf '%-8s %-8s %14.0f %14.0f\n' "$r" tgen "$tx" "$rx"
	tg_tx=$(echo "$tg_tx + $tx" | bc -l) tg_rx=$(echo "$tg_rx + $rx" | bc -l)
	read -r tx rx < <(run_flowgen)
	printf '%-8s %-8s %14.0f %14.0f\n' "$r" flowgen "$tx" "$rx"
	fg_tx=$(echo "$fg_tx + $tx" | bc -l) fg_rx=$(echo "$fg_rx + $rx" | bc -l)
done
ratio_tx=$(echo "$tg_tx / $fg_tx" | bc -l)
ratio_rx=$(echo "$tg_rx / $fg_rx" | bc -l)
ratio_sum=$(echo "($tg_tx + $tg_rx) / ($fg_tx + $fg_rx)" | bc -l)
printf 'mean tgen    tx %.3f Mpps  rx %.3f Mpps\n' "$(echo "$tg_tx / $rounds / 1000000" | bc -l)" \
	"$(echo "$tg_rx / $rounds / 1000000" | bc -l)"
printf 'mean flowgen tx %.3f Mpps  rx %.3f Mpps\n' "$(echo "$fg_tx / $rounds / 1000000" | bc -l)" \
	"$(echo "$fg_rx / $rounds / 1000000" | bc -l)"
printf 'ratio tgen/flowgen: tx %.2f  rx %.2f  tx+rx %.2f\n' "$ratio_tx" "$ratio_rx" "$ratio_sum"
mkdir -p "$TOP/build/tgen"
printf '{"frame_size": 64, "seconds": %s, "rounds": %s, "tgen": {"tx_pps": %.0f, "rx_pps": %.0f}, "flowgen": {"tx_pps": %.0f, "rx_pps": %.0f}, "ratio": {"tx": %.3f, "rx": %.3f, "tx_rx": %.3f}}\n' \
	"$secs" "$rounds" "$(echo "$tg_tx / $rounds" | bc -l)" "$(echo "$tg_rx / $rounds" | bc -l)" \
	"$(echo "$fg_tx / $rounds" | bc -l)" "$(echo "$fg_rx / $rounds" | bc -l)" \
	"$ratio_tx" "$ratio_rx" "$ratio_sum" >"$TOP/build/tgen/bench.json"
