# shellcheck shell=bash
# Helpers for the example-rs tests and bench: run vfwd on net_pcap/net_null ports with
# --no-huge, drive it through vfwdctl, stop it by PID. Sourced; the caller sets
# `set -euo pipefail`, `tmp` (its scratch folder) and calls vfwd_cleanup from its trap.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../../.." && pwd)
VFWD_BUILD=${VFWD_BUILD:-$top/build/vfwd/${VARIANT:-default}}
EXRS_PLUGIN=${EXRS_PLUGIN:-$VFWD_BUILD/plugins/example_rs_plugin.so}
EXRS_C_PLUGIN=${EXRS_C_PLUGIN:-$VFWD_BUILD/plugins/example_plugin.so}
PCAPTOOL=${PCAPTOOL:-$top/build/peers/tools/pcaptool}
vfwd_pids=()

# need_builds [FILE...]: the builds this suite makes (`make -C forwarder/plugins/example-rs
# check` builds them first); one missing is a failure naming it: "not ok", the plan, exit 1
need_builds() {
	local f
	for f in "$VFWD_BUILD/bin/vfwd" "$VFWD_BUILD/bin/vfwdctl" "$EXRS_PLUGIN" "$EXRS_C_PLUGIN" \
		"$PCAPTOOL" "$@"; do
		if [ ! -e "$f" ]; then
			echo "not ok 1 - $(basename "$0") needs $f, a build of this suite: make -C forwarder/plugins/example-rs check builds it"
			echo "1..1"
			exit 1
		fi
	done
}

# vfwd_conf DIR PORT0-DEVARGS PORT1-DEVARGS [PLUGIN-TO-DISABLE]: writes DIR/startup.conf
# loading the plugins in DIR/plugins, executing DIR/setup.cli.
# (rx-burst 256: the tests want rx vectors of up to 256 packets, which merge past 256)
vfwd_conf() {
	local dir=$1 p0=$2 p1=$3 off=${4:-}
	"$top/tests/lib/vfwd-conf" startup "$dir/startup.conf" --cli "$dir/cli.sock" \
		--exec "$dir/setup.cli" --prefix "exrs-$$-$(basename "$dir")" --no-pci --log-level "" \
		--rx-burst 256 \
		--vdev port0 "$p0" --vdev port1 "$p1" --plugins "$dir/plugins" ${off:+--disable "$off"}
}

# vfwd_setup DIR FEATURE PORT...: routes 16/8 to port0 and 48/8 to port1 (the addresses
# of pcaptool's traffic) and enables FEATURE on each PORT.
vfwd_setup() {
	local dir=$1 feature=$2 p
	local -a feat=()
	shift 2
	for p in "$@"; do feat+=(--feature "$p" "$feature"); done
	"$top/tests/lib/vfwd-conf" setup "$dir/setup.cli" --addr4 --nbr0 02:00:00:00:00:02 \
		--nbr1 02:00:00:00:01:02 --route0 16.0.0.0/8 --route1 48.0.0.0/8 --no-icmp-error \
		"${feat[@]}"
}

# vfwd_plugins DIR: both example plugins in DIR/plugins, as `make plugins` installs them.
vfwd_plugins() {
	mkdir -p "$1/plugins"
	cp "$EXRS_C_PLUGIN" "$1/plugins/example_plugin.so"
	cp "$EXRS_PLUGIN" "$1/plugins/example_rs_plugin.so"
}

ctl() { # ctl DIR COMMAND...
	local dir=$1
	shift
	"$VFWD_BUILD/bin/vfwdctl" -s "$dir/cli.sock" "$@"
}

# vfwd_start DIR: starts vfwd in the background and waits until its CLI answers.
vfwd_start() {
	local dir=$1
	rm -f "$dir/cli.sock"
	"$VFWD_BUILD/bin/vfwd" -c "$dir/startup.conf" >"$dir/vfwd.log" 2>&1 &
	vfwd_pids+=("$!")
	echo "$!" >"$dir/vfwd.pid"
	for _ in $(seq 1 200); do
		if [ -S "$dir/cli.sock" ] && ctl "$dir" show version >/dev/null 2>&1; then
			return 0
		fi
		if ! kill -0 "$(cat "$dir/vfwd.pid")" 2>/dev/null; then
			echo "# vfwd exited during start-up:"
			sed 's/^/#   /' "$dir/vfwd.log"
			return 1
		fi
		sleep 0.1
	done
	echo "# vfwd did not answer within 20 s"
	return 1
}

# vfwd_stop DIR: SIGTERM, and the exit status of vfwd.
vfwd_stop() {
	local pid rc=0
	pid=$(cat "$1/vfwd.pid")
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || rc=$?
	return "$rc"
}

# vfwd_cleanup: kills what vfwd_start started and removes EAL's runtime folders.
vfwd_cleanup() {
	local pid
	for pid in "${vfwd_pids[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
	rm -rf /var/run/dpdk/exrs-$$-*
}

# port_counters DIR: "rx0 rx1 tx0 tx1", the packet counters of `show interfaces`.
port_counters() {
	ctl "$1" show interfaces | awk '
		NR > 1 && ($3 == "up" || $3 == "down") { cur = $1 }
		/ rx packets / { rx[cur] = $NF }
		/ tx packets / { tx[cur] = $NF }
		END { print rx["port0"] + 0, rx["port1"] + 0, tx["port0"] + 0, tx["port1"] + 0 }'
}

# wait_rx DIR N0 N1: waits until port0 and port1 received N0 and N1 packets and their tx
# counters stop moving.
wait_rx() {
	local dir=$1 last="" now=""
	for _ in $(seq 1 200); do
		now=$(port_counters "$dir")
		case "$now" in
		"$2 $3 "*) [ "$now" = "$last" ] && return 0 ;;
		esac
		last=$now
		sleep 0.1
	done
	echo "# not all packets received within 20 s: rx0 rx1 tx0 tx1 $now, want rx $2 $3"
	return 1
}

# summary FILE KEY: one count of `pcaptool summary`.
summary() {
	"$PCAPTOOL" summary "$1" | awk -v k="$2" '$1 == k { print $2 }'
}

# runtime_row FILE NODE FIELD: a field of the node's row in a `show runtime` dump
# (calls, vectors, clocks, vpc), from the worker thread.
runtime_row() {
	awk -v n="$2" -v f="$3" '
		$1 == n && NF >= 7 {
			if (f == "calls") v = $3; else if (f == "vectors") v = $4;
			else if (f == "clocks") v = $6; else v = $7
		}
		END { print v + 0 }' "$1"
}
