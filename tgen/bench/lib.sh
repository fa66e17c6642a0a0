#!/usr/bin/env bash
# Shared by the generator benchmarks (sourced): tgen/bench/bench.sh, tgen/bench/instructions.sh
# and trex/bench.sh. It gives each run its own folder and --file-prefix, a DUT process that the
# exit trap stops, and one way to run each generator for a number of seconds.
# The sourcing script sets NAME (its temp folder's prefix) before sourcing, and may set
# bench_on_exit (a command run first at exit, e.g. stopping TRex).
# Sets: TOP, TGEN, tmp, id, dut_pid; reads secs, TG_EAL and PORTS in the runs below.
# shellcheck disable=SC2034,SC2154 # variables are used by (secs, TG_EAL, PORTS: set in) the sourcing scripts
set -euo pipefail

TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
TGEN=${TGEN:-$TOP/build/tgen/bin/tgen}
tmp=$(mktemp -d "/tmp/${NAME:?}.XXXXXX")
id=$(basename "$tmp")
dut_pid=""
bench_on_exit=${bench_on_exit:-}

bench_cleanup() {
	if [ -n "$bench_on_exit" ]; then
		$bench_on_exit 2>/dev/null || true
	fi
	if [ -n "$dut_pid" ]; then
		kill "$dut_pid" 2>/dev/null || true
		wait "$dut_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp" "/var/run/dpdk/dut-$id" "/var/run/dpdk/tg-$id"
}
trap bench_cleanup EXIT

bench_dut_io() { # VDEV0 VDEV1: testpmd io as the DUT on two cores, --no-huge, in the background
	setsid dpdk-testpmd -l 0,1 --no-huge -m 512 --no-pci --file-prefix "dut-$id" \
		--vdev "$1" --vdev "$2" \
		-- --total-num-mbufs=16384 --forward-mode=io --stats-period 5 \
		>"$tmp/dut.log" 2>&1 </dev/null &
	dut_pid=$!
}

bench_tgen() { # LOG: tgen unpaced on both ports for $secs s; the trial JSON in $tmp/tgen.json
	"$TGEN" -l 0 "${TG_EAL[@]}" "${PORTS[@]}" -- run --rate max --bidir --duration "$secs" \
		--drain 0.2 --json "$tmp/tgen.json" >"$tmp/tgen.out" 2>&1 || true
	cp "$tmp/tgen.out" "$1"
}

bench_flowgen() { # LOG -> "tx_pps rx_pps": testpmd flowgen (60 B + FCS) on one core, $secs s
	{
		sleep 3
		echo start
		sleep "$secs"
		echo stop
		sleep 1
		echo quit
	} | dpdk-testpmd --lcores 0@0,1@0 --main-lcore 0 "${TG_EAL[@]}" "${PORTS[@]}" -- -i \
		--total-num-mbufs=16384 --forward-mode=flowgen --txpkts=60 --burst=32 \
		>"$tmp/flowgen.out" 2>&1 || true
	cp "$tmp/flowgen.out" "$1"
	# the all-ports block after "stop": RX-packets ... / TX-packets ...
	awk -v s="$secs" '/Accumulated forward statistics for all ports/ { a = 1 }
		a && /RX-packets:/ { rx = $2 } a && /TX-packets:/ { tx = $2; a = 0 }
		END { printf "%.0f %.0f\n", tx / s, rx / s }' "$tmp/flowgen.out"
}
