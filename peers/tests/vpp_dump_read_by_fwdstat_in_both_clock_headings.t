#!/usr/bin/env bash
# A real VPP dump read by fwdstat: tgen sends through VPP (memif), the backend's dump holds
# VPP 26's show runtime (heading Packet-Clocks); `fwdstat runtime --node ip4-rewrite` reads
# it, and reads the same dump with the heading older VPP prints (Clocks) to the same figure.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default
TGEN=${TGEN:-$TOP/build/tgen/bin/tgen}
FWDSTAT=${FWDSTAT:-$TOP/build/lab/bin/fwdstat}
[ -x "$TGEN" ] || skip_all "tgen not built ($TGEN; make tgen)"
[ -x "$FWDSTAT" ] || make -s -C "$TOP/lab/fwdstat" >&2
test_init
cfg=$T/vpp.cfg
write_config "$cfg" "memif:$T/m0.sock" "memif:$T/m1.sock"
backend_up vpp "$cfg"
# Cleared before tgen starts: `vpp clear` is two commands (runtime, then interfaces), and a
# warm-up packet that passed between them counted in ip4-rewrite but not in port1's tx (10001
# vs 10000 seen once).
"$BACKEND_CMD" vpp clear "$cfg"
setsid "$TGEN" -l 0 --no-huge -m 512 --no-pci --file-prefix "peers-fs-$$" --log-level=5 \
	--vdev "net_memif0,role=client,id=0,socket=$T/m0.sock,socket-abstract=no,mac=$TG_MAC0" \
	--vdev "net_memif1,role=client,id=0,socket=$T/m1.sock,socket-abstract=no,mac=$TG_MAC1" \
	-- run --rate 10kpps --duration 1 --dst-mac0 "$DUT_MAC0" --dst-mac1 "$DUT_MAC1" \
	--link-timeout 60 --warmup 30 --json "$T/tgen.json" >"$T/tgen.out" 2>&1 &
tg=$!
on_exit "kill $tg; rm -rf /var/run/dpdk/peers-fs-$$"
rc=0
wait "$tg" || rc=$?
check "tgen through VPP exits 0" test "$rc" -eq 0
"$BACKEND_CMD" vpp dump "$cfg" "$T/dump"
rt=$T/dump/show_runtime.txt
check "VPP 26's show runtime heads its clocks Packet-Clocks" \
	grep -Eq "Name +State +Calls +Vectors +Suspends +Packet-Clocks +Vectors/Call" "$rt"
sed 's/Packet-Clocks/       Clocks/' "$rt" >"$T/old_runtime.txt"
check "the copy has the older heading (Clocks)" \
	grep -Eq "Name +State +Calls +Vectors +Suspends +Clocks +Vectors/Call" "$T/old_runtime.txt"
new=$("$FWDSTAT" runtime "$rt" --node ip4-rewrite --json 2>"$T/fs.err" || true)
old=$("$FWDSTAT" runtime "$T/old_runtime.txt" --node ip4-rewrite --json 2>>"$T/fs.err" || true)
sed 's/^/# /' "$T/fs.err"
echo "# fwdstat (Packet-Clocks): $new"
cn=$(jq -r '.median_clocks_per_packet // empty' <<<"$new" 2>/dev/null || true)
co=$(jq -r '.median_clocks_per_packet // empty' <<<"$old" 2>/dev/null || true)
check "fwdstat reads ip4-rewrite clocks/packet from the 26.x dump ($cn)" \
	bash -c '[[ $1 =~ ^[0-9.e+]+$ ]] && awk -v c="$1" "BEGIN { exit !(c > 0) }"' _ "$cn"
check "and the same figure from the older heading ($co == $cn)" test -n "$cn" -a "$co" = "$cn"
vec=$(awk '$1 == "ip4-rewrite" { v += $4 } END { print v + 0 }' "$rt")
tx1=$(jq -r .port1.tx "$T/dump/stats.json")
check "VPP's ip4-rewrite vectors ($vec) = its port1 tx ($tx1) > 0" test "$vec" -eq "$tx1" -a "$tx1" -gt 0
echo "1..$tap_n"
exit "$tap_failed"
