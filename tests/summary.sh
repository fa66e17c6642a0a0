#!/usr/bin/env bash
# Prints the totals of a test-results file (tests/runner.sh's rows: suite, test, PASS|FAIL|SKIP,
# seconds), the build phase's and each suite's seconds (test-builds.tsv, test-suites.tsv beside
# it), the 15 slowest test programs, the skips with their reasons and the failures; exits
# non-zero if anything failed.
set -euo pipefail
results=${1:?usage: summary.sh RESULTS.tsv}
[ -s "$results" ] || { echo "summary: no test results in $results" >&2; echo "0 passed, 1 failed"; exit 1; }
pass=$(awk -F'\t' '$3=="PASS"' "$results" | wc -l)
fail=$(awk -F'\t' '$3=="FAIL"' "$results" | wc -l)
skip=$(awk -F'\t' '$3=="SKIP"' "$results" | wc -l)
dir=$(dirname "$results")
if [ -s "$dir/test-builds.tsv" ]; then
	echo "Builds (seconds; side by side, so they overlap):"
	awk -F'\t' '{ printf "%8d  %-14s %s\n", $3, $1, $2 }' "$dir/test-builds.tsv"
fi
if [ -s "$dir/test-suites.tsv" ]; then
	# rows (tests/lanes.sh): suite, seconds, lane; per lane "lane NAME", its wall time, "wall";
	# last "all suites (MODE)", the suites' wall time, "total"
	echo "Suites (seconds):"
	awk -F'\t' '$3 == "wall" || $3 == "total" { printf "%8d  %s\n", $2, $1; next }
		{ printf "%8d  %-30s %s lane\n", $2, $1, $3 }' "$dir/test-suites.tsv"
fi
# A program's rows (one per TAP line) all carry the program's time: "PROGRAM: check" -> PROGRAM.
echo "The 15 slowest test programs (seconds):"
awk -F'\t' '{ t = $2; sub(/: .*/, "", t); sub(/ \((timed out|exit).*/, "", t); k = $1 "/" t
		if (!(k in secs) || $4 > secs[k]) secs[k] = $4 }
	END { for (k in secs) printf "%8.1f  %s\n", secs[k], k }' "$results" | sort -rn | awk 'NR <= 15'
# (awk, not head: head closes the pipe after 15 lines and, under pipefail, sort's SIGPIPE on a
# results file of a few thousand rows made `make test` fail with 141 after every test passed)
if [ "$skip" -gt 0 ]; then
	echo "Skipped (what this machine cannot do):"
	awk -F'\t' '$3=="SKIP" { printf "  %s/%s\n", $1, $2 }' "$results"
fi
if [ "$fail" -gt 0 ]; then
	echo "Failed:"
	awk -F'\t' '$3=="FAIL" { printf "  %s/%s\n", $1, $2 }' "$results"
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
