# shellcheck shell=bash
# Helpers for the tests of fwdlab's VPP feature plugins (peers/vpp/plugins: example in C,
# example-rs in Rust), sourced after lib.sh by peers/tests/vpp_example_rs_*.t. A plugin is
# built by peers/vpp/plugins/build-plugin against the default VPP build (into
# build/vpp-plugins/) and run by the vpp backend from an install tree of its own
# (build-plugin --tree: the default build's files plus fwdlab/plugins/ and fwdlab/setup.cli).
# shellcheck disable=SC2034 # PLUGIN_TREE, PLUGIN_CFG are read by the tests

BUILD_PLUGIN=$PEERS/vpp/plugins/build-plugin

# plugin_tree DIR PLUGIN...: builds the plugins (a failed build fails the test, naming it)
# and makes DIR a VPP tree that loads them; PLUGIN_SO[i] is each .so. Needs VPP_PREFIX.
plugin_tree() {
	local dir=$1 out
	shift
	out=$T/plugins-$(basename "$dir").txt
	need "the plugin(s) $* built against $VPP_PREFIX (peers/vpp/plugins/build-plugin)" \
		build_plugin_into "$out" --prefix "$VPP_PREFIX" --tree "$dir" "$@"
	mapfile -t PLUGIN_SO <"$out"
}
build_plugin_into() { "$BUILD_PLUGIN" "${@:2}" >"$1"; } # FILE ARGS...: the .so paths into FILE

# plugin_vppctl ARGS...: vppctl of the running VPP (PLUGIN_CFG), CRs removed
plugin_vppctl() { VPP_PREFIX=$PLUGIN_TREE vppctl_cfg "$PLUGIN_CFG" "$@" | tr -d '\r'; }

# node_vectors NODE: the vectors of NODE in `show runtime`, summed over the threads
node_vectors() {
	plugin_vppctl show runtime | awk -v n="$1" '$1 == n { v += $4 } END { print v + 0 }'
}
node_saw() { [ "$(node_vectors "$1")" -ge "$2" ]; } # NODE N

# arc_features PORT: the ip4-unicast features of PORT in order, one a line, then "[end] NODE"
arc_features() {
	plugin_vppctl show interface features "$1" verbose | awk '
		/^ip4-unicast:/ { on = 1; next }
		on && /^[^ ]/ { on = 0 }
		on && /\[end\]/ { print "[end] " $NF; next }
		on && /\[/ { print $NF }'
}

# plugin_up TREE: the vpp backend on memif ports from TREE, with the reference generator
# (testpmd) connected; port0's input is $T/in0.pcap (UDP), port1's $T/in1.pcap (ICMP).
plugin_up() {
	PLUGIN_TREE=$1
	PLUGIN_CFG=$T/vpp-$(basename "$1").cfg
	rm -f "$T/tg_out0.pcap" "$T/tg_out1.pcap"
	write_config "$PLUGIN_CFG" "memif:$T/m0.sock" "memif:$T/m1.sock" "vpp-prefix $PLUGIN_TREE"
	need "VPP with $(basename "$1")'s plugins started (peers/backends/vpp start)" \
		backend_up vpp "$PLUGIN_CFG"
}

# plugin_traffic NODE [N]: plays both pcaps through VPP, waits until NODE saw N frames
# (default every frame of both)
plugin_traffic() {
	local n=${2:-$((N_FWD + N_REV))}
	need "the reference generator (testpmd) on VPP's memif sockets" \
		tg_start "net_memif0,role=client,id=0,socket=$T/m0.sock,socket-abstract=no,mac=$TG_MAC0" \
		"net_memif1,role=client,id=0,socket=$T/m1.sock,socket-abstract=no,mac=$TG_MAC1"
	vpp_wait_memif_up "$PLUGIN_CFG" 60 || true
	tg_cmd start
	wait_frames "$T/tg_out1.pcap" "$N_FWD" 30 || true
	# a frame counted at the input is still on its way through the graph: wait for the node
	poll_until 10 "VPP's $1 node to count all $n frames (show runtime)" node_saw "$1" "$n" || true
}

# plugin_down: the generator (its output pcaps complete once it has quit) and VPP stopped
plugin_down() {
	tg_stop
	kill "$(cat "$T/tg-holder.pid" 2>/dev/null)" 2>/dev/null || true
	rm -f "$T/tg.fifo" "$T/tg-holder.pid"
	"$BACKEND_CMD" vpp stop "$PLUGIN_CFG" >/dev/null 2>&1 || true
}

# clocks_line NODE: "# NODE: C clocks/packet, V vectors/call (calls, vectors)" from the
# thread that ran NODE (VPP's show runtime: Name State Calls Vectors Suspends Clocks V/C)
clocks_line() {
	awk -v n="$1" '$1 == n && $4 > 0 {
		printf "# %s: %s clocks/packet, %s vectors/call (%s calls, %s vectors)\n", n, $6, $7, $3, $4 }' \
		"$2"
}

# plugin_checks NAME NODE SO DESCRIPTION: the checks of one plugin on a running VPP that
# has seen plugin_traffic; stops both (plugin_down) before it reads the generator's pcaps
plugin_checks() {
	local name=$1 node=$2 so=$3 desc=$4 plugins feats out n0
	plugins=$(plugin_vppctl show plugins)
	check "$name: show plugins lists $so ($desc)" \
		awk -v so="$so" -v d="$desc" 'index($0, so) && index($0, d) { f = 1 } END { exit !f }' \
		<<<"$plugins"
	feats=$(arc_features port0)
	check "$name: show interface features port0: $node on ip4-unicast, before its end ip4-lookup (${feats//$'\n'/, })" \
		awk -v n="$node" '$1 == n { f = 1 } $0 == "[end] ip4-lookup" { e = 1 } END { exit !(f && e) }' \
		<<<"$feats"
	out=$T/dump-$name
	"$BACKEND_CMD" vpp dump "$PLUGIN_CFG" "$out" >/dev/null
	plugin_down
	check_out "$name passes UDP port0->port1" "$T/tg_out1.pcap" fwd routed-own-mac
	check "$name: port1 counted the $N_FWD UDP frames out (show interface)" \
		test "$(awk -f "$PEERS/lib/vpp-interface-stats.awk" "$out/show_interfaces.txt" | jq .port1.tx)" = "$N_FWD"
	n0=$("$PCAPTOOL" count "$T/tg_out0.pcap" 2>/dev/null || echo "?")
	check "$name: no ICMP frame comes out of port0 (${n0:-?} frames)" test "${n0:-x}" = 0
	check "$name: show errors: $node counts $N_REV icmp packets dropped" \
		awk -v n="$N_REV" -v node="$node" \
		'/icmp packets dropped/ && $2 == node && $1 == n { f = 1 } END { exit !f }' \
		"$out/show_errors.txt"
	check "$name: show runtime: the $node node saw every frame ($((N_FWD + N_REV)))" \
		awk -v n=$((N_FWD + N_REV)) -v node="$node" '$1 == node { v += $4 } END { exit !(v == n) }' \
		"$out/show_runtime.txt"
	clocks_line "$node" "$out/show_runtime.txt"
}

# plugin_pcaps: port0's input is the reference UDP flow ($N_FWD frames), port1's is ICMP
# ($N_REV frames 48.0.0.1 -> 16.0.0.1, protocol 1), routed towards port0 unless dropped
plugin_pcaps() {
	make_pcaps 64
	"$PCAPTOOL" gen "$T/in1.pcap" --count "$N_REV" --size 64 --src-mac "$TG_MAC1" \
		--dst-mac "$DUT_MAC1" --src-ip 48.0.0.1 --dst-ip 16.0.0.1 --proto 1
}

# plugin_alone PLUGIN NODE DESCRIPTION: PLUGIN built by build-plugin and loaded alone from a
# tree of its own; for the build's CPU baseline (x86-64-v2: no AVX register in its code), then
# plugin_checks on UDP and ICMP through it
plugin_alone() {
	local so
	plugin_tree "$T/vpp-$1" "$1"
	so=$(basename "${PLUGIN_SO[0]}")
	if [ "$(jq -r '.native // "OFF"' "$VPP_PREFIX/build-info.json")" != ON ]; then
		check "$1: $so is built for x86-64-v2 (no ymm/zmm register in its code)" \
			bash -c '! objdump -d "$1" | grep -qE "%[yz]mm"' _ "${PLUGIN_SO[0]}"
	fi
	plugin_up "$T/vpp-$1"
	plugin_traffic "$2"
	plugin_checks "$1" "$2" "$so" "$3"
}
