# shellcheck shell=bash
# Run folders (HACKING.md "A run folder"): results/<UTC-time>-<topology>-<label>/<run>/.
# A run starts "incomplete" and becomes "complete" only when all of it is written; an
# interrupted run keeps what it had and says why in meta.json's "failure".

# A run that meets a fault (the DUT's forwarder died and was restarted, tgen was killed)
# keeps every dump it has, becomes "invalid" with the reason in "failure" and the
# forwarder's restart records in "faults", and fwdlab exits with RUN_FAULT_RC; campaigns
# go on or stop on that status (--on-fault, lab/lib/experiments.sh). A full results disk
# stops the run with an error naming the folder; the run stays "incomplete".

RUN_DIR=""
RUN_EXPERIMENT=""
RUN_STARTED=""
RUN_STATUS=""
RUN_FAULTS0=0
RUN_FAULTS_JSON=""
RUN_FAULTS_TEXT=""
RUN_FAULT_RC=3
TGEN_JOB=""
DPDK_LOG_RE='^(VHOST_CONFIG|EAL|VIRTIO|vhost|virtio|TELEMETRY|VHOST_DATA):'

# fault_point NAME: where tests inject faults. FWDLAB_FAULT=NAME:SIGNAL (e.g.
# down:vfwd-stopped:KILL) sends SIGNAL to this fwdlab process when it gets there.
fault_point() {
	local f=${FWDLAB_FAULT:-}
	if [ -z "$f" ] || [ "${f%:*}" != "$1" ]; then return 0; fi
	say "fault injection: SIG${f##*:} at $1"
	kill -s "${f##*:}" "$$"
	sleep 1
}

# results_disk_full DIR: true when DIR's file system cannot take 64 KB more (or DIR is
# missing or read-only); prints what df says about it.
results_disk_full() {
	local dir=$1 probe rc=1
	[ -d "$dir" ] || dir=$(dirname "$dir")
	if probe=$(mktemp "$dir/.space-probe.XXXXXX" 2>/dev/null); then
		head -c 65536 /dev/zero >"$probe" 2>/dev/null || rc=0
		rm -f "$probe"
	else
		rc=0
	fi
	if [ "$rc" -eq 0 ]; then
		df -h --output=target,size,avail "$dir" 2>/dev/null | tail -n1 |
			awk '{ printf "file system %s: %s of %s free", $1, $3, $2 }'
	fi
	return "$rc"
}

# results_die_if_full DIR WHAT: dies with a message naming DIR when its disk is full.
results_die_if_full() {
	local df
	if df=$(results_disk_full "$1"); then
		die "results disk full: cannot write $1 ($df); $2"
	fi
}

# dut_threads_sample: "TID CPU_NS NAME" per thread of the DUT's process, when the topology
# knows its pid (topo_dut_pid: host topology, vfwd).
dut_threads_sample() {
	local pid t
	pid=$(topo_dut_pid) || return 1
	for t in /proc/"$pid"/task/*; do
		printf '%s %s %s\n' "${t##*/}" "$(cut -d' ' -f1 "$t/schedstat")" "$(cat "$t/comm")"
	done
}

# dut_threads_json DIR: DIR/threads.json, each DUT thread's CPU time since the run began
# ({"pid", "threads": [{"tid", "name", "cpu_s"}]}), from DIR/.threads0 and a sample now.
dut_threads_json() {
	local dir=$1
	[ -s "$dir/.threads0" ] || return 0
	dut_threads_sample 2>/dev/null | jq -R -s --rawfile before "$dir/.threads0" \
		--arg pid "$(topo_dut_pid)" '
		def rows: split("\n") | map(select(length > 0) | capture("^(?<tid>[0-9]+) (?<ns>[0-9]+) (?<name>.*)$"));
		($before | rows | map({(.tid): (.ns | tonumber)}) | add // {}) as $b |
		{ pid: ($pid | tonumber), threads: [rows[] | { tid: (.tid | tonumber), name,
			cpu_s: (((.ns | tonumber) - ($b[.tid] // 0)) / 1e9) }] }' |
		atomic_write "$dir/threads.json" || true
	rm -f "$dir/.threads0"
}

# dut_faults_count: how many times the DUT's forwarder died so far (an exit or a gave-up
# among the events its topology reports, topo_dut_events; topologies/CONTRACT.md).
dut_faults_count() {
	topo_dut_events | jq -s '[.[] | select(.event == "exit" or .event == "gave-up")] | length' \
		2>/dev/null || echo 0
}

# dut_faults_since N: the DUT's events after its first N deaths, as a JSON array.
dut_faults_since() {
	topo_dut_events | jq -sc --argjson n "$1" '
		[foreach .[] as $e (0; if $e.event == "exit" or $e.event == "gave-up"
			then . + 1 else . end; if . > $n then $e else empty end)]' 2>/dev/null || echo '[]'
}

# run_dut_faults: true when the DUT's forwarder died since run_begin; sets RUN_FAULTS_JSON
# (its restart records) and RUN_FAULTS_TEXT (the same as one line).
run_dut_faults() {
	local n
	n=$(dut_faults_count)
	[ "$n" -gt "$RUN_FAULTS0" ] || return 1
	RUN_FAULTS_JSON=$(dut_faults_since "$RUN_FAULTS0")
	RUN_FAULTS_TEXT=$(jq -r --arg dut "${DUT_BACKEND:-vfwd}" '[.[] |
		if .event == "exit" then "\($dut) (pid \(.pid)) \(.how) at \(.at)"
		elif .event == "restarted" then "restarted by its supervisor as pid \(.pid) at \(.at)\(
			if .ready then "" else " (not answering)" end)"
		elif .event == "gave-up" then "its supervisor gave up at \(.at)"
		else empty end] | join(", ")' <<<"$RUN_FAULTS_JSON")
}

# run_fault WHAT: the run met a fault. Waits for the DUT to answer again (when it is being
# restarted), takes the final dump, keeps the per-trial dumps it has, marks the run invalid
# with WHAT and exits with RUN_FAULT_RC.
run_fault() {
	local what=$1
	topo_dut_settle >/dev/null 2>&1 || true
	dump_into "$RUN_DIR" 1 || true
	find "$RUN_DIR/trials" -mindepth 1 -type d -empty -delete 2>/dev/null || true
	rmdir "$RUN_DIR/trials" 2>/dev/null || true
	meta_write invalid "$what" || true
	rm -f "$RUN_DIR/.build-info.json"
	printf 'fwdlab: run %s is invalid: %s (its dumps are kept; a campaign --resume redoes it)\n' \
		"$RUN_DIR" "$what" >&2
	exit "$RUN_FAULT_RC"
}

current_run() {
	local f=$STATE/current-run
	if [ -s "$f" ] && [ -d "$(cat "$f")" ]; then cat "$f"; fi
}

# dut_image_lock: the sha256 of the DUT image's package lock (images/README.md), from the
# manifest beside the qcow2 the topology names; nothing when the DUT has no image (host).
dut_image_lock() {
	local node img
	node=$(node_by_role dut) && img=$(kv_get "$TOPO_CONF" "$node.image") && [ -n "$img" ] || return 0
	[[ $img == /* ]] || img=$TOP/$img
	jq -r '.packages_lock.sha256 // empty' "${img%.qcow2}.manifest.json"
}

# meta_write STATUS FAILURE: (re)writes the run's meta.json atomically.
meta_write() {
	local status=$1 failure=$2 finished="" build
	[ "$status" = incomplete ] || finished=$(utc_now)
	build=$(json_or_null "$RUN_DIR/.build-info.json")
	jq -n --arg run "$(basename "$RUN_DIR")" --arg campaign "$(basename "$(dirname "$RUN_DIR")")" \
		--arg topology "$TOPOLOGY" --arg lbl "$LABEL" --arg status "$status" \
		--arg failure "$failure" --argjson build "$build" --arg backend "${DUT_BACKEND:-vfwd}" \
		--arg spec "${DUT_SPEC:-}" --arg experiment "$RUN_EXPERIMENT" --arg group "$GROUP" --argjson repeat "$REPEAT" \
		--arg profile "$PROFILE" --argjson frame_size "$FRAME_SIZE" --argjson flows "$FLOWS" \
		--arg started "$RUN_STARTED" --arg finished "$finished" --arg accel "$(topo_accel)" \
		--argjson faults "${RUN_FAULTS_JSON:-null}" --arg image_lock "${RUN_IMAGE_LOCK:-}" \
		--argjson generator "$(run_generator_json)" \
		--argjson calibration "$(calibration_for_run)" '
		{ run: $run, campaign: $campaign, topology: $topology, label: $lbl,
		  status: $status }
		+ (if $failure == "" then {} else { failure: $failure } end)
		+ (if $faults == null then {} else { faults: $faults } end)
		+ { dut: ({ backend: $backend }
			   + (if $spec == "" or $spec == $backend then {} else { spec: $spec } end)
			   + { build_label: (if $build == null then "" else ($build.label // "") end),
			       build: $build,
			       image_lock_sha256: (if $image_lock == "" then null else $image_lock end) }),
		    experiment: $experiment }
		+ (if $group == "" then {} else { group: $group } end)
		+ { generator: $generator }
		+ (if $calibration == null then {} else { calibration: $calibration } end)
		+ { repeat: $repeat, profile: $profile, frame_size: $frame_size, flows: $flows,
		    accel: $accel, started_at: $started }
		+ (if $finished == "" then {} else { finished_at: $finished } end)' |
		atomic_write "$RUN_DIR/meta.json" 2>/dev/null || {
		local df
		df=$(results_disk_full "$RUN_DIR") || df="not a full disk"
		printf 'fwdlab: error: cannot write %s/meta.json (%s)\n' "$RUN_DIR" "$df" >&2
		return 1
	}
	RUN_STATUS=$status
}

# run_generator_json: {name, version} of the run's traffic generator (lab/generators).
run_generator_json() {
	gen_info "$(gen_current)"
}

# search_wait RUNDIR PID: waits for a driver's search job PID (in $STATE/tgen.pid while it
# runs, for topo_abort) and keeps its JSON: RUNDIR/tgen.json.tmp becomes tgen.json, with the
# generator's name in it (gen_json_finish); returns the job's status.
search_wait() {
	local rundir=$1 rc=0
	echo "$2" >"$STATE/tgen.pid"
	wait "$2" || rc=$?
	rm -f "$STATE/tgen.pid"
	if [ "$rc" -eq 0 ] && [ -s "$rundir/tgen.json.tmp" ]; then
		gen_json_finish "$rundir/tgen.json.tmp"
		mv -f "$rundir/tgen.json.tmp" "$rundir/tgen.json"
	else
		rm -f "$rundir/tgen.json.tmp"
	fi
	return "$rc"
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
	if [ -z "${CAMPAIGN:-}" ] && results_disk_full "$campaign" >/dev/null; then
		rmdir "$campaign" 2>/dev/null || true
	fi
	results_die_if_full "$campaign" "nothing was written; free space (and --resume a campaign)"
	RUN_DIR=$campaign/$2
	if [ -e "$RUN_DIR" ]; then
		local i=2
		while [ -e "$campaign/$2.$i" ]; do i=$((i + 1)); done
		RUN_DIR=$campaign/$2.$i
	fi
	mkdir -p "$RUN_DIR/trials"
	RUN_STARTED=$(utc_now)
	dut_build_info >"$RUN_DIR/.build-info.json" 2>/dev/null || rm -f "$RUN_DIR/.build-info.json"
	RUN_IMAGE_LOCK=$(dut_image_lock 2>/dev/null || true)
	RUN_FAULTS0=$(dut_faults_count)
	dut_threads_sample >"$RUN_DIR/.threads0" 2>/dev/null || rm -f "$RUN_DIR/.threads0"
	RUN_FAULTS_JSON=""
	meta_write incomplete "started, not finished" || die "run $RUN_DIR not started"
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
		meta_write incomplete "interrupted by SIG$1 at $(utc_now)" || true
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
		meta_write incomplete "fwdlab exited with status $rc before the run was finished" ||
			true
	fi
	# Files that were being written: never left looking like finished ones.
	if [ -n "$RUN_DIR" ] && [ -d "$RUN_DIR" ]; then
		find "$RUN_DIR" \( -name '*.tmp' -o -name '*.tmp.*' \) -type f -delete 2>/dev/null || true
	fi
}

# run_finish: the last dump, then status complete (or invalid when a dump is missing).
run_finish() {
	local missing=() f
	if run_dut_faults; then run_fault "the DUT restarted during the run: $RUN_FAULTS_TEXT"; fi
	dump_into "$RUN_DIR" 1
	local required=(show_runtime.txt show_errors.txt show_version.txt)
	# A peer backend's dump (peers/README.md "Dumps") has its own files beside these two.
	if [ "${DUT_BACKEND:-vfwd}" != vfwd ]; then required=(backend.json stats.json); fi
	for f in "${required[@]}"; do
		[ -s "$RUN_DIR/$f" ] || missing+=("$f")
	done
	if [ "$RUN_EXPERIMENT" != dump ] && [ ! -s "$RUN_DIR/tgen.json" ]; then
		missing+=(tgen.json)
	fi
	if run_dut_faults; then run_fault "the DUT restarted during the run: $RUN_FAULTS_TEXT"; fi
	rmdir "$RUN_DIR/trials" 2>/dev/null || true
	if [ ${#missing[@]} -gt 0 ]; then
		results_die_if_full "$RUN_DIR" "the run stays incomplete; free space, then run it again (or --resume its campaign)"
		meta_write invalid "missing ${missing[*]}" || true
		rm -f "$RUN_DIR/.build-info.json"
		die "run $RUN_DIR is invalid: missing ${missing[*]}"
	fi
	run_hops
	meta_write complete "" || die "run $RUN_DIR is not complete: its meta.json could not be written"
	rm -f "$RUN_DIR/.build-info.json"
}

# run_hops: where each trial's packets went, hop by hop: trials/NNN/hops.json and the run's
# hops.json (fwdstat hops, from tgen.json and the trial dumps). A run without them is still
# complete; the summary then says the hops are missing.
run_hops() {
	[ -s "$RUN_DIR/tgen.json" ] || return 0
	"$(fwdstat_bin)" hops "$RUN_DIR" --write --quiet ||
		warn "fwdstat hops could not account for $RUN_DIR's trials"
}

# tgen_experiment MODE ARGS...: runs tgen through the topology with the lab's hooks and
# puts tgen.json and the per-trial dumps into the run folder.
tgen_experiment() {
	local json=$RUN_DIR/tgen.json
	# An earlier run's JSON must not end up in this run's dumps should tgen fail.
	rm -f "$STATE/last-tgen.json"
	local prof=(--profile "$PROFILE")
	if [ "$PROFILE" != imix ]; then prof+=(--size "$FRAME_SIZE"); fi
	if [ "$FLOWS" -gt 1 ]; then prof+=(--flows "$FLOWS"); fi
	if [ -n "${FLOW_FIELD:-}" ]; then prof+=(--flow-field "$FLOW_FIELD"); fi # suite.sh: ip4scale
	if [ -n "${FLOW_ORDER:-}" ]; then prof+=(--flow-order "$FLOW_ORDER"); fi # suite.sh: -rnd
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
		tgen_failed "$1" "$rc"
	fi
	mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log"
	[ -s "$json" ] || die "tgen wrote no JSON into $json"
	cp "$json" "$STATE/last-tgen.json"
}

# tgen_failed MODE STATUS: why tgen (or the pipeline logging it) failed, and what the run
# becomes: invalid when the DUT restarted or tgen was killed, else incomplete.
tgen_failed() {
	local mode=$1 rc=$2 df
	topo_dut_settle >/dev/null 2>&1 || true
	# a generator's long-lived part (TRex's server) that died is named too
	local gone=""
	gone=$(gen_fault_text) || gone=""
	if run_dut_faults; then
		mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log" 2>/dev/null || true
		run_fault "the DUT restarted during the run: $RUN_FAULTS_TEXT; tgen $mode exited with status $rc${gone:+; $gone}"
	fi
	# A VM of the lab is gone (b2b: destroyed, crashed): say which; the run keeps its files.
	local down
	if ! down=$(topo_nodes_down); then
		mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log" 2>/dev/null || true
		meta_write incomplete "$down during the run; tgen $mode exited with status $rc" || true
		die "$down: run $RUN_DIR stopped, its files are kept (status incomplete); fwdlab up starts the VM again"
	fi
	if df=$(results_disk_full "$RUN_DIR"); then
		mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log.truncated" 2>/dev/null || true
		die "results disk full: writing into $RUN_DIR failed ($df); the run stays incomplete; free space, then run it again (or --resume its campaign)"
	fi
	mv -f "$RUN_DIR/tgen.log.tmp" "$RUN_DIR/tgen.log"
	# a generator's long-lived part (TRex's server) died: the run is invalid as for tgen
	if [ -n "$gone" ]; then
		run_fault "$gone during the run; the trials stopped with status $rc (log: tgen.log)"
	fi
	if [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
		run_fault "tgen was killed by signal $((rc - 128)) ($(kill -l $((rc - 128)))) during the run (log: tgen.log)"
	fi
	meta_write incomplete "tgen failed with status $rc (log: tgen.log)" || true
	die "tgen $mode failed; log in $RUN_DIR/tgen.log"
}
