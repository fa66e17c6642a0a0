#!/usr/bin/env bash
# make -C tgen bench-ir: instructions per packet (tx + rx) of tgen and of testpmd's flowgen
# under callgrind, on net_null ports and on the host wiring (testpmd io as the DUT, running
# natively, so the DUT is never the bottleneck). Instruction counts do not depend on what else
# runs on the machine, unlike the rates of bench.sh. tgen is counted inside tgen_trial_run;
# flowgen (no symbols in Debian's testpmd) by the difference of a 30 s and a 60 s run.
# Not a test. Takes about 5 minutes.
# shellcheck disable=SC1091,SC2034,SC2154 # lib.sh (sourced) sets tmp and id, reads NAME, PORTS, TG_EAL
set -euo pipefail
NAME=tgen-ir
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
EAL=(--no-huge -m 256 --no-pci --file-prefix "tg-$id" --log-level=5)
NULL_PORTS=(--vdev net_null0 --vdev net_null1)
HOST_PORTS=(--vdev "net_vhost0,iface=$tmp/p0.sock,client=1"
	--vdev "net_vhost1,iface=$tmp/p1.sock,client=1")

tgen_ir() { # ports... -> instructions per packet
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.tgen" \
		--toggle-collect=tgen_trial_run "$TGEN" -l 0 "${EAL[@]}" "$@" -- run --rate max \
		--bidir --duration 3 --drain 0.2 --warmup 60 --json "$tmp/t.json" >"$tmp/t.out" 2>&1
	local ir pk
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/t.out")
	pk=$(jq '.trial | .tx_packets - .tx_refused + .rx_packets + .rx_other + .late_packets' \
		"$tmp/t.json")
	echo "$ir $pk" | awk '{ printf "%.1f", $1 / $2 }'
}

flowgen_run() { # seconds ports... -> "instructions packets"
	local s=$1
	shift
	{
		sleep "$s"
		echo
	} | valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.fg" dpdk-testpmd \
		--lcores 0@0,1@0 --main-lcore 0 "${EAL[@]}" "$@" -- --total-num-mbufs=8192 \
		--forward-mode=flowgen --txpkts=60 --burst=32 >"$tmp/f.out" 2>&1 || true
	awk '/Collected :/ { ir = $4 } /Accumulated forward statistics for all ports/ { a = 1 }
		a && /RX-packets:/ { rx = $2 } a && /TX-packets:/ { tx = $2; a = 0 }
		END { print ir, tx + rx }' "$tmp/f.out"
}

flowgen_ir() { # ports... -> instructions per packet
	local i1 p1 i2 p2
	read -r i1 p1 < <(flowgen_run 30 "$@")
	read -r i2 p2 < <(flowgen_run 60 "$@")
	echo "$i1 $p1 $i2 $p2" | awk '{ printf "%.1f", ($3 - $1) / ($4 - $2) }'
}

tg_null=$(tgen_ir "${NULL_PORTS[@]}")
fg_null=$(flowgen_ir "${NULL_PORTS[@]}")
echo "null: tgen $tg_null, flowgen $fg_null instructions/packet (tx+rx)"

setsid dpdk-testpmd --lcores 0@1,1@1 --main-lcore 0 --no-huge -m 512 --no-pci --file-prefix "dut-$id" --log-level=5 \
	--vdev "net_virtio_user0,path=$tmp/p0.sock,server=1,queue_size=4096" \
	--vdev "net_virtio_user1,path=$tmp/p1.sock,server=1,queue_size=4096" \
	-- --total-num-mbufs=32768 --rxd=4096 --txd=4096 --forward-mode=io --stats-period 5 \
	>"$tmp/dut.log" 2>&1 </dev/null &
dut_pid=$!
tg_host=$(tgen_ir "${HOST_PORTS[@]}")
fg_host=$(flowgen_ir "${HOST_PORTS[@]}")
echo "host: tgen $tg_host, flowgen $fg_host instructions/packet (tx+rx)"
mkdir -p "$TOP/build/tgen"
printf '{"unit": "instructions per packet (tx+rx), callgrind", "null": {"tgen": %s, "flowgen": %s}, "host": {"tgen": %s, "flowgen": %s}}\n' \
	"$tg_null" "$fg_null" "$tg_host" "$fg_host" >"$TOP/build/tgen/bench-ir.json"
