#!/usr/bin/env bash
# Prints the totals of a test-results file and exits non-zero if anything failed.
set -euo pipefail
results=${1:?usage: summary.sh RESULTS.tsv}
[ -s "$results" ] || { echo "summary: no test results in $results" >&2; echo "0 passed, 1 failed"; exit 1; }
pass=$(awk -F'\t' '$3=="PASS"' "$results" | wc -l)
fail=$(awk -F'\t' '$3=="FAIL"' "$results" | wc -l)
skip=$(awk -F'\t' '$3=="SKIP"' "$results" | wc -l)
if [ "$fail" -gt 0 ]; then
	echo "Failed:"
	awk -F'\t' '$3=="FAIL" { printf "  %s/%s\n", $1, $2 }' "$results"
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
