# shellcheck shell=bash
# Helpers shared by fwdlab and the topology drivers: messages, atomic files, JSON, state.

say() { printf 'fwdlab: %s\n' "$*" >&2; }
warn() { printf 'fwdlab: WARNING: %s\n' "$*" >&2; }
die() { printf 'fwdlab: error: %s\n' "$*" >&2; exit 1; }

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

# wait_until SECONDS WHAT CMD...: polls CMD once a second, with a progress line on a tty.
wait_until() {
	local limit=$1 what=$2 start now
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
		elif [ $(((now - start) % 15)) -eq 0 ]; then
			printf 'fwdlab: waiting for %s ... %ds\n' "$what" $((now - start)) >&2
		fi
		sleep 1
	done
	[ -t 2 ] && printf '\rfwdlab: %s ready after %ds          \n' "$what" \
		$(($(date +%s) - start)) >&2
	return 0
}

# pid_alive PIDFILE: true when the pid in PIDFILE runs.
pid_alive() {
	local pid
	[ -s "$1" ] || return 1
	pid=$(cat "$1")
	kill -0 "$pid" 2>/dev/null
}

# pid_stop PIDFILE [SECONDS]: TERM, then KILL after SECONDS, the pid in PIDFILE; removes it.
pid_stop() {
	local f=$1 limit=${2:-10} pid i
	if [ -s "$f" ]; then
		pid=$(cat "$f")
		if kill -0 "$pid" 2>/dev/null; then
			kill -TERM "$pid" 2>/dev/null || true
			for ((i = 0; i < limit * 10; i++)); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$f"
}

# kv_get FILE KEY [DEFAULT]: value of "KEY = VALUE" (or KEY=VALUE) in a key=value file.
kv_get() {
	local v
	v=$(awk -v k="$2" '
		{ sub(/#.*/, "") }
		match($0, /^[[:space:]]*[A-Za-z0-9_.-]+[[:space:]]*=/) {
			key = $0; sub(/[[:space:]]*=.*/, "", key); gsub(/[[:space:]]/, "", key)
			if (key == k) { val = $0; sub(/^[^=]*=[[:space:]]*/, "", val);
				sub(/[[:space:]]+$/, "", val); print val; found = 1 }
		}
		END { exit !found }' "$1") || v=${3-}
	printf '%s' "$v"
}

# kv_check FILE KEYS...: every non-blank line is KEY = VALUE with a known key, else FILE:LINE.
kv_check() {
	local f=$1
	shift
	awk -v keys="$*" -v f="$f" '
		BEGIN { n = split(keys, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
		{ line = $0; sub(/#.*/, "", line) }
		line ~ /^[[:space:]]*$/ { next }
		line !~ /^[[:space:]]*[A-Za-z0-9_.-]+[[:space:]]*=/ {
			printf "%s:%d: expected KEY = VALUE\n", f, NR; bad = 1; next }
		{ key = line; sub(/[[:space:]]*=.*/, "", key); gsub(/[[:space:]]/, "", key)
		  if (!(key in ok)) { printf "%s:%d: unknown key %s\n", f, NR, key; bad = 1 } }
		END { exit bad }' "$f"
}
