#!/usr/bin/env bash
# In a fresh clone (no build/, .lab/, results/), the lab's verbs build what they need on
# the host topology, as a new user types them: `runtime` builds fwdstat, `up` builds vfwd
# and tgen, then `compare`, `sweep` and `report` run to tables and plots, and `down`
# leaves the clone as it found it (no .lab/ content, no process). Each verb's output is
# checked, not just its exit status.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$src/tests/tap.sh"
tmp=$(mktemp -d)
top=$tmp/fwdlab
cleanup() {
	"$top/lab/fwdlab" --topology host down >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
git clone -q "$src" "$top"
echo "# fresh clone of $src at $(git -C "$top" rev-parse --short HEAD)"
unset FWDLAB_STATE FWDLAB_RESULTS FWDSTAT FWDLAB_VFWD_BUILD FWDLAB_TGEN TOPOLOGY
# The packages are the job of `make test`'s own install step; the verbs must not need more.
export FWDLAB_NO_INSTALL=1
lab() { "$top/lab/fwdlab" --topology host "$@"; }
check "the clone has no build/, .lab/ or results/" \
	eval '! ls -d "$top/build" "$top/.lab" "$top/results" 2>/dev/null'

out=$tmp/runtime.txt
stage "fwdlab runtime on a dump, fwdstat not built" \
	eval 'lab runtime "$top/lab/fwdstat/tests/data/vfwd_runtime.json" --node ip4-lookup >"$out" 2>&1' ||
	sed 's/^/#   /' "$out"
check "runtime built fwdstat and printed the node's median clocks/packet" \
	eval '[ -x "$top/build/lab/bin/fwdstat" ] && grep -Eq "^ip4-lookup: median clocks/packet over 1 file: [0-9.]+" "$out"'

stage "fwdlab up, vfwd and tgen not built" eval 'lab up >"$tmp/up.txt" 2>&1' || {
	tail -n 20 "$tmp/up.txt" | sed 's/^/#   /'
	exit 1
}
check "up built vfwd and tgen in the clone" \
	eval '[ -x "$top/build/vfwd/default/bin/vfwd" ] && [ -x "$top/build/tgen/bin/tgen" ]'

small=(--max-rate 2000 --trial-duration 1 --final-duration 1)
b=$top/build/vfwd/default
stage "fwdlab compare, one run per build" \
	eval 'lab compare "$b" "$b" --runs 1 --profiles udp:64 "${small[@]}" >"$tmp/compare.txt" 2>&1' ||
	tail -n 20 "$tmp/compare.txt" | sed 's/^/#   /'
check "compare printed its table with an NDR row" grep -q '| udp/64B | NDR (pps)' "$tmp/compare.txt"

stage "fwdlab sweep, two sizes" \
	eval 'lab sweep --sizes 64,1518 "${small[@]}" >"$tmp/sweep.txt" 2>&1' ||
	tail -n 20 "$tmp/sweep.txt" | sed 's/^/#   /'
check "sweep printed a row per size" \
	eval 'grep -qE "^\| *64 *\|" "$tmp/sweep.txt" && grep -qE "^\| *1518 *\|" "$tmp/sweep.txt"'

camps=$(find "$top/results" -mindepth 1 -maxdepth 1 -type d | sort)
check "results/ of the clone holds the two campaigns" eval '[ "$(wc -l <<<"$camps")" -eq 2 ]'
# shellcheck disable=SC2086 # one folder a word
stage "fwdlab report on both campaigns" \
	eval 'lab report $camps --out "$tmp/report" >"$tmp/report.txt" 2>&1' ||
	tail -n 20 "$tmp/report.txt" | sed 's/^/#   /'
check "report wrote Markdown, an HTML page and plots" eval '
	[ -n "$(find "$tmp/report" -name "*.md")" ] && [ -n "$(find "$tmp/report" -name "*.html")" ] &&
	[ -n "$(find "$tmp/report" -name "*.svg" -o -name "*.png" | head -n1)" ]'

stage "fwdlab down" quiet lab down || true
check "down leaves no lab file in the clone and no process of it" eval '
	[ -z "$(find "$top/.lab" -type f 2>/dev/null)" ] && ! pgrep -f "$top/.lab" >/dev/null'
exit "$TAP_FAILED"
