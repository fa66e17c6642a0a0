#!/usr/bin/env bash
# Runs the libFuzzer target of the show runtime reader for a few seconds from the
# committed seed corpus; any crash, leak or sanitizer report fails the test.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fuzz=${FWDSTAT_FUZZ:-$here/../../../build/lab/fwdstat/tests/runtime_fuzz}
corpus=${FWDSTAT_CORPUS:-$here/corpus}
seconds=${FWDSTAT_FUZZ_SECONDS:-10}
[ -x "$fuzz" ] || { echo "fuzz target $fuzz not built"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$corpus"/* "$work/"
cd "$work"
"$fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=1024 \
	-print_final_stats=1 "$work" 2>&1 | tail -n 25
