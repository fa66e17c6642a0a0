# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # globals of lab/fwdlab, read by its verbs
# Experiments over many runs (sourced by lab/fwdlab): compare, sweep, report, runtime.
# A campaign is one folder of run folders (HACKING.md); each run is the `ndr` (or `run`)
# verb in a subshell, so that its traps, its meta.json and its failure stay its own.
# The campaign's plan.json keeps the command line, so `--resume DIR` replays it: runs
# whose meta.json says complete are skipped, the others are redone into a fresh folder
# (run_begin never reuses a name), finished runs are never rewritten.

# shellcheck source=peers/lab.sh
. "$TOP/peers/lab.sh"

EXP_DIR=""
EXP_TOTAL=0
EXP_DONE=0
EXP_COMPLETE=""
EXP_INVALID=()

# exp_campaign KIND ARGS...: the campaign folder, new or (--resume) the given one; writes
# or checks plan.json. Sets EXP_DIR and EXP_COMPLETE (complete run folders, basenames).
exp_campaign() {
	local kind=$1 resume=$2 label=$3
	shift 3
	if [ -n "$resume" ]; then
		[ -d "$resume" ] || die "--resume $resume: no such campaign folder"
		EXP_DIR=$(readlink -f "$resume")
		[ -s "$EXP_DIR/plan.json" ] || die "--resume $resume: no plan.json (not a $kind campaign)"
		[ "$(jq -r .experiment "$EXP_DIR/plan.json")" = "$kind" ] ||
			die "--resume $resume: a $(jq -r .experiment "$EXP_DIR/plan.json") campaign, not $kind"
	else
		EXP_DIR=$RESULTS/$(utc_stamp)-$TOPOLOGY-$kind-$label
		mkdir -p "$EXP_DIR"
		jq -n --arg e "$kind" --arg t "$TOPOLOGY" --arg at "$(utc_now)" '
			{ experiment: $e, topology: $t, created_at: $at, args: $ARGS.positional }' \
			--args -- "$@" | atomic_write "$EXP_DIR/plan.json"
	fi
	EXP_COMPLETE=$("$(fwdstat_bin)" status "$EXP_DIR" --list complete 2>/dev/null |
		xargs -r -n1 basename || true)
	say "campaign: $EXP_DIR"
}

# exp_global_opts: the experiment options main parsed, as words to replay them.
exp_global_opts() {
	local o v
	for o in rate:RATE duration:DURATION trial-duration:TRIAL_DURATION \
		final-duration:FINAL_DURATION max-rate:MAX_RATE min-rate:MIN_RATE label:LABEL \
		generator:GENERATOR tunables:TUNABLES method:METHOD latency-loads:LATENCY_LOADS \
		enable:PLUGIN_ENABLE; do
		v=${o#*:}
		v=${!v}
		if [ -n "$v" ]; then printf -- '--%s\n%s\n' "${o%%:*}" "$v"; fi
	done
	if [ "$FLOWS" != 1 ]; then printf -- '--flows\n%s\n' "$FLOWS"; fi
	if [ "$BIDIR" = 1 ]; then echo --bidir; fi
}

# exp_plan_args FILE: the command line a campaign was started with, one word a line.
exp_plan_args() { jq -r '.args[]' "$1/plan.json"; }

# exp_is_done NAME: a complete run folder NAME or NAME.N exists in the campaign.
exp_is_done() {
	local n
	while read -r n; do
		if [ "$n" = "$1" ] || [[ $n =~ ^"$1"\.[0-9]+$ ]]; then return 0; fi
	done <<<"$EXP_COMPLETE"
	return 1
}

# exp_dut_is DUT: the lab runs DUT already: that peer backend, the VPP plugin with that very
# file (name and sha256), or vfwd with DUT's very build.
exp_dut_is() {
	local dut=$1 peer="" so
	peer=$(peer_current)
	if [[ $dut == peer:vpp-plugin:* ]]; then
		so=${dut#peer:vpp-plugin:}
		[ "$peer" = "vpp-plugin:$(basename "$so")" ] && peer_running &&
			[ "$(jq -r .sha256 "$STATE/peer/plugin/plugin.json" 2>/dev/null)" = "$(sha256sum <"$so" | cut -d' ' -f1)" ]
	elif dut_spec_is_peer "$dut"; then
		[ "$peer" = "${dut#peer:}" ] && peer_running
	else
		[ -z "$peer" ] && [ -s "$STATE/vfwd/build-info.json" ] &&
			cmp -s "$STATE/vfwd/build-info.json" "$dut/build-info.json"
	fi
}

# exp_swap DUT: swap the DUT (a build folder or peer:NAME) unless it already runs.
exp_swap() {
	local dut=$1
	if exp_dut_is "$dut"; then return 0; fi
	(swap "$dut") || die "swap to $dut failed"
}

# exp_dut_slug DUT: a build folder's name, peer-NAME, or plugin-NAME of vpp-plugin:DIR/NAME.so
# (for campaign labels).
exp_dut_slug() {
	if [[ $1 == peer:vpp-plugin:* ]]; then
		echo "plugin-$(basename "$1" .so)"
	elif dut_spec_is_peer "$1"; then echo "peer-${1#peer:}"; else basename "$1"; fi
}

# exp_one NAME GROUP REPEAT DESC: one run (ndr, or run at --rate) into the campaign.
exp_one() {
	local name=$1 group=$2 repeat=$3 desc=$4 rc=0 dir fig
	EXP_DONE=$((EXP_DONE + 1))
	if exp_is_done "$name"; then
		say "[$EXP_DONE/$EXP_TOTAL] $desc: done before, skipped ($name)"
		return 0
	fi
	(
		# shellcheck disable=SC2030 # on purpose: this run's own values, in its subshell
		CAMPAIGN=$EXP_DIR RUN_NAME=$name GROUP=$group REPEAT=$repeat
		if [ -n "$RATE" ]; then run >/dev/null; else ndr >/dev/null; fi
	) || rc=$?
	if [ "$rc" -eq 130 ]; then exp_interrupted; fi
	dir=$(find "$EXP_DIR" -mindepth 1 -maxdepth 1 \( -name "$name" -o -name "$name.*" \) |
		sort -V | tail -n1)
	if [ "$rc" -eq "$RUN_FAULT_RC" ]; then exp_fault "$desc" "$dir"; return 0; fi
	if [ "$rc" -ne 0 ]; then
		die "[$EXP_DONE/$EXP_TOTAL] $desc failed (status $rc, $dir); resume with --resume $EXP_DIR"
	fi
	fig=$(jq -r 'def ge(r): if r.limited_by == "generator" then ">=" else "" end; if .ndr then "NDR \(ge(.ndr))\(.ndr.rate_pps | floor) pps, PDR \(ge(.pdr))\(.pdr.rate_pps | floor) pps"
		else "rx \(.trial.rx_pps // 0 | floor) pps" end' "$dir/tgen.json" 2>/dev/null || echo '?')
	say "[$EXP_DONE/$EXP_TOTAL] $desc: $fig ($(basename "$dir"))"
}

# exp_fault DESC DIR: a run made invalid by a fault (results.sh run_fault): the campaign
# goes on (--on-fault continue, the default) or stops (--on-fault stop).
exp_fault() {
	local why
	why=$(jq -r '.failure // "?"' "$2/meta.json" 2>/dev/null || echo '?')
	EXP_INVALID+=("$(basename "$2")")
	if [ "${ON_FAULT:-continue}" = stop ]; then
		printf 'fwdlab: error: [%s/%s] %s: invalid (%s); stopping (--on-fault stop); finish the campaign with: fwdlab --topology %s %s --resume %s\n' \
			"$EXP_DONE" "$EXP_TOTAL" "$1" "$why" "$TOPOLOGY" "$EXP_VERB" "$EXP_DIR" >&2
		exit "$RUN_FAULT_RC"
	fi
	warn "[$EXP_DONE/$EXP_TOTAL] $1: invalid ($why) ($(basename "$2")); the campaign goes on (--on-fault continue)"
}

# exp_faults_end: after the tables, when runs were invalid: which, how to redo them, exit 3.
exp_faults_end() {
	[ ${#EXP_INVALID[@]} -gt 0 ] || return 0
	warn "${#EXP_INVALID[@]} of $EXP_TOTAL runs invalid (${EXP_INVALID[*]}): the tables leave them out; redo them with: fwdlab --topology $TOPOLOGY $EXP_VERB --resume $EXP_DIR"
	exit "$RUN_FAULT_RC"
}

exp_interrupted() {
	trap - INT TERM
	say "campaign interrupted; finish it with: fwdlab --topology $TOPOLOGY $EXP_VERB --resume $EXP_DIR"
	exit 130
}

# exp_build_path DUT: a vfwd build folder -> its absolute path, or peer:NAME -> itself;
# checked (an unknown peer, or a peer on a topology without them, names the choices).
exp_build_path() {
	local b=$1
	if dut_spec_is_peer "$b"; then
		b=peer:$(peer_spec_name "$b")
		topo_has_peers ||
			die "$b: the $TOPOLOGY topology runs vfwd only (peer backends are not in the DUT image); use --topology host"
		# a plugin without enable lines is refused before the first run
		[[ $b != peer:vpp-plugin:* ]] || vpp_plugin_enable_lines "${b#peer:vpp-plugin:}" >/dev/null
		echo "$b"
		return 0
	fi
	[ -d "$b" ] || die "$b: not a folder (a vfwd build like build/vfwd/default)"
	b=$(readlink -f "$b")
	if [ ! -x "$b/bin/vfwd" ] || [ ! -s "$b/build-info.json" ]; then
		die "$b is not a vfwd build (no bin/vfwd or build-info.json)"
	fi
	echo "$b"
}

# exp_profiles SIZES: frame sizes (64,1500,imix) as compare's profile names (udp:64,...,imix).
exp_profiles() {
	local s out=() sz=()
	IFS=, read -r -a sz <<<"$1"
	for s in "${sz[@]}"; do
		if [ "$s" = imix ]; then out+=(imix); elif [[ $s =~ ^[0-9]+$ ]]; then out+=("udp:$s"); else
			die "compare: profile '$s': udp:SIZE or imix"
		fi
	done
	(IFS=,; printf '%s' "${out[*]}")
}

# fwdlab compare A B [--runs N] [--frame-sizes 64,1500,imix] [--order ABAB|ABBA]
#   [--resume DIR]   (plus --rate R for fixed-rate trials, --max-rate, --trial-duration ...)
#   The options are lab/lib/options.sh's (--profiles udp:64,... is --frame-sizes 64,...).
compare() {
	local runs=${RUNS:-3} order=${ORDER:-ABAB} resume=$RESUME builds=("$@") profiles
	profiles=$(exp_profiles "${FRAME_SIZES:-64,1500,imix}")
	exp_resume compare "$resume"
	[ ${#builds[@]} -eq 2 ] || die "compare: give two DUTs (A B): vfwd build folders, peer:NAME, vpp:NAME or vpp-plugin:FILE.so"
	[[ $runs =~ ^[1-9][0-9]*$ ]] || die "compare: --runs $runs: a positive number"
	case "$order" in ABAB | ABBA) ;; *) die "compare: --order ABAB or ABBA" ;; esac
	local a b prof=() sizes=()
	a=$(exp_build_path "${builds[0]}")
	b=$(exp_build_path "${builds[1]}")
	IFS=, read -r -a prof <<<"$profiles"
	IFS=, read -r -a sizes <<<"${FRAME_SIZES:-64,1500,imix}"
	topo_require_up
	local label=$LABEL
	if [ "$label" = "$VARIANT" ]; then label=$(exp_dut_slug "$a")-vs-$(exp_dut_slug "$b"); fi
	EXP_VERB=compare
	local opts
	mapfile -t opts < <(exp_global_opts)
	exp_campaign compare "$resume" "$label" "$a" "$b" --runs "$runs" --profiles "$profiles" \
		--order "$order" "${opts[@]}"
	trap exp_interrupted INT TERM
	EXP_TOTAL=$((2 * runs * ${#prof[@]}))
	local r g i gs build slug
	for ((r = 1; r <= runs; r++)); do
		gs="A B"
		if [ "$order" = ABBA ] && [ $((r % 2)) -eq 0 ]; then gs="B A"; fi
		for g in $gs; do
			if [ "$g" = A ]; then build=$a; else build=$b; fi
			for i in "${!prof[@]}"; do
				PROFILE=udp
				if [ "${sizes[$i]}" = imix ]; then
					PROFILE=imix slug=imix
				else
					FRAME_SIZE=${sizes[$i]} slug=udp${sizes[$i]}
				fi
				if exp_is_done "r$r-$g-$slug"; then
					exp_one "r$r-$g-$slug" "$g" "$r" "$g r$r ${prof[$i]}"
					continue
				fi
				exp_swap "$build"
				exp_one "r$r-$g-$slug" "$g" "$r" "$g r$r ${prof[$i]}"
			done
		done
	done
	trap - INT TERM
	local fs na nb
	fs=$(fwdstat_bin)
	na=$(exp_plugin_node "$a")
	nb=$(exp_plugin_node "$b")
	if [ -n "$na$nb" ]; then
		exp_plugin_tables "$na" "$nb"
	else
		"$fs" compare "$EXP_DIR" --node ethernet-input --node ip4-lookup \
			--node ip4-rewrite
	fi
	exp_faults_end
}

# exp_plugin_node DUT: the feature node of peer:vpp-plugin:FILE.so (its enable lines), else nothing.
exp_plugin_node() {
	[[ $1 == peer:vpp-plugin:* ]] || return 0
	vpp_plugin_enable_lines "${1#peer:vpp-plugin:}" | vpp_feature_node
}

# exp_plugin_tables NODE_A NODE_B: a plugin A/B's tables (DESIGN.md experiment 1, the field
# report's): fwdstat compare of the plugin node's clocks/packet and vectors/call per build
# (median, min..max, verdict) beside the NDR rates, then each dump's figures and whether the
# runs were DUT-bound. Two plugins name their nodes differently (example, example-rs): fwdstat
# compares figures of one name, so it reads a view of the campaign (outside it, removed after)
# whose show_runtime.txt name each group's plugin node NODE_A/NODE_B.
exp_plugin_tables() {
	local na=$1 nb=$2 node=${1:-$2} dir=$EXP_DIR fs view="" r g n
	fs=$(fwdstat_bin)
	if [ -n "$na" ] && [ -n "$nb" ] && [ "$na" != "$nb" ]; then
		node=$na/$nb
		view=$(mktemp -d "${TMPDIR:-/tmp}/fwdlab-compare-view.XXXXXX")
		for r in "$EXP_DIR"/*/; do
			r=${r%/}
			[ -f "$r/meta.json" ] || continue
			g=$(jq -r '.group // ""' "$r/meta.json")
			n=$na
			[ "$g" != B ] || n=$nb
			mkdir "$view/${r##*/}"
			ln -s "$r/meta.json" "$view/${r##*/}/meta.json"
			[ ! -f "$r/tgen.json" ] || ln -s "$r/tgen.json" "$view/${r##*/}/tgen.json"
			[ ! -f "$r/show_runtime.txt" ] ||
				awk -v old="$n" -v new="$node" '$1 == old {
					w = length(old) > 30 ? length(old) : 30
					printf "%-30s%s\n", new, substr($0, w + 1); next } { print }' \
					"$r/show_runtime.txt" >"$view/${r##*/}/show_runtime.txt"
		done
		dir=$view
		say "the plugin node: $na (A) and $nb (B), one row $node"
	fi
	"$fs" compare "$dir" --node "$node" --node ip4-lookup --node ip4-rewrite || true
	[ -z "$view" ] || rm -rf "$view"
	exp_plugin_dumps "$na" "$nb"
}

# exp_plugin_dumps NODE_A NODE_B: per complete run, the plugin node's clocks/packet and
# vectors/call in the run's dump, its NDR (or rx rate) and what set it (tgen.json: the DUT, the
# generator, the rate cap), then the field's test of a DUT-bound A/B (issue 33): every rate set
# by the DUT (the generator offered more than VPP forwarded), 32 vectors a call or more in every
# dump, and the node's clocks spread (max-min)/median at most 20 % within each build.
exp_plugin_dumps() {
	local na=$1 nb=$2 fs r g n fig
	fs=$(fwdstat_bin)
	for r in "$EXP_DIR"/*/; do
		r=${r%/}
		[ "$(jq -r .status "$r/meta.json" 2>/dev/null)" = complete ] || continue
		g=$(jq -r '.group // ""' "$r/meta.json")
		n=$na
		[ "$g" != B ] || n=$nb
		fig='{}'
		if [ -n "$n" ]; then
			fig=$("$fs" runtime "$r/show_runtime.txt" --node "$n" --json 2>/dev/null |
				jq -c '.files[0] // {}') || fig='{}'
		fi
		# limit: dut, generator, max_rate (ndr's limited_by); a fixed-rate run: generator when
		# tgen fell short, dut when packets were lost, else rate (the rate asked for)
		jq -c --arg run "${r##*/}" --arg g "$g" --arg n "$n" --argjson f "$fig" \
			--slurpfile m "$r/meta.json" '{run: $run, group: $g, dut: $m[0].dut.build_label,
			node: $n, cpp: $f.clocks_per_packet, vpc: $f.vectors_per_call,
			rate: (if .ndr then .ndr.rate_pps else .trial.rx_pps end),
			what: (if .ndr then "NDR" else "rx" end),
			limit: (if .ndr then (.ndr.limited_by // "dut")
				elif .trial.generator_limited == true then "generator"
				elif (.trial.loss_packets // 0) > 0 then "dut" else "rate" end)}' \
			"$r/tgen.json" 2>/dev/null || true
	done | jq -rs '
		def f(x; d): if x == null then "-" else (x * pow(10; d) | round) as $i
			| ($i / pow(10; d) | floor | tostring) + (if d == 0 then "" else "."
			+ ($i % pow(10; d) | tostring | ("0" * (d - length)) + .) end) end;
		def spread: (sort) as $s | if length < 2 then null else
			(($s[-1] - $s[0]) / (if length % 2 == 1 then $s[length / 2 | floor]
			else ($s[length / 2 - 1] + $s[length / 2]) / 2 end)) end;
		if length == 0 then "no complete runs with a dump" else
		"", "## The plugin node in every dump", "",
		"| run | DUT | node | clocks/packet | vectors/call | rate (pps) | set by |",
		"|-----|-----|------|--------------:|-------------:|-----------:|--------|",
		(.[] | "| \(.run) | \(.dut) | \(if .node == "" then "-" else .node end) | \(f(.cpp; 2)) | \(f(.vpc; 2)) | \(.what) \(if .limit == "generator" then ">=" else "" end)\(f(.rate; 0)) | \(.limit | sub("_"; " ")) |"),
		"",
		([.[] | select(.vpc != null) | .vpc] | min) as $vmin |
		([.[] | select(.limit != "dut")] | length) as $nd |
		([group_by(.group)[] | select(.[0].node != "") |
			{g: .[0].group, s: ([.[] | .cpp | select(. != null)] | spread)}]) as $sp |
		"DUT-bound (the field report'"'"'s test): every rate set by the DUT: \(if $nd == 0 then "yes" else "no (\($nd) of \(length) runs set by the generator or the rate asked for)" end); "
		+ "at least 32 vectors/call in every dump: \(if $vmin == null then "-" elif $vmin >= 32 then "yes" else "no (lowest \(f($vmin; 2)))" end); "
		+ "the node'"'"'s clocks/packet spread at most 20 % per build: "
		+ ($sp | map("\(.g) \(if .s == null then "- (1 run)" else "\(f(.s * 100; 1)) %" end)") | join(", "))
		+ (if $nd == 0 and $vmin != null and $vmin >= 32 and ($sp | all(.s != null and .s <= 0.2))
			then ". The verdict is the plugins'"'"'." else ". Not DUT-bound: the clocks above are not the plugins'"'"' cost at NDR." end)
		end'
}

# exp_resume VERB DIR: with --resume DIR (and not replaying already), VERB again with the
# campaign's own command line (plan.json) and --resume DIR, in place of this process.
exp_resume() {
	local saved
	if [ -z "$2" ] || [ "${FWDLAB_REPLAY:-0}" = 1 ]; then return 0; fi
	mapfile -t saved < <(exp_plan_args "$2")
	exp_replay "$1" "$2" "${saved[@]}"
}

# exp_replay VERB DIR WORDS...: run VERB again with the saved words and --resume DIR.
exp_replay() {
	local verb=$1 dir=$2
	shift 2
	[ $# -gt 0 ] || die "--resume $dir: plan.json holds no command line"
	FWDLAB_ON_FAULT=$ON_FAULT FWDLAB_REPLAY=1 exec "$LAB_DIR/fwdlab" --topology "$TOPOLOGY" "$verb" "$@" --resume "$dir"
}

# fwdlab sweep --frame-sizes 64,128,...,1518 [--link 10G] [--dut A,B] [--resume DIR]
#   (lab/lib/options.sh; --sizes is an alias)
# shellcheck disable=SC2031 # REPEAT: exp_one sets it in a subshell for one run, never here
sweep() {
	local size_list=${FRAME_SIZES:-64,128,256,512,1024,1280,1518} link=$LINK duts=$DUTS
	local resume=$RESUME
	[ $# -eq 0 ] || die "sweep: unknown argument $1"
	exp_resume sweep "$resume"
	local s sz=() d builds=() letters=(A B C D E F G H) k
	IFS=, read -r -a sz <<<"$size_list"
	for s in "${sz[@]}"; do
		if ! [[ $s =~ ^[0-9]+$ ]] || [ "$s" -lt 60 ]; then die "sweep: frame size '$s'"; fi
	done
	if [ -n "$duts" ]; then
		IFS=, read -r -a builds <<<"$duts"
		[ ${#builds[@]} -le 8 ] || die "sweep: at most 8 DUTs"
		for k in "${!builds[@]}"; do builds[k]=$(exp_build_path "${builds[$k]}"); done
	fi
	topo_require_up
	EXP_VERB=sweep
	local opts
	mapfile -t opts < <(exp_global_opts)
	if [ -n "$link" ]; then opts+=(--link "$link"); fi
	if [ -n "$duts" ]; then opts+=(--dut "$(IFS=,; echo "${builds[*]}")"); fi
	[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "sweep: --repeat $REPEAT: a positive number"
	if [ "$REPEAT" -gt 1 ]; then opts+=(--repeat "$REPEAT"); fi
	exp_campaign sweep "$resume" "$LABEL" --sizes "$size_list" "${opts[@]}"
	trap exp_interrupted INT TERM
	PROFILE=udp
	local n=1 nrep=$REPEAT r name desc
	if [ ${#builds[@]} -gt 0 ]; then n=${#builds[@]}; fi
	EXP_TOTAL=$((n * ${#sz[@]} * nrep))
	# --repeat N: the whole sweep N times over (repeat r of every DUT and size before
	# repeat r+1), each run named r<r>-<dut>-udp<size>; fwdstat sweep takes the medians
	for ((r = 1; r <= nrep; r++)); do
		for ((k = 0; k < n; k++)); do
			d=${letters[$k]}
			for s in "${sz[@]}"; do
				FRAME_SIZE=$s
				name=$d-udp$s
				if [ "$nrep" -gt 1 ]; then name=r$r-$name; fi
				if ! exp_is_done "$name" && [ ${#builds[@]} -gt 0 ]; then
					exp_swap "${builds[$k]}"
				fi
				desc="$d ${s}B"
				if [ "$nrep" -gt 1 ]; then desc+=" r$r/$nrep"; fi
				exp_one "$name" "$d" "$r" "$desc"
			done
		done
	done
	trap - INT TERM
	local args=(sweep "$EXP_DIR")
	if [ -n "$link" ]; then args+=(--link "$link"); fi
	local fs
	fs=$(fwdstat_bin)
	"$fs" "${args[@]}"
	exp_faults_end
}

# fwdlab report DIR... [--out DIR] [--node N] [--link R] [--base G] -> fwdstat report
report() {
	[ $# -gt 0 ] || die "report: which campaign or run folders?"
	if [ -n "$LINK" ]; then set -- "$@" --link "$LINK"; fi
	if ! command -v gnuplot >/dev/null && [ "${NO_INSTALL:-0}" != 1 ]; then
		"$TOP/scripts/install-deps" lab >&2 || die "report: installing gnuplot failed (make deps)"
	fi
	local fs
	fs=$(fwdstat_bin)
	"$fs" report "$@"
}

# fwdlab runtime FILE... --node NAME [--thread N|all|workers] -> fwdstat runtime
runtime() {
	[ $# -gt 0 ] || die "runtime: which show runtime dumps?"
	local fs
	fs=$(fwdstat_bin)
	"$fs" runtime "$@"
}
