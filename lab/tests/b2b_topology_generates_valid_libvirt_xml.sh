#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# The b2b topology data generates libvirt XML that libvirt's schema accepts, with the
# properties the lab promises: isolated data networks (no IP, no DHCP, MTU 9000), an
# isolated management network (static guest addresses: no DHCP, no DNS, no forward),
# q35, pinning, hugepage backing, guest agent, serial log.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_NAME=xmltest
"$top/lab/fwdlab" --topology b2b xml "$tmp/xml" >/dev/null 2>&1
for f in "$tmp"/xml/*.xml; do
	check "$(basename "$f") validates against libvirt's schema" virt-xml-validate "$f"
done
x=$tmp/xml
check "data link has no ip and no dhcp" eval '! grep -Eq "<ip|<dhcp" "$x/link0.xml"'
check "data link has mtu 9000" grep -q "<mtu size='9000'/>" "$x/link1.xml"
check "data link has its own bridge" grep -q "<bridge name='xmltest-l1'" "$x/link1.xml"
check "mgmt network is isolated: host address, no dhcp, no dns, no forward" \
	eval 'grep -q "<ip address=.192.168.150.1. netmask=.255.255.255.0./>" "$x/mgmt.xml" &&
		grep -q "<dns enable=.no./>" "$x/mgmt.xml" && ! grep -Eq "<dhcp|<forward" "$x/mgmt.xml"'
check "domain is q35" grep -q "machine='q35'" "$x/dut.xml"
check "domain memory is hugepage-backed" grep -q '<hugepages/>' "$x/dut.xml"
check "domain pins vCPUs and emulator" eval 'grep -q "<vcpupin vcpu=.1." "$x/tg.xml" && grep -q "<emulatorpin" "$x/tg.xml"'
check "tcg domain uses cpu mode maximum" grep -q "<cpu mode='maximum'" "$x/tg.xml"
check "domain has the guest agent channel" grep -q 'org.qemu.guest_agent.0' "$x/dut.xml"
check "serial console logs to a file" grep -q "<log file='$tmp/state/dut-console.log'" "$x/dut.xml"
check "dut port0 sits at pci slot 4" eval 'grep -A5 "xmltest-link0" "$x/dut.xml" | grep -q "slot=.0x04."'
FWDLAB_ACCEL=kvm "$top/lab/fwdlab" --topology b2b xml "$tmp/kvm" >/dev/null 2>&1
check "kvm domain is type kvm with host-passthrough" \
	eval 'grep -q "<domain type=.kvm.>" "$tmp/kvm/dut.xml" && grep -q host-passthrough "$tmp/kvm/dut.xml"'
