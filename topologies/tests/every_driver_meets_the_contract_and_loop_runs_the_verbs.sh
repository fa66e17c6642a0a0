#!/usr/bin/env bash
# Every topology driver (host, b2b, loop) defines each function topologies/CONTRACT.md says
# a driver must provide, and the loop topology, written from that page alone, runs fwdlab's
# up, run, ndr, dump and down through the lab: its counters are the wire's (the null
# generator carrying up to loop.cap_pps = 50000 pps), the NDR is that capacity; the old
# option spellings (--size, --sizes, --profiles udp:N) are aliases of the new ones.
# shellcheck disable=SC2016,SC2031,SC2001 # checks are eval'd; lab/lib/common.sh is sourced in a subshell
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lab/tests/lib/tap.sh
. "$top/lab/tests/lib/tap.sh"

# the required functions: the first column of CONTRACT.md's "must provide" table
mapfile -t required < <(awk '/^## What a driver must provide/ { on = 1; next } /^## / { on = 0 }
	on && /^\| `/' "$top/topologies/CONTRACT.md" | cut -d'|' -f2 | grep -oE '`[a-z_]+' | tr -d '`')
check "contract_lists_the_required_functions (${#required[@]})" test "${#required[@]}" -ge 15

# defined NAME [DIR]: the functions a driver defines once sourced after the defaults (no VM, no
# process is started by sourcing it), minus those the defaults define.
defined() {
	(
		export TOP=$top LAB_DIR=$top/lab TOPOLOGY=$1 STATE=$tmp/state-$1
		export TOPO_DIR=${2:-$top/topologies/$1}
		export TOPO_CONF=$TOPO_DIR/topology.conf
		# shellcheck source=lab/lib/common.sh
		. "$top/lab/lib/common.sh"
		# shellcheck source=lab/lib/host.sh
		. "$top/lab/lib/host.sh"
		# shellcheck source=topologies/defaults.sh
		. "$top/topologies/defaults.sh"
		compgen -A function | sort >"$tmp/defaults-$1"
		# shellcheck source=/dev/null
		. "$TOPO_DIR/driver.sh"
		compgen -A function | sort
	)
}
# lacks NAME [DIR]: the required functions the driver does not define
lacks() {
	local have f missing=""
	have=$(defined "$@")
	for f in "${required[@]}"; do grep -qx -- "$f" <<<"$have" || missing+=" $f"; done
	echo "$missing"
}
for d in host b2b loop; do
	missing=$(lacks "$d")
	[ -z "$missing" ] || echo "# $d lacks:$missing"
	check "${d}_driver_provides_every_required_function" test -z "$missing"
done
# optional functions have defaults (topologies/defaults.sh): nothing asks whether one exists
probe="declare"" -F"
probes=$(grep -rn --exclude-dir=tests -- "$probe" "$top/lab/fwdlab" "$top/lab/lib" "$top/lab/verbs" \
	"$top/lab/generators" "$top/topologies") || probes=""
[ -z "$probes" ] || printf '# %s\n' "$probes"
check "no_declare_-F_probe_in_lab_or_topologies" test -z "$probes"
mkdir -p "$tmp/half"
sed '/^topo_swap()/d; /^tgen_invoke()/,/^}/d' "$top/topologies/loop/driver.sh" >"$tmp/half/driver.sh"
check "the_checker_names_what_a_driver_lacks" eval '[ "$(lacks half "$tmp/half")" = " topo_swap tgen_invoke" ]'

# loop through the lab
export FWDLAB_STATE=$tmp/loop FWDLAB_RESULTS=$tmp/results FWDLAB_NO_INSTALL=1
lab() { timeout 300 "$top/lab/fwdlab" --topology loop "$@"; }
run_in() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" | head -n1; }
rc=0
out=$(lab run --rate 1000 --duration 1 2>&1) || rc=$?
check "run_with_the_loop_down_is_refused_and_says_so" eval '[ "$rc" -ne 0 ] && grep -q "loop lab is not up" <<<"$out"'
out=$(lab up 2>&1) || { echo "$out" | sed 's/^/# /'; }
check "up_runs_the_validate_trial_through_the_wire" grep -q "ok   validate.1 = trial 1000 1: tx 1000, rx 1000" <<<"$out"
lab run --rate 2000 --duration 1 --run wire-run >/dev/null 2>&1 || true
d=$(run_in wire-run)
check "run_counts_2000_packets_in_and_out_of_the_wire" eval '
	jq -e ".trial.tx_packets == 2000 and .trial.rx_packets == 2000" "$d/tgen.json" >/dev/null &&
	jq -e ".in_packets == 2000 and .out_packets == 2000 and .dropped_packets == 0" "$d/stats.json" >/dev/null &&
	jq -e ".status == \"complete\"" "$d/meta.json" >/dev/null'
lab ndr --frame-size 64 --max-rate 200000 --trial-duration 1 --final-duration 1 --run wire-ndr >/dev/null 2>&1 || true
d=$(run_in wire-ndr)
check "ndr_finds_the_wire_capacity_within_the_search_width" eval '
	jq -e ".ndr.rate_pps <= 50000 and .ndr.rate_pps >= 50000 * 0.995 and .ndr.limited_by == \"dut\"" "$d/tgen.json" >/dev/null'
check "ndr_stats_are_the_sum_of_its_trials" eval '
	jq -e --slurpfile t <(cat "$d/generator-trials.jsonl") "(.in_packets == (\$t | map(.tx_packets) | add)) and .dropped_packets > 0" "$d/stats.json" >/dev/null'
lab dump --run wire-dump >/dev/null 2>&1 || true
d=$(run_in wire-dump)
check "dump_writes_the_wire_backend_and_a_complete_run" eval '
	jq -e ".backend == \"wire\" and .cap_pps == 50000" "$d/backend.json" >/dev/null &&
	jq -e ".status == \"complete\"" "$d/meta.json" >/dev/null'
# one option parser: the old spellings are aliases (lab/lib/options.sh)
lab run --size 128 --rate 1000 --duration 1 --run wire-size >/dev/null 2>&1 || true
check "old_spelling_--size_is_--frame-size" eval 'jq -e ".frame_size == 128" "$(run_in wire-size)/meta.json" >/dev/null'
lab sweep --sizes 64,1518 --max-rate 200000 --trial-duration 1 --final-duration 1 >/dev/null 2>&1 || true
lab sweep --profiles udp:64,udp:1518 --max-rate 200000 --trial-duration 1 --final-duration 1 \
	--label prof >/dev/null 2>&1 || true
for c in "$tmp"/results/*-loop-sweep-default "$tmp"/results/*-loop-sweep-prof; do
	check "sweep_$(basename "$c" | sed 's/.*-sweep-//')_measures_64_and_1518_at_the_wire_capacity" eval '
		jq -e ".ndr.rate_pps >= 50000 * 0.995 and .ndr.rate_pps <= 50000" "$c/A-udp64/tgen.json" "$c/A-udp1518/tgen.json" >/dev/null &&
		jq -e ".frame_size == 1518" "$c/A-udp1518/meta.json" >/dev/null'
done
lab down >/dev/null 2>&1 || true
check "down_leaves_no_lab_folder" test ! -e "$tmp/loop"
echo "1..$n"
