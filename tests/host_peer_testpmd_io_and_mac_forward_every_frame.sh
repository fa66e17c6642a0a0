#!/usr/bin/env bash
# On the host topology, `fwdlab swap peer:testpmd-io` and then `peer:testpmd-mac` take vfwd's
# place: a low-rate `fwdlab run` gets every frame back (tgen tx == rx), testpmd's own counters,
# zeroed before the trial, count exactly those frames, the dumps name the backend and hold
# testpmd's figures; reference frames played into the lab's ports come out of the other port,
# untouched (io) or with the next hop's MAC (mac), TTL 64 (testpmd does not route).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"
lab_up || peer_tests_end
peer_forwards testpmd-io io
peer_forwards testpmd-mac mac
peer_tests_end
