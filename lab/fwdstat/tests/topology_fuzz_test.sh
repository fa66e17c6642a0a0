#!/usr/bin/env bash
# Runs the libFuzzer target of the topology reader (ASan + UBSan) for a bounded time
# (FWDSTAT_FUZZ_SECONDS, default 30): first every committed regression input once, then
# fuzzing from a seed corpus of the real topologies and every good and bad test case.
# Any crash, leak, sanitizer report or broken invariant fails the test; the input that
# did it is left in build/lab/fwdstat/topology-fuzz-crashes/ to be kept as a regression.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
fuzz=${FWDSTAT_TOPO_FUZZ:-$top/build/lab/fwdstat/tests/topology_fuzz}
seconds=${FWDSTAT_FUZZ_SECONDS:-30}
crashes=$top/build/lab/fwdstat/topology-fuzz-crashes
[ -x "$fuzz" ] || { echo "fuzz target $fuzz not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=${FWDSTAT_FUZZ_WORK:-$tmp/corpus}
mkdir -p "$work" "$crashes"
shopt -s nullglob
regressions=("$here"/topology/regressions/*)
if [ ${#regressions[@]} -gt 0 ]; then
	echo "# ${#regressions[@]} regression inputs"
	"$fuzz" -rss_limit_mb=1024 "${regressions[@]}" 2>&1 | tail -n 3
fi
i=0
for f in "$top"/topologies/*/topology.conf "$here"/topology/good/*.conf \
	"$here"/topology/bad/*.conf "${regressions[@]}"; do
	i=$((i + 1))
	cp "$f" "$tmp/seed-$i"
done
mkdir -p "$tmp/seeds"
mv "$tmp"/seed-* "$tmp/seeds/"
echo "# $i seed inputs, $seconds s"
cd "$tmp"
"$fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=1024 \
	-dict="$here/topology_fuzz.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
	"$work" "$tmp/seeds" >"$tmp/log" 2>&1 || { tail -n 40 "$tmp/log"; exit 1; }
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|#[0-9]+.*DONE)' \
	"$tmp/log" || tail -n 5 "$tmp/log"
