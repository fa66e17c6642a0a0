#!/usr/bin/env bash
# `fwdlab swap vpp-plugin:FILE.so` on a host lab, with fwdlab's two VPP feature plugins built
# by peers/vpp/plugins/build-plugin against the default VPP build (a failed build fails the
# test): the C one is swapped in while vfwd is the DUT (vpp:default goes in first), then the
# Rust one. Each time VPP's own `show plugins` lists the .so with VPP's version (the previous
# plugin gone), `show interface features` has its node on ip4-unicast of both ports, and a run
# forwards tgen's UDP (no ICMP) without loss through the node, whose meta.json
# (dut.build.plugins) and dumps (plugins.json, show_plugins.txt, per trial too) name the .so
# and its sha256. Refused, each naming why, the DUT running the Rust plugin still (listed, on
# the arc): a .so without enable lines (no FILE.cli, no --enable), a file that is not a VPP
# plugin, a plugin built against another VPP version's headers, and one VPP cannot load (an
# undefined symbol: VPP's own error named, the previous DUT started again). Last, `fwdlab
# compare vpp-plugin:C vpp-plugin:R --runs 1` (a short NDR per run): a table naming both builds
# with the plugin node's clocks/packet on one row (example/example-rs), each dump's figures and
# the DUT-bound test.
set -euo pipefail
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
# shellcheck source=./lib.sh
. "$top/peers/tests/lib.sh"
vpp_need_build default
# shellcheck source=../../tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"
t_start=$SECONDS

# The plugins, and copies of them in the test's folder (build/vpp-plugins/ is shared: another
# test may replace a .so there meanwhile, by rename).
need "the C and Rust VPP plugins (peers/vpp/plugins/build-plugin --prefix $VPP_PREFIX)" \
	bash -c '"$1" --prefix "$2" example example-rs >"$3"' _ "$PEERS/vpp/plugins/build-plugin" \
	"$VPP_PREFIX" "$T/built.txt"
mkdir -p "$T/c" "$T/rs" "$T/nocli" "$T/junk" "$T/other" "$T/bad"
mapfile -t built <"$T/built.txt"
for so in "${built[@]}"; do
	case "$(basename "$so")" in
	example_plugin.so) cp "$so" "${so%.so}.cli" "$T/c/" ;;
	example_rs_plugin.so) cp "$so" "${so%.so}.cli" "$T/rs/" ;;
	esac
done
C=$T/c/example_plugin.so R=$T/rs/example_rs_plugin.so
need "both plugins built with their enable lines" test -s "$C" -a -s "$R" -a -s "${C%.so}.cli" -a -s "${R%.so}.cli"
sha() { sha256sum "$1" | cut -d' ' -f1; }

# VPP's CLI in the lab, read by the test itself (these three run in `bash -c` checks too)
# shellcheck disable=SC2317
vppctl_lab() {
	LD_LIBRARY_PATH=$(dirname "$(find "$VPP_PREFIX/lib" -maxdepth 2 -name 'libvnet.so*' -print -quit)") \
		"$VPP_PREFIX/bin/vppctl" -s "$FWDLAB_STATE/peer/run/cli.sock" "$@" | tr -d '\r'
}
# listed FILE: show plugins lists FILE with the version show version prints
# shellcheck disable=SC2317
listed() {
	local ver
	ver=$(vppctl_lab show version | awk '{ sub(/^v/, "", $2); print $2; exit }')
	vppctl_lab show plugins | awk -v f="$1" -v v="$ver" '$2 == f && $3 == v { ok = 1 } END { exit !ok }'
}
# on_arc NODE PORT: NODE is among PORT's ip4-unicast features
# shellcheck disable=SC2317
on_arc() {
	vppctl_lab show interface features "$2" | awk -v n="$1" '$0 == "ip4-unicast:" { on = 1; next }
		on && /^[^ ]/ { on = 0 } on && $1 == n { ok = 1 } END { exit !ok }'
}

# plugin_swapped NAME FILE NODE OTHER: checks after `swap vpp-plugin:FILE`, then a run
plugin_swapped() {
	local name=$1 so=$2 node=$3 other=$4 file dir meta
	file=$(basename "$so")
	check "$name: show plugins lists $file with VPP's version" listed "$file"
	check "$name: the previous plugin ($other) is gone from show plugins" bash -c '! grep -qw "$1" <<<"$2"' _ \
		"$other" "$(vppctl_lab show plugins)"
	check "$name: $node is on ip4-unicast of port0 and port1 (show interface features)" \
		bash -c 'on_arc "$1" port0 && on_arc "$1" port1' _ "$node"
	stage "$name: fwdlab run at 2000 pps for 2 s through $node" \
		lab run --label "plugin-$name" --rate 2000 --duration 2 || true
	meta=$(find "$FWDLAB_RESULTS" -path "*-host-plugin-$name/*" -name meta.json -print -quit)
	dir=$(dirname "${meta:-/nonexistent/x}")
	check "$name: run complete, dut.build_label vpp-plugin:$file" \
		test "$(jq -r '"\(.status) \(.dut.build_label)"' "$meta" 2>/dev/null)" = "complete vpp-plugin:$file"
	local tx rx
	read -r tx rx < <(jq -r '"\(.trial.tx_packets // 0) \(.trial.rx_packets // 0)"' "$dir/tgen.json" 2>/dev/null ||
		echo "0 0")
	check "$name: tgen's UDP forwarded without loss (tx $tx, rx $rx)" test "$tx" -gt 0 -a "$tx" -eq "$rx"
	local v
	v=$(awk -v n="$node" '$1 == n { s += $4 } END { print s + 0 }' "$dir/show_runtime.txt" 2>/dev/null || echo 0)
	check "$name: every packet went through $node ($v vectors in the run's show runtime, tgen rx $rx)" \
		test "$v" -ge "$rx" -a "$rx" -gt 0
	check "$name: meta.json dut.build.plugins = [{file $file, sha256 of the .so, node $node}]" \
		test "$(jq -c '.dut.build.plugins' "$meta" 2>/dev/null)" = \
		"[{\"file\":\"$file\",\"sha256\":\"$(sha "$so")\",\"node\":\"$node\"}]"
	check "$name: the run's and the trial's dumps name $file and its sha256 (plugins.json, show_plugins.txt)" \
		bash -c 'for d in "$1" "$1/trials/000"; do
			[ "$(jq -r ".[] | select(.file == \"$2\") | .sha256" "$d/plugins.json")" = "$3" ] &&
				grep -q "$2" "$d/show_plugins.txt" || exit 1
		done' _ "$dir" "$file" "$(sha "$so")"
}

# refused NAME WANT SPEC [ARGS...]: swap SPEC fails naming WANT, and the Rust plugin still runs
refused() {
	local name=$1 want=$2 rc=0 t0=$SECONDS
	shift 2
	lab swap "$@" >"$T/refused.out" 2>&1 || rc=$?
	check "refused: $name ($((SECONDS - t0)) s): exit $rc, says '$want'" \
		bash -c '[ "$1" -ne 0 ] && grep -qF -- "$2" "$3"' _ "$rc" "$want" "$T/refused.out"
	if [ "$rc" -eq 0 ] || ! grep -qF -- "$want" "$T/refused.out"; then
		sed 's/^/#   /' "$T/refused.out" | tail -n 8
	fi
	check "refused: $name: the DUT still runs the Rust plugin (listed, example-rs on port0's arc)" \
		bash -c 'listed example_rs_plugin.so && on_arc example-rs port0 &&
			[ "$(cat "$1/peer/name")" = vpp-plugin:example_rs_plugin.so ]' _ "$FWDLAB_STATE"
}
export -f vppctl_lab listed on_arc
export VPP_PREFIX FWDLAB_STATE

lab_up || { echo "1..$tap_n"; exit 1; }
stage "swap vpp-plugin:C while vfwd is the DUT (vpp:default first)" lab swap "vpp-plugin:$C" || true
sed 's/^/# /' "$T/stage.out" | tail -n 3
check "C: vpp:default was swapped in first, and the swap says what it checked" \
	bash -c 'grep -q "swapping in vpp:default first" "$1" && grep -q "example is on the arc of port0 port1" "$1"' _ "$T/stage.out"
plugin_swapped c "$C" example example_rs_plugin.so
stage "swap vpp-plugin:R (the Rust plugin in place of the C one)" lab swap "vpp-plugin:$R" || true
plugin_swapped rs "$R" example-rs example_plugin.so

# Refusals. A .so without enable lines; a file that is not a VPP plugin; a plugin built against
# another VPP version's headers; a plugin VPP cannot load (an undefined symbol).
cp "$C" "$T/nocli/"
refused "a .so without enable lines" "no enable lines" "vpp-plugin:$T/nocli/example_plugin.so"
cp "$(find /usr/lib /lib -name 'libz.so.1*' -type f -print -quit)" "$T/junk/libz.so"
refused "a file that is not a VPP plugin" "is not a VPP plugin" "vpp-plugin:$T/junk/libz.so"
mkdir -p "$T/hdr/vpp/app"
sed 's/^#define VPP_BUILD_VER .*/#define VPP_BUILD_VER "25.10-release"/' \
	"$VPP_PREFIX/include/vpp/app/version.h" >"$T/hdr/vpp/app/version.h"
need "a C plugin built against other version headers" clang -std=gnu11 -O2 -fPIC -shared -I"$T/hdr" \
	-I"$VPP_PREFIX/include" -o "$T/other/example_plugin.so" "$top/peers/vpp/plugins/example/example.c"
cp "${C%.so}.cli" "$T/other/"
refused "a plugin built against VPP 25.10's headers" "built against VPP 25.10-release's headers" \
	"vpp-plugin:$T/other/example_plugin.so"
cat >"$T/bad/bad.c" <<'EOF'
#include <vlib/vlib.h>
#include <vlib/unix/plugin.h>
#include <vpp/app/version.h>
extern int fwdlab_no_such_symbol;
int *fwdlab_bad_ref = &fwdlab_no_such_symbol;
VLIB_PLUGIN_REGISTER () = { .version = VPP_BUILD_VER, .description = "fwdlab test: does not load" };
EOF
need "a plugin with an undefined symbol" clang -std=gnu11 -O2 -fPIC -shared -I"$VPP_PREFIX/include" \
	-o "$T/bad/bad_plugin.so" "$T/bad/bad.c"
refused "a plugin VPP cannot load (VPP's error named)" "undefined symbol: fwdlab_no_such_symbol" \
	"vpp-plugin:$T/bad/bad_plugin.so" --enable bad
check "the failed start says the previous DUT runs again" grep -q "the DUT runs vpp-plugin:example_rs_plugin.so again" "$T/refused.out"

# The A/B as one command: one run each, a short NDR (the 3 kpps cap passes at once on an idle
# path; a loaded host searches below it)
stage "fwdlab compare vpp-plugin:C vpp-plugin:R --runs 1 --profiles udp:1500 (NDR up to 3 kpps)" \
	lab compare "vpp-plugin:$C" "vpp-plugin:$R" --runs 1 --profiles udp:1500 --max-rate 3kpps \
	--trial-duration 1 --final-duration 1 || true
sed -n '/^| profile/,$p' "$T/stage.out" | sed 's/^/# /'
check "compare: the table names both builds" \
	bash -c 'grep -q "DUT vpp-plugin:example_plugin.so" "$1" && grep -q "DUT vpp-plugin:example_rs_plugin.so" "$1"' _ "$T/stage.out"
check "compare: the plugin node's clocks/packet and vectors/call on one row per figure (example/example-rs)" \
	bash -c 'grep -qE "^\| udp/1500B \| example/example-rs +\| clocks/packet \| +[0-9.]+ " "$1" &&
		grep -qE "^\| udp/1500B \| example/example-rs +\| vectors/call " "$1"' _ "$T/stage.out"
check "compare: the NDR rates of both builds" grep -qE '^\| udp/1500B \| NDR \(pps\) ' "$T/stage.out"
check "compare: each dump's clocks/packet of its node (example for A, example-rs for B) and the DUT-bound test" \
	bash -c 'grep -qE "^\| r1-A-udp1500 \| vpp-plugin:example_plugin.so \| example \| [0-9]+\.[0-9]+ \| [0-9]+\.[0-9]+ \| NDR " "$1" &&
		grep -qE "^\| r1-B-udp1500 \| vpp-plugin:example_rs_plugin.so \| example-rs \| [0-9]+\.[0-9]+ \| [0-9]+\.[0-9]+ \| NDR " "$1" &&
		grep -q "^DUT-bound" "$1"' _ "$T/stage.out"
camp=$(find "$FWDLAB_RESULTS" -mindepth 1 -maxdepth 1 -type d -name '*-compare-plugin-*' -print -quit)
check "compare: each run's meta.json names its plugin's sha256" \
	bash -c '[ "$(jq -r ".dut.build.plugins[0].sha256" "$1"/r1-A-*/meta.json)" = "$2" ] &&
		[ "$(jq -r ".dut.build.plugins[0].sha256" "$1"/r1-B-*/meta.json)" = "$3" ]' _ "${camp:-/nonexistent}" \
	"$(sha "$C")" "$(sha "$R")"
echo "# $((SECONDS - t_start)) s"
echo "1..$tap_n"
exit "$tap_failed"
