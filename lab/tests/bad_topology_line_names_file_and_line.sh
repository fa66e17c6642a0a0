#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# A bad topology file is refused with FILE:LINE and a non-zero exit.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$tmp/topo.conf
# plan_with TOPOLOGY LINE: `fwdlab plan` of the topology's file with LINE appended ($line
# is its number; $rc and $out what plan did).
plan_with() {
	cp "$top/topologies/$1/topology.conf" "$tmp/topo.conf"
	printf '%s\n' "$2" >>"$tmp/topo.conf"
	line=$(wc -l <"$tmp/topo.conf")
	try "$top/lab/fwdlab" --topology "$1" plan
	echo "$out"
}
plan_with b2b "dut.vcpu = 4"
check "unknown key refused" [ "$rc" -ne 0 ]
check "unknown key message names FILE:LINE" grep -q "$tmp/topo.conf:$line: unknown key dut.vcpu" <<<"$out"
plan_with host "this is not a key value line"
check "malformed line refused" [ "$rc" -ne 0 ]
check "malformed line message names FILE:LINE" grep -q "$tmp/topo.conf:$line: expected KEY = VALUE" <<<"$out"
try "$top/lab/fwdlab" --topology nowhere plan
check "unknown topology refused" eval '[ "$rc" -ne 0 ] && grep -q "unknown topology nowhere" <<<"$out"'
