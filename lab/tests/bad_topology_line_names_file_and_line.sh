#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# A bad topology file is refused with FILE:LINE and a non-zero exit.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$tmp/topo.conf
cp "$top/topologies/b2b/topology.conf" "$tmp/topo.conf"
echo "dut.vcpu = 4" >>"$tmp/topo.conf"
line=$(wc -l <"$tmp/topo.conf")
rc=0
out=$("$top/lab/fwdlab" --topology b2b plan 2>&1) || rc=$?
echo "$out"
check "unknown key refused" [ "$rc" -ne 0 ]
check "unknown key message names FILE:LINE" grep -q "$tmp/topo.conf:$line: unknown key dut.vcpu" <<<"$out"
cp "$top/topologies/host/topology.conf" "$tmp/topo.conf"
printf 'this is not a key value line\n' >>"$tmp/topo.conf"
line=$(wc -l <"$tmp/topo.conf")
rc=0
out=$("$top/lab/fwdlab" --topology host plan 2>&1) || rc=$?
echo "$out"
check "malformed line refused" [ "$rc" -ne 0 ]
check "malformed line message names FILE:LINE" grep -q "$tmp/topo.conf:$line: expected KEY = VALUE" <<<"$out"
rc=0
out=$("$top/lab/fwdlab" --topology nowhere plan 2>&1) || rc=$?
check "unknown topology refused" eval '[ "$rc" -ne 0 ] && grep -q "unknown topology nowhere" <<<"$out"'
