#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# The CPU plan gives each forwarding vCPU a host CPU of its own when there are enough,
# and refuses a plan where forwarding vCPUs share CPUs unless --smoke.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
conf=$tmp/topo.conf
sed 's/^host_cpus = .*/host_cpus = 0-5/' "$top/topologies/b2b/topology.conf" >"$conf"
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$conf
out=$("$top/lab/fwdlab" --topology b2b plan 2>&1)
echo "$out"
. "$tmp/state/plan.env"
check "six cpus: tg forwarding vCPU has its own cpu" [ "$PLAN_tg_VCPUPIN" = "0:0 1:5" ]
check "six cpus: dut forwarding vCPU has its own cpu" [ "$PLAN_dut_VCPUPIN" = "0:0 1:4" ]
check "six cpus: emulator threads stay off forwarding cpus" [ "$PLAN_dut_EMU" = "0,1,2,3" ]
check "six cpus: no overlap reported" eval '! grep -q OVERLAP <<<"$out"'

sed 's/^host_cpus = .*/host_cpus = 0-1/' "$top/topologies/b2b/topology.conf" >"$conf"
try "$top/lab/fwdlab" --topology b2b plan
echo "$out"
check "two cpus: plan refused without --smoke" [ "$rc" -ne 0 ]
check "two cpus: refusal names the overlap" grep -q 'share host CPUs' <<<"$out"
try "$top/lab/fwdlab" --topology b2b plan --smoke
check "two cpus: --smoke accepts the plan" [ "$rc" -eq 0 ]
check "two cpus: --smoke still marks the overlap" grep -q 'OVERLAP' <<<"$out"
