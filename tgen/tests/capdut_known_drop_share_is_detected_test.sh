#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# A DUT that drops exactly every 10th packet: tgen reports exactly that loss. A DUT that
# drops everything: `tgen ndr` ends quickly with "below minimum load", it does not hang.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"
need "$CAPDUT"

start_capdut --drop-every 10
tgen run --rate 10kpps --duration 2 --drain 2 --json "$tmp/share.json" || true
show "$tmp/tgen.out"
tx=$(jq_num "$tmp/share.json" .trial.tx_packets)
loss=$(jq_num "$tmp/share.json" .trial.loss_packets)
stop_dut
dropped=$(sed -n 's/^capdut: port0 rx .* dropped \([0-9]*\)$/\1/p' "$tmp/dut.log")
echo "# tgen: tx $tx loss $loss; capdut dropped $dropped"
# the DUT's own count of what it dropped is what tgen reports lost, to the packet
check "loss_equals_the_packets_the_dut_dropped" test "$tx" -gt 0 -a -n "$dropped" -a \
	"$loss" = "$dropped"
# sequence numbers 9, 19, 29, ... are dropped; tgen sends runs of consecutive slots (it
# skips slots only when the host deschedules it), so the share is a tenth up to the run edges
check "loss_ratio_is_one_tenth" awk -v r="$(jq_num "$tmp/share.json" .trial.loss_ratio)" \
	'BEGIN { exit !(r > 0.09 && r < 0.11) }'

start_capdut --drop-all
start=$(date +%s)
rc=0
tgen ndr --max-rate 20kpps --min-rate 1kpps --trial-duration 0.3 --final-duration 1 \
	--drain 0.2 --warmup 0.5 --json "$tmp/ndr.json" || rc=$?
show "$tmp/tgen.out"
check "ndr_on_a_dut_dropping_everything_exits_0" test "$rc" -eq 0
check "ndr_and_pdr_are_below_minimum" jqe '.ndr.below_minimum and .pdr.below_minimum and
	.ndr.rate_pps == 0 and (.trials | length) <= 6' "$tmp/ndr.json"
check "below_minimum_is_found_in_under_60s" test $(($(date +%s) - start)) -lt 60
finish
