# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# dump [DIR]: the DUT's state into a run folder.

dump() {
	local dir=${1:-}
	topo_require_up
	if [ -z "$dir" ]; then
		dir=$(current_run)
		if [ -z "$dir" ] || [ "$(jq -r .status "$dir/meta.json")" = complete ]; then
			# A finished run is never rewritten: a dump on its own is a run of its own.
			run_begin dump "${RUN_NAME:-dump}"
			run_finish
			say "dump: $RUN_DIR"
			return 0
		fi
	fi
	mkdir -p "$dir"
	dump_into "$dir" 1
	say "dump: $dir"
}

