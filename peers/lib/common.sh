# shellcheck shell=bash
# Shared by the peer backends: config parsing, EAL arguments, telemetry, process handling.
# Sourced by peers/backends/*; never run on its own.
# The CFG_* globals are read by the backends that source this file.
# shellcheck disable=SC2034

PEERS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOP=${TOP:-$(cd "$PEERS_DIR/.." && pwd)}
PEERS_BIN=${PEERS_BIN:-$TOP/build/peers/bin}
# How long start waits for a DPDK backend to forward (seconds): a DPDK app's start under a
# load average of 15 on 2 CPUs took over 30 s here.
PEERS_START_TIMEOUT=${PEERS_START_TIMEOUT:-90}

die() { echo "${BACKEND:-peers}: $*" >&2; exit 1; }
usage_die() { echo "${BACKEND:-peers}: $*" >&2; exit 2; }
cfg_die() { echo "$1:$2: $3" >&2; exit 2; }
log() { echo "${BACKEND:-peers}: $*" >&2; }

# ---- config -------------------------------------------------------------------------------
# Globals set by cfg_load.
CFG_FILE=""
CFG_PORT=("" "")
CFG_EAL_ARGS=()
CFG_MAIN_LCORE=0
CFG_LCORE=1
CFG_NUM_MBUFS=16384
CFG_ADDR=("" "")
CFG_MAC=("" "")
CFG_NEIGH_PORT=() CFG_NEIGH_IP=() CFG_NEIGH_MAC=()
CFG_ROUTE_PREFIX=() CFG_ROUTE_VIA=() CFG_ROUTE_PORT=()
CFG_PREFIX=""
CFG_RUNDIR=""

is_ip4() {
	local IFS=. o
	# shellcheck disable=SC2206
	local parts=($1)
	[[ $1 =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || return 1
	for o in "${parts[@]}"; do ((10#$o <= 255)) || return 1; done
}
is_prefix() { [[ $1 == */* ]] && is_ip4 "${1%/*}" && [[ ${1#*/} =~ ^[0-9]+$ ]] && ((${1#*/} <= 32)); }
is_mac() { [[ $1 =~ ^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$ ]]; }
is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
port_index() { # port0|port1 -> 0|1, else fails
	case "$1" in port0) echo 0 ;; port1) echo 1 ;; *) return 1 ;; esac
}

cfg_load() { # FILE
	local file=$1 src=$1 n=0 line key
	local -a a
	[ -f "$file" ] || usage_die "config file not found: $file"
	CFG_FILE=$(readlink -f "$file")
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line%%#*}
		read -r -a a <<<"$line"
		[ ${#a[@]} -gt 0 ] || continue
		key=${a[0]}
		case "$key" in
		port0 | port1)
			[ ${#a[@]} -eq 2 ] || cfg_die "$src" $n "$key takes one device string (no spaces)"
			CFG_PORT[${key#port}]=${a[1]} ;;
		eal-args)
			CFG_EAL_ARGS=("${a[@]:1}") ;;
		main-lcore | lcore | num-mbufs)
			if [ ${#a[@]} -ne 2 ] || ! is_uint "${a[1]}"; then
				cfg_die "$src" $n "$key takes one number"
			fi
			case "$key" in
			main-lcore) CFG_MAIN_LCORE=${a[1]} ;;
			lcore) CFG_LCORE=${a[1]} ;;
			num-mbufs) CFG_NUM_MBUFS=${a[1]} ;;
			esac ;;
		address)
			[ ${#a[@]} -eq 3 ] || cfg_die "$src" $n "usage: address PORT A.B.C.D/LEN"
			local p
			p=$(port_index "${a[1]}") || cfg_die "$src" $n "unknown port '${a[1]}' (port0 or port1)"
			is_prefix "${a[2]}" || cfg_die "$src" $n "bad address '${a[2]}' (want A.B.C.D/LEN)"
			CFG_ADDR[p]=${a[2]} ;;
		mac)
			[ ${#a[@]} -eq 3 ] || cfg_die "$src" $n "usage: mac PORT MAC"
			p=$(port_index "${a[1]}") || cfg_die "$src" $n "unknown port '${a[1]}' (port0 or port1)"
			is_mac "${a[2]}" || cfg_die "$src" $n "bad MAC '${a[2]}'"
			CFG_MAC[p]=${a[2]} ;;
		neighbor)
			[ ${#a[@]} -eq 4 ] || cfg_die "$src" $n "usage: neighbor PORT IP MAC"
			p=$(port_index "${a[1]}") || cfg_die "$src" $n "unknown port '${a[1]}' (port0 or port1)"
			is_ip4 "${a[2]}" || cfg_die "$src" $n "bad IPv4 address '${a[2]}'"
			is_mac "${a[3]}" || cfg_die "$src" $n "bad MAC '${a[3]}'"
			CFG_NEIGH_PORT+=("$p") CFG_NEIGH_IP+=("${a[2]}") CFG_NEIGH_MAC+=("${a[3],,}") ;;
		route)
			if [ ${#a[@]} -ne 5 ] || [ "${a[2]}" != via ]; then
				cfg_die "$src" $n "usage: route PREFIX/LEN via IP PORT"
			fi
			is_prefix "${a[1]}" || cfg_die "$src" $n "bad prefix '${a[1]}' (want A.B.C.D/LEN)"
			is_ip4 "${a[3]}" || cfg_die "$src" $n "bad next hop '${a[3]}'"
			p=$(port_index "${a[4]}") || cfg_die "$src" $n "unknown port '${a[4]}' (port0 or port1)"
			CFG_ROUTE_PREFIX+=("${a[1]}") CFG_ROUTE_VIA+=("${a[3]}") CFG_ROUTE_PORT+=("$p") ;;
		file-prefix)
			if [ ${#a[@]} -ne 2 ] || ! [[ ${a[1]} =~ ^[A-Za-z0-9_-]+$ ]]; then
				cfg_die "$src" $n "file-prefix takes one name of [A-Za-z0-9_-]"
			fi
			CFG_PREFIX=${a[1]} ;;
		run-dir)
			[ ${#a[@]} -eq 2 ] || cfg_die "$src" $n "run-dir takes one path"
			CFG_RUNDIR=${a[1]} ;;
		*)
			# A backend may take keys of its own (cfg_backend_key KEY VALUE... fails
			# for a key it does not know, or dies naming what is wrong with the value).
			if ! declare -F cfg_backend_key >/dev/null ||
				! cfg_backend_key "$src" "$n" "${a[@]}"; then
				cfg_die "$src" $n "unknown key '$key'"
			fi ;;
		esac
	done <"$file"
	[ -n "${CFG_PORT[0]}" ] || cfg_die "$src" $n "port0 is missing"
	[ -n "${CFG_PORT[1]}" ] || cfg_die "$src" $n "port1 is missing"
	[ "$CFG_MAIN_LCORE" != "$CFG_LCORE" ] || cfg_die "$src" $n "main-lcore and lcore must differ"
	local i
	for i in "${!CFG_ROUTE_VIA[@]}"; do
		route_neigh_mac "$i" >/dev/null ||
			cfg_die "$src" $n "route ${CFG_ROUTE_PREFIX[i]}: no neighbor ${CFG_ROUTE_VIA[i]} on port${CFG_ROUTE_PORT[i]}"
	done
	CFG_PREFIX=${CFG_PREFIX:-fwdlab-peer-$BACKEND}
	CFG_RUNDIR=${CFG_RUNDIR:-${TMPDIR:-/tmp}/fwdlab-peers/$CFG_PREFIX}
}

route_neigh_mac() { # ROUTE_INDEX -> MAC of its next hop
	local i=$1 j
	for j in "${!CFG_NEIGH_IP[@]}"; do
		if [ "${CFG_NEIGH_IP[j]}" = "${CFG_ROUTE_VIA[i]}" ] &&
			[ "${CFG_NEIGH_PORT[j]}" = "${CFG_ROUTE_PORT[i]}" ]; then
			echo "${CFG_NEIGH_MAC[j]}"
			return 0
		fi
	done
	return 1
}

port_neigh_mac() { # PORT_INDEX -> MAC of the first neighbor on that port
	local j
	for j in "${!CFG_NEIGH_IP[@]}"; do
		if [ "${CFG_NEIGH_PORT[j]}" = "$1" ]; then
			echo "${CFG_NEIGH_MAC[j]}"
			return 0
		fi
	done
	return 1
}

# The one destination MAC per port that l3fwd-style forwarders support: every route out of
# a port must point to the same neighbor.
port_route_mac() { # PORT_INDEX -> MAC, fails when routes on that port disagree
	local i mac="" m
	for i in "${!CFG_ROUTE_PORT[@]}"; do
		[ "${CFG_ROUTE_PORT[i]}" = "$1" ] || continue
		m=$(route_neigh_mac "$i")
		if [ -n "$mac" ] && [ "$m" != "$mac" ]; then
			return 1
		fi
		mac=$m
	done
	[ -n "$mac" ] || mac=$(port_neigh_mac "$1") || mac=""
	echo "$mac"
}

# ---- DPDK ---------------------------------------------------------------------------------
is_pci() { [[ $1 =~ ^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$ ]]; }

# EAL args shared by the DPDK apps into DPDK_EAL: device list, file prefix, user's args.
# (Not in a subshell, so that a refusal exits the backend.)
dpdk_eal_common() {
	local p0=${CFG_PORT[0]} p1=${CFG_PORT[1]}
	if is_pci "$p0" && is_pci "$p1"; then
		DPDK_EAL=(-a "$p0" -a "$p1")
	elif ! is_pci "$p0" && ! is_pci "$p1"; then
		DPDK_EAL=(--no-pci --vdev "$p0" --vdev "$p1")
	else
		usage_die "$CFG_FILE: port0 and port1 must both be PCI addresses or both vdevs"
	fi
	DPDK_EAL+=(--file-prefix "$CFG_PREFIX")
	[ ${#CFG_EAL_ARGS[@]} -eq 0 ] || DPDK_EAL+=("${CFG_EAL_ARGS[@]}")
}

telemetry_sock() { echo "/var/run/dpdk/$CFG_PREFIX/dpdk_telemetry.v2"; }

telemetry() { # COMMAND -> JSON reply (without the greeting)
	local sock
	sock=$(telemetry_sock)
	[ -S "$sock" ] || die "no telemetry socket $sock (is the backend running?)"
	# The server greets with one JSON object, then answers the command.
	printf '%s' "$1" | socat -t 2 - "UNIX-CONNECT:$sock,type=5" | sed 's/^{"version"[^}]*}//'
}

# {"port0":{"rx":N,"tx":N,"rx_drop":N,"tx_drop":N},"port1":{...}} from ethdev telemetry
telemetry_port_stats() {
	local p s out="{"
	for p in 0 1; do
		s=$(telemetry "/ethdev/stats,$p")
		out+=$(jq -c --arg p "port$p" '."/ethdev/stats" | {($p): {rx: .ipackets, tx: .opackets,
			rx_drop: (.imissed + .ierrors + .rx_nombuf), tx_drop: .oerrors}}' <<<"$s" |
			sed 's/^{//; s/}$//')
		[ $p -eq 1 ] || out+=","
	done
	echo "$out}"
}

# ---- processes ----------------------------------------------------------------------------
# pid_alive PID: running, not a zombie (exited, its parent, often PID 1, yet to reap it)
pid_alive() {
	local st
	[ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}

read_pid() { # FILE -> pid or nothing
	if [ -f "$1" ]; then cat "$1"; fi
}

stop_pid() { # PID SIGNAL TIMEOUT_S: signal, wait, then SIGKILL
	local pid=$1 sig=$2 t=$3 i
	pid_alive "$pid" || return 0
	kill "-$sig" "$pid" 2>/dev/null || true
	for ((i = 0; i < t * 10; i++)); do
		pid_alive "$pid" || return 0
		sleep 0.1
	done
	log "pid $pid ignored SIG$sig for ${t}s; killing it"
	kill -KILL "$pid" 2>/dev/null || true
}

wait_for() { # TIMEOUT_S DESCRIPTION COMMAND...: poll until COMMAND succeeds
	local t=$1 what=$2 i
	shift 2
	for ((i = 0; i < t * 10; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.1
	done
	die "timed out after ${t}s waiting for $what"
}

write_atomic() { # FILE: stdin -> FILE via a temporary name
	cat >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}

dump_common() { # DIR VERSION PID
	local dir=$1
	mkdir -p "$dir"
	jq -n --arg b "$BACKEND" --arg v "$2" --arg pid "$3" --arg cfg "$CFG_FILE" \
		--arg at "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		'{backend: $b, version: $v, pid: ($pid | tonumber? // null), config: $cfg,
		  dumped_at: $at}' | write_atomic "$dir/backend.json"
	write_atomic "$dir/config" <"$CFG_FILE"
}

# ---- verb dispatch ------------------------------------------------------------------------
# A backend defines backend_start, backend_stop, backend_status (returns 0 when up),
# backend_stats, backend_clear, backend_dump DIR, and calls backend_main "$@".
backend_main() {
	local verb=${1:-}
	[ $# -ge 2 ] || usage_die "usage: $BACKEND start|stop|status|stats|clear|dump CONFIG [DIR]"
	cfg_load "$2"
	case "$verb" in
	start)
		if backend_status >/dev/null 2>&1; then die "already running (stop it first)"; fi
		mkdir -p "$CFG_RUNDIR"
		remove_stale_server_sockets
		# Whatever fails half-way (set -e), stop undoes what was started.
		trap 'if [ $? -ne 0 ]; then backend_stop >/dev/null 2>&1 || true; fi' EXIT
		backend_start
		trap - EXIT ;;
	stop) backend_stop ;;
	status)
		if backend_status; then exit 0; else echo "stopped"; exit 3; fi ;;
	stats) backend_status >/dev/null || die "not running"; backend_stats ;;
	clear) backend_status >/dev/null || die "not running"; backend_clear ;;
	dump)
		[ $# -eq 3 ] || usage_die "usage: $BACKEND dump CONFIG DIR"
		backend_status >/dev/null || die "not running"
		mkdir -p "$3"
		backend_stats | write_atomic "$3/stats.json"
		backend_dump "$3" ;;
	*) usage_die "unknown verb '$verb' (start|stop|status|stats|clear|dump)" ;;
	esac
}

# A virtio-user port in server mode binds its socket path and fails when the file is left
# over from a previous run (DPDK does not unlink it on exit). We are about to own it.
remove_stale_server_sockets() {
	local p path
	for p in 0 1; do
		[[ ${CFG_PORT[p]} == net_virtio_user* && ${CFG_PORT[p]} == *server=1* ]] || continue
		path=$(tr ',' '\n' <<<"${CFG_PORT[p]}" | sed -n 's/^path=//p')
		if [ -n "$path" ] && [ -S "$path" ]; then rm -f "$path"; fi
	done
}
