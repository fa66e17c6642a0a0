# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # trex_home, tx, rx, lk, p1 are for the sourcing test, which sets top
# Shared by the tests that run TRex (sourced first; reads top): sets trex_home to the TRex
# build (trex/build.sh: the cached one, or built now); a TRex that cannot be built fails the
# test, naming the build.
if ! trex_home=$("$top/trex/build.sh"); then
	echo "not ok 1 - $(basename "$0") needs TRex: trex/build.sh failed (above)"
	echo "1..1"
	exit 1
fi

# trex_counts RUN_DIR: the run's first trial as TRex counted it (tx, rx) and as vfwd's
# graph did in that trial's dump (lk: ip4-lookup vectors, p1: port1-tx vectors); 0 and -1
# when a file is missing. Needs tests/tap.sh (runtime_vectors).
trex_counts() {
	tx=$(jq -r '.trial.tx_packets // 0' "$1/tgen.json" 2>/dev/null || echo 0)
	rx=$(jq -r '.trial.rx_packets // 0' "$1/tgen.json" 2>/dev/null || echo 0)
	lk=$(runtime_vectors "$1/trials/000/show_runtime.txt" ip4-lookup 2>/dev/null || echo -1)
	p1=$(runtime_vectors "$1/trials/000/show_runtime.txt" port1-tx 2>/dev/null || echo -1)
}

# trials_hold RUN_DIR FILTER: the run's generator trial records (generator-trials.jsonl, as
# one array) satisfy the jq FILTER.
trials_hold() { jq -se "$2" "$1/generator-trials.jsonl" >/dev/null; }
