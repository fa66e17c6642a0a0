#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# hops_each_hop_loses_on_purpose_and_is_named_exactly: the host topology (vfwd and tgen over
# vhost-user, real DPDK ports). Each trial's trials/NNN/hops.json follows the packets hop by
# hop, and every loss made on purpose is found at its hop with its count:
#   - a clean trial loses nothing anywhere; the DUT's port counters are the trial's own (the
#     dump after minus the dump before), so DUT rx equals what tgen sent;
#   - a DUT drop route (48.0.0.2/32 drop; tgen cycles 4 destinations, so a quarter of the
#     packets) is lost at "dut graph", counted as ip4-lookup's "drop route", exactly tgen's
#     loss, nothing unaccounted, DUT-bound (also when the host made tgen fall short first);
#   - tgen asked for 12 Mpps of 64 B frames, more than it can send here: lost_at is
#     "generator tx" with exactly what it did not send; the trial is DUT-bound when the DUT
#     still lost some of what it got (its receive ring overflowing, vhost-user: the sender's tx
#     refused, is DUT rx's count), with the shortfall named, else generator-bound; the hops'
#     losses add up to exactly tgen's tx - rx;
#   - a peer DUT (testpmd io): its stats.json, dumped before the trial too, gives the DUT's hops.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"
ctl() { "$top/build/vfwd/${VARIANT:-default}/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" "$@"; }
run_in() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" | head -n1; }
h() { jq -r "$2" "$1/trials/000/hops.json"; } # RUN_DIR FILTER: of the run's one trial
t() { jq -r "$2" "$1/tgen.json"; }

stage "up" quiet lab up || exit 1

lab run --rate 2000 --duration 2 --run clean >"$tmp/clean.log" 2>&1 || true
d=$(run_in clean)
check "clean_run_has_hops_json_per_trial_and_per_run" eval '[ -s "$d/trials/000/hops.json" ] && [ -s "$d/hops.json" ]'
check "clean_hops_in_order" eval '[ "$(h "$d" "[.hops[].hop] | join(\",\")")" = "generator tx,link,dut rx,dut graph,dut tx,link,generator rx" ]'
check "clean_dut_port_counters_are_the_trials_own" eval '[ "$(h "$d" .sources.dut_ports)" = "show_interfaces.txt: after minus before" ] && [ "$(h "$d" ".hops[2].in")" = "$(t "$d" .trial.tx_packets)" ]'
check "clean_nothing_lost_nothing_unaccounted" eval '[ "$(h "$d" "\"\(.lost_at)|\(.lost)|\(.unaccounted)|\(.limited_by)\"")" = "null|0|0|none" ]'
check "clean_summary_says_no_packet_lost" grep -q "bound  run 2000 pps: no packet lost" "$tmp/clean.log"

# a drop route for one of four destinations (tgen's slots cycle them: a quarter of the packets,
# less the slots a busy host made it skip)
ctl ip route add 48.0.0.2/32 drop >/dev/null
FLOW_FIELD=dst lab run --rate 1000 --duration 2 --flows 4 --run drop >"$tmp/drop.log" 2>&1 || true
ctl ip route del 48.0.0.2/32 >/dev/null || true
d=$(run_in drop)
tx=$(t "$d" .trial.tx_packets)
loss=$(t "$d" '.trial.tx_packets - .trial.rx_packets')
short=$(t "$d" .trial.generator_limited)
echo "# drop route: tgen tx $tx rx $(t "$d" .trial.rx_packets), fell short: $short"
check "drop_tgen_lost_about_a_quarter" eval '[ $((loss * 5)) -gt "$tx" ] && [ $((loss * 3)) -lt "$tx" ]'
check "drop_dut_graph_lost_exactly_tgens_loss" eval '[ "$(h "$d" ".hops[3] | \"\(.hop)|\(.lost)|\(.unaccounted)\"")" = "dut graph|$loss|0" ]'
check "drop_counted_as_ip4-lookup_drop_route" eval '[ "$(h "$d" ".hops[3].counted | to_entries | map(\"\(.key)=\(.value)\") | join(\",\")")" = "ip4-lookup: drop route=$loss" ] && [ "$(h "$d" .unaccounted)" = 0 ]'
check "drop_no_other_hop_lost_a_packet" eval '[ "$(h "$d" "[.hops[] | select(.hop != \"generator tx\" and .hop != \"dut graph\") | .lost] | add")" = 0 ]'
# DUT-bound even when the busy host made tgen fall short first (then that is lost_at, and the
# summary names the shortfall too): the DUT dropped a quarter of what it got
if [ "$short" = true ]; then first="generator tx"; else first="dut graph"; fi
check "drop_bound_at_the_dut_graph_dut-bound_lost_at_its_first_loss" eval '[ "$(h "$d" "\"\(.lost_at.hop)|\(.bound_at)|\(.limited_by)\"")" = "$first|dut graph|dut" ]'
check "drop_summary_says_dut-bound" grep -q "bound  run 1000 pps is DUT-bound: dut graph (dut port0 -> dut port1) lost $loss (ip4-lookup: drop route $loss)" "$tmp/drop.log"
check "drop_table_is_printed_after_the_run" grep -Eq "^   dut graph +dut port0 -> dut port1 +[0-9]+ +[0-9]+ +$loss  ip4-lookup: drop route $loss$" "$tmp/drop.log"

# more than the generator can send (12 Mpps of 64 B frames; it fell short at 3 Mpps on a loaded
# host but not always on an idle one)
fast=12000000
lab run --rate 12mpps --frame-size 64 --duration 1 --run fast >"$tmp/fast.log" 2>&1 || true
d=$(run_in fast)
tx=$(t "$d" .trial.tx_packets)
echo "# 12 Mpps asked: tgen sent $tx, received $(t "$d" .trial.rx_packets), refused $(t "$d" .trial.tx_refused), skipped $(t "$d" .trial.pacer_skipped)"
jq -c '{lost_at: .lost_at.hop, bound_at, limited_by, lost, unaccounted}' "$d/trials/000/hops.json" | sed 's/^/# /'
grep ' bound ' "$tmp/fast.log" | sed 's/^/# /'
check "fast_tgen_says_it_fell_short" eval '[ "$(t "$d" .trial.generator_limited)" = true ]'
check "fast_lost_at_generator_tx_exactly_what_it_did_not_send" eval '[ "$(h "$d" ".lost_at | \"\(.hop)|\(.in)|\(.out)|\(.lost)\"")" = "generator tx|$fast|$tx|$((fast - tx))" ]'
# what the DUT and the path lost of what tgen did send: none, and the generator is the bound; some
# (the DUT's ring overflowing), and the first hop that lost it is, with the shortfall named
later=$(h "$d" '[.hops[1:][] | .lost] | add')
if [ "$later" = 0 ]; then
	check "fast_nothing_else_lost_so_generator-bound" eval '[ "$(h "$d" .limited_by)" = generator ] && [ "$(h "$d" .bound_at)" = "generator tx" ] && grep -q "bound  run $fast pps is generator-bound: generator tx (tg port0) did not send" "$tmp/fast.log"'
else
	first=$(h "$d" '[.hops[1:][] | select(.lost > 0)][0] | "\(.hop)|\(.kind)"')
	check "fast_the_dut_lost_of_what_it_got_so_dut-bound_with_the_shortfall_named" eval '[ "$first" = "dut rx|dut" ] && [ "$(h "$d" .bound_at)" = "dut rx" ] && [ "$(h "$d" .limited_by)" = dut ] && grep -q "bound  run $fast pps is DUT-bound: dut rx (dut port0) lost .*; the generator also fell short by $((fast - tx))$" "$tmp/fast.log"'
fi
check "fast_dut_rx_counts_its_ring_full_as_tgens_tx_refused" eval '[ "$(h "$d" ".hops[2].counted[\"rx ring full (the generator'"'"'s tx refused)\"] // 0")" = "$(t "$d" .trial.tx_refused)" ]'
check "fast_hop_losses_add_up_to_tgens_tx_minus_rx" eval '[ "$(h "$d" .lost)" = "$(t "$d" ".trial.tx_packets - .trial.rx_packets")" ]'

# a peer as the DUT (testpmd io): its stats.json, dumped after its clear and subtracted
stage "swap peer:testpmd-io" quiet lab swap peer:testpmd-io || true
lab run --rate 2000 --duration 2 --run peer >"$tmp/peer.log" 2>&1 || true
d=$(run_in peer)
check "peer_ports_are_stats_json_after_minus_before" eval '[ "$(h "$d" .sources.dut_ports)" = "stats.json: after minus before" ]'
check "peer_dut_rx_in_is_tgens_tx_and_generator_rx_out_tgens_rx" eval '[ "$(h "$d" "\"\(.hops[2].in) \(.hops[6].out)\"")" = "$(t "$d" "\"\(.trial.tx_packets) \(.trial.rx_packets)\"")" ]'
check "peer_hop_losses_add_up_to_tgens_tx_minus_rx" eval '[ "$(h "$d" .lost)" = "$(t "$d" ".trial.tx_packets - .trial.rx_packets")" ]'
tap_done
