#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # checks are eval'd later, by check()
# `make test-all` only (too slow for CI): CSIT's scale suites on the host topology, each with
# its routes loaded into vfwd: ip4scale200k and ip4scale2m, the destinations in address order
# and drawn at random per packet (-rnd). 64 B, one core, one repeat, short trials: every run
# complete under the CSIT name, NDR > 0 with no loss at the NDR trial, ip4-lookup carried
# the packets.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
short=(--trial-duration 2 --final-duration 2 --max-rate 100kpps --min-rate 1kpps)
for suite in ip4scale200k ip4scale200k-rnd ip4scale2m ip4scale2m-rnd; do
	rc=0
	stage "suite $suite" lab suite "$suite" --frame-sizes 64 --cores 1 --repeat 1 "${short[@]}" \
		>"$tmp/$suite.out" 2>&1 || rc=$?
	tail -n 12 "$tmp/$suite.out" | sed 's/^/# /'
	camp=$(find "$tmp/results" -maxdepth 1 -name "*-host-suite-*-ethip4-$suite-ndrpdr" | head -n 1)
	run=$camp/64b-1c-ethip4-$suite-ndrpdr.r1
	check "$suite: the run is complete under its CSIT name" eval \
		'[ "$rc" -eq 0 ] && jq -e ".status == \"complete\"" "$run/meta.json" >/dev/null'
	check "$suite: NDR > 0 with no loss at the NDR trial" eval \
		'jq -e ".ndr.rate_pps > 0 and .ndr.trial.rx_packets > 0 and .ndr.trial.loss_packets == 0" "$run/tgen.json" >/dev/null'
	check "$suite: ip4-lookup carried the packets" eval '[ "$(runtime_vectors "$run/show_runtime.txt" ip4-lookup)" -gt 0 ]'
done
echo "1..$TAP_N"
exit "$TAP_FAILED"
