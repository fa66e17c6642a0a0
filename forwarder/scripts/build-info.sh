#!/usr/bin/env bash
# Writes OUT/build-info.json for vfwd: scripts/build-info.sh, which tgen shares.
#   build-info.sh OUT VARIANT LABEL CC CFLAGS LDFLAGS DPDK_VERSION
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec "$here/../scripts/build-info.sh" vfwd "$here" "$@"
