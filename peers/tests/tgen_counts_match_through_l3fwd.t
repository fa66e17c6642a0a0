#!/bin/sh
# tgen -> l3fwd -> tgen at a low rate: tx == rx, and the backend counted them
exec "$(dirname "$0")/tgen_through.sh" l3fwd
