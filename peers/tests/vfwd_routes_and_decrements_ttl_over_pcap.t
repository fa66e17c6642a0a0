#!/bin/sh
# vfwd driven by the peers config: both routes, TTL-1, next-hop MAC (skips without a build)
[ -x "${TOP:-$(dirname "$0")/../..}/build/vfwd/default/bin/vfwd" ] || { echo "1..0 # SKIP no vfwd build"; exit 0; }
exec "$(dirname "$0")/forwards.sh" vfwd pcap routed
