#!/usr/bin/env bash
# fwdlab's Rust VPP feature plugin (peers/vpp/plugins/example-rs), built by build-plugin against
# the default VPP build and loaded alone from a plugin folder of its own (build-plugin --tree):
# built for the VPP build's CPU baseline (x86-64-v2: no AVX instruction in the .so); show
# plugins lists example_rs_plugin.so; show interface features puts node example-rs on port0's
# ip4-unicast arc (ending in ip4-lookup); a testpmd generator sends 1000 UDP frames into port0
# and 300 ICMP into port1 over memif: every UDP frame is routed out of port1 (TTL 63) and
# counted there, no ICMP frame comes out of port0, show errors counts each as "icmp packets
# dropped" under example-rs, and show runtime has the node with every frame of both flows.
# vpp_example_rs_same_checks_pass_for_the_c_plugin.t runs the same checks on the C plugin.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
# shellcheck source=./vpp_plugin_lib.sh
. "$(dirname "$(readlink -f "$0")")/vpp_plugin_lib.sh"
vpp_need_build default
test_init
plugin_pcaps
plugin_alone example-rs example-rs "drops ICMP on the ip4-unicast arc (Rust)"
echo "1..$tap_n"
exit "$tap_failed"
