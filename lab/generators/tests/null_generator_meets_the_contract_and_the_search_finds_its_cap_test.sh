#!/usr/bin/env bash
# The null generator (lab/generators/null, written from README.md alone) meets the contract
# every generator meets (contract.sh), and the lab's one search (tgen -- ndr --trial-exec)
# finds the capacity of its wire within the search width; a generator that cannot offer the
# capacity gives an NDR bounded by the generator at the rate it offered. No DPDK, no DUT.
# shellcheck disable=SC2016,SC2317 # checks are eval'd, ndr is called by check
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=lab/generators/tests/contract.sh
. "$top/lab/generators/tests/contract.sh"
[ -x "$top/build/tgen/bin/tgen" ] || make -s -C "$top" tgen >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export FWDLAB_GEN_DIR=$tmp/gen
contract_check null

ndr() {
	"$top/build/tgen/bin/tgen" -- ndr --trial-exec "$top/lab/generators/trial-exec null --size 1500" \
		--size 1500 --max-rate 200000 --trial-duration 1 --final-duration 2 --json "$tmp/$1.json" \
		>"$tmp/$1.out" 2>&1
}
export FWDLAB_NULL_CAP_PPS=50000
check "ndr through null runs" ndr cap
check "NDR within the 0.5 % width below the 50000 pps cap, limited by the DUT" eval '
	jq -e ".ndr.rate_pps <= 50000 and .ndr.rate_pps >= 50000 * 0.995 and .ndr.limited_by == \"dut\"" "$tmp/cap.json" >/dev/null'
check "PDR at or above NDR and within 0.5 % loss" eval '
	jq -e ".pdr.rate_pps >= .ndr.rate_pps and .pdr.trial.loss_ratio <= 0.005" "$tmp/cap.json" >/dev/null'
check "every trial of the search is in the JSON with its loss derived from the counters" eval '
	jq -e "[.trials[] | .loss_packets == .tx_packets - .rx_packets] | all and length > 3" "$tmp/cap.json" >/dev/null'
export FWDLAB_NULL_MAX_PPS=30000
check "ndr through a null that offers at most 30000 pps runs" ndr gen
check "its NDR is generator-bound at the 30000 pps it offered" eval '
	jq -e ".ndr.limited_by == \"generator\" and .ndr.rate_pps == 30000" "$tmp/gen.json" >/dev/null'
echo "1..$TAP_N"
exit "$TAP_FAILED"
