#!/usr/bin/env bash
# tgen (build/tgen/bin/tgen) against one backend at a low rate on the host topology: every
# frame tgen sends comes back (tx == rx, no duplicates), and the backend's own counters saw
# at least as many on its ports (tgen's warm-up frames come on top).
#   tgen_through.sh BACKEND
# DPDK backends: the DUT is virtio-user server=1, tgen net_vhost client=1 (HACKING's host
# wiring). linux: veth pairs, tgen on net_af_packet. tgen warms up (a frame every 10 ms until
# one comes back, up to 30 s) so that a DUT still starting does not count as loss.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

name=$1
TGEN=${TGEN:-$TOP/build/tgen/bin/tgen}
[ -x "$TGEN" ] || skip_all "tgen not built ($TGEN)"
test_init
cfg=$T/$name.cfg
rate=${TGEN_RATE:-20kpps} secs=${TGEN_SECS:-1}

if [ "$name" = vpp ]; then
	write_config "$cfg" "memif:$T/m0.sock" "memif:$T/m1.sock"
	vdevs=(--vdev "net_memif0,role=client,id=0,socket=$T/m0.sock,socket-abstract=no,mac=$TG_MAC0"
		--vdev "net_memif1,role=client,id=0,socket=$T/m1.sock,socket-abstract=no,mac=$TG_MAC1")
elif [ "$name" = linux ]; then
	v0=tg$$a v1=tg$$b
	write_config "$cfg" "veth:$v0" "veth:$v1"
	vdevs=(--vdev "net_af_packet0,iface=$v0" --vdev "net_af_packet1,iface=$v1")
else
	write_config "$cfg" "net_virtio_user0,path=$T/vh0.sock,server=1,queue_size=1024" \
		"net_virtio_user1,path=$T/vh1.sock,server=1,queue_size=1024" "eal-args --no-huge -m 1024"
	vdevs=(--vdev "net_vhost0,iface=$T/vh0.sock,client=1"
		--vdev "net_vhost1,iface=$T/vh1.sock,client=1")
fi
tgen_go() {
	setsid "$TGEN" -l 0 --no-huge -m 512 --no-pci --file-prefix "peers-tgen-$$" --log-level=5 \
		"${vdevs[@]}" -- run --rate "$rate" --duration "$secs" --dst-mac0 "$DUT_MAC0" \
		--dst-mac1 "$DUT_MAC1" --link-timeout 60 --warmup 30 --json "$T/tgen.json" >"$T/tgen.out" 2>&1 &
	tg=$!
	on_exit "kill $tg; rm -rf /var/run/dpdk/peers-tgen-$$"
}
# vhost: the DUT blocks in its probe until tgen connects, so tgen goes first. memif: VPP
# makes the sockets, so it goes first.
if [ "$name" = linux ] || [ "$name" = vpp ]; then
	backend_up "$name" "$cfg"
	tgen_go
else
	tgen_go
	backend_up "$name" "$cfg"
fi
rc=0
wait "$tg" || rc=$?
stats=$("$BACKEND_CMD" "$name" stats "$cfg")
"$BACKEND_CMD" "$name" stop "$cfg"
sed 's/^/# /' "$T/tgen.out" | tail -n 4

check "tgen exits 0 through $name" test "$rc" -eq 0
tx=$(jq -r '.trial.tx_packets // 0' "$T/tgen.json" 2>/dev/null || echo 0)
rx=$(jq -r '.trial.rx_packets // 0' "$T/tgen.json" 2>/dev/null || echo 0)
dup=$(jq -r '.trial.duplicates // 0' "$T/tgen.json" 2>/dev/null || echo 0)
check "$name: tgen at $rate for ${secs}s: rx $rx == tx $tx > 0, no duplicates" \
	test "$tx" -gt 0 -a "$tx" -eq "$rx" -a "$dup" -eq 0
rx0=$(jq .port0.rx <<<"$stats") tx1=$(jq .port1.tx <<<"$stats")
check "$name: its counters saw them (port0 rx $rx0 >= $tx, port1 tx $tx1 >= $rx)" \
	test "$rx0" -ge "$tx" -a "$tx1" -ge "$rx"
echo "1..$tap_n"
exit "$tap_failed"
