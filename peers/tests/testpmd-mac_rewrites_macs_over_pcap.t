#!/bin/sh
# testpmd mac: every frame out, MACs rewritten, TTL kept
exec "$(dirname "$0")/forwards.sh" testpmd-mac pcap mac
