#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# A DUT that holds every packet 300 ms: with a 50 ms drain, the packets of a trial that arrive
# after it ends are lost to that trial and counted as late in the next one, never as received;
# with a drain longer than the delay every packet counts, and latency includes the delay
# (measured from the packet's schedule slot, which is never after it left).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"
need "$CAPDUT"

start_capdut --delay-ms 300
rc=0
tgen ndr --max-rate 5kpps --min-rate 1kpps --trial-duration 0.5 --final-duration 0.5 \
	--drain 0.05 --max-trials 3 --json "$tmp/ndr.json" || rc=$?
show "$tmp/tgen.out"
check "ndr_with_a_slow_dut_exits_0" test "$rc" -eq 0
check "stragglers_are_lost_to_their_own_trial" jqe '.trials[0].loss_packets > 0' "$tmp/ndr.json"
check "stragglers_are_late_in_the_next_trial" jqe '.trials[1].late_packets > 0 and
	.trials[1].late_packets <= .trials[0].loss_packets' "$tmp/ndr.json"
check "late_packets_never_count_as_received" jqe \
	'[.trials[] | .rx_packets <= .tx_packets and .duplicates == 0] | all' "$tmp/ndr.json"

rc=0
tgen run --rate 2kpps --duration 1 --drain 0.8 --json "$tmp/run.json" || rc=$?
show "$tmp/tgen.out"
echo "# latency min $(jq .trial.latency_ns.min "$tmp/run.json") ns"
check "a_drain_longer_than_the_delay_counts_every_packet" test "$rc" -eq 0 -a \
	"$(jq '.trial.tx_packets > 0 and .trial.loss_packets == 0 and
	.trial.latency_ns.min >= 300000000' "$tmp/run.json")" = true
finish
