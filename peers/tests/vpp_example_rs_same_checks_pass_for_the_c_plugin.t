#!/usr/bin/env bash
# The checks of vpp_example_rs_plugin_loads_drops_icmp_passes_udp.t on fwdlab's C VPP feature
# plugin (peers/vpp/plugins/example, node example), built by the same script (build-plugin)
# and loaded the same way (alone, from a build-plugin --tree): x86-64-v2 code, listed by show
# plugins, on port0's ip4-unicast arc before ip4-lookup, 1000 UDP frames routed out of port1
# and counted, no ICMP out of port0, 300 "icmp packets dropped" under example, 1300 vectors in
# its show runtime row.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
# shellcheck source=./vpp_plugin_lib.sh
. "$(dirname "$(readlink -f "$0")")/vpp_plugin_lib.sh"
vpp_need_build default
test_init
plugin_pcaps
plugin_alone example example "drops ICMP on the ip4-unicast arc (C)"
echo "1..$tap_n"
exit "$tap_failed"
