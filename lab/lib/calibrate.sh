# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# fwdlab calibrate [--frame-sizes 64,1500] [--max-rate R] ...: what the lab's path carries
# with no DUT work. Per frame size, an NDR search with the DUT as a plain wire (vfwd's ports
# cross-connected, `set interface l2 xconnect`, as CSIT's and VPP's l2patch/xconnect tests;
# restored to l3 after, even when interrupted); on the loop topology the wire itself. Where
# the topology can loop the generator's ports (host: topo_gen_loop_search), the generator
# alone first, as CSIT's TG-only suites: when the path carries 90 % of that, the ceiling is
# the generator's own. The ceilings go to $STATE/calibration.json, kept with the lab until `down`; every later run's
# meta.json carries the ceiling of its frame size and generator, and an NDR at or above
# CALIBRATION_PATH_SHARE of it is path-bound: the path, not the DUT, set it
# (lab/summary, fwdstat compare: no verdict from it).

CALIBRATION_PATH_SHARE=0.9

calibration_file() { echo "$STATE/calibration.json"; }

# calibrate: the verb.
calibrate() {
	topo_require_up
	local sizes=${FRAME_SIZES:-$FRAME_SIZE} size list=() backend=${DUT_BACKEND:-vfwd}
	IFS=, read -r -a list <<<"$sizes"
	for size in "${list[@]}"; do
		[[ $size =~ ^[0-9]+$ ]] || die "calibrate: frame size '$size': a number of bytes (imix has no single ceiling)"
	done
	case "$backend" in
	vfwd | wire) ;;
	*) die "calibrate: the DUT is $backend; the path is calibrated through vfwd's cross-connect (fwdlab swap BUILD, then calibrate; the ceiling stays for every DUT)" ;;
	esac
	[ "$PROFILE" = udp ] || die "calibrate: profile $PROFILE: the ceiling is measured with udp frames"
	gen_prepare
	local camp=${CAMPAIGN:-$RESULTS/$(utc_stamp)-$TOPOLOGY-calibrate} gen
	gen=$(gen_current)
	mkdir -p "$camp"
	say "calibrating the $TOPOLOGY lab's path ($gen, frame sizes ${list[*]}): an NDR per size with the DUT as a wire"
	# the generator alone, where the topology can loop its ports (host: tgen on a memif pair)
	for size in "${list[@]}"; do calibrate_generator "$size" "$camp" || true; done
	if [ "$backend" = vfwd ]; then
		calibrate_wire on || die "calibrate: vfwd refused the cross-connect (set interface l2 xconnect port0 port1)"
		trap 'calibrate_wire off' EXIT
		trap 'calibrate_wire off; exit 130' INT TERM
	fi
	local rows=() rc=0
	for size in "${list[@]}"; do
		if calibrate_ndr "$size" "$camp"; then
			rows+=("$size")
		else
			rc=1
			warn "calibrate: the search at $size B failed; its run folder says why"
		fi
	done
	if [ "$backend" = vfwd ]; then
		calibrate_wire off
		trap - EXIT INT TERM
	fi
	[ ${#rows[@]} -gt 0 ] || die "calibrate: no frame size was calibrated (runs in $camp)"
	local as="wire (l2 xconnect port0<->port1)"
	if [ "$backend" = wire ]; then as="none (the topology is a wire)"; fi
	calibration_write "$camp" "$gen" "$as" "${rows[@]}"
	calibration_show
	return "$rc"
}

# calibrate_ndr SIZE CAMPAIGN: one search of the calibration, as `ndr` but experiment
# "calibrate", run wire-SIZE; in a child, so that its run's traps and exit stay its own.
calibrate_ndr() (
	# shellcheck disable=SC2030 # the child's own frame size and campaign, on purpose
	FRAME_SIZE=$1 CAMPAIGN=$2
	run_begin calibrate "wire-$1"
	local args
	mapfile -t args < <(ndr_search_args)
	tgen_experiment "${args[@]}"
	run_finish
	summary "$RUN_DIR"
)

# calibrate_generator SIZE CAMPAIGN: the generator's own NDR at SIZE, its ports looped (no
# DUT, no link of the lab): CAMPAIGN/generator-SIZE/tgen.json and tgen.log. Not a run folder
# (no meta.json): nothing of the DUT is in it, so fwdstat's run readers never take it for one.
calibrate_generator() {
	local dir=$2/generator-$1 args
	mapfile -t args < <(ndr_search_args)
	mkdir -p "$dir"
	local rc=0
	topo_gen_loop_search "$dir" "${args[@]}" --profile udp --size "$1" || rc=$?
	case "$rc" in
	0) jq -r --arg s "$1" '"the generator alone at \($s) B (its ports looped, no DUT): NDR \(.ndr.rate_pps // 0 | floor) pps (\(.trials | length) trials)"' "$dir/tgen.json" ;;
	2)
		rmdir "$dir" 2>/dev/null || true
		say "the generator alone: the $TOPOLOGY topology cannot loop $(gen_current)'s ports; the ceiling is the path's only"
		;;
	*) warn "calibrate: the generator-alone search at $1 B failed ($dir/tgen.log); the ceiling is the path's only" ;;
	esac
	return "$rc"
}

# calibrate_wire on|off: vfwd's two ports cross-connected both ways, or back to l3.
calibrate_wire() {
	if [ "$1" = on ]; then
		dut_ctl set interface l2 xconnect port0 port1 >/dev/null &&
			dut_ctl set interface l2 xconnect port1 port0 >/dev/null
	else
		dut_ctl set interface l3 port0 >/dev/null 2>&1 || warn "calibrate: port0 may still be cross-connected (set interface l3 port0)"
		dut_ctl set interface l3 port1 >/dev/null 2>&1 || warn "calibrate: port1 may still be cross-connected (set interface l3 port1)"
	fi
}

# calibration_write CAMPAIGN GENERATOR DUT_AS SIZE...: $STATE/calibration.json from the
# campaign's wire-SIZE runs (the last complete one of each size).
calibration_write() {
	local camp=$1 gen=$2 as=$3 size d entries=()
	shift 3
	for size in "$@"; do
		d=$(find "$camp" -mindepth 1 -maxdepth 1 -type d \( -name "wire-$size" -o -name "wire-$size.*" \) |
			sort -V | tail -n1)
		if [ -z "$d" ] || [ ! -s "$d/tgen.json" ]; then continue; fi
		jq -e '.status == "complete"' "$d/meta.json" >/dev/null || continue
		local g='{"ndr": null}'
		if [ -s "$camp/generator-$size/tgen.json" ]; then g=$(cat "$camp/generator-$size/tgen.json"); fi
		entries+=("$(jq -c --arg size "$size" --arg run "$d" --argjson g "$g" '{ ($size): {
			path_ndr_pps: (.ndr.rate_pps // 0), path_ndr_limited_by: (.ndr.limited_by // "dut"),
			trials: (.trials | length), run: $run, generator_ndr_pps: ($g.ndr.rate_pps // null),
			generator_ndr_limited_by: ($g.ndr.limited_by // null) } }' "$d/tgen.json")")
	done
	[ ${#entries[@]} -gt 0 ] || die "calibrate: no complete search in $camp"
	local json
	json=$(printf '%s\n' "${entries[@]}" | jq -s --arg at "$(utc_now)" --arg topology "$TOPOLOGY" \
		--arg gen "$gen" --arg camp "$camp" --arg dut_as "$as" --argjson share "$CALIBRATION_PATH_SHARE" '{
			calibrated_at: $at, topology: $topology, generator: $gen, campaign: $camp,
			dut_as: $dut_as, path_bound_share: $share, frame_sizes: add }') ||
		die "calibrate: the ceilings of $camp could not be put together"
	printf '%s\n' "$json" | atomic_write "$(calibration_file)"
}

# calibration_show: the lab's ceilings, one line a frame size.
calibration_show() {
	local f
	f=$(calibration_file)
	[ -s "$f" ] || { echo "the $TOPOLOGY lab is not calibrated (fwdlab calibrate)"; return 0; }
	jq -r '"path ceilings of the \(.topology) lab (generator \(.generator), DUT as \(.dut_as), \(.calibrated_at)):",
		(.frame_sizes | to_entries[] | "  \(.key) B  \(.value.path_ndr_pps | floor) pps" +
		 (if .value.path_ndr_limited_by == "generator" then
		   " (the generator fell short first: the path carries at least this)"
		  elif .value.path_ndr_limited_by == "max_rate" then
		   " (the search\u0027s --max-rate: the path carries at least this; no run is path-bound by it)"
		  else "" end) +
		 (if .value.generator_ndr_pps == null then "" else
		   "; the generator alone \(.value.generator_ndr_pps | floor) pps" +
		   (if .value.generator_ndr_limited_by == "max_rate" then " (the search\u0027s --max-rate)"
		    elif .value.path_ndr_pps >= 0.9 * .value.generator_ndr_pps
		    then " (the ceiling is the generator\u0027s own)" else "" end) end)),
		"an NDR at or above \(.path_bound_share * 100 | round) % of its ceiling is path-bound"' "$f"
}

# calibration_for_run: the run's calibration (its frame size and generator), or null; with
# the run's NDR (tgen.json) its share of the ceiling and whether it is path-bound.
calibration_for_run() {
	local f tg=null gen
	f=$(calibration_file)
	case "${RUN_EXPERIMENT:-}" in calibrate | dump) echo null; return 0 ;; esac
	if [ ! -s "$f" ] || [ "$PROFILE" != udp ]; then echo null; return 0; fi
	gen=$(gen_current 2>/dev/null) || { echo null; return 0; }
	if [ -n "${RUN_DIR:-}" ] && [ -s "$RUN_DIR/tgen.json" ]; then tg=$(cat "$RUN_DIR/tgen.json"); fi
	# shellcheck disable=SC2031 # the run's frame size (calibrate_ndr sets its own in a child)
	jq -c --arg size "$FRAME_SIZE" --arg gen "$gen" --argjson tg "$tg" '
		. as $c | ($c.frame_sizes[$size] // null) as $e |
		if $e == null or $c.generator != $gen or ($e.path_ndr_pps // 0) <= 0 then null else
		{ path_ceiling_pps: $e.path_ndr_pps, calibrated_at: $c.calibrated_at,
		  run: $e.run, path_bound_share: $c.path_bound_share }
		+ (if ($e.path_ndr_limited_by // "") == "max_rate" then { ceiling_is_max_rate: true } else {} end)
		+ (if ($e.generator_ndr_pps // null) == null then {}
		   else { generator_ceiling_pps: $e.generator_ndr_pps } end)
		+ (if $tg == null or $tg.mode != "ndr" or ($tg.ndr.rate_pps // null) == null then {}
		   else ($tg.ndr.rate_pps / $e.path_ndr_pps) as $r |
			{ ndr_share: (($r * 1000 | round) / 1000),
			  ndr_path_bound: ($r >= $c.path_bound_share and
				($e.path_ndr_limited_by // "") != "max_rate") } end) end' "$f" 2>/dev/null || echo null
}
