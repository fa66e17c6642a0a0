#!/usr/bin/env bash
# shellcheck disable=SC2016 # checks are eval'd later, by check()
# hops_reads_every_dut_dump_and_never_hides_a_loss: `fwdstat hops` on run folders in the
# layout the lab writes (tgen.json trials, trials/NNN/ dumps), one per kind of DUT dump:
#   - a peer (l3fwd) whose stats.json is cumulative: the dump before the trial is
#     subtracted; its rx drops are DUT rx's, its tx drops DUT tx's;
#   - VPP, whose interfaces and errors are cleared before each trial: `show interface` and
#     `show errors` with VPP's severity column (an "info" row is an event, not a drop);
#   - vfwd without a dump before the trial: no port counters of the trial's own, so links
#     and DUT are one hop, its node drops counted and the rest unaccounted;
#   - --bidir: node drops are split only when one direction alone lost packets in the graph.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp() { tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; }
use_tmp

# run DIR BACKEND TX0 RX0 [TX1 RX1]: meta.json and a one-trial tgen.json (mode run)
run() {
	local d=$1 bidir=false
	mkdir -p "$d/trials/000"
	[ $# -lt 5 ] || bidir=true
	jq -n --arg b "$2" '{run: "r", status: "incomplete", topology: "host", dut: {backend: $b},
		generator: {name: "tgen"}}' >"$d/meta.json"
	jq -n --argjson t0 "$3" --argjson r0 "$4" --argjson t1 "${5:-0}" --argjson r1 "${6:-0}" \
		--argjson bidir "$bidir" '{tool: "tgen", mode: "run", profile: {bidir: $bidir},
		trial: {index: 0, phase: "run", rate_pps_requested: (($t0 + $t1) / 2), duration_s: 2,
		tx_packets: ($t0 + $t1), rx_packets: ($r0 + $r1), loss_ratio: 0.1, tx_refused: 0,
		pacer_skipped: 0, generator_limited: false,
		directions: [{tx_packets: $t0, rx_packets: $r0}, {tx_packets: $t1, rx_packets: $r1}]}}' \
		>"$d/tgen.json"
}
hj() { jq -r "$2" "$1/trials/000/hops.json"; }
hop() { hj "$1" ".hops[] | select(.hop == \"$2\" and .direction == ${3:-0}) | \"\(.in) \(.out) \(.lost) \(.unaccounted)\""; }

# ---- a peer: stats.json after and before
p=$tmp/peer
run "$p" l3fwd 1000 900
echo '{"port0":{"rx":5950,"tx":10,"rx_drop":70,"tx_drop":0},"port1":{"rx":3,"tx":5930,"rx_drop":0,"tx_drop":25}}' >"$p/trials/000/stats.json"
mkdir -p "$p/trials/000/before"
echo '{"port0":{"rx":5000,"tx":10,"rx_drop":20,"tx_drop":0},"port1":{"rx":3,"tx":5030,"rx_drop":0,"tx_drop":0}}' >"$p/trials/000/before/stats.json"
check "peer_hops_writes_the_trial_and_run_json" quiet "$FWDSTAT" hops "$p" --write --quiet
check "peer_ports_are_after_minus_before" test "$(hj "$p" .sources.dut_ports)" = "stats.json: after minus before"
check "peer_dut_rx_loses_its_rx_drops" test "$(hop "$p" "dut rx")" = "1000 950 50 0"
check "peer_graph_has_no_drop_counters_so_its_loss_is_unaccounted" test "$(hop "$p" "dut graph")" = "950 925 25 25"
check "peer_dut_tx_loses_its_tx_drops" test "$(hop "$p" "dut tx")" = "925 900 25 0"
check "peer_first_loss_is_dut_rx_and_dut-bound" test "$(hj "$p" '"\(.lost_at.hop) \(.limited_by) \(.lost) \(.unaccounted)"')" = "dut rx dut 100 25"

# ---- VPP: cleared before the trial, its own formats
v=$tmp/vpp
run "$v" vpp 1000 880
cat >"$v/trials/000/show_interfaces.txt" <<'EOF'
              Name               Idx    State  MTU (L3/IP4/IP6/MPLS)     Counter          Count
local0                            0     down          0/0/0/0
port0                             1      up          9000/0/0/0     rx packets                   990
                                                                    rx bytes                 1485000
                                                                    drops                        100
                                                                    ip4                          990
                                                                    rx-miss                       10
port1                             2      up          9000/0/0/0     tx packets                   880
                                                                    tx bytes                 1320000
EOF
cat >"$v/trials/000/show_errors.txt" <<'EOF'
   Count                  Node                              Reason               Severity
       100             ip4-lookup                      ip4 destination lookup miss      error
         3             arp-reply                       ARP replies sent                 info
EOF
"$FWDSTAT" hops "$v" --write --quiet
check "vpp_rx_miss_is_dut_rx" test "$(hop "$v" "dut rx")" = "1000 990 10 0"
check "vpp_graph_drop_counted_by_node_and_reason" test "$(hj "$v" '.hops[3].counted | to_entries[] | "\(.key)=\(.value)"')" = "ip4-lookup: ip4 destination lookup miss=100"
check "vpp_info_row_is_an_event" test "$(hj "$v" '.events["arp-reply: ARP replies sent"]')" = 3
# the drop row says 100, the graph lost 110: the 10 no counter explains are unaccounted
check "vpp_unaccounted_is_what_the_counters_do_not_say" test "$(hop "$v" "dut graph")" = "990 880 110 10"

# ---- vfwd without a dump before the trial: its port counters are since its start
f=$tmp/vfwd
run "$f" vfwd 1000 900
{
	echo "Name             Idx  State MAC                 Address             Counter         Count"
	echo "port0              0  up    02:00:00:00:00:01   10.0.0.1/24         rx packets      5002"
	echo "                                                                    tx packets      0"
	echo "                                                                    rx-miss         0"
	echo "port1              1  up    02:00:00:00:01:01   10.0.1.1/24         rx packets      0"
	echo "                                                                    tx packets      4902"
	echo "                                                                    tx-error        0"
} >"$f/trials/000/show_interfaces.txt"
printf '%s\n' '   Count                    Node                  Reason' \
	'        60               ip4-lookup               drop route' \
	'         2                ip4-local               echo replies sent' \
	'         7                 port1-tx               tx queue full' >"$f/trials/000/show_errors.txt"
"$FWDSTAT" hops "$f" --write --quiet
check "vfwd_without_before_has_no_port_counters_of_the_trial" test "$(hj "$f" .sources.dut_ports)" = "none (show_interfaces.txt is cumulative)"
check "vfwd_links_and_dut_are_one_hop" test "$(hj "$f" '[.hops[].hop] | join(",")')" = "generator tx,links and dut,generator rx"
check "vfwd_its_drops_counted_the_rest_unaccounted" test "$(hop "$f" "links and dut")" = "1000 900 100 40"
check "vfwd_tx_queue_full_is_not_a_graph_drop_and_replies_are_events" test "$(hj "$f" '"\(.hops[1].counted | keys | join(","))|\(.events | keys | join(","))"')" = "ip4-lookup: drop route|ip4-local: echo replies sent"

# ---- bidir: the graph's drops go to the one direction whose graph lost packets
b=$tmp/bidir
run "$b" vfwd 1000 1000 1000 950
mkdir -p "$b/trials/000/before"
printf 'Name Idx\nport0 0 up m a rx packets 1000\n tx packets 950\nport1 1 up m a rx packets 1000\n tx packets 1000\n' >"$b/trials/000/show_interfaces.txt"
printf 'Name Idx\nport0 0 up m a rx packets 0\n tx packets 0\nport1 1 up m a rx packets 0\n tx packets 0\n' >"$b/trials/000/before/show_interfaces.txt"
printf '%s\n' '   Count   Node   Reason' '        50   ip4-lookup   drop route' >"$b/trials/000/show_errors.txt"
"$FWDSTAT" hops "$b" --write --quiet
check "bidir_two_chains_of_seven_hops" test "$(hj "$b" '.hops | length')" = 14
check "bidir_drops_go_to_the_direction_that_lost_them" test "$(hop "$b" "dut graph" 1)|$(hop "$b" "dut graph" 0)" = "1000 950 50 0|1000 1000 0 0"
check "bidir_lost_at_is_direction_1s_graph" test "$(hj "$b" '"\(.lost_at.hop) \(.lost_at.direction) \(.limited_by)"')" = "dut graph 1 dut"

# ---- refusals
check "a_run_without_tgen_json_is_refused" eval '! "$FWDSTAT" hops "$tmp" 2>/dev/null'
check "an_unknown_trial_is_refused" eval '! "$FWDSTAT" hops "$b" --trial 7 2>/dev/null'
tap_done
