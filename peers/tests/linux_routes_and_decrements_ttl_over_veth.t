#!/bin/sh
# Linux: kernel forwarding in a netns over veth, generator on net_af_packet
exec "$(dirname "$0")/forwards.sh" linux veth routed-own-mac
