#!/usr/bin/env bash
# Two VPP builds swapped in and out of the host lab: `fwdlab compare vpp:default vpp:verB`
# (A B, one run each at a fixed rate): each run's own `show version` names the build that
# was swapped in (verB's version carries -fwdlabB, the default's does not), meta.json labels
# them vpp:default and vpp:verB, fwdstat's comparison has both groups with node clocks, and
# `fwdlab swap vpp:nosuch` is refused naming the builds.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
# shellcheck source=./lib.sh
. "$top/peers/tests/lib.sh"
vpp_need_build default verB
# shellcheck source=../../tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"

lab_up || { echo "1..$tap_n"; exit 1; }
rc=0
lab swap vpp:nosuch >"$T/nosuch.out" 2>&1 || rc=$?
check "swap vpp:nosuch is refused, naming the builds there" \
	bash -c '[ "$1" -ne 0 ] && grep -q "verB" "$2"' _ "$rc" "$T/nosuch.out"
stage "fwdlab compare vpp:default vpp:verB (1 run each, 2000 pps, udp:64)" \
	lab compare vpp:default vpp:verB --runs 1 --profiles udp:64 --rate 2000 --duration 2 || true
sed 's/^/# /' "$T/stage.out" | tail -n 12
camp=$(find "$FWDLAB_RESULTS" -mindepth 1 -maxdepth 1 -type d -name '*-compare-*' | head -n1)
for g in A B; do
	d=$(find "$camp" -mindepth 1 -maxdepth 1 -type d -name "r1-$g-*" | head -n1)
	want=default
	[ "$g" = A ] || want=verB
	check "run $g complete, labelled vpp:$want" \
		test "$(jq -r '"\(.status) \(.dut.build_label)"' "$d/meta.json" 2>/dev/null)" = "complete vpp:$want"
	if [ "$want" = verB ]; then
		check "run $g: VPP's own show version names verB (-fwdlabB)" grep -q -- '-fwdlabB' "$d/show_version.txt"
	else
		check "run $g: VPP's own show version is the default build's (no -fwdlabB)" \
			bash -c 'grep -q "^vpp v" "$1" && ! grep -q -- "-fwdlabB" "$1"' _ "$d/show_version.txt"
	fi
	check "run $g: tgen tx == rx > 0 through vpp:$want" \
		test "$(jq -r '.trial | (.tx_packets > 0 and .tx_packets == .rx_packets)' "$d/tgen.json" 2>/dev/null)" = true
done
check "fwdstat's comparison names both builds and has VPP's ip4-rewrite clocks" \
	bash -c 'grep -q "vpp:default" "$1" && grep -q "vpp:verB" "$1" && grep -q "ip4-rewrite" "$1"' _ "$T/stage.out"
echo "1..$tap_n"
exit "$tap_failed"
