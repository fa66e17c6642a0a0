# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # globals of lab/fwdlab and lab/lib/experiments.sh
# fwdlab bisect GOOD BAD (sourced by lab/fwdlab): builds vfwd at commits between GOOD and
# BAD and finds the first one whose runs differ from GOOD's, by the rule of `fwdlab trend`
# (lab/fwdstat/README.md "trend", "bisect"). Host topology; the lab must be up.
#
#   fwdlab --topology host bisect GOOD BAD [--runs N] [--node NAME] [--alpha A]
#       [--repo DIR] [run options: --rate R --duration S | ndr options] [--frame-size N]
#
# Each probe runs the candidate and GOOD interleaved (G C C G G C ...), N times each, into
# the bisect's campaign folder, and asks `fwdstat trend` whether the candidate's runs differ
# from GOOD's (two-sided Mann-Whitney U, p < alpha). First BAD is probed: without a change
# there is nothing to look for. Then a binary search over `git rev-list --first-parent
# GOOD..BAD`: a candidate that changed the same way as BAD is on BAD's side.

# bisect_build REV: vfwd built at REV in the bisect's clone; prints the build folder.
bisect_build() {
	local rev=$1 src=$BISECT_STATE/src out
	out=$BISECT_STATE/builds/$(git -C "$src" rev-parse --short=12 "$rev")
	if [ -s "$out/build-info.json" ]; then
		echo "$out"
		return 0
	fi
	git -C "$src" checkout -q --detach "$rev" || die "bisect: cannot check out $rev"
	say "bisect: building vfwd at $(git -C "$src" log -1 --format='%h %s' "$rev")"
	make -s -C "$src/forwarder" TOP="$src" >"$BISECT_STATE/build.log" 2>&1 ||
		die "bisect: building vfwd at $rev failed (log: $BISECT_STATE/build.log)"
	mkdir -p "$BISECT_STATE/builds"
	rm -rf "$out"
	cp -a "$src/build/vfwd/default" "$out"
	echo "$out"
}

# bisect_seed REV: the clone starts from this checkout's objects when its forwarder/ is
# REV's and has no uncommitted change (a relink instead of a full build); a later checkout
# touches the files it changes, so make rebuilds those.
bisect_seed() {
	local rev=$1 src=$BISECT_STATE/src
	[ -d "$TOP/build/vfwd-obj/default" ] || return 0
	[ -z "$(git -C "$TOP" status --porcelain -- forwarder 2>/dev/null)" ] || return 0
	[ "$(git -C "$TOP" rev-parse HEAD:forwarder 2>/dev/null)" = \
		"$(git -C "$src" rev-parse "$rev:forwarder")" ] || return 0
	git -C "$src" checkout -q --detach "$rev"
	mkdir -p "$src/build/vfwd-obj"
	cp -a "$TOP/build/vfwd-obj/default" "$src/build/vfwd-obj/"
	find "$src/build/vfwd-obj" -type f -exec touch {} +
}

# bisect_probe K GOOD_BUILD CAND_BUILD: N interleaved runs each; sets BISECT_VERDICT and
# BISECT_P to the candidate's trend verdict and p-value.
bisect_probe() {
	local k=$1 good=$2 cand=$3 r order b dirs=() args=()
	for ((r = 1; r <= BISECT_RUNS; r++)); do
		order="good cand"
		if [ $((r % 2)) -eq 0 ]; then order="cand good"; fi
		for b in $order; do
			if [ "$b" = good ]; then exp_swap "$good" >&2; else exp_swap "$cand" >&2; fi
			exp_one "p$k-r$r-$b" "$b" "$r" "probe $k r$r $b" >&2
		done
	done
	mapfile -t dirs < <(find "$EXP_DIR" -mindepth 1 -maxdepth 1 -name "p$k-r*" | sort)
	if [ -n "$BISECT_NODE" ]; then args+=(--node "$BISECT_NODE"); fi
	"$(fwdstat_bin)" trend "${dirs[@]}" "${args[@]}" --alpha "$BISECT_ALPHA" --json \
		>"$EXP_DIR/probe-$k.json" || die "bisect: fwdstat trend failed on probe $k"
	IFS=$'\t' read -r BISECT_VERDICT BISECT_P < <(jq -r --arg g "$(jq -r .git_rev "$good/build-info.json")" '
		[.tests[].builds[] | select(.git_rev != $g)] | first // {} |
		"\(.verdict // "none")\t\(.p // "nan")"' "$EXP_DIR/probe-$k.json")
}

bisect() {
	local good="" bad="" repo=$TOP
	BISECT_RUNS=${RUNS:-7} BISECT_NODE="" BISECT_ALPHA=0.001
	while [ $# -gt 0 ]; do
		case "$1" in
		--node) BISECT_NODE=$2; shift 2 ;;
		--alpha) BISECT_ALPHA=$2; shift 2 ;;
		--repo) repo=$2; shift 2 ;;
		-*) die "bisect: unknown option $1" ;;
		*)
			if [ -z "$good" ]; then good=$1; elif [ -z "$bad" ]; then bad=$1; else
				die "bisect: give two commits, GOOD and BAD"
			fi
			shift
			;;
		esac
	done
	[ -n "$bad" ] || die "bisect: give two commits, GOOD and BAD (fwdlab help)"
	[ "$TOPOLOGY" = host ] || die "bisect: the host topology only (--topology host)"
	[[ $BISECT_RUNS =~ ^[1-9][0-9]*$ ]] || die "bisect: --runs $BISECT_RUNS: a positive number"
	local g b
	g=$(git -C "$repo" rev-parse --verify -q "$good^{commit}") || die "bisect: $good is not a commit of $repo"
	b=$(git -C "$repo" rev-parse --verify -q "$bad^{commit}") || die "bisect: $bad is not a commit of $repo"
	git -C "$repo" merge-base --is-ancestor "$g" "$b" || die "bisect: $good is not an ancestor of $bad"
	local revs=()
	mapfile -t revs < <(git -C "$repo" rev-list --first-parent --reverse "$g..$b")
	[ ${#revs[@]} -gt 0 ] || die "bisect: no commits between $good and $bad"
	topo_require_up
	BISECT_STATE=$STATE/bisect
	rm -rf "$BISECT_STATE/src"
	mkdir -p "$BISECT_STATE"
	git clone -q --no-checkout "$repo" "$BISECT_STATE/src" || die "bisect: cannot clone $repo"
	bisect_seed "$g"
	EXP_VERB=bisect
	local opts
	mapfile -t opts < <(exp_global_opts)
	exp_campaign bisect "" "$LABEL" "$g" "$b" --runs "$BISECT_RUNS" "${opts[@]}"
	trap exp_interrupted INT TERM
	EXP_TOTAL=0
	local gb cb verdict p want lo=-1 hi=$((${#revs[@]} - 1)) mid k=1
	gb=$(bisect_build "$g")
	cb=$(bisect_build "$b")
	EXP_TOTAL=$((2 * BISECT_RUNS))
	bisect_probe "$k" "$gb" "$cb"
	want=$BISECT_VERDICT p=$BISECT_P
	say "bisect: $(git -C "$repo" log -1 --format=%h "$b") (BAD) against $(git -C "$repo" log -1 --format=%h "$g") (GOOD): $want (p $p)"
	case "$want" in
	regression | progression) ;;
	*) die "bisect: no significant change from $good to $bad ($want, p $p, alpha $BISECT_ALPHA): nothing to look for" ;;
	esac
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		k=$((k + 1))
		cb=$(bisect_build "${revs[$mid]}")
		EXP_TOTAL=$((EXP_TOTAL + 2 * BISECT_RUNS))
		bisect_probe "$k" "$gb" "$cb"
		verdict=$BISECT_VERDICT p=$BISECT_P
		say "bisect: $(git -C "$repo" log -1 --format=%h "${revs[$mid]}") against GOOD: $verdict (p $p)"
		if [ "$verdict" = "$want" ]; then hi=$mid; else lo=$mid; fi
	done
	trap - INT TERM
	jq -n --arg first "${revs[$hi]}" --arg want "$want" --argjson probes "$k" \
		'{ first_change: $first, change: $want, probes: $probes }' |
		atomic_write "$EXP_DIR/bisect.json"
	say "bisect: first $want: $(git -C "$repo" log -1 --format='%h %s' "${revs[$hi]}") ($k probes, $EXP_DIR)"
	# The DUT keeps the last probe's build (the lab holds its own copy); the clone goes.
	rm -rf "$BISECT_STATE"
	say "bisect: the DUT runs the last probed build; fwdlab swap build/vfwd/default puts yours back"
}
