#!/usr/bin/env bash
# make -C trex crosscheck: cross-check of the two generators on a DUT with a known capacity: capfwd (tests/capfwd.c,
# a forwarder that lets through at most CAP pps, 50 ms of depth) on memif ports, measured by
# tgen (its own NDR search, memif client ports) and by TRex (the same search driving TRex's
# trials, lab/generators/trial-exec), udp 1500 B, one after the other on the same DUT.
# Proves: both NDRs lie within 2 % of the cap and within 2 % of each other, neither is
# bounded by its generator, and capfwd's own counters match what the generators received.
# shellcheck disable=SC2016,SC2317 # checks are eval'd, cleanup runs from the trap
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if ! "$top/trex/build.sh" --print >/dev/null 2>&1; then
	echo "1..0 # SKIP no cached TRex build (make -C trex build; TREX_TARBALL=PATH, trex/README.md)"
	exit 77
fi
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
[ -x "$top/build/trex/capfwd" ] || make -s -C "$top/trex" "$top/build/trex/capfwd" >&2
[ -x "$top/build/tgen/bin/tgen" ] || make -s -C "$top" tgen >&2
cap=${CROSSCHECK_CAP_PPS:-5000}
# memif rings of 2^13 slots (the clients, tgen and TRex, size them): 1.6 s of traffic at the
# cap, so a busy host that deschedules capfwd that long loses nothing in the rings
# (2^10, the default, is 0.2 s: at load 20 capfwd lost 1 % under the cap)
rsize=${CROSSCHECK_MEMIF_RSIZE:-13}
export TREX_MEMIF_ARGS=rsize=$rsize
tmp=$(mktemp -d)
id=$(basename "$tmp")
capfwd_pid=""
export FWDLAB_GEN_DIR=$tmp/trex FWDLAB_GEN_ID=$id FWDLAB_GEN_CORE=0 \
	FWDLAB_GEN_PORT0=$tmp/m0.sock FWDLAB_GEN_PORT1=$tmp/m1.sock \
	FWDLAB_GEN_SRC_MAC0=02:00:00:00:00:02 FWDLAB_GEN_SRC_MAC1=02:00:00:00:01:02 \
	FWDLAB_GEN_DST_MAC0=02:00:00:00:00:01 FWDLAB_GEN_DST_MAC1=02:00:00:00:01:01 \
	FWDLAB_GEN_LINK=10gbps
cleanup() {
	"$top/trex/trexctl" stop >/dev/null 2>&1 || true
	if [ -n "$capfwd_pid" ]; then
		kill -INT "$capfwd_pid" 2>/dev/null || true
		wait "$capfwd_pid" 2>/dev/null || true
	fi
	if [ "${CROSSCHECK_KEEP:-0}" = 1 ]; then echo "# kept $tmp"; else rm -rf "$tmp"; fi
	rm -rf "/var/run/dpdk/cap-$id" "/var/run/dpdk/tg-$id"
}
trap cleanup EXIT
mkdir -p "$FWDLAB_GEN_DIR"

"$top/build/trex/capfwd" -l 1 --no-huge -m 256 --no-pci --file-prefix "cap-$id" \
	--vdev "net_memif0,role=server,id=0,socket=$tmp/m0.sock,socket-abstract=no" \
	--vdev "net_memif1,role=server,id=0,socket=$tmp/m1.sock,socket-abstract=no" \
	-- --pps "$cap" --trial-signal >"$tmp/capfwd.log" 2>&1 </dev/null &
capfwd_pid=$!
# each trial starts with capfwd's bucket refilled to its depth (SIGUSR1), then holds N
# tokens a second however the busy host spreads the packets (tests/capfwd.c)
hook="kill -USR1 $capfwd_pid"
for _ in $(seq 30); do [ -S "$tmp/m1.sock" ] && break; sleep 1; done
check "capfwd serves its two memif sockets" test -S "$tmp/m1.sock"

search=(--size 1500 --max-rate $((2 * cap)) --min-rate $((cap / 10)) --trial-duration 1
	--final-duration 5 --pre-trial "$hook")
tgen_ndr() {
	"$top/build/tgen/bin/tgen" -l 0,1 --main-lcore 1 --no-huge -m 512 --no-pci --file-prefix "tg-$id" \
		--vdev "net_memif0,role=client,id=0,socket=$tmp/m0.sock,socket-abstract=no,rsize=$rsize" \
		--vdev "net_memif1,role=client,id=0,socket=$tmp/m1.sock,socket-abstract=no,rsize=$rsize" \
		-- ndr "${search[@]}" --dst-mac0 02:00:00:00:00:01 --dst-mac1 02:00:00:00:01:01 \
		--json "$tmp/tgen.json" >"$tmp/tgen.out" 2>&1
}
trex_ndr() {
	"$top/trex/trexctl" start >"$tmp/trex-start.out" 2>&1 || { tail -n 5 "$tmp/trex-start.out"; return 1; }
	FWDLAB_GEN_TRIALS=$tmp/trex-trials.jsonl "$top/build/tgen/bin/tgen" -- ndr "${search[@]}" \
		--trial-exec "$top/lab/generators/trial-exec trex --profile udp --size 1500" \
		--json "$tmp/trex.json" >"$tmp/trex.out" 2>&1
}
stage "tgen ndr" tgen_ndr || tail -n 5 "$tmp/tgen.out"
stage "trex ndr (the same search)" trex_ndr || tail -n 5 "$tmp/trex.out"
t=$(jq -r '.ndr.rate_pps // 0' "$tmp/tgen.json" 2>/dev/null || echo 0)
x=$(jq -r '.ndr.rate_pps // 0' "$tmp/trex.json" 2>/dev/null || echo 0)
echo "# cap $cap pps: tgen NDR $t pps ($(jq -r .ndr.limited_by "$tmp/tgen.json" 2>/dev/null)), TRex NDR $x pps ($(jq -r .ndr.limited_by "$tmp/trex.json" 2>/dev/null))"
within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.02 * b) }'; }
# A generator that could not offer the cap on a busy host measures the host, not the DUT:
# the figures' checks are skipped then, saying so (as tgen's capdut test does).
busy=""
for g in tgen trex; do
	if [ "$(jq -r .ndr.limited_by "$tmp/$g.json" 2>/dev/null)" = generator ]; then
		busy+="$g could not offer the cap (NDR limited by the generator); "
	fi
done
fig() {
	local name=$1
	shift
	if [ -n "$busy" ]; then
		TAP_N=$((TAP_N + 1))
		echo "ok $TAP_N - $name # SKIP busy host: $busy"
	else
		check "$name" "$@"
	fi
}
check "both searches wrote their JSON" eval '[ -s "$tmp/tgen.json" ] && [ -s "$tmp/trex.json" ]'
fig "tgen's NDR is within 2 % of the cap" within "$t" "$cap"
fig "TRex's NDR is within 2 % of the cap" within "$x" "$cap"
fig "tgen's and TRex's NDRs are within 2 % of each other" within "$t" "$x"
# capfwd (DPDK 22.11 memif server) ends before TRex (its client) goes: once, a client
# leaving made capfwd die with SIGSEGV before it printed its counters (as vfwd once did)
kill -INT "$capfwd_pid" 2>/dev/null || true
wait "$capfwd_pid" 2>/dev/null || true
capfwd_pid=""
"$top/trex/trexctl" stop
fwd=$(sed -n 's/^capfwd: forwarded \([0-9]*\) .*/\1/p' "$tmp/capfwd.log")
got=$(jq -s '[.[0].trials[].rx_packets, .[1].trials[].rx_packets] | add' "$tmp/tgen.json" "$tmp/trex.json" 2>/dev/null || echo -1)
wu=$(jq -r '.warmup.rx_packets // 0' "$tmp/tgen.json" 2>/dev/null || echo 0)
echo "# capfwd forwarded $fwd; the generators' trials received $got (+ $wu of tgen's warm-up)"
n=$(jq -s '[.[].trials | length] | add' "$tmp/tgen.json" "$tmp/trex.json" 2>/dev/null || echo 0)
check "capfwd forwarded what the generators received (a straggler a trial at most after its drain)" eval '
	[ -n "$fwd" ] && [ "$fwd" -ge $((got + wu)) ] && [ "$fwd" -le $((got + wu + n)) ]'
echo "1..$TAP_N"
exit "$TAP_FAILED"
