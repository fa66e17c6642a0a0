# shellcheck shell=bash
# Run folders (HACKING.md "A run folder"): results/<UTC-time>-<topology>-<label>/<run>/.
# A run starts "incomplete" and becomes "complete" only when all of it is written; an
# interrupted run keeps what it had and says why in meta.json's "failure".

RUN_DIR=""
RUN_EXPERIMENT=""
RUN_STARTED=""
RUN_STATUS=""
TGEN_JOB=""
DPDK_LOG_RE='^(VHOST_CONFIG|EAL|VIRTIO|vhost|virtio|TELEMETRY|VHOST_DATA):'

current_run() {
	local f=$STATE/current-run
	if [ -s "$f" ] && [ -d "$(cat "$f")" ]; then cat "$f"; fi
}

# meta_write STATUS FAILURE: (re)writes the run's meta.json atomically.
meta_write() {
	local status=$1 failure=$2 finished="" build
	[ "$status" = incomplete ] || finished=$(utc_now)
	build=$(json_or_null "$RUN_DIR/.build-info.json")
	jq -n --arg run "$(basename "$RUN_DIR")" --arg campaign "$(basename "$(dirname "$RUN_DIR")")" \
		--arg topology "$TOPOLOGY" --arg lbl "$LABEL" --arg status "$status" \
		--arg failure "$failure" --argjson build "$build" --arg backend "${DUT_BACKEND:-vfwd}" \
		--arg experiment "$RUN_EXPERIMENT" --arg group "$GROUP" --argjson repeat "$REPEAT" \
		--arg profile "$PROFILE" --argjson frame_size "$FRAME_SIZE" --argjson flows "$FLOWS" \
		--arg started "$RUN_STARTED" --arg finished "$finished" --arg accel "$(topo_accel)" '
		{ run: $run, campaign: $campaign, topology: $topology, label: $lbl,
		  status: $status }
		+ (if $failure == "" then {} else { failure: $failure } end)
		+ { dut: { backend: $backend,
			   build_label: (if $build == null then "" else ($build.label // "") end),
			   build: $build },
		    experiment: $experiment }
		+ (if $group == "" then {} else { group: $group } end)
		+ { repeat: $repeat, profile: $profile, frame_size: $frame_size, flows: $flows,
		    accel: $accel, started_at: $started }
		+ (if $finished == "" then {} else { finished_at: $finished } end)' |
		atomic_write "$RUN_DIR/meta.json"
	RUN_STATUS=$status
}

# run_begin EXPERIMENT RUN: makes the run folder (in --campaign or a new campaign).
run_begin() {
	local campaign=${CAMPAIGN:-}
	RUN_EXPERIMENT=$1
	[[ $2 =~ ^[A-Za-z0-9._+-]+$ ]] || die "run name '$2': use letters, digits, . _ + -"
	if [ -z "$campaign" ]; then
		campaign=$RESULTS/$(utc_stamp)-$TOPOLOGY-$LABEL
	fi
	mkdir -p "$campaign"
	RUN_DIR=$campaign/$2
	if [ -e "$RUN_DIR" ]; then
		local i=2
		while [ -e "$campaign/$2.$i" ]; do i=$((i + 1)); done
		RUN_DIR=$campaign/$2.$i
	fi
	mkdir -p "$RUN_DIR/trials"
	RUN_STARTED=$(utc_now)
	dut_build_info >"$RUN_DIR/.build-info.json" 2>/dev/null || rm -f "$RUN_DIR/.build-info.json"
	meta_write incomplete "started, not finished"
	mkdir -p "$STATE"
	printf '%s\n' "$RUN_DIR" | atomic_write "$STATE/current-run"
	trap 'run_interrupted INT' INT
	trap 'run_interrupted TERM' TERM
	trap 'run_exit $?' EXIT
	say "run folder: $RUN_DIR"
}

run_interrupted() {
	trap - INT TERM
	if [ -n "$RUN_DIR" ] && [ "$RUN_STATUS" = incomplete ]; then
		meta_write incomplete "interrupted by SIG$1 at $(utc_now)"
		say "interrupted: $RUN_DIR keeps what it had (status incomplete)"
	fi
	# Stop tgen (by its pid, INT: it ends the trial and exits), then let the pipeline end.
	topo_abort 2>/dev/null || true
	if [ -n "$TGEN_JOB" ]; then
		local i
		for ((i = 0; i < 100; i++)); do
			kill -0 "$TGEN_JOB" 2>/dev/null || break
			sleep 0.1
		done
	fi
	if [ -f "$RUN_DIR/tgen.log.tmp" ]; then mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log"; fi
	exit 130
}

run_exit() {
	local rc=$1
	if [ -n "$RUN_DIR" ] && [ "$RUN_STATUS" = incomplete ] && [ -e "$RUN_DIR/meta.json" ] &&
		[ "$(jq -r .failure "$RUN_DIR/meta.json")" = "started, not finished" ]; then
		meta_write incomplete "fwdlab exited with status $rc before the run was finished"
	fi
	rm -f "$RUN_DIR"/*.tmp.* 2>/dev/null || true
}

# run_finish: the last dump, then status complete (or invalid when a dump is missing).
run_finish() {
	local missing=() f
	dump_into "$RUN_DIR" 1
	for f in show_runtime.txt show_errors.txt show_version.txt; do
		[ -s "$RUN_DIR/$f" ] || missing+=("$f")
	done
	if [ "$RUN_EXPERIMENT" != dump ] && [ ! -s "$RUN_DIR/tgen.json" ]; then
		missing+=(tgen.json)
	fi
	rmdir "$RUN_DIR/trials" 2>/dev/null || true
	if [ ${#missing[@]} -gt 0 ]; then
		meta_write invalid "missing ${missing[*]}"
		rm -f "$RUN_DIR/.build-info.json"
		die "run $RUN_DIR is invalid: missing ${missing[*]}"
	fi
	meta_write complete ""
	rm -f "$RUN_DIR/.build-info.json"
}

# tgen_experiment MODE ARGS...: runs tgen through the topology with the lab's hooks and
# puts tgen.json and the per-trial dumps into the run folder.
tgen_experiment() {
	local json=$RUN_DIR/tgen.json
	local prof=(--profile "$PROFILE")
	if [ "$PROFILE" != imix ]; then prof+=(--size "$FRAME_SIZE"); fi
	if [ "$FLOWS" -gt 1 ]; then prof+=(--flows "$FLOWS"); fi
	if [ "$BIDIR" = 1 ]; then prof+=(--bidir); fi
	# tgen's own lines on the terminal, everything (DPDK's logs too) in tgen.log. The
	# pipeline runs in the background so that INT/TERM reach our trap at once (bash runs
	# traps only between foreground commands, `wait` is interruptible).
	local rc=0
	{
		tgen_invoke "$RUN_DIR" "$@" "${prof[@]}" 2>&1 | tee "$RUN_DIR/tgen.log.tmp" |
			{ grep --line-buffered -Ev "$DPDK_LOG_RE" || true; }
	} &
	TGEN_JOB=$!
	wait "$TGEN_JOB" || rc=$?
	TGEN_JOB=""
	if [ "$rc" -ne 0 ]; then
		mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log"
		meta_write incomplete "tgen failed with status $rc (log: tgen.log)"
		die "tgen $1 failed; log in $RUN_DIR/tgen.log"
	fi
	mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log"
	[ -s "$json" ] || die "tgen wrote no JSON into $json"
	cp "$json" "$STATE/last-tgen.json"
}
