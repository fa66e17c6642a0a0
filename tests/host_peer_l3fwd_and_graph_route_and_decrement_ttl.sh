#!/usr/bin/env bash
# On the host topology, `fwdlab swap peer:l3fwd` and then `peer:l3fwd-graph` (DPDK's examples, built
# from dpdk-doc) take vfwd's place with setup.cli's routes: a low-rate `fwdlab run` gets every
# frame back, the backend's counters saw them, the dumps name it and hold its output; reference
# frames played into the lab's ports come out routed: TTL 63, the next hop's MAC.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"
lab_up || peer_tests_end
peer_forwards l3fwd routed
peer_forwards l3fwd-graph routed
peer_tests_end
