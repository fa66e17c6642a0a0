#!/usr/bin/env bash
# shellcheck disable=SC2016 # checks are eval'd later, by check()
# hops_generator_short_and_wire_loss_are_named_exactly: the loop topology (the null generator
# as a wire of loop.cap_pps = 50000 pps, no DUT) through fwdlab. A generator asked for more
# than it can send (FWDLAB_NULL_MAX_PPS = 1000, asked 2000) is charged to the generator
# (lost_at "generator tx", the exact shortfall), not to the path; a wire asked for more than
# it carries (60000 pps) loses at the wire, which has no counters: "path (no counters)", all
# of it unaccounted, none of it charged to a DUT; the NDR through it is path-bound.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
tmp=$(mktemp -d)
export FWDLAB_STATE=$tmp/loop FWDLAB_RESULTS=$tmp/results FWDLAB_NO_INSTALL=1 FWDSTAT
lab() { timeout 100 "$top/lab/fwdlab" --topology loop "$@"; }
trap 'lab down >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
run_in() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" | head -n1; }
h() { jq -r "$2" "$1/trials/000/hops.json"; } # RUN_DIR FILTER: of the run's one trial

lab up >/dev/null 2>&1 || true

# the generator falls short: 1000 of the 2000 packets asked for are never sent
FWDLAB_NULL_MAX_PPS=1000 lab run --rate 2000 --duration 1 --run short >"$tmp/short.log" 2>&1 || true
d=$(run_in short)
check "short_run_is_complete_with_its_hops" eval '[ -n "$d" ] && jq -e ".status == \"complete\"" "$d/meta.json" >/dev/null && [ -s "$d/trials/000/hops.json" ] && [ -s "$d/hops.json" ]'
check "short_lost_at_generator_tx_exactly_1000_not_sent" eval '[ "$(h "$d" ".lost_at | \"\(.hop) \(.in) \(.out) \(.lost)\"")" = "generator tx 2000 1000 1000" ]'
check "short_is_charged_to_the_generator" eval '[ "$(h "$d" .limited_by)" = generator ] && [ "$(h "$d" .generator_short)" = 1000 ] && [ "$(h "$d" .lost)" = 0 ]'
check "short_summary_says_generator-bound" grep -q "bound  run 2000 pps is generator-bound: generator tx (tg port0) did not send 1000" "$tmp/short.log"

# the wire carries 50000 pps: asked 60000 for 1 s, it loses 10000 where nothing counts
lab run --rate 60000 --duration 1 --run wire >"$tmp/wire.log" 2>&1 || true
d=$(run_in wire)
check "wire_hops_are_generator_tx_wire_generator_rx" eval '[ "$(h "$d" "[.hops[].hop] | join(\",\")")" = "generator tx,wire,generator rx" ]'
check "wire_lost_at_the_wire_exactly_10000" eval '[ "$(h "$d" ".lost_at | \"\(.hop) \(.in) \(.out) \(.lost) \(.counters)\"")" = "wire 60000 50000 10000 false" ]'
check "wire_loss_is_unaccounted_and_path_bound" eval '[ "$(h "$d" "\"\(.limited_by)|\(.unaccounted)|\(.lost)\"")" = "path (no counters)|10000|10000" ]'
check "wire_table_names_the_hop_without_counters" grep -Eq "^   wire +tg port0 -> tg port1 +60000 +50000 +10000  unaccounted 10000 \(no counters\)$" "$tmp/wire.log"

# an NDR search through the wire: the first loss above the NDR is the wire's
lab ndr --frame-size 64 --max-rate 200000 --trial-duration 1 --final-duration 1 --run ndr >"$tmp/ndr.log" 2>&1 || true
d=$(run_in ndr)
check "ndr_every_trial_has_hops_json" eval '[ "$(jq ".trials | length" "$d/tgen.json")" -gt 1 ] && [ "$(find "$d/trials" -name hops.json | wc -l)" = "$(jq ".trials | length" "$d/tgen.json")" ]'
check "ndr_figure_is_path-bound" eval '[ "$(jq -r ".figures[] | select(.figure == \"NDR\") | .limited_by" "$d/hops.json")" = "path (no counters)" ]'
check "ndr_summary_line_says_path-bound_at_the_wire" grep -Eq "^   bound  NDR [0-9]+ pps is path-bound: in the first losing trial [0-9]+ \([0-9]+ pps\) wire \(tg port0 -> tg port1\) lost [0-9]+" "$tmp/ndr.log"
check "ndr_path-bound_by_its_hops_is_a_lower_bound_in_compare" eval '"$FWDSTAT" compare "$d" 2>/dev/null | grep -Eq "^\| udp/64B +\| NDR \(pps\) +\| +>=[0-9.]+ k\* "'
check "a_finished_run_is_never_rewritten_by_hops" eval '! "$FWDSTAT" hops "$d" --write 2>/dev/null'
tap_done
