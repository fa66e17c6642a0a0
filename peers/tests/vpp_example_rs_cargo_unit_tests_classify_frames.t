#!/usr/bin/env bash
# The Rust VPP plugin's unit tests (peers/vpp/plugins/example-rs/src/tests.rs): its node loop
# on buffers laid out in memory as VPP lays them out (UDP to the next feature with the config
# index moved on, ICMP to error-drop with the node's error, the header at negative and
# positive current_data, every frame size 0-13 with ICMP at every position, a whole frame),
# built and run with Debian's cargo and rustc, offline. One TAP line per Rust test; no VPP
# is needed.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
dir=$PEERS/vpp/plugins/example-rs
cargo=${CARGO:-/usr/bin/cargo} rustc=${RUSTC:-/usr/bin/rustc}
[ -x "$cargo" ] || cargo=$(command -v cargo || echo cargo)
[ -x "$rustc" ] || rustc=$(command -v rustc || echo rustc)
export CARGO_TARGET_DIR=$TOP/build/vpp-plugins/.work/example-rs/target RUSTC=$rustc
echo "# $("$rustc" --version 2>&1), $("$cargo" --version 2>&1)"
cd "$dir"
need "the unit tests of example-rs built ($cargo test --offline --locked --no-run)" \
	nice -n 5 "$cargo" test --offline --locked --no-run
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
"$cargo" test --offline --locked 2>&1 | tee "$out" | sed 's/^/# /' || rc=$?
n=0
while read -r name verdict; do
	n=$((n + 1))
	if [ "$verdict" = ok ]; then ok "cargo test: $name"; else not_ok "cargo test: $name ($verdict)"; fi
done < <(sed -n 's/^test \(.*\) \.\.\. \([A-Za-z]*\)$/\1 \2/p' "$out")
check "cargo test ran the unit tests ($n) and passed (exit $rc)" test "$n" -ge 5 -a "$rc" = 0
echo "1..$tap_n"
exit "$tap_failed"
