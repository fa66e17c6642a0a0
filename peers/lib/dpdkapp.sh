# shellcheck shell=bash
# L3FWD_* are read by the backends that source this file.
# shellcheck disable=SC2034
# Process handling for DPDK apps that run without a CLI (l3fwd, l3fwd-graph): start in the
# background with a log, stop with SIGTERM (they close their ports on it, which flushes
# net_pcap's output), counters through DPDK telemetry. Sourced after common.sh.

app_pidfile() { echo "$CFG_RUNDIR/$BACKEND.pid"; }
app_logfile() { echo "$CFG_RUNDIR/$BACKEND.log"; }

app_start() { # BINARY ARGS...: start it, wait until its ports forward
	local bin=$1 pid
	shift
	[ -x "$bin" ] || die "$bin is not built (run peers/build-examples)"
	rm -rf "/var/run/dpdk/$CFG_PREFIX"
	echo "$bin $*" >"$CFG_RUNDIR/cmdline"
	setsid stdbuf -o0 -e0 "$bin" "$@" >"$(app_logfile)" 2>&1 &
	pid=$!
	echo "$pid" >"$(app_pidfile)"
	if ! app_wait_ready "$pid"; then
		tail -n 20 "$(app_logfile)" >&2
		app_stop
		die "$BACKEND did not start (log above, full log $(app_logfile))"
	fi
	echo "running pid $pid lcore $CFG_LCORE"
}

app_ready() { # PID: alive and answering telemetry with both ports
	pid_alive "$1" || return 2
	[ -S "$(telemetry_sock)" ] || return 1
	telemetry /ethdev/list | grep -q '\[0,1\]' || return 1
	[ -z "$APP_READY_PATTERN" ] || grep -q "$APP_READY_PATTERN" "$(app_logfile)"
}

app_wait_ready() { # PID: up to PEERS_START_TIMEOUT seconds (a loaded host starts slowly)
	local rc end=$((SECONDS + PEERS_START_TIMEOUT))
	while [ "$SECONDS" -lt "$end" ]; do
		rc=0
		app_ready "$1" || rc=$?
		[ $rc -ne 0 ] || return 0
		[ $rc -ne 2 ] || return 1
		sleep 0.1
	done
	return 1
}

app_stop() {
	local pid
	pid=$(read_pid "$(app_pidfile)")
	stop_pid "$pid" TERM 15
	rm -f "$(app_pidfile)"
	rm -rf "/var/run/dpdk/$CFG_PREFIX"
}

app_status() {
	local pid
	pid=$(read_pid "$(app_pidfile)")
	pid_alive "$pid" || return 1
	echo "running pid $pid lcore $CFG_LCORE"
}

app_dump_ethdev() { # DIR
	local p
	for p in 0 1; do telemetry "/ethdev/stats,$p"; echo; done | write_atomic "$1/ethdev_stats.json"
	for p in 0 1; do telemetry "/ethdev/xstats,$p"; echo; done | write_atomic "$1/xstats.json"
	write_atomic "$1/cmdline" <"$CFG_RUNDIR/cmdline"
}

# The l3fwd family takes one destination MAC per port: --eth-dest=PORT,MAC from the neighbor
# the port's routes point to.
l3fwd_eth_dest_args() { # -> L3FWD_ARGS
	local p mac
	L3FWD_ARGS=()
	for p in 0 1; do
		if ! mac=$(port_route_mac "$p"); then
			usage_die "$CFG_FILE: $BACKEND has one next-hop MAC per port; routes on port$p point to different neighbors"
		fi
		[ -z "$mac" ] || L3FWD_ARGS+=("--eth-dest=$p,$mac")
	done
}

# -P (promiscuous) for PCI ports, where the NIC filters by MAC; vdevs (net_pcap, virtio-user
# without a control queue) deliver every frame and refuse the call, which l3fwd treats as fatal.
l3fwd_promisc_arg() { # -> L3FWD_PROMISC
	L3FWD_PROMISC=()
	if is_pci "${CFG_PORT[0]}"; then L3FWD_PROMISC=(-P); fi
}
