#!/bin/sh
# testpmd io: every frame out of the other port, untouched
exec "$(dirname "$0")/forwards.sh" testpmd-io pcap io
