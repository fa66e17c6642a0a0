#!/usr/bin/env bash
# On the host topology, `fwdlab swap peer:ovs-dpdk` (on vfwd's vhost-user sockets) and then
# `peer:linux` (kernel forwarding in a netns; tgen on af_packet over veths) take vfwd's place
# with setup.cli's routes: a low-rate `fwdlab run` gets every frame back, the backend's
# counters saw them, the dumps name it and hold its output (pmd-perf-show, /proc/net/snmp);
# reference frames played into the lab's ports come out routed: TTL 63, the next hop's MAC.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"
lab_up || peer_tests_end
peer_forwards ovs-dpdk routed
peer_forwards linux routed
peer_tests_end
