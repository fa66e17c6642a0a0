#!/bin/sh
# OVS-DPDK: route flows over vhost-user from a testpmd generator
exec "$(dirname "$0")/forwards.sh" ovs-dpdk vhost routed-own-mac
