# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# What a dump holds (dump_into), for the dump verb and the run folders (lab/lib/results.sh).

# dump_into DIR FULL: the DUT's state into DIR; FULL=1 adds xstats, tgen JSON and dmesg.
# backend.json names the forwarder that made the dump; a peer backend (DUT_BACKEND, set by
# topo_require_up) writes its own runtime output (peers/README.md "Dumps").
dump_into() {
	local dir=$1 full=${2:-1} cmd file
	mkdir -p "$dir"
	if [ "${DUT_BACKEND:-vfwd}" != vfwd ]; then
		topo_dut_dump "$dir" || warn "dump: the $DUT_BACKEND backend's dump failed (see $dir)"
		dump_common_tail "$dir" "$full"
		return 0
	fi
	jq -n --arg at "$(utc_now)" --argjson build "$(json_or_null "$dir/.build-info.json")" \
		'{ backend: "vfwd", build: $build, dumped_at: $at }' | atomic_write "$dir/backend.json"
	while read -r file cmd; do
		# shellcheck disable=SC2086 # the CLI command is words
		atomic_cmd "$dir/$file" dut_ctl $cmd </dev/null ||
			warn "dump: '$cmd' failed (see $dir)"
	done <<'EOF'
show_runtime.txt show runtime
show_runtime.json show runtime json
show_errors.txt show errors
show_interfaces.txt show interfaces
show_version.txt show version
EOF
	[ "$full" = 1 ] || return 0
	atomic_cmd "$dir/xstats.txt" dut_ctl show hardware || warn "dump: show hardware failed"
	dump_common_tail "$dir" "$full"
}

# dump_common_tail DIR FULL: what every DUT's full dump adds: the DUT's log, tgen's JSON.
dump_common_tail() {
	local dir=$1 full=$2
	[ "$full" = 1 ] || return 0
	dut_threads_json "$dir"
	atomic_cmd "$dir/dmesg.txt" dut_dmesg || true
	if [ ! -e "$dir/tgen.json" ] && [ -s "$STATE/last-tgen.json" ]; then
		atomic_write "$dir/tgen.json" <"$STATE/last-tgen.json"
	fi
}

