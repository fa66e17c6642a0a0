# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC1091 # top: the sourcing test; T, N_*: peers/tests/lib.sh
# Shared by tests/host_peer_*.sh (source it; it is not a test): a host lab of the test's own
# (private state and results under $T, taken down on exit) and
#   peer_forwards NAME EXPECT
# which swaps peer backend NAME in (`fwdlab swap peer:NAME`), runs tgen through it at a low
# rate (`fwdlab run`) and checks the run folder, then plays reference frames into the very
# ports tgen uses and checks every frame that comes out (EXPECT as in peers/tests/lib.sh:
# io, mac, routed). TAP helpers, the reference frames and the testpmd generator are
# peers/tests/lib.sh's.
N_FWD=${N_FWD:-500}
N_REV=${N_REV:-200}
# shellcheck source=peers/tests/lib.sh
. "$top/peers/tests/lib.sh"
for need in "build/vfwd/default/bin/vfwd" "build/tgen/bin/tgen"; do
	[ -x "$top/$need" ] || make -s -C "$top" forwarder tgen >&2
done
[ -x "$top/build/lab/bin/fwdstat" ] || make -s -C "$top/lab/fwdstat" >&2
[ -x "$PCAPTOOL" ] || make -s -C "$top/peers" tools >&2
test_init
export FWDLAB_STATE=$T/lab FWDLAB_RESULTS=$T/results FWDLAB_NO_INSTALL=1
lab() { "$top/lab/fwdlab" --topology host "$@"; }
on_exit "'$top/lab/fwdlab' --topology host down"

# stage NAME CMD...: one TAP line for a step, with its time; its output on failure.
stage() {
	local name=$1 t0=$SECONDS rc=0
	shift
	"$@" >"$T/stage.out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$name ($((SECONDS - t0)) s)"
	else
		not_ok "$name (exit $rc after $((SECONDS - t0)) s)"
		tail -n 30 "$T/stage.out" | sed 's/^/# /'
	fi
	return "$rc"
}

lab_up() { stage "fwdlab up (vfwd as the DUT)" lab up; }

# tg_links_up: the reference generator's ports 1 and 2 (the lab's sockets) came up
tg_links_up() {
	grep -q 'Port 1: link state change' "$T/tg.log" && grep -q 'Port 2: link state change' "$T/tg.log"
}

# peer_forwards NAME EXPECT
peer_forwards() {
	local name=$1 expect=$2 dir meta json
	stage "fwdlab swap peer:$name" lab swap "peer:$name" || return 0
	stage "$name: fwdlab run at 2000 pps for 2 s" lab run --label "peer-$name" --rate 2000 \
		--duration 2 || true
	meta=$(find "$FWDLAB_RESULTS" -path "*-host-peer-$name/*" -name meta.json -print -quit)
	dir=$(dirname "${meta:-/nonexistent/x}")
	json=$dir/tgen.json
	check "$name: run complete, meta.json dut.backend = $name" \
		test "$(jq -r '"\(.status) \(.dut.backend)"' "$meta" 2>/dev/null)" = "complete $name"
	local tx rx dup
	read -r tx rx dup < <(jq -r '"\(.trial.tx_packets // 0) \(.trial.rx_packets // 0) \(.trial.duplicates // 0)"' \
		"$json" 2>/dev/null || echo "0 0 0")
	check "$name: packets out == packets in (tgen tx $tx, rx $rx, duplicates $dup)" \
		test "$tx" -gt 0 -a "$tx" -eq "$rx" -a "$dup" -eq 0
	check "$name: the run's dump and the trial's dump name backend $name" \
		test "$(jq -r .backend "$dir/backend.json" "$dir/trials/000/backend.json" 2>/dev/null | sort -u)" = "$name"
	# The backend's own counters, dumped after the trial: at least tgen's frames (testpmd
	# zeroes them before the trial, so there: exactly; others also count tgen's warm-up).
	local rx0 tx1 cmp=-ge
	read -r rx0 tx1 < <(jq -r '"\(.port0.rx) \(.port1.tx)"' "$dir/trials/000/stats.json" 2>/dev/null ||
		echo "0 0")
	case "$name" in testpmd-*) cmp=-eq ;; esac
	check "$name: its own counters after the trial: port0 rx $rx0 $cmp $tx, port1 tx $tx1 $cmp $rx" \
		test "$rx0" "$cmp" "$tx" -a "$tx1" "$cmp" "$rx" -a "$tx" -gt 0
	local own
	case "$name" in
	testpmd-*) own=fwd_stats.txt ;;
	l3fwd) own=ethdev_stats.json ;;
	l3fwd-graph) own=graph_stats.txt ;;
	ovs-dpdk) own=pmd_perf_show.txt ;;
	linux) own=snmp.txt ;;
	esac
	check "$name: the run folder holds its runtime output ($own)" test -s "$dir/$own"
	peer_capture "$name" "$expect"
}

# peer_capture NAME EXPECT: a testpmd generator in tgen's place (vhost-user client of the
# lab's sockets, or af_packet on the lab's veths for linux) plays the reference frames.
peer_capture() {
	local name=$1 expect=$2 cfg=$FWDLAB_STATE/peer/config v0 v1
	[ -s "$T/in0.pcap" ] || make_pcaps 64
	rm -f "$T"/tg_out*.pcap "$T/tg.fifo" "$T/tg.log"
	if [ "$name" = linux ]; then
		v0=$(awk '$1 == "port0" { sub(/^veth:/, "", $2); print $2 }' "$cfg")
		v1=$(awk '$1 == "port1" { sub(/^veth:/, "", $2); print $2 }' "$cfg")
		tg_start "net_af_packet0,iface=$v0" "net_af_packet1,iface=$v1" || {
			not_ok "$name: the reference generator (testpmd on the lab's veths) starts"
			return 0
		}
	else
		tg_start "net_vhost0,iface=$FWDLAB_STATE/run/port0.sock,client=1" \
			"net_vhost1,iface=$FWDLAB_STATE/run/port1.sock,client=1" || {
			not_ok "$name: the reference generator (testpmd on the lab's sockets) starts"
			return 0
		}
		# Both links up: the DUT took this client (as it takes each tgen).
		poll_until 30 "the DUT to take the reference generator's two vhost-user links ('Port 1/2: link state change' in $T/tg.log)" \
			tg_links_up || true
	fi
	tg_cmd start
	wait_frames "$T/tg_out1.pcap" "$N_FWD" 30 || true
	wait_frames "$T/tg_out0.pcap" "$N_REV" 10 || true
	tg_stop # closing the generator's pcap ports flushes them
	kill "$(cat "$T/tg-holder.pid")" 2>/dev/null || true
	check_out "$name on the lab's ports: 16.0.0.1->48.0.0.1 port0->port1" "$T/tg_out1.pcap" fwd "$expect"
	check_out "$name on the lab's ports: 48.0.0.1->16.0.0.1 port1->port0" "$T/tg_out0.pcap" rev "$expect"
}

peer_tests_end() {
	echo "1..$tap_n"
	exit "$tap_failed"
}
