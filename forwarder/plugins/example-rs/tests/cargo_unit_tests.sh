#!/usr/bin/env bash
# Runs the Rust unit tests (`cargo test`: the classifier, the FFI layouts, the node on a
# graph laid out as DPDK lays it out) and reports each as a TAP line.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$(cd ../../.. && pwd)/build/example-rs/target}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
"${CARGO:-cargo}" test --offline -- --test-threads=1 >"$out" 2>&1 || rc=$?
n=0
while read -r _ name _ result; do
	n=$((n + 1))
	case "$result" in
	ok) echo "ok $n - $name" ;;
	ignored) echo "ok $n - $name # SKIP ignored" ;;
	*) echo "not ok $n - $name" ;;
	esac
done < <(grep -E '^test .* \.\.\. ' "$out")
if [ "$rc" -ne 0 ] || [ "$n" -eq 0 ]; then
	cat "$out"
	[ "$n" -gt 0 ] || echo "not ok 1 - cargo test ran no test"
	exit 1
fi
