# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# One experiment on a lab that is up: run (a trial at a rate) and ndr (the search).

run() {
	topo_require_up
	[ -n "$RATE" ] || die "run: --rate is required (pps, or e.g. 10% of the link)"
	gen_prepare
	run_begin run "${RUN_NAME:-run-$(profile_slug)-$FRAME_SIZE}"
	tgen_experiment run --rate "$RATE" --duration "${DURATION:-$(default_trial_duration)}"
	run_finish
	summary "$RUN_DIR"
}

ndr() {
	topo_require_up
	gen_prepare
	run_begin ndr "${RUN_NAME:-ndr-$(profile_slug)-$FRAME_SIZE}"
	local args
	mapfile -t args < <(ndr_search_args)
	if [ -n "$METHOD" ]; then args+=(--method "$METHOD"); fi
	if [ -n "$LATENCY_LOADS" ]; then args+=(--latency-loads "$LATENCY_LOADS"); fi
	tgen_experiment "${args[@]}"
	run_finish
	summary "$RUN_DIR"
}

# ndr_search_args: the search's words, one a line: ndr, the trial and final durations (the
# topology's defaults unless given) and the rate bounds given (ndr, fwdlab calibrate).
ndr_search_args() {
	printf '%s\n' ndr --trial-duration "${TRIAL_DURATION:-$(default_trial_duration)}" \
		--final-duration "${FINAL_DURATION:-$(default_final_duration)}"
	if [ -n "$MAX_RATE" ]; then printf '%s\n' --max-rate "$MAX_RATE"; fi
	if [ -n "$MIN_RATE" ]; then printf '%s\n' --min-rate "$MIN_RATE"; fi
}

# profile_slug: the profile's name in run names (a profile file: its base name, no .py).
profile_slug() {
	local p=${PROFILE##*/}
	p=${p%.py}
	printf '%s' "${p//[^A-Za-z0-9._+-]/_}"
}

# gen_prepare: the verb's generator (--generator) wired and running, its profile loadable
# (lab/generators/lib.sh, sourced for every topology by topologies/defaults.sh).
gen_prepare() {
	local g
	g=$(gen_current)
	gen_check_name "$g"
	# a profile the generator cannot load is refused before anything is rewired or started
	gen_profile_check
	if [ "$g" != "$(gen_lab)" ] || [ "$g" != tgen ]; then topo_gen_use "$g"; fi
}

# Short trials under TCG or for a smoke run (they prove the path), long ones otherwise.
default_trial_duration() {
	if topo_is_slow || [ "$SMOKE" = 1 ]; then echo 2; else echo 10; fi
}

default_final_duration() {
	if topo_is_slow || [ "$SMOKE" = 1 ]; then echo 4; else echo 30; fi
}

summary() {
	"$LAB_DIR/summary" "$1" || warn "summary failed for $1"
}

