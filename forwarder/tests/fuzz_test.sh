#!/usr/bin/env bash
# Runs each libFuzzer entry point briefly (FUZZ_SECONDS, default 5) from the
# committed seed corpora; new inputs go to a temporary folder, never to the repo.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
secs=${FUZZ_SECONDS:-5}
export VFWD_EXAMPLE_PLUGIN=${VFWD_EXAMPLE_PLUGIN:-$build/plugins/example_plugin.so}
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1

# the fuzzers are builds of this suite (make -C forwarder fuzzers, with clang and
# libclang-rt-14-dev from forwarder/apt-packages.txt): one missing is a failure, naming why
have_libfuzzer() {
	echo 'int LLVMFuzzerTestOneInput(const char *d, long n){return 0;}' |
		clang -x c -fsanitize=fuzzer,address -o /dev/null - 2>/dev/null
}
for f in packet cli startup; do
	bin=$testbin/fuzz_$f
	if [ ! -x "$bin" ]; then
		if ! command -v clang >/dev/null; then
			why="clang is not installed (forwarder/apt-packages.txt: make deps)"
		elif ! have_libfuzzer; then
			why="clang cannot link libFuzzer: libclang-rt-14-dev is missing (forwarder/apt-packages.txt: make deps)"
		else
			why="not built: make -C forwarder fuzzers"
		fi
		tap fail "fuzz_${f}_survives_${secs}s: $bin is missing: $why"
		continue
	fi
	mkdir -p "$tmp/$f"
	if timeout $((secs + 60)) "$bin" -max_total_time="$secs" -print_final_stats=0 \
		"$tmp/$f" "$here/../fuzz/corpus/$f" >"$tmp/$f.log" 2>&1; then
		echo "# $(grep -E 'DONE' "$tmp/$f.log" | tail -1)"
		tap ok "fuzz_${f}_survives_${secs}s"
	else
		# a fuzzer that died without libFuzzer's report (a timeout, a signal) shows its log's end
		if ! grep -E -A30 'ERROR|SUMMARY|deadly' "$tmp/$f.log" | head -40 | sed 's/^/# /'; then
			tail -n 20 "$tmp/$f.log" | sed 's/^/# /'
		fi
		cp "$tmp/$f.log" "${TOP:-$top}/build/fuzz_$f.log" 2>/dev/null || true
		tap fail "fuzz_${f}_survives_${secs}s"
	fi
done
echo "1..$n_tap"
exit "$failed"
