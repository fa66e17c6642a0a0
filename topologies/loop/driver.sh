# shellcheck shell=bash
# loop topology driver, written from topologies/CONTRACT.md alone: the generator's two
# ports joined by a wire, no DUT process, no VM. The wire is the null generator
# (lab/generators/null), which carries up to loop.cap_pps packets a second; the lab's one
# search (tgen -- ndr --trial-exec) runs through it as through any DUT. Its state: $STATE/up
# (the lab is up), $STATE/gen-null/ (the generator's folder).

loop_conf() { kv_get "$TOPO_CONF" "$1" "${2-}"; }

topo_conf_check() { kv_validate "$TOPO_CONF"; }
topo_plan() { echo "loop: no CPU to plan (a wire, no DUT process; the search runs on any CPU)"; }
topo_accel() { echo none; }
topo_is_slow() { return 1; }
node_by_role() { echo loop; }

topo_up() {
	topo_conf_check
	mkdir -p "$STATE"
	echo null >"$STATE/generator"
	gen_do null start || die "loop: the null generator did not start"
	date -u +%Y-%m-%dT%H:%M:%SZ >"$STATE/up"
	say "loop lab is up (a wire of $(loop_conf loop.cap_pps 0) pps, 0: no limit)"
}
topo_access() { echo "loop: nothing to reach (fwdlab --topology loop run|ndr|dump)"; }
topo_down() {
	if [ -e "$STATE/up" ]; then gen_do null stop || true; fi
	rm -rf "$STATE/up" "$STATE/calibration.json" "$STATE/generator" "$STATE/gen-null" "$STATE/last-tgen.json" \
		"$STATE/current-run"
}
topo_status() {
	echo "topology loop, lab folder $STATE"
	if [ -e "$STATE/up" ]; then echo "  wire up since $(cat "$STATE/up")"; else echo "  down"; fi
}
topo_require_up() {
	[ -e "$STATE/up" ] || die "the loop lab is not up (fwdlab --topology loop up)"
	DUT_BACKEND=wire # read by lab/lib/dump.sh and results.sh
	export DUT_BACKEND
}
topo_swap() { die "swap: the loop topology has no DUT (a wire)"; }
topo_console() { die "console: the loop topology has no nodes"; }
topo_ssh() { die "ssh: the loop topology has no nodes"; }
topo_abort() { if pid_alive "$STATE/tgen.pid"; then kill -INT "$(cat "$STATE/tgen.pid")" || true; fi; }

# The DUT side: a wire answers nothing; its dump says what it is.
dut_answers() { [ -e "$STATE/up" ]; }
dut_ctl() { echo "loop: no DUT process to run '$*' (a wire)" >&2; return 1; }
dut_dmesg() { echo "loop: no DUT process (a wire)"; }
dut_build_info() { return 1; }
# topo_dut_dump DIR: backend.json, and stats.json: what the wire carried over the run's
# trials (the generator's own counters, DIR/generator-trials.jsonl; zeros before any).
topo_dut_dump() {
	jq -n --arg at "$(utc_now)" --argjson cap "$(loop_conf loop.cap_pps 0)" \
		'{ backend: "wire", cap_pps: $cap, dumped_at: $at }' | atomic_write "$1/backend.json"
	{ cat "$1/generator-trials.jsonl" 2>/dev/null || true; } | jq -sc '{ trials: length,
		in_packets: (map(.tx_packets) | add // 0), out_packets: (map(.rx_packets) | add // 0) }
		| .dropped_packets = .in_packets - .out_packets' | atomic_write "$1/stats.json"
}

# The generator side: always null, its trials under the lab's one search.
topo_gen_env() {
	[ "$1" = null ] || die "the loop topology's wire is the null generator, not $1"
	export FWDLAB_GEN_DIR=$STATE/gen-null FWDLAB_GEN_ID FWDLAB_GEN_LINK FWDLAB_NULL_CAP_PPS
	FWDLAB_GEN_ID=$(printf '%s' "$STATE" | md5sum | cut -c1-8)
	FWDLAB_GEN_LINK=$(loop_conf loop.link)
	FWDLAB_NULL_CAP_PPS=$(loop_conf loop.cap_pps 0)
}
topo_gen_use() { topo_gen_env "$1"; }
tgen_bin() { echo "${FWDLAB_TGEN:-$TOP/build/tgen/bin/tgen}"; }

# tgen_invoke RUNDIR MODE ARGS...: the search through the wire into RUNDIR/tgen.json; each
# trial's "dump" is the wire's counters (the generator's trial JSON, generator-trials.jsonl).
tgen_invoke() {
	local rundir=$1 mode=$2 cmd=()
	shift 2
	[ -x "$(tgen_bin)" ] || make -s -C "$TOP" tgen >&2 || die "make tgen failed"
	(
		topo_gen_env null
		mkdir -p "$FWDLAB_GEN_DIR"
		export FWDLAB_GEN_TRIALS=$rundir/generator-trials.jsonl
		mapfile -t cmd < <(gen_search_cmd "$mode" "$@")
		exec "${cmd[@]}" --json "$rundir/tgen.json.tmp"
	) </dev/null &
	search_wait "$rundir" "$!"
}
