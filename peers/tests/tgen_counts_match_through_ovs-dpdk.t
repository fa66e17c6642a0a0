#!/bin/sh
# tgen -> ovs-dpdk -> tgen at a low rate: tx == rx, and the backend counted them
exec "$(dirname "$0")/tgen_through.sh" ovs-dpdk
