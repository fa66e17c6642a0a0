# shellcheck shell=bash
# libvirt XML from topology data (nodes, links, CPU plan), and the KVM probe.
# Object names carry the lab's prefix (FWDLAB_NAME, default "fwdlab") so that two labs
# (a user's and a test's) never touch each other's domains, networks or bridges.

LAB_NAME=${FWDLAB_NAME:-fwdlab}
[[ $LAB_NAME =~ ^[a-z][a-z0-9]{0,7}$ ]] ||
	die "FWDLAB_NAME '$LAB_NAME': 1 to 8 lower-case letters and digits, a letter first"

dom_name() { echo "$LAB_NAME-$1"; }
mgmt_net() { echo "$LAB_NAME-mgmt"; }
mgmt_bridge() { echo "$LAB_NAME-m"; }
link_net() { echo "$LAB_NAME-link$1"; }
link_bridge() { echo "$LAB_NAME-l$1"; }

# node_mac NODE IFACE_INDEX: a stable locally administered MAC per node and interface.
node_mac() {
	local h
	h=$(printf '%s/%s/%s' "$LAB_NAME" "$1" "$2" | md5sum)
	printf '52:54:00:%s:%s:%s\n' "${h:0:2}" "${h:2:2}" "${h:4:2}"
}

xml_escape() {
	local s=$1
	s=${s//&/&amp;}
	s=${s//</&lt;}
	s=${s//>/&gt;}
	s=${s//\'/&apos;}
	printf '%s' "$s"
}

# gen_mgmt_net CONF: the management network: its own bridge with the host's address on it,
# isolated (no <forward>: libvirt rejects traffic between it and the host's other
# interfaces), no DHCP and no DNS. Guests get static addresses from their cloud-init seed
# (make-seed --mgmt-ip), so libvirt starts no dnsmasq and nothing of the lab listens on the
# bridge. Node addresses: SUBNET.<node>.mgmt_host.
gen_mgmt_net() {
	local conf=$1 subnet
	subnet=$(kv_get "$conf" mgmt_subnet 192.168.150)
	subnet=${FWDLAB_MGMT_SUBNET:-$subnet}
	cat <<EOF
<network>
  <name>$(mgmt_net)</name>
  <bridge name='$(mgmt_bridge)' stp='off' delay='0'/>
  <dns enable='no'/>
  <ip address='$subnet.1' netmask='255.255.255.0'/>
</network>
EOF
}

# gen_link_net CONF INDEX: an isolated data network: no IP, no DHCP, jumbo MTU.
gen_link_net() {
	cat <<EOF
<network>
  <name>$(link_net "$2")</name>
  <bridge name='$(link_bridge "$2")' stp='off' delay='0'/>
  <mtu size='$(kv_get "$1" data_mtu 9000)'/>
</network>
EOF
}

# node_ports CONF NODE: "INDEX PORT" per data link the node is on, in link order.
node_ports() {
	local conf=$1 node=$2 i=0 l a b
	for l in $(kv_get "$conf" links); do
		a=${l%%-*} b=${l#*-}
		[ "${a%%.*}" = "$node" ] && echo "$i ${a#*.}"
		[ "${b%%.*}" = "$node" ] && echo "$i ${b#*.}"
		i=$((i + 1))
	done
}

# gen_domain CONF NODE ACCEL DISK SEED_DIR CONSOLE_LOG KERNEL INITRD [SEED_ISO]: the node's
# domain XML. The images boot their kernel directly (images/README.md); the command line is
# the one provisioning/make-seed wrote beside the seed (SEED_DIR/cmdline, read here). The
# paths are the node's host's: SEED_ISO (default SEED_DIR/seed.iso) is the seed's there.
# A data link to a node on another host is a UDP tunnel (remote.sh), with no <mtu> (libvirt
# 9 has none for type udp; the tunnel's MTU is the underlay's less 42).
# Reads PLAN_<node>_VCPUPIN and PLAN_<node>_EMU (plan_compute).
gen_domain() {
	local conf=$1 node=$2 accel=$3 disk=$4 seed=$5 log=$6 kernel=$7 initrd=$8
	local iso=${9:-$5/seed.iso} vcpus mem pins emu p cpu driver slot idx port
	vcpus=$(node_get "$conf" "$node" vcpus 1)
	mem=$(node_get "$conf" "$node" memory_mib 1024)
	pins=PLAN_${node}_VCPUPIN emu=PLAN_${node}_EMU
	if [ "$accel" = kvm ]; then
		cpu="<cpu mode='host-passthrough' check='none'/>"
	else
		cpu="<cpu mode='maximum' check='none'/>"
	fi
	# vhost-net needs KVM's ioeventfd; under TCG QEMU's own virtio-net backend is used.
	driver="<driver name='qemu'/>"
	if [ "$accel" = kvm ] && [ -c /dev/vhost-net ]; then driver="<driver name='vhost'/>"; fi
	cat <<EOF
<domain type='$([ "$accel" = kvm ] && echo kvm || echo qemu)'>
  <name>$(dom_name "$node")</name>
  <metadata>
    <fwdlab:node xmlns:fwdlab='https://fwdlab.invalid/xmlns/1'>$node</fwdlab:node>
  </metadata>
  <memory unit='MiB'>$mem</memory>
  <memoryBacking>
    <hugepages/>
  </memoryBacking>
  <vcpu placement='static'>$vcpus</vcpu>
  <cputune>
EOF
	for p in ${!pins}; do
		printf "    <vcpupin vcpu='%s' cpuset='%s'/>\n" "${p%%:*}" "${p#*:}"
	done
	cat <<EOF
    <emulatorpin cpuset='${!emu}'/>
  </cputune>
  <os>
    <type arch='x86_64' machine='q35'>hvm</type>
    <kernel>$(xml_escape "$kernel")</kernel>
    <initrd>$(xml_escape "$initrd")</initrd>
    <cmdline>$(xml_escape "$(cat "$seed/cmdline" 2>/dev/null || echo '(written by make-seed)')")</cmdline>
  </os>
  <features>
    <acpi/>
    <apic/>
  </features>
  $cpu
  <clock offset='utc'/>
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>restart</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <emulator>/usr/bin/qemu-system-x86_64</emulator>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2' discard='unmap'/>
      <source file='$(xml_escape "$disk")'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw'/>
      <source file='$(xml_escape "$iso")'/>
      <target dev='vdb' bus='virtio'/>
      <readonly/>
    </disk>
    <interface type='network'>
      <mac address='$(node_mac "$node" 0)'/>
      <source network='$(mgmt_net)'/>
      <model type='virtio'/>
      <address type='pci' domain='0x0000' bus='0x00' slot='$(printf '0x%02x' \
		"$(kv_get "$conf" pci_slot.mgmt 3)")' function='0x0'/>
    </interface>
EOF
	while read -r idx port; do
		slot=$(kv_get "$conf" "pci_slot.$port")
		[ -n "$slot" ] || die "$TOPO_CONF: no pci_slot.$port for $node.$port"
		local hd
		hd=$(kv_get "$conf" "$node.hostdev_$port")
		if [ -n "$hd" ]; then
			# an SR-IOV VF (or a NIC function) of the host, passed through; libvirt sets its MAC
			cat <<EOF
    <interface type='hostdev' managed='yes'>
      <mac address='$(node_mac "$node" $((idx + 1)))'/>
      <source>
        <address type='pci' domain='0x${hd:0:4}' bus='0x${hd:5:2}' slot='0x${hd:8:2}' function='0x${hd:11:1}'/>
      </source>
      <address type='pci' domain='0x0000' bus='0x00' slot='$(printf '0x%02x' "$slot")' function='0x0'/>
    </interface>
EOF
			continue
		fi
		if link_is_tunnel "$idx"; then
			local la lp pa pp
			read -r la lp pa pp < <(tunnel_iface "$node" "$idx")
			cat <<EOF
    <interface type='udp'>
      <mac address='$(node_mac "$node" $((idx + 1)))'/>
      <source address='$pa' port='$pp'>
        <local address='$la' port='$lp'/>
      </source>
      <model type='virtio'/>
      <address type='pci' domain='0x0000' bus='0x00' slot='$(printf '0x%02x' "$slot")' function='0x0'/>
    </interface>
EOF
			continue
		fi
		cat <<EOF
    <interface type='network'>
      <mac address='$(node_mac "$node" $((idx + 1)))'/>
      <source network='$(link_net "$idx")'/>
      <model type='virtio'/>
      $driver
      <mtu size='$(kv_get "$conf" data_mtu 9000)'/>
      <address type='pci' domain='0x0000' bus='0x00' slot='$(printf '0x%02x' "$slot")' function='0x0'/>
    </interface>
EOF
	done < <(node_ports "$conf" "$node")
	cat <<EOF
    <serial type='pty'>
      <log file='$(xml_escape "$log")' append='on'/>
      <target type='isa-serial' port='0'/>
    </serial>
    <console type='pty'>
      <target type='serial' port='0'/>
    </console>
    <channel type='unix'>
      <target type='virtio' name='org.qemu.guest_agent.0'/>
    </channel>
    <rng model='virtio'>
      <backend model='random'>/dev/urandom</backend>
    </rng>
    <memballoon model='none'/>
  </devices>
</domain>
EOF
}

# kvm_probe: "kvm" when a KVM guest gets as far as the Linux banner within a time box,
# else "tcg". /dev/kvm alone proves nothing (on some hosts a guest hangs in the kernel
# decompressor). FWDLAB_ACCEL=kvm|tcg skips the probe.
kvm_probe() {
	local kernel out rc
	if [ -n "${FWDLAB_ACCEL:-}" ]; then
		echo "$FWDLAB_ACCEL"
		return
	fi
	if [ ! -c /dev/kvm ]; then
		echo tcg
		return
	fi
	kernel=${FWDLAB_PROBE_KERNEL:-}
	if [ -z "$kernel" ]; then
		# The lab's own image kernel first (up builds the images before it probes), then
		# the host's; either folder may be missing or empty on a fresh machine.
		local d f
		for d in "$TOP/images/out" /boot; do
			for f in "$d"/*vmlinuz*; do
				if [ -z "$kernel" ] && [ -f "$f" ] && [ -r "$f" ]; then kernel=$f; fi
			done
		done
	fi
	if [ -z "$kernel" ]; then
		# No kernel to boot: -cpu host is the next best sign (it fails at once where KVM
		# cannot run guests), with a boot ROM that halts.
		rc=0
		timeout 5 qemu-system-x86_64 -accel kvm -cpu host -m 64 -display none \
			-no-reboot -nodefaults -S -monitor none -serial none </dev/null >/dev/null 2>&1 ||
			rc=$?
		if [ "$rc" -eq 124 ]; then echo kvm; else echo tcg; fi
		return
	fi
	out=$(timeout "${FWDLAB_PROBE_SECONDS:-20}" qemu-system-x86_64 -accel kvm -cpu host -m 256 \
		-display none -no-reboot -nodefaults -serial stdio -kernel "$kernel" \
		-append 'console=ttyS0 panic=-1' </dev/null 2>/dev/null | head -c 65536 || true)
	if grep -q 'Linux version' <<<"$out"; then echo kvm; else echo tcg; fi
}
