#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later; plan.env is generated
# The b2b topology data generates libvirt XML that libvirt's schema accepts, with the
# properties the lab promises: isolated data networks (no IP, no DHCP, MTU 9000), an
# isolated management network (static guest addresses: no DHCP, no DNS, no forward),
# q35, pinning, hugepage backing, guest agent, serial log. A link between two passthrough
# ports (NODE.hostdev_PORT: an SR-IOV VF of the host each) is `<interface type='hostdev'>` at
# the port's guest slot with the lab's MAC, and has no network; the other link is unchanged
# (the XML only: no NIC to pass through here).
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
{ cat "$top/topologies/b2b/topology.conf"; echo "tg.hostdev_port0 = 0000:03:10.0"
	echo "dut.hostdev_port0 = 0000:03:10.2"; } >"$tmp/hostdev.conf"
FWDLAB_TOPOLOGY_CONF=$tmp/hostdev.conf "$top/lab/fwdlab" --topology b2b xml "$tmp/hd" >/dev/null 2>&1
h=$tmp/hd
for f in "$h"/*.xml; do
	check "hostdev: $(basename "$f") validates against libvirt's schema" virt-xml-validate "$f"
done
check "hostdev: dut port0 is the host's VF 0000:03:10.2 at guest slot 4, with the lab's MAC" \
	eval 'grep -A6 "<interface type=.hostdev. managed=.yes.>" "$h/dut.xml" | tr -d "\n" | grep -Eq "<mac address=.52:54:00:[0-9a-f:]{8}./> *<source> *<address type=.pci. domain=.0x0000. bus=.0x03. slot=.0x10. function=.0x2./> *</source> *<address type=.pci. domain=.0x0000. bus=.0x00. slot=.0x04. function=.0x0./>"'
check "hostdev: tg port0 is 0000:03:10.0" grep -q "bus='0x03' slot='0x10' function='0x0'" "$h/tg.xml"
check "hostdev: the passthrough link has no network, the other keeps its own" \
	eval '[ ! -e "$h/link0.xml" ] && [ -s "$h/link1.xml" ] && ! grep -q "hdtest-link0\|xmltest-link0" "$h/dut.xml" && grep -q "xmltest-link1" "$h/dut.xml"'
