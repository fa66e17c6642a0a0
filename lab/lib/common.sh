# shellcheck shell=bash
# Helpers shared by fwdlab and the topology drivers: messages, atomic files, JSON, state.

say() { printf 'fwdlab: %s\n' "$*" >&2; }
warn() { printf 'fwdlab: WARNING: %s\n' "$*" >&2; }
# die MESSAGE: the verb stops here. Inside a command substitution, a pipeline or a
# background job (a subshell) `exit` would end only that subshell and the verb would go on
# with an empty value, so die tells fwdlab's own process to stop too (FWDLAB_MAIN_PID, set
# by lab/fwdlab; its USR1 trap exits 1 once the current command returns).
die() {
	printf 'fwdlab: error: %s\n' "$*" >&2
	if [ -n "${FWDLAB_MAIN_PID:-}" ] && [ "$BASHPID" != "$FWDLAB_MAIN_PID" ]; then
		kill -USR1 "$FWDLAB_MAIN_PID" 2>/dev/null || true
	fi
	exit 1
}

# on_err STATUS LINE COMMAND: the ERR trap of lab/fwdlab: a command that failed where
# nothing checked it ends the verb (set -e) with what failed, and where (file:line).
# Only fwdlab's own process speaks: a subshell's failure shows up there as the failure of
# the command that ran it.
on_err() {
	[ "$BASHPID" = "${FWDLAB_MAIN_PID:-}" ] || return 0
	local src=${BASH_SOURCE[1]:-?} fn=${FUNCNAME[1]:-main}
	src=${src#"${TOP:-}/"}
	printf "fwdlab: error: %s: '%s' exited with status %s (%s:%s, in %s)\n" \
		"${FWDLAB_VERB:-fwdlab}" "$3" "$1" "$src" "$2" "$fn" >&2
}

utc_now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
utc_stamp() { date -u +%Y%m%dT%H%M%SZ; }

# atomic_write FILE: copies stdin to FILE through a temporary name in the same folder.
atomic_write() {
	local f=$1 tmp
	tmp=$(mktemp "$f.tmp.XXXXXX")
	if ! cat >"$tmp"; then
		rm -f "$tmp"
		return 1
	fi
	chmod 0644 "$tmp"
	mv -f "$tmp" "$f"
}

# atomic_cmd FILE CMD...: runs CMD with stdout to FILE, renamed into place only on success.
atomic_cmd() {
	local f=$1 tmp rc=0
	shift
	tmp=$(mktemp "$f.tmp.XXXXXX")
	"$@" >"$tmp" || rc=$?
	if [ "$rc" -ne 0 ]; then
		rm -f "$tmp"
		return "$rc"
	fi
	chmod 0644 "$tmp"
	mv -f "$tmp" "$f"
}

# json_or_null FILE: the file's JSON, or null when it is missing or not JSON.
json_or_null() {
	if [ -s "$1" ] && jq -e . "$1" >/dev/null 2>&1; then jq -c . "$1"; else echo null; fi
}

# wait_until SECONDS WHAT CMD...: polls CMD until it succeeds, with a progress line on a tty
# (every 15 s otherwise). The first polls come 0.1 s apart, doubling to once a second: a local
# process (vfwd's socket, its CLI) is usually ready well within a second, a guest is not.
wait_until() {
	local limit=$1 what=$2 start now said=-1 pause=0.1
	shift 2
	start=$(date +%s)
	while ! "$@" >/dev/null 2>&1; do
		now=$(date +%s)
		if [ $((now - start)) -ge "$limit" ]; then
			[ -t 2 ] && printf '\n' >&2
			return 1
		fi
		if [ -t 2 ]; then
			printf '\rfwdlab: waiting for %s ... %ds ' "$what" $((now - start)) >&2
		elif [ $(((now - start) % 15)) -eq 0 ] && [ "$said" != $((now - start)) ]; then
			said=$((now - start))
			printf 'fwdlab: waiting for %s ... %ds\n' "$what" "$said" >&2
		fi
		sleep "$pause"
		case $pause in 0.1) pause=0.2 ;; 0.2) pause=0.4 ;; 0.4) pause=0.8 ;; *) pause=1 ;; esac
	done
	[ -t 2 ] && printf '\rfwdlab: %s ready after %ds          \n' "$what" \
		$(($(date +%s) - start)) >&2
	return 0
}

# pid_running PID: the process exists and has not exited. An exited process whose parent has
# not reaped it yet (a zombie) has ended: a daemon of ours is reparented to PID 1, which on a
# machine without systemd (a container's or a VM sandbox's init) may reap it seconds later.
pid_running() {
	local st
	kill -0 "$1" 2>/dev/null || return 1
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}

# pid_alive PIDFILE: true when the pid in PIDFILE runs.
pid_alive() {
	local pid
	[ -s "$1" ] || return 1
	pid=$(cat "$1")
	pid_running "$pid"
}

# pid_stop PIDFILE [SECONDS]: TERM, then KILL after SECONDS, the pid in PIDFILE; removes it.
pid_stop() {
	local f=$1 limit=${2:-10} pid i
	if [ -s "$f" ]; then
		pid=$(cat "$f")
		if pid_running "$pid"; then
			kill -TERM "$pid" 2>/dev/null || true
			for ((i = 0; i < limit * 10; i++)); do
				pid_running "$pid" || break
				sleep 0.1
			done
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$f"
}

# Topology files (KEY = VALUE) are read by fwdtopo, the lab's topology reader
# (lab/fwdstat/src/topology*.c, topo_cmd.c): the one definition of a valid topology and of
# its values. fwdstat, the statistics tool, is built beside it (`fwdstat topology` is the
# reader's older name).

# lab_tool NAME ENV: the tree's build/lab/bin/NAME (or the one $ENV names), built (make -C
# lab/fwdstat makes both tools) when it is missing or older than its sources.
lab_tool() {
	local b=${!2:-$TOP/build/lab/bin/$1}
	# Missing or older than its sources (a pull that taught the reader new keys): built.
	if [ -z "${!2:-}" ] && { [ ! -x "$b" ] ||
		! make -q -s -C "$TOP/lab/fwdstat" TOP="$TOP" >/dev/null 2>&1; }; then
		say "building fwdstat and fwdtopo, the topology reader (make -C lab/fwdstat)"
		make -s -C "$TOP/lab/fwdstat" TOP="$TOP" >&2 ||
			die "make -C lab/fwdstat failed (make deps installs the compiler it needs)"
	fi
	[ -x "$b" ] || die "$1 is missing ($b)"
	printf '%s' "$b"
}
# topo_tool: the topology reader ($FWDTOPO, else the tree's fwdtopo). fwdlab resolves it once
# (TOPO_TOOL) in its own process, where a failed build stops the verb.
topo_tool() {
	if [ -n "${TOPO_TOOL:-}" ] && [ -x "$TOPO_TOOL" ]; then
		printf '%s' "$TOPO_TOOL"
		return 0
	fi
	lab_tool fwdtopo FWDTOPO
}
# fwdstat_bin: the statistics tool ($FWDSTAT, else the tree's fwdstat).
fwdstat_bin() { lab_tool fwdstat FWDSTAT; }

# topo_read FILE: every key of a topology file at once (one `fwdtopo dump --json`),
# kept in TOPO_KV for kv_get. fwdlab reads its topology once per verb (and again when a verb
# points TOPO_CONF at another file, or rewrites it: suite.sh); a file the dump refuses leaves
# nothing kept, and kv_get asks fwdtopo key by key (which names the file and line).
declare -gA TOPO_KV=()
TOPO_KV_FILE=""
topo_read() {
	local tool k v json
	TOPO_KV=() TOPO_KV_FILE=""
	[ -r "$1" ] || return 0
	tool=$(topo_tool) || return 1
	json=$("$tool" dump --json "$1" 2>/dev/null) || return 0
	while IFS=$'\t' read -r k v; do
		TOPO_KV[$k]=$v
	done < <(jq -r '.settings | to_entries[] | "\(.key)\t\(.value)"' <<<"$json")
	TOPO_KV_FILE=$1
}

# kv_get FILE KEY [DEFAULT]: the value of KEY in a topology file, else DEFAULT (or nothing).
kv_get() {
	local tool v
	if [ -n "$TOPO_KV_FILE" ] && [ "$1" = "$TOPO_KV_FILE" ]; then
		if [ -n "${TOPO_KV[$2]+set}" ]; then v=${TOPO_KV[$2]}; else v=${3-}; fi
		printf '%s' "$v"
		return 0
	fi
	tool=$(topo_tool) || return 1
	v=$("$tool" get "$@") || v=""
	printf '%s' "$v"
}

# kv_check FILE: prints one FILE:LINE: message per error and fails unless the topology file
# is valid for $TOPOLOGY (host, loop; anything else is a VM topology). Which keys exist, and what
# their values may be, is fwdtopo's (`fwdtopo check`).
kv_check() {
	local tool kind=vm
	tool=$(topo_tool) || return 1
	case "${TOPOLOGY:-}" in host | loop) kind=$TOPOLOGY ;; esac
	"$tool" check --kind "$kind" "$1" 2>&1
}

# kv_validate FILE: dies unless the topology file is there and valid (errors on stderr).
kv_validate() {
	[ -r "$1" ] || die "topology file $1 is missing"
	kv_check "$1" >&2 || die "bad topology file $1 (see above)"
}
