#!/usr/bin/env bash
# tgen -> VPP (memif) -> tgen at a low rate: tx == rx (skips without the cached VPP build)
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default
exec "$(dirname "$(readlink -f "$0")")/tgen_through.sh" vpp
