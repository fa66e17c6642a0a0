#!/usr/bin/env bash
# make -C trex bench: TRex beside tgen and testpmd flowgen, each sending 64 B frames on both
# ports as fast as it can on ONE generator core, on the same kind of ports (memif: TRex has
# no vhost-user or net_null), through the same DUT (testpmd io, memif servers, --no-huge),
# in the same run, ROUNDS rounds of tgen, flowgen, TRex. Not a test: prints Mpps per
# generator core and the ratios, writes build/trex/bench.json.
#   trex/bench.sh [SECONDS] [ROUNDS]
# shellcheck disable=SC1091,SC2034,SC2154 # lib.sh (sourced) sets tmp and id, reads NAME, PORTS, TG_EAL
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
secs=${1:-5}
rounds=${2:-2}
NAME=trex-bench
trex_stop() { "$here/trexctl" stop; }
bench_on_exit=trex_stop
source "$here/../tgen/bench/lib.sh"
export FWDLAB_GEN_DIR=$tmp/trex FWDLAB_GEN_ID=$id FWDLAB_GEN_CORE=0 \
	FWDLAB_GEN_PORT0=$tmp/m0.sock FWDLAB_GEN_PORT1=$tmp/m1.sock \
	FWDLAB_GEN_SRC_MAC0=02:00:00:00:00:02 FWDLAB_GEN_SRC_MAC1=02:00:00:00:01:02 \
	FWDLAB_GEN_DST_MAC0=02:00:00:00:00:01 FWDLAB_GEN_DST_MAC1=02:00:00:00:01:01
"$here/build.sh" --print >/dev/null || { echo "trex/bench.sh: no TRex build (make -C trex build)" >&2; exit 1; }
logs=$TOP/build/trex/bench-logs
mkdir -p "$logs" "$FWDLAB_GEN_DIR"

bench_dut_io "net_memif0,role=server,id=0,socket=$tmp/m0.sock,socket-abstract=no" \
	"net_memif1,role=server,id=0,socket=$tmp/m1.sock,socket-abstract=no"
sleep 3
PORTS=(--vdev "net_memif0,role=client,id=0,socket=$tmp/m0.sock,socket-abstract=no"
	--vdev "net_memif1,role=client,id=0,socket=$tmp/m1.sock,socket-abstract=no")
TG_EAL=(--no-huge -m 512 --no-pci --file-prefix "tg-$id" --log-level=5)

run_tgen() { # -> "tx_pps rx_pps"
	bench_tgen "$logs/tgen-$r.log"
	jq -r '.trial | "\(.tx_pps - (.tx_refused / .duration_s)) \(.rx_pps)"' "$tmp/tgen.json"
}

run_flowgen() { bench_flowgen "$logs/flowgen-$r.log"; } # -> "tx_pps rx_pps"

run_trex() { # -> "tx_pps rx_pps": a fresh server per round (it polls its core while up)
	"$here/trexctl" start >"$logs/trex-start-$r.log" 2>&1 || { tail -n 5 "$logs/trex-start-$r.log" >&2; echo "0 0"; return; }
	"$here/trexctl" trial --rate 40000000 --duration "$secs" --json "$tmp/trex.json" \
		--profile udp --size 64 --bidir >"$logs/trex-$r.log" 2>&1 || true
	cp "$FWDLAB_GEN_DIR/server.log" "$logs/trex-server-$r.log" 2>/dev/null || true
	"$here/trexctl" stop
	jq -r '"\(.tx_packets / .duration_s) \(.rx_packets / .duration_s)"' "$tmp/trex.json" 2>/dev/null ||
		echo "0 0"
}

load0=$(cut -d' ' -f1 /proc/loadavg)
declare -A sum_tx sum_rx
for g in tgen flowgen trex; do sum_tx[$g]=0 sum_rx[$g]=0; done
printf '%-6s %-8s %14s %14s\n' round tg tx_pps rx_pps
for r in $(seq 1 "$rounds"); do
	for g in tgen flowgen trex; do
		read -r tx rx < <("run_$g")
		printf '%-6s %-8s %14.0f %14.0f\n' "$r" "$g" "$tx" "$rx"
		sum_tx[$g]=$(echo "${sum_tx[$g]} + $tx" | bc -l)
		sum_rx[$g]=$(echo "${sum_rx[$g]} + $rx" | bc -l)
	done
done
m() { echo "$1 / $rounds / 1000000" | bc -l; }
ratio() { echo "(${sum_tx[$1]} + ${sum_rx[$1]}) / (${sum_tx[$2]} + ${sum_rx[$2]})" | bc -l; }
json="{\"frame_size\": 64, \"seconds\": $secs, \"rounds\": $rounds, \"ports\": \"memif\""
for g in tgen flowgen trex; do
	printf '%-8s tx %.3f rx %.3f Mpps (one generator core)\n' "$g" "$(m "${sum_tx[$g]}")" "$(m "${sum_rx[$g]}")"
	json+=$(printf ', "%s": {"tx_mpps": %.3f, "rx_mpps": %.3f}' "$g" "$(m "${sum_tx[$g]}")" "$(m "${sum_rx[$g]}")")
done
printf 'tgen/trex (tx+rx) %.2f, flowgen/trex %.2f, tgen/flowgen %.2f\n' \
	"$(ratio tgen trex)" "$(ratio flowgen trex)" "$(ratio tgen flowgen)"
load1=$(cut -d' ' -f1 /proc/loadavg)
echo "load average (1 min) $load0 at the start, $load1 at the end (2 CPUs)"
json+=$(printf ', "tgen_over_trex": %.3f, "flowgen_over_trex": %.3f, "load_start": %s, "load_end": %s}' \
	"$(ratio tgen trex)" "$(ratio flowgen trex)" "$load0" "$load1")
mkdir -p "$TOP/build/trex"
echo "$json" >"$TOP/build/trex/bench.json"
