# shellcheck shell=bash
# host topology driver: vfwd and tgen as host processes wired by vhost-user sockets,
# --no-huge, no VM. Sourced by lab/fwdlab. The lab's state lives in $STATE (.lab/host):
#   vfwd/            the live vfwd build (a copy, as /opt/vfwd in the DUT VM)
#   run/             sockets (port0.sock, port1.sock, cli.sock), startup.conf
#   vfwd.pid, vfwd-supervisor.pid, vfwd-restarts.jsonl, vfwd.log, tgen-link.log, tgen.lock
# tgen runs per experiment (it connects, runs its trials, exits); vfwd keeps running under
# topologies/host/supervise, which restarts it when it dies (as vfwd.service does in the
# DUT VM) and records each restart in vfwd-restarts.jsonl. tgen.lock keeps two tgens (a
# run's and the supervisor's `tgen link`) from starting with the same DPDK file prefix.

# shellcheck source=topologies/host/peer.sh
. "$TOPO_DIR/peer.sh"

topo_conf_check() {
	[ -r "$TOPO_CONF" ] || die "topology file $TOPO_CONF is missing"
	kv_check "$TOPO_CONF" >&2 || die "bad topology file (see above)"
	[[ $STATE != *[[:space:]]* ]] || die "the lab folder $STATE must not contain spaces"
	cpu_plan # refuses a mode the host topology cannot run before anything starts
}

conf() { kv_get "$TOPO_CONF" "$1" "${2-}"; }

# Unique per lab folder, so that two labs (a user's and a test's) never share DPDK files.
lab_prefix() { printf '%s' "$STATE" | md5sum | cut -c1-8; }

vfwd_bin() { echo "$STATE/vfwd/bin/vfwd"; }
vfwdctl_cmd() { echo "$STATE/vfwd/bin/vfwdctl -s $STATE/run/cli.sock"; }
# The CLI command line for dumps into the results: it fails when its output cannot be written.
vfwdctl_dump_cmd() { echo "$LAB_DIR/lib/checked-stdout $(vfwdctl_cmd)"; }
tgen_bin() { echo "${FWDLAB_TGEN:-$TOP/build/tgen/bin/tgen}"; }

# host_queues: queues per vhost-user link (vfwd.queues, default 1): vfwd polls them spread
# over its workers (num-rx-queues), tgen sends each flow on its queue (--queues). Peers keep
# one queue (their own ports).
host_queues() { if peer_is_dut || peer_own_tgen_ports; then echo 1; else conf vfwd.queues 1; fi; }

tgen_eal() {
	if peer_own_tgen_ports; then peer_tgen_eal; return; fi
	local q
	q=$(host_queues)
	printf '%s --file-prefix tgen-%s --no-pci --vdev net_vhost0,iface=%s,client=1,queues=%s' \
		"$(conf tgen.eal_args)" "$(lab_prefix)" "$STATE/run/port0.sock" "$q"
	printf ' --vdev net_vhost1,iface=%s,client=1,queues=%s' "$STATE/run/port1.sock" "$q"
}

topo_accel() { echo none; }
topo_is_slow() { return 1; }

# ---- the CPU plan ---------------------------------------------------------------------------
# Busy-polling threads: each vfwd worker (on its lcore) and tgen's one polling thread (its main
# lcore). They poll each on a CPU of its own only when no two share a CPU and one CPU is left
# for everything else (vfwd's main thread, the trial hooks, the system): two busy pollers on
# one CPU time-share it in scheduler slices of milliseconds, and tgen's pacer then skips the
# slots it missed (lab/README.md "CPU sharing"). Otherwise the yielding modes are the default:
# vfwd rx-mode adaptive, tgen --pacing sleep. vfwd.rx_mode / tgen.pacing override it.

# host_cpus_expand "1,3-4": 1 3 4, one a line (the topology file checker vouched for it).
host_cpus_expand() {
	local part
	for part in ${1//,/ }; do
		if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
	done
}

# tgen_main_lcore: tgen's polling lcore, from its EAL arguments (--main-lcore, else the first
# of -l).
tgen_main_lcore() {
	local a prev="" l="" m=""
	for a in $(conf tgen.eal_args); do
		case $prev in
		-l) l=${a%%[,-]*} ;;
		--main-lcore) m=$a ;;
		esac
		prev=$a
	done
	echo "${m:-${l:-0}}"
}

# cpu_plan: sets PLAN_SHARED (1 when polling threads must share), PLAN_RX_MODE, PLAN_PACING,
# PLAN_WHY.
cpu_plan() {
	local ncpu w busy=() seen=" " c
	ncpu=$(nproc)
	for w in $(host_cpus_expand "$(conf vfwd.workers)"); do busy+=("$w"); done
	busy+=("$(tgen_main_lcore)")
	PLAN_SHARED=0
	PLAN_WHY="each polling thread has a CPU of its own and CPU(s) are left for the rest"
	for c in "${busy[@]}"; do
		if [[ $seen == *" $c "* ]]; then
			PLAN_SHARED=1 PLAN_WHY="CPU $c runs two polling threads"
		elif [ "$c" -ge "$ncpu" ]; then
			PLAN_SHARED=1 PLAN_WHY="CPU $c is not online ($ncpu online)"
		fi
		seen+="$c "
	done
	if [ "$PLAN_SHARED" = 0 ] && [ $((${#busy[@]} + 1)) -gt "$ncpu" ]; then
		PLAN_SHARED=1
		PLAN_WHY="${#busy[@]} polling threads and the rest need $((${#busy[@]} + 1)) CPUs, $ncpu online"
	fi
	PLAN_RX_MODE=$(conf vfwd.rx_mode auto)
	PLAN_PACING=$(conf tgen.pacing auto)
	# measured with DPDK 22.11: with rx interrupts on, a virtio-user port in server mode
	# fails to re-register them when the next vhost client connects ("interrupt unregister
	# failed") and its link stays down, so the run's tgen never gets through
	[ "$PLAN_RX_MODE" != interrupt ] ||
		die "$TOPO_CONF: vfwd.rx_mode = interrupt does not work on the host topology: virtio-user (server mode) loses its rx interrupts when the next tgen connects (DPDK 22.11); use adaptive"
	if [ "$PLAN_RX_MODE" = auto ]; then
		if [ "$PLAN_SHARED" = 1 ]; then PLAN_RX_MODE="adaptive"; else PLAN_RX_MODE="poll"; fi
	fi
	if [ "$PLAN_PACING" = auto ]; then
		if [ "$PLAN_SHARED" = 1 ]; then PLAN_PACING="sleep"; else PLAN_PACING="busy"; fi
	fi
}

topo_plan() {
	topo_conf_check
	cpu_plan
	local w vmode tmode
	vmode=$PLAN_RX_MODE tmode=$PLAN_PACING
	[ "$(conf vfwd.rx_mode auto)" = auto ] && vmode+=" (auto)"
	[ "$(conf tgen.pacing auto)" = auto ] && tmode+=" (auto)"
	echo "host topology: no VM; processes on this host's CPUs ($(nproc) online)"
	printf '  %-6s %-16s %-5s %s\n' process thread cpu mode
	printf '  %-6s %-16s %-5s %s\n' vfwd "main (CLI)" "$(conf vfwd.main_core)" "sleeps in poll(2)"
	for w in $(host_cpus_expand "$(conf vfwd.workers)"); do
		printf '  %-6s %-16s %-5s %s\n' vfwd "worker (lcore $w)" "$w" "rx-mode $vmode"
	done
	printf '  %-6s %-16s %-5s %s\n' tgen "main (tx + rx)" "$(tgen_main_lcore)" "pacing $tmode"
	echo "  vfwd EAL: $(conf vfwd.eal_args); tgen EAL: $(conf tgen.eal_args)"
	if [ "$PLAN_SHARED" = 1 ] && [ "$PLAN_RX_MODE" != poll ] && [ "$PLAN_PACING" != busy ]; then
		echo "  polling threads must share CPUs ($PLAN_WHY): yielding modes, vfwd rx-mode $PLAN_RX_MODE and tgen --pacing $PLAN_PACING"
	elif [ "$PLAN_SHARED" = 1 ]; then
		echo "  warning: polling threads share CPUs ($PLAN_WHY) and the topology file makes one of them busy-poll: rates will be set by the scheduler's time slices"
	else
		echo "  busy-polling, each thread on its own CPU ($PLAN_WHY)"
	fi
}

# ---- the DUT and tgen -------------------------------------------------------------------

dut_ctl() {
	# shellcheck disable=SC2046 # the command line is words
	$(vfwdctl_dump_cmd) "$@"
}

dut_build_info() {
	if peer_is_dut; then cat "$STATE/peer/build-info.json"; else cat "$STATE/vfwd/build-info.json"; fi
}
dut_dmesg() {
	if peer_is_dut; then peer_dmesg; return; fi
	echo "(host topology: no guest; the last lines of vfwd's log)"
	tail -n 100 "$STATE/vfwd.log"
}
# topo_dut_pid: vfwd's pid (threads.json of a run); a peer DUT has none here.
topo_dut_pid() { ! peer_is_dut && cat "$STATE/vfwd.pid"; }
vfwd_answers() { [ -S "$STATE/run/cli.sock" ] && dut_ctl show version >/dev/null 2>&1; }

# topo_require_up: the DUT answers; sets DUT_BACKEND (meta.json's dut.backend) to vfwd or
# the peer backend that runs in its place (topologies/host/peer.sh).
# shellcheck disable=SC2034 # DUT_BACKEND and DUT_SPEC are read by lab/lib/results.sh and lab/fwdlab
topo_require_up() {
	topo_conf_check
	if peer_is_dut; then
		peer_running || die "the host lab's DUT, peer backend $(peer_current), is not running (fwdlab swap BUILD or peer:NAME)"
		DUT_SPEC=$(peer_current)
		DUT_BACKEND=${DUT_SPEC%%:*} # vpp:default and vpp-plugin:F.so run backend vpp
		return 0
	fi
	DUT_BACKEND=vfwd DUT_SPEC=
	vfwd_answers || topo_dut_settle ||
		die "the host lab is not up (fwdlab up --topology host)$(vfwd_gave_up_note)"
}

# ---- vfwd's supervisor and its restarts ---------------------------------------------------

vfwd_events() { echo "$STATE/vfwd-restarts.jsonl"; }

# topo_dut_events: vfwd's exits and its supervisor's restarts (topologies/CONTRACT.md;
# lab/lib/results.sh counts them).
topo_dut_events() { cat "$(vfwd_events)" 2>/dev/null || true; }

# topo_dut_settle: while the supervisor restarts vfwd, wait (60 s at most) until it answers
# and the supervisor has recorded the restart.
topo_dut_settle() {
	pid_alive "$STATE/vfwd-supervisor.pid" || return 1
	vfwd_settled && return 0
	wait_until 60 "vfwd (restarted by its supervisor)" vfwd_settled
}

# vfwd_settled: vfwd answers and every recorded exit has its restart record.
vfwd_settled() {
	vfwd_answers || return 1
	[ -s "$(vfwd_events)" ] || return 0
	jq -se '(map(select(.event == "exit")) | length) <=
		(map(select(.event == "restarted" or .event == "gave-up")) | length)' \
		"$(vfwd_events)" >/dev/null
}

vfwd_gave_up_note() {
	if [ -s "$(vfwd_events)" ] && [ "$(jq -rs 'last.event' "$(vfwd_events)")" = gave-up ]; then
		printf '; vfwd kept dying and its supervisor gave up (%s, log %s)' \
			"$(vfwd_events)" "$STATE/vfwd.log"
	fi
}

# vfwd_stop: the supervisor (it stops vfwd), then vfwd itself should it outlive it.
vfwd_stop() {
	lab_pid_stop "$STATE/vfwd-supervisor.pid" 15
	lab_pid_stop "$STATE/vfwd.pid"
}

# lab_pid_stop PIDFILE [SECONDS]: pid_stop, only while the pid is one of this lab's processes
# (its command line names the lab folder): after a crash or an interrupted `down` a stale
# file may hold a pid that the system has given to another process since.
lab_pid_stop() {
	local pid
	pid=$(cat "$1" 2>/dev/null || true)
	if [ -n "$pid" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$STATE"; then
		rm -f "$1"
		return 0
	fi
	pid_stop "$@"
}

tgen_port_args() {
	cpu_plan
	printf -- '--dst-mac0 %s --dst-mac1 %s --link %s --pacing %s' "$(conf vfwd.port0_mac)" \
		"$(conf vfwd.port1_mac)" "$(conf tgen.link)" "$PLAN_PACING"
	local q
	q=$(host_queues)
	if [ "$q" -gt 1 ]; then printf -- ' --queues %s' "$q"; fi
	if peer_is_dut; then peer_tgen_extra_args; fi
}

# tgen_invoke RUN_DIR MODE ARGS...: one tgen run against the running vfwd, with the trial
# hooks; writes RUN_DIR/tgen.json.
tgen_invoke() {
	local rundir=$1 mode=$2 ctl hook
	shift 2
	ctl=$(vfwdctl_dump_cmd)
	hook="$LAB_DIR/trial-hook"
	local pre="$hook pre $rundir/trials '$ctl'" post="$hook post $rundir/trials '$ctl'"
	if peer_is_dut; then { read -r pre; read -r post; } < <(peer_trial_hooks "$rundir"); fi
	# tgen holds tgen.lock (fd 9; the supervisor's `tgen link` takes it too) and, exec'd,
	# is this background job itself, so that signals to tgen.pid reach it.
	(
		exec 9>"$STATE/tgen.lock"
		flock -w 120 9 || { echo "tgen: $STATE/tgen.lock stays held" >&2; exit 75; }
		if [ "$(gen_current)" != tgen ]; then
			# another generator's trials under the lab's one search (lab/generators/lib.sh)
			topo_gen_env "$(gen_current)"
			export FWDLAB_GEN_TRIALS=$rundir/generator-trials.jsonl
			mapfile -t cmd < <(gen_search_cmd "$mode" "$@")
			exec "${cmd[@]}" --json "$rundir/tgen.json.tmp" --pre-trial "$pre" --post-trial "$post"
		fi
		# shellcheck disable=SC2046 # EAL arguments and port arguments are words
		exec "$(tgen_bin)" $(tgen_eal) -- "$mode" "$@" $(tgen_port_args) \
			--json "$rundir/tgen.json.tmp" \
			--pre-trial "$pre" --post-trial "$post"
	) </dev/null &
	search_wait "$rundir" "$!"
}

topo_abort() {
	if pid_alive "$STATE/tgen.pid"; then kill -INT "$(cat "$STATE/tgen.pid")" || true; fi
}

# topo_gen_loop_search DIR ARGS...: the generator alone (fwdlab calibrate): tgen with its two
# ports looped to each other (a memif pair in one process: server and client on one socket,
# no DUT, no vhost-user), on its own CPU of the plan; the search ARGS into DIR/tgen.json, its
# output in DIR/tgen.log. Returns 2 when the lab's generator is not tgen.
topo_gen_loop_search() {
	local dir=$1 sock rc=0
	shift
	[ "$(gen_current)" = tgen ] || return 2
	cpu_plan
	sock=$STATE/run/tg-loop.sock
	rm -f "$sock"
	local cmd
	# shellcheck disable=SC2207 # EAL arguments are words
	cmd=("$(tgen_bin)" $(conf tgen.eal_args) --file-prefix "tgloop-$(lab_prefix)" --no-pci
		--vdev "net_memif0,role=server,socket=$sock,id=0"
		--vdev "net_memif1,role=client,socket=$sock,id=0"
		-- "$@" --link "$(conf tgen.link)" --pacing "$PLAN_PACING" --json "$dir/tgen.json.tmp")
	printf 'fwdlab: %s\n' "${cmd[*]}" >"$dir/tgen.log"
	"${cmd[@]}" >>"$dir/tgen.log" 2>&1 </dev/null || rc=$?
	rm -f "$sock"
	rm -rf "/var/run/dpdk/tgloop-$(lab_prefix)"
	if [ "$rc" -eq 0 ] && [ -s "$dir/tgen.json.tmp" ]; then
		mv -f "$dir/tgen.json.tmp" "$dir/tgen.json"
	else
		rm -f "$dir/tgen.json.tmp"
		return 1
	fi
}

# ---- up / down ----------------------------------------------------------------------------

host_startup_conf() {
	local run=$STATE/run
	cpu_plan
	cat <<EOF
unix    { cli-listen $run/cli.sock  exec $TOPO_DIR/setup.cli }
cpu     { main-core $(conf vfwd.main_core)  corelist-workers $(conf vfwd.workers)  rx-mode $PLAN_RX_MODE }
$(if [ -n "${FWDLAB_VFWD_FIB:-}" ]; then echo "fib     { $FWDLAB_VFWD_FIB }"; fi)
dpdk    {
          eal-args "$(conf vfwd.eal_args) --file-prefix vfwd-$(lab_prefix) --no-pci"
          num-mbufs $(conf vfwd.num_mbufs)
$(host_dut_vdevs)
        }
EOF
}

# host_dut_vdevs: vfwd's two ports, facing the lab's generator: vhost-user (virtio-user
# server=1) for tgen, memif (role=server) for a generator whose `ports` says memif (TRex).
host_dut_vdevs() {
	local p run=$STATE/run q
	q=$(host_queues)
	for p in 0 1; do
		if [ "$(gen_ports_kind)" = memif ]; then
			printf '          vdev net_memif%s,role=server,id=0,socket=%s/memif%s.sock,socket-abstract=no,mac=%s { name port%s }\n' \
				"$p" "$run" "$p" "$(conf "vfwd.port${p}_mac")" "$p"
		else
			printf '          vdev net_virtio_user%s,path=%s/port%s.sock,server=1,queue_size=4096,queues=%s,mac=%s { name port%s  num-rx-queues %s }\n' \
				"$p" "$run" "$p" "$q" "$(conf "vfwd.port${p}_mac")" "$p" "$q"
		fi
	done
}

# gen_ports_kind: the kind of port the lab's generator speaks (its `ports` verb).
gen_ports_kind() { "$GEN_LIB_DIR/$(gen_lab)" ports; }

# topo_gen_env NAME: the environment of generator NAME's verbs (lab/generators/README.md).
topo_gen_env() {
	local kind
	kind=$("$GEN_LIB_DIR/$1" ports)
	export FWDLAB_GEN_DIR=$STATE/gen-$1 FWDLAB_GEN_ID FWDLAB_GEN_LINK FWDLAB_GEN_CORE
	FWDLAB_GEN_ID=$(lab_prefix)
	FWDLAB_GEN_LINK=$(conf tgen.link)
	FWDLAB_GEN_CORE=$(conf vfwd.main_core)
	export FWDLAB_GEN_DST_MAC0 FWDLAB_GEN_DST_MAC1 FWDLAB_GEN_SRC_MAC0 FWDLAB_GEN_SRC_MAC1
	FWDLAB_GEN_DST_MAC0=$(conf vfwd.port0_mac)
	FWDLAB_GEN_DST_MAC1=$(conf vfwd.port1_mac)
	# the generator's own MACs: the DUT's neighbors on each port (setup.cli)
	FWDLAB_GEN_SRC_MAC0=$(awk '$3 == "neighbor" && $4 == "port0" { print $6; exit }' "$TOPO_DIR/setup.cli")
	FWDLAB_GEN_SRC_MAC1=$(awk '$3 == "neighbor" && $4 == "port1" { print $6; exit }' "$TOPO_DIR/setup.cli")
	export FWDLAB_GEN_PORT0 FWDLAB_GEN_PORT1 FWDLAB_GEN_ARGS
	if [ "$kind" = memif ]; then
		FWDLAB_GEN_PORT0=$STATE/run/memif0.sock FWDLAB_GEN_PORT1=$STATE/run/memif1.sock
	else
		FWDLAB_GEN_PORT0=$STATE/run/port0.sock FWDLAB_GEN_PORT1=$STATE/run/port1.sock
	fi
	FWDLAB_GEN_ARGS="$(conf tgen.eal_args) --file-prefix tgen-$(lab_prefix)"
}

# topo_gen_use NAME: the lab wired for generator NAME: vfwd restarted on the ports NAME
# speaks (when they differ from the current ones), NAME's long-lived parts (TRex's server)
# started.
topo_gen_use() {
	local g=$1 old
	old=$(gen_lab)
	local want
	want=$("$GEN_LIB_DIR/$g" ports)
	if [ "$want" != none ] && [ "$want" != "$("$GEN_LIB_DIR/$old" ports)" ]; then
		! peer_is_dut ||
			die "the DUT is peer backend $(peer_current); --generator $g needs vfwd (fwdlab swap BUILD first)"
		say "rewiring the host lab for $g (vfwd restarts on $("$GEN_LIB_DIR/$g" ports) ports)"
		gen_do "$old" stop || true
		vfwd_stop
		printf '%s\n' "$g" >"$STATE/generator"
		vfwd_start
	else
		printf '%s\n' "$g" >"$STATE/generator"
	fi
	gen_start
}

# gen_start: the lab's generator's long-lived parts (tgen has none: vfwd_start linked it).
gen_start() {
	[ "$(gen_lab)" != tgen ] || return 0
	gen_do "$(gen_lab)" start || die "generator $(gen_lab) did not start (its log is in $STATE/gen-$(gen_lab))"
}

# tgen_link_cmd WAIT: the shell command that connects a `tgen link` to vfwd's sockets,
# holding tgen.lock (flock WAIT: -n or -w SECONDS); the supervisor runs it after a restart.
# With several queues vfwd's virtio-user ports send their multi-queue command after the link
# is up: tgen stays connected 5 s more (--link-hold) for it.
tgen_link_cmd() {
	local hold=""
	if [ "$(host_queues)" -gt 1 ]; then hold="--link-hold 5"; fi
	printf 'exec 9>%s/tgen.lock; flock %s 9 || exit 75; exec timeout 60 %s %s -- link %s --link-timeout 50 %s >>%s 2>&1' \
		"$STATE" "$1" "$(tgen_bin)" "$(tgen_eal)" "$(tgen_port_args)" "$hold" "$STATE/tgen-link.log"
}

# vfwd_start: starts vfwd from $STATE/vfwd under its supervisor, then lets a `tgen link`
# connect to its sockets (vfwd's EAL init waits for the vhost side), then waits for its CLI.
vfwd_start() {
	local bin run=$STATE/run
	bin=$(vfwd_bin)
	[ -x "$bin" ] || die "$bin is missing"
	mkdir -p "$run"
	chmod go-w "$STATE" "$run"
	host_startup_conf | atomic_write "$run/startup.conf"
	rm -f "$STATE/vfwd.pid"
	: >"$STATE/vfwd.log"
	local connect sock0=port0.sock
	connect=$(tgen_link_cmd -n)
	# memif: vfwd's EAL init does not wait for the other side; the generator connects itself
	if [ "$(gen_ports_kind)" = memif ]; then connect=":" sock0=memif0.sock; fi
	setsid "$TOPO_DIR/supervise" --name vfwd --dir "$STATE" \
		--pre "rm -f $run/port0.sock $run/port1.sock $run/memif0.sock $run/memif1.sock $run/cli.sock" \
		--connect "$connect" --ready "$(vfwdctl_cmd) show version" \
		-- "$bin" -c "$run/startup.conf" >>"$STATE/vfwd.log" 2>&1 </dev/null &
	wait_until 30 "vfwd's first socket" test -S "$run/$sock0" || {
		tail -n 20 "$STATE/vfwd.log" >&2
		die "vfwd did not create its vhost-user sockets (log: $STATE/vfwd.log)"
	}
	: >"$STATE/tgen-link.log"
	[ "$connect" = ":" ] || bash -c "$(tgen_link_cmd "-w 60")" || {
		tail -n 20 "$STATE/tgen-link.log" >&2
		die "tgen link failed (log: $STATE/tgen-link.log)"
	}
	wait_until 30 "vfwd's CLI" vfwd_answers || {
		tail -n 20 "$STATE/vfwd.log" >&2
		die "vfwd does not answer on $STATE/run/cli.sock (log: $STATE/vfwd.log)"
	}
}

# install_build SRC: copies a vfwd build folder to $STATE/vfwd (the live build).
install_build() {
	local src=$1
	rm -rf "$STATE/vfwd.new"
	cp -a "$src" "$STATE/vfwd.new"
	rm -rf "$STATE/vfwd"
	mv "$STATE/vfwd.new" "$STATE/vfwd"
}

topo_up() {
	topo_conf_check
	mkdir -p "$STATE"
	if peer_running; then
		say "peer backend $(peer_current) runs as the DUT (fwdlab swap BUILD puts vfwd back)"
		return 0
	fi
	peer_stop
	if pid_alive "$STATE/vfwd-supervisor.pid" && pid_alive "$STATE/vfwd.pid" &&
		vfwd_answers; then
		say "vfwd already runs (pid $(cat "$STATE/vfwd.pid"), supervisor pid $(cat "$STATE/vfwd-supervisor.pid"))"
		if [ -n "${GENERATOR:-}" ]; then topo_gen_use "$GENERATOR"; fi
		return 0
	fi
	if pid_alive "$STATE/vfwd.pid"; then
		say "vfwd runs without its supervisor (or does not answer): starting it again"
	fi
	vfwd_stop
	local build=${FWDLAB_VFWD_BUILD:-$TOP/build/vfwd/$VARIANT}
	if [ ! -x "$build/bin/vfwd" ] && [ -z "${FWDLAB_VFWD_BUILD:-}" ]; then
		say "building vfwd (make forwarder VARIANT=$VARIANT)"
		make -C "$TOP" forwarder VARIANT="$VARIANT" >&2 || die "make forwarder failed"
	fi
	if [ ! -x "$(tgen_bin)" ] && [ -z "${FWDLAB_TGEN:-}" ]; then
		say "building tgen (make tgen)"
		make -C "$TOP" tgen >&2 || die "make tgen failed"
	fi
	[ -x "$build/bin/vfwd" ] || die "no vfwd build in $build"
	[ -x "$(tgen_bin)" ] || die "no tgen at $(tgen_bin)"
	install_build "$build"
	printf '%s\n' "${GENERATOR:-$(gen_lab)}" >"$STATE/generator"
	vfwd_start
	gen_start
}

topo_swap() {
	local build=$1
	peer_stop
	# a memif client (TRex) gets a fresh start with the new vfwd
	if [ "$(gen_lab)" != tgen ]; then gen_do "$(gen_lab)" stop || true; fi
	vfwd_stop
	install_build "$build"
	vfwd_start
	gen_start
}

topo_access() {
	if peer_is_dut; then
		peer_status
		echo "  tgen: $(tgen_bin) $(tgen_eal) -- run $(tgen_port_args) --rate 10kpps"
		return 0
	fi
	cat <<EOF
host lab is up: vfwd pid $(cat "$STATE/vfwd.pid"), log $STATE/vfwd.log
  vfwd CLI: $(vfwdctl_cmd) show runtime
  tgen:     $(tgen_bin) $(tgen_eal) -- run $(tgen_port_args) --rate 10kpps
EOF
}

topo_down() {
	topo_conf_check
	if [ -s "$STATE/vfwd.pid" ]; then
		say "stopping vfwd (pid $(cat "$STATE/vfwd.pid"))"
	fi
	peer_stop
	if [ -s "$STATE/generator" ]; then gen_do "$(gen_lab)" stop || true; fi
	vfwd_stop
	fault_point down:vfwd-stopped
	lab_pid_stop "$STATE/tgen.pid"
	rm -rf "${STATE:?}/run" "$STATE/vfwd" "$STATE/vfwd.new" "$STATE/vfwd.log" \
		"$STATE/tgen-link.log" "$STATE/last-tgen.json" "$STATE/current-run" "$STATE/swap-deb" \
		"$STATE/vfwd-restarts.jsonl" "$STATE/tgen.lock" "$STATE/generator" "$STATE"/gen-* "$STATE/calibration.json" \
		"$STATE/peer-retries.log"
	fault_point down:files-removed
	# DPDK's runtime files of both processes (--file-prefix).
	rm -rf "/var/run/dpdk/vfwd-$(lab_prefix)" "/var/run/dpdk/tgen-$(lab_prefix)"
	rmdir "$STATE" 2>/dev/null || true
}

topo_console() { die "the host topology has no console (vfwd's log: $STATE/vfwd.log)"; }

topo_ssh() {
	[ $# -gt 1 ] || die "host topology: no ssh; run commands here (fwdlab ssh dut CMD runs CMD)"
	shift
	"$@"
}

topo_status() {
	topo_conf_check
	echo "topology host, lab folder $STATE"
	if pid_alive "$STATE/vfwd.pid"; then
		echo "  vfwd pid $(cat "$STATE/vfwd.pid")"
	else
		echo "  vfwd not running"
	fi
	if vfwd_answers; then
		echo "  vfwd answers: $(dut_ctl show version | head -n1)"
	fi
	if peer_is_dut; then peer_status; fi
	if pid_alive "$STATE/vfwd-supervisor.pid"; then
		echo "  supervisor pid $(cat "$STATE/vfwd-supervisor.pid"), vfwd restarts: $(dut_faults_count) ($(vfwd_events))"
	fi
}
