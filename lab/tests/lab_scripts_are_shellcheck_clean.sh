#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# fwdlab, its helpers, the topology drivers and the integration tests pass shellcheck.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
command -v shellcheck >/dev/null || { echo "shellcheck missing"; exit 77; }
shellcheck -x lab/fwdlab lab/summary lab/trial-hook lab/tests/*.sh topologies/tests/*.sh tests/*.sh
shellcheck -x -s bash lab/lib/*.sh lab/verbs/*.sh topologies/*.sh topologies/*/*.sh
