#!/bin/sh
# l3fwd: both routes, TTL-1, next-hop MAC
exec "$(dirname "$0")/forwards.sh" l3fwd pcap routed
