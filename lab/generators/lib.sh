# shellcheck shell=bash
# The lab's side of the generator contract (lab/generators/README.md), sourced by the
# topology drivers. A topology driver provides topo_gen_env (exports FWDLAB_GEN_* for the
# generator NAME it is given); everything else about a generator goes through its
# executable, lab/generators/NAME.
#
# GENERATOR (fwdlab --generator, FWDLAB_GENERATOR) names the generator of a verb; empty means
# the one the lab was brought up with ($STATE/generator), else tgen. TUNABLES (--tunables)
# are words for a generator's own profile files.

GEN_LIB_DIR=$TOP/lab/generators

# gen_list: the generators, one a line (executables beside this file, not its helpers).
gen_list() {
	local f
	for f in "$GEN_LIB_DIR"/*; do
		if [ ! -f "$f" ] || [ ! -x "$f" ]; then continue; fi
		case "${f##*/}" in trial-exec | *.sh | *.md) continue ;; esac
		echo "${f##*/}"
	done
}

gen_check_name() {
	# a here-string, not a pipe: grep -q stops at the match, and the rest of gen_list's
	# output would then meet a closed pipe (SIGPIPE, a failure under pipefail)
	grep -qx -- "$1" <<<"$(gen_list)" ||
		die "generator '$1': one of $(gen_list | tr '\n' ' ')(lab/generators/README.md)"
}

# gen_lab: the generator the lab is wired for; gen_current: the one this verb uses.
gen_lab() { cat "$STATE/generator" 2>/dev/null || echo tgen; }
gen_current() { echo "${GENERATOR:-$(gen_lab)}"; }

# gen_do NAME VERB ARGS...: the generator's verb, in the lab's environment for it.
gen_do() {
	local name=$1
	shift
	(
		topo_gen_env "$name"
		mkdir -p "$FWDLAB_GEN_DIR"
		exec "$GEN_LIB_DIR/$name" "$@"
	)
}

# gen_info NAME: {name, version, build} (cached for the lab's life in the generator's folder).
gen_info() {
	local f=$STATE/gen-$1/info.json
	if [ ! -s "$f" ]; then
		mkdir -p "$STATE/gen-$1"
		if gen_do "$1" info >"$f.tmp" 2>/dev/null; then mv -f "$f.tmp" "$f"; else rm -f "$f.tmp"; fi
	fi
	if [ -s "$f" ]; then jq -c '{name, version}' "$f"; else jq -nc --arg n "$1" '{name: $n, version: "?"}'; fi
}

# gen_trial_args: the profile words a generator's `trial` takes (README.md "trial").
gen_trial_args() {
	printf '%s\n' --profile "$PROFILE"
	if [ "$PROFILE" != imix ]; then printf '%s\n' --size "$FRAME_SIZE"; fi
	if [ "${FLOWS:-1}" -gt 1 ]; then printf '%s\n' --flows "$FLOWS"; fi
	if [ "${BIDIR:-0}" = 1 ]; then echo --bidir; fi
	if [ -n "${TUNABLES:-}" ]; then printf '%s\n' --tunables "$TUNABLES"; fi
}

# gen_profile_check: refuses, before a run starts, a profile the generator cannot load.
gen_profile_check() {
	local g out args
	g=$(gen_current)
	if [ "$g" = tgen ]; then
		case "$PROFILE" in
		udp | udp6 | imix) [ -z "${TUNABLES:-}" ] || die "--tunables: tgen's profiles take none" ;;
		*) die "profile $PROFILE: tgen's profiles are udp, udp6 and imix (a TRex profile file needs --generator trex)" ;;
		esac
		return 0
	fi
	case "$PROFILE" in udp | imix) return 0 ;; esac
	mapfile -t args < <(gen_trial_args)
	if [ "$g" = trex ]; then
		out=$(gen_do trex check-profile "${args[@]}" 2>&1) || {
			printf '%s\n' "$out" | grep -v '^ *$' | tail -n 12 >&2
			die "profile $PROFILE refused by TRex; no run was started"
		}
		gen_profile_frame_size "$(sed -n 's/^frame_sizes //p' <<<"$out")"
	fi
}

# gen_profile_frame_size SIZES: the run's frame size (meta.json, the rates in bit/s) is the one
# a TRex profile file sends (SIZES, comma-separated, FCS counted); a --size that disagrees
# is refused; a profile of several sizes keeps --size, said.
gen_profile_frame_size() {
	local sizes=$1
	[ -n "$sizes" ] || return 0
	if [[ $sizes != *,* ]]; then
		if [ "${FRAME_SIZE_GIVEN:-0}" = 1 ] && [ "$FRAME_SIZE" != "$sizes" ]; then
			die "--size $FRAME_SIZE: profile $PROFILE sends $sizes B frames (FCS counted); give --size $sizes or leave it out"
		fi
		FRAME_SIZE=$sizes
		return 0
	fi
	warn "profile $PROFILE sends frames of $sizes B: the run's bit rates count ${FRAME_SIZE} B a frame (--size)"
}

# gen_search_cmd MODE ARGS...: the command line (one word a line) of the lab's one search
# (tgen's, tgen/src/search.c) driving generator $(gen_current)'s trials through trial-exec.
gen_search_cmd() {
	local g mode=$1 exec_cmd w rest=()
	shift
	# the verb's profile words (tgen_experiment's) are the trial's, not the search's
	while [ $# -gt 0 ]; do
		case "$1" in
		--profile | --size | --flows) shift 2 ;;
		--bidir) shift ;;
		*) rest+=("$1"); shift ;;
		esac
	done
	set -- "${rest[@]}"
	g=$(gen_current)
	exec_cmd="$GEN_LIB_DIR/trial-exec $g"
	while read -r w; do exec_cmd+=" $(printf '%q' "$w")"; done < <(gen_trial_args)
	printf '%s\n' "$(tgen_bin)" -- "$mode" "$@" --trial-exec "$exec_cmd"
	# the search's own idea of the profile: frame size (rate units), direction count
	if [ "$PROFILE" = imix ]; then printf '%s\n' --profile imix; else printf '%s\n' --size "$FRAME_SIZE"; fi
	if [ "${BIDIR:-0}" = 1 ]; then echo --bidir; fi
	printf '%s\n' --link "${FWDLAB_GEN_LINK:-10gbps}"
}

# gen_json_finish FILE: the search's JSON names the generator that ran the trials.
gen_json_finish() {
	local g f=$1 info
	g=$(gen_current)
	[ "$g" != tgen ] || return 0
	info=$(cat "$STATE/gen-$g/info.json" 2>/dev/null || echo null)
	jq --arg g "$g" --arg p "$PROFILE" --arg t "${TUNABLES:-}" --argjson info "$info" '
		.search = {tool: .tool, build: .build} | .tool = $g | .build = ($info.build // null)
		| .generator = {name: $g, version: ($info.version // "?")}
		| .profile.name = $p | .profile.tunables = $t' "$f" >"$f.gen" && mv -f "$f.gen" "$f"
}

# gen_fault_text: empty while the generator's long-lived parts run; else why not (the
# generator's `check` names the process and its log).
gen_fault_text() {
	local g out
	g=$(gen_current)
	[ "$g" != tgen ] || return 0
	out=$(gen_do "$g" check 2>&1 >/dev/null) && return 0
	printf '%s' "$out" | tail -n 1
}
