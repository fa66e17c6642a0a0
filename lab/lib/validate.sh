# shellcheck shell=bash
# fwdlab validate: the checks a topology file declares, as netlab's `validate:` does, in the
# file's own syntax (fwdstat's topology reader takes any validate.N key):
#
#   validate.1 = version               the DUT answers `show version`, naming its live build
#   validate.2 = version TEXT          ... and the answer contains TEXT
#   validate.3 = trial RATE [SECONDS]  a trial at RATE (tgen's --rate: 1000, 5kpps, 1%)
#                                      for SECONDS (default 1): tx > 0 and rx == tx
#   validate.4 = port PORT up|down     the DUT's PORT has that link state (show interfaces)
#
# Exit status: 0 every check holds, 1 one failed, 2 one could not run (the lab is down, or a
# check line is bad: refused with FILE:LINE before anything runs). `up` runs them and prints
# them; a failed check is a warning there, the lab stays up.

# validate_entries FILE: "LINE<TAB>KEY<TAB>VALUE" per validate.N line, in file order (the
# value as the topology reader reads it: up to a #, trimmed).
validate_entries() {
	awk '
		/^[[:space:]]*validate\.[0-9]+[[:space:]]*=/ {
			line = $0
			sub(/#.*/, "", line)
			key = line; sub(/[[:space:]]*=.*/, "", key); sub(/^[[:space:]]*/, "", key)
			val = line; sub(/^[^=]*=/, "", val)
			gsub(/^[[:space:]]+|[[:space:]]+$/, "", val)
			printf "%d\t%s\t%s\n", NR, key, val
		}' "$1"
}

# validate_dut_ports: the DUT's data ports (host: vfwd's two; b2b: its ports on links).
validate_dut_ports() {
	if [ "$TOPOLOGY" = host ]; then
		echo port0 port1
		return
	fi
	node_ports "$TOPO_CONF" "$(node_by_role dut)" | awk '{ print $2 }' | tr '\n' ' '
}

# validate_parse_one VALUE: empty when the check is well formed, else what is wrong.
validate_parse_one() {
	local kind rest a b
	read -r kind rest <<<"$1"
	case $kind in
	version) ;;
	trial)
		read -r a b rest <<<"$rest"
		if ! [[ ${a:-} =~ ^[0-9]+(\.[0-9]+)?(pps|kpps|mpps|%)?$ ]]; then
			echo "trial ${a:-}: expected a rate (1000, 5kpps, 1%)"
		elif [ -n "${b:-}" ] && ! [[ $b =~ ^[1-9][0-9]?$ ]]; then
			echo "trial $a $b: expected seconds from 1 to 99"
		elif [ -n "${rest:-}" ]; then
			echo "trial: unexpected '$rest' (trial RATE [SECONDS])"
		fi
		;;
	port)
		read -r a b rest <<<"$rest"
		if [ -z "${a:-}" ] || [[ " $(validate_dut_ports) " != *" $a "* ]]; then
			echo "port ${a:-}: not a port of the DUT ($(validate_dut_ports | xargs))"
		elif [ "${b:-}" != up ] && [ "${b:-}" != down ]; then
			echo "port $a ${b:-}: expected up or down"
		elif [ -n "${rest:-}" ]; then
			echo "port: unexpected '$rest' (port PORT up|down)"
		fi
		;;
	*) echo "unknown check '${kind:-}' (version, trial or port)" ;;
	esac
}

# validate_check_file FILE: prints FILE:LINE: message per bad validate line; fails if any.
validate_check_file() {
	local file=$1 line key value msg bad=0
	while IFS=$'\t' read -r line key value; do
		msg=$(validate_parse_one "$value")
		if [ -n "$msg" ]; then
			printf '%s:%s: %s = %s: %s\n' "$file" "$line" "$key" "$value" "$msg"
			bad=1
		fi
	done < <(validate_entries "$file")
	return "$bad"
}

# validate_lab_up: the DUT's forwarder answers (nothing else tells a check it may run).
validate_lab_up() {
	if peer_is_dut; then
		peer_running
	else
		dut_answers
	fi
}

# validate_run_one VALUE: runs one check; prints what it saw; returns 0 holds, 1 fails,
# 2 cannot run.
validate_run_one() {
	local kind rest a b out want
	read -r kind rest <<<"$1"
	case $kind in
	version)
		if peer_is_dut; then
			echo "the DUT is peer backend $(peer_current), not vfwd"
			return 2
		fi
		out=$(dut_ctl show version 2>&1) || { echo "show version failed: $out"; return 1; }
		if [ -n "$rest" ]; then
			grep -qF -- "$rest" <<<"$out" || { echo "'$(head -n1 <<<"$out")' does not contain '$rest'"; return 1; }
		else
			local info
			info=$(mktemp)
			dut_build_info >"$info" 2>/dev/null || true
			want=$(jq -r '"\(.version) \(.label) \(.git_rev)"' "$info" 2>/dev/null) || want=""
			if [ -z "$want" ] || ! version_names_build "$out" "$info"; then
				rm -f "$info"
				echo "'$(head -n1 <<<"$out")' does not name the live build (${want:-no build-info.json})"
				return 1
			fi
			rm -f "$info"
			out="$(head -n1 <<<"$out"); names the live build ($want)"
		fi
		head -n1 <<<"$out"
		;;
	trial)
		read -r a b <<<"$rest"
		local dir rc=0 tx rx
		dir=$(mktemp -d "$STATE/validate.XXXXXX")
		mkdir -p "$dir/trials"
		gen_prepare
		tgen_invoke "$dir" run --rate "$a" --duration "${b:-1}" >"$dir/tgen.log" 2>&1 || rc=$?
		if [ ! -s "$dir/tgen.json" ]; then
			echo "the trial did not run (tgen exit $rc): $(grep -v '^VHOST' "$dir/tgen.log" | tail -n 1)"
			rm -rf "$dir"
			return 2
		fi
		tx=$(jq -r '.trial.tx_packets // 0' "$dir/tgen.json")
		rx=$(jq -r '.trial.rx_packets // 0' "$dir/tgen.json")
		rm -rf "$dir"
		echo "tx $tx, rx $rx"
		[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ] || return 1
		;;
	port)
		read -r a b <<<"$rest"
		out=$(dut_ctl show interfaces 2>&1) || { echo "show interfaces failed: $out"; return 1; }
		local st
		st=$(awk -v p="$a" '$1 == p && $2 ~ /^[0-9]+$/ { print $3; exit }' <<<"$out")
		[ -n "$st" ] || { echo "show interfaces has no $a"; return 1; }
		echo "$a is $st"
		[ "$st" = "$b" ] || return 1
		;;
	esac
}

# validate_run_all: runs every check; one line each (ok, FAIL or SKIP), then the tally;
# VALIDATE_RC is the exit status `validate` gives.
validate_run_all() {
	local errs line key value msg rc n=0 nok=0 nfail=0 nskip=0 up=1
	errs=$(validate_check_file "$TOPO_CONF") || {
		printf '%s\n' "$errs" >&2
		printf 'fwdlab: error: bad validate line(s) in %s (see above)\n' "$TOPO_CONF" >&2
		exit 2
	}
	topo_conf_check
	validate_lab_up || up=0
	while IFS=$'\t' read -r line key value; do
		n=$((n + 1))
		if [ "$up" = 0 ]; then
			msg="cannot run: the $TOPOLOGY lab is not up (fwdlab up)" rc=2
		else
			rc=0
			msg=$(validate_run_one "$value") || rc=$?
		fi
		case $rc in
		0) printf 'ok   %s = %s: %s\n' "$key" "$value" "$msg"; nok=$((nok + 1)) ;;
		1) printf 'FAIL %s = %s: %s (%s:%s)\n' "$key" "$value" "$msg" "$TOPO_CONF" "$line"; nfail=$((nfail + 1)) ;;
		*) printf 'SKIP %s = %s: %s\n' "$key" "$value" "$msg"; nskip=$((nskip + 1)) ;;
		esac
	done < <(validate_entries "$TOPO_CONF")
	echo "validate: $n checks: $nok hold, $nfail failed, $nskip could not run"
	VALIDATE_RC=0
	if [ "$nfail" -gt 0 ]; then VALIDATE_RC=1; fi
	if [ "$nskip" -gt 0 ]; then VALIDATE_RC=2; fi
}

validate() {
	[ $# -eq 0 ] || die "validate takes no arguments (the checks are the topology file's validate.N lines)"
	validate_run_all
	exit "$VALIDATE_RC"
}

# validate_after_up: up's part: the checks, printed; a failure is a warning.
validate_after_up() {
	[ -n "$(validate_entries "$TOPO_CONF")" ] || return 0
	validate_run_all
	[ "$VALIDATE_RC" -eq 0 ] ||
		warn "validate: not every check holds (exit $VALIDATE_RC); the lab stays up (fwdlab validate)"
}
