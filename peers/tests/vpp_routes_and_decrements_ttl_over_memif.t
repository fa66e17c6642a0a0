#!/usr/bin/env bash
# VPP (peers/vpp/build's cached build) routes the reference frames between two memif ports
# fed by a testpmd generator: TTL 63, next hop's MAC, VPP's own counters and show runtime.
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default
exec "$(dirname "$(readlink -f "$0")")/forwards.sh" vpp memif routed-own-mac
