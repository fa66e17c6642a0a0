#!/usr/bin/env bash
# `fwdlab sweep` on the host topology: NDR (low max rate, short trials) at two frame sizes
# into one campaign; the fwdstat sweep table has one row per size with the line rate of
# the given link (10G: 14,880,952 pps at 64 B, 8,445,945 pps at 128 B) and a % column.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
stage "up" quiet lab up || exit 1
out=$tmp/sweep.txt
sweep2() {
	lab sweep --sizes 64,128 --link 10G --max-rate 2000 --trial-duration 1 \
		--final-duration 1 >"$out"
}
stage "sweep 64,128" sweep2 || true
sed 's/^/# /' "$out"
camp=$(find "$tmp/results" -mindepth 1 -maxdepth 1 -type d -name '*-host-sweep-*')
metas=$(find "$camp" -mindepth 2 -maxdepth 2 -name meta.json | sort)
check "2 complete runs in one sweep campaign" eval '
	[ "$(xargs jq -r .status <<<"$metas" | grep -c "^complete$")" -eq 2 ]'
check "frame sizes 64 and 128 in meta.json" eval '
	[ "$(xargs jq -r .frame_size <<<"$metas" | sort -n | tr "\n" " ")" = "64 128 " ]'
rows=$(grep -E '^\| *(64|128) *\|' "$out" || true)
check "one row per size" eval '[ "$(wc -l <<<"$rows")" -eq 2 ]'
check "line-rate column: 14,880,952 pps at 64 B on 10G" eval 'grep -E "^\| *64 *\|" <<<"$rows" | grep -Eq "14[,.]?88"'
check "line-rate column: 8,445,945 pps at 128 B on 10G" eval 'grep -E "^\| *128 *\|" <<<"$rows" | grep -Eq "8[,.]?44"'
check "header has a line-rate and a % column" eval 'grep -i "line" "$out" | grep -q "%"'
# --repeat N: the sweep N times over, one run per repeat and size; the table is one row a
# size (the median of the repeats)
out2=$tmp/sweep-repeat.txt
sweep_rep() {
	lab sweep --sizes 64 --repeat 2 --link 10G --max-rate 2000 --trial-duration 1 \
		--final-duration 1 --label rep >"$out2"
}
stage "sweep 64 --repeat 2" sweep_rep || true
sed 's/^/# /' "$out2"
camp2=$(find "$tmp/results" -mindepth 1 -maxdepth 1 -type d -name '*-host-sweep-rep')
check "sweep --repeat 2: runs r1-A-udp64 and r2-A-udp64, complete, repeat 1 and 2 in meta.json" eval '
	[ "$(jq -r ".status, .repeat" "$camp2/r1-A-udp64/meta.json" "$camp2/r2-A-udp64/meta.json" |
		tr "\n" " ")" = "complete 1 complete 2 " ]'
check "sweep --repeat 2: one table row for 64 B" eval '[ "$(grep -cE "^\| *64 *\|" "$out2")" -eq 1 ]'
stage "down" quiet lab down || true
exit "$TAP_FAILED"
