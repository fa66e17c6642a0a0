#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # eval checks expand later (they read $rc and $line)
# b2b: a guest whose forwarding vCPU shares a host CPU gets the yielding modes (vfwd
# rx-mode adaptive in the DUT's startup file, tgen --pacing sleep in the TG); a guest whose
# forwarding vCPUs have CPUs of their own busy-polls; NODE.rx_mode / NODE.pacing override
# the plan, and a bad value is refused with FILE:LINE.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
conf=$tmp/topo.conf
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$conf

sed 's/^host_cpus = .*/host_cpus = 0-1/' "$top/topologies/b2b/topology.conf" >"$conf"
out=$("$top/lab/fwdlab" --topology b2b plan --smoke 2>&1)
printf "# %s\n" "$out"
check "two cpus: the plan marks both guests as sharing" eval \
	'grep -qx "PLAN_dut_SHARED=1" "$tmp/state/plan.env" && grep -qx "PLAN_tg_SHARED=1" "$tmp/state/plan.env"'
check "two cpus: dut vfwd rx-mode adaptive, said why" grep -q 'dut: vfwd rx-mode adaptive (auto: a forwarding vCPU shares a host CPU)' <<<"$out"
check "two cpus: tg tgen pacing sleep" grep -q 'tg: tgen --pacing sleep (auto' <<<"$out"

sed 's/^host_cpus = .*/host_cpus = 0-5/' "$top/topologies/b2b/topology.conf" >"$conf"
out=$("$top/lab/fwdlab" --topology b2b plan 2>&1)
check "six cpus: no guest shares" eval '! grep -q SHARED "$tmp/state/plan.env"'
check "six cpus: dut busy-polls" grep -q 'dut: vfwd rx-mode poll (auto: forwarding vCPUs have host CPUs of their own)' <<<"$out"
check "six cpus: tg spins" grep -q 'tg: tgen --pacing busy (auto' <<<"$out"

{ sed 's/^host_cpus = .*/host_cpus = 0-1/' "$top/topologies/b2b/topology.conf"
	echo "dut.rx_mode = poll"
	echo "tg.pacing = busy"; } >"$conf"
out=$("$top/lab/fwdlab" --topology b2b plan --smoke 2>&1)
check "override: dut.rx_mode = poll is kept on two cpus" grep -qx '  dut: vfwd rx-mode poll' <<<"$out"
check "override: tg.pacing = busy is kept" grep -qx '  tg: tgen --pacing busy' <<<"$out"

sed -i 's/^dut.rx_mode = poll$/dut.rx_mode = sometimes/' "$conf"
rc=0
out=$("$top/lab/fwdlab" --topology b2b plan --smoke 2>&1) || rc=$?
line=$(grep -n '^dut.rx_mode = sometimes' "$conf" | cut -d: -f1)
check "bad rx_mode refused with FILE:LINE" eval '[ "$rc" -ne 0 ] && grep -q "$conf:$line: dut.rx_mode = sometimes: expected auto, poll, adaptive or interrupt" <<<"$out"'

# the seed: make-seed writes the mode into the DUT's default startup file, and refuses a bad one
ssh-keygen -q -t ed25519 -N '' -f "$tmp/key" >/dev/null
"$top/provisioning/make-seed" --role dut --hostname d1 --ssh-key "$tmp/key.pub" \
	--mgmt-mac 52:54:00:aa:00:01 --data-mac 52:54:00:00:10:01 --isolate 1 --rx-mode adaptive \
	--out "$tmp/seed" >/dev/null
startup=$(jq -r '.write_files[] | select(.path == "/etc/vfwd/startup.conf.in") | .content' \
	< <(tail -n +2 "$tmp/seed/user-data") | base64 -d)
printf "# %s\n" "$startup"
check "make-seed: startup.conf has the workers' rx-mode" grep -q "corelist-workers 1  rx-mode adaptive" <<<"$startup"
rc=0
out=$("$top/provisioning/make-seed" --role dut --hostname d1 --ssh-key "$tmp/key.pub" \
	--mgmt-mac 52:54:00:aa:00:01 --rx-mode fast --out "$tmp/seed2" 2>&1) || rc=$?
check "make-seed: a bad --rx-mode is refused" eval '[ "$rc" -ne 0 ] && grep -q "rx-mode: .fast." <<<"$out"'

