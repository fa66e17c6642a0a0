#!/bin/sh
# tgen -> vfwd (peers config) -> tgen at a low rate: tx == rx (skips without a vfwd build)
[ -x "${TOP:-$(dirname "$0")/../..}/build/vfwd/default/bin/vfwd" ] || { echo "1..0 # SKIP no vfwd build"; exit 0; }
exec "$(dirname "$0")/tgen_through.sh" vfwd
