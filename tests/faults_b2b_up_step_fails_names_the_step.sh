#!/usr/bin/env bash
# `make lab` (fwdlab up, b2b) with one step made to fail for real, twice, and no guest boot:
#   libvirtd not answering -> the nodes' libvirt URI names a socket nobody serves: up stops
#                             before it defines anything, naming the URI and virsh's error
#   disk full              -> the lab folder is an almost full tmpfs: up stops at the step
#                             that could not write (the node's overlay disk), saying how
#                             much space is left; `down` then removes the networks, bridges
#                             and hugepages it had made
# Each failure ends with a `fwdlab: error:` line naming the step (never make's bare
# "Error 1" alone) and a non-zero exit. The images are stand-ins (an empty qcow2 and a
# kernel file): no guest is started, so the test is fast and KVM is not probed.
# shellcheck disable=SC2016,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
chmod 0755 "$tmp"
export FWDLAB_NAME=fwfail FWDLAB_MGMT_SUBNET=192.168.158 FWDLAB_ACCEL=tcg FWDLAB_NO_INSTALL=1
export TOPOLOGY=b2b FWDLAB_RESULTS=$tmp/results
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
hp_before=$(cat "$hp")
cleanup() {
	"$top/lab/fwdlab" down >/dev/null 2>&1 || true
	if mountpoint -q "$tmp/full"; then umount "$tmp/full"; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/img"
for n in tg dut; do
	qemu-img create -q -f qcow2 "$tmp/img/$n.qcow2" 64M
	echo "stand-in kernel" >"$tmp/img/$n.vmlinuz"
	echo "stand-in initrd" >"$tmp/img/$n.initrd"
done
# topo URI: the b2b topology with small guests, stand-in images and the given URI.
topo() {
	sed -e "s|^\([a-z]*\)\.image = .*|\1.image = $tmp/img/\1.qcow2|" \
		-e 's|^\([a-z]*\)\.memory_mib = .*|\1.memory_mib = 128|' \
		-e "s|^\([a-z]*\)\.uri = .*|\1.uri = $1|" "$top/topologies/b2b/topology.conf"
}
# make_lab LOG: `make lab` as a user types it; its exit status.
make_lab() {
	local rc=0
	make -s -C "$top" lab LAB_ARGS="--smoke" >"$1" 2>&1 || rc=$?
	sed 's/^/#   /' "$1" | grep -Ev '^#   (EAL|VIRTIO|VHOST)' | tail -n 8
	return "$rc"
}
# make_lab_fails CASE LOG: `make lab` with the FWDLAB_* exported now fails (checked).
make_lab_fails() {
	local rc=0
	make_lab "$2" || rc=$?
	check "$1: make lab fails ($rc)" [ "$rc" -ne 0 ]
}
lab_objects() {
	virsh -q list --all --name | grep "^$FWDLAB_NAME-" || true
	virsh -q net-list --all --name | grep "^$FWDLAB_NAME-" || true
	ip -o link show | awk -F': ' '{ print $2 }' | grep "^$FWDLAB_NAME-" || true
}

# ---- libvirtd not answering --------------------------------------------------------------
dead="qemu:///system?socket=$tmp/nobody-serves-this.sock"
topo "$dead" >"$tmp/dead.conf"
export FWDLAB_STATE=$tmp/lab-dead FWDLAB_TOPOLOGY_CONF=$tmp/dead.conf
make_lab_fails "libvirtd not answering" "$tmp/dead.log"
check "libvirtd not answering: the error names the URI and what virsh said" \
	eval 'grep -qF "fwdlab: error: libvirt at $dead does not answer (virsh: " "$tmp/dead.log"'
check "libvirtd not answering: a fwdlab error line comes before make's own" \
	eval 'grep -n "" "$tmp/dead.log" | grep -E "fwdlab: error:|\*\*\*" | head -n1 | grep -q "fwdlab: error:"'
check "libvirtd not answering: nothing of the lab was defined" eval '[ -z "$(lab_objects)" ]'
"$top/lab/fwdlab" down >/dev/null 2>&1 || true
check "libvirtd not answering: down gives the hugepages back" [ "$(cat "$hp")" -eq "$hp_before" ]

# ---- the lab's disk full -----------------------------------------------------------------
topo qemu:///system >"$tmp/full.conf"
mkdir -p "$tmp/full"
mount -t tmpfs -o size=128k,mode=0755 fwfail "$tmp/full"
export FWDLAB_STATE=$tmp/full/lab FWDLAB_TOPOLOGY_CONF=$tmp/full.conf
make_lab_fails "disk full" "$tmp/full.log"
check "disk full: the error names the step (the node's disk) and the space left" \
	eval 'grep -Eq "fwdlab: error: creating (tg|dut).s disk $FWDLAB_STATE/(tg|dut).qcow2 failed \(qemu-img above; [0-9.]+[KMG]? free in $FWDLAB_STATE\)" "$tmp/full.log"'
check "disk full: no half-made overlay disk is left" \
	eval '[ -z "$(find "$FWDLAB_STATE" -name "*.qcow2" -size -1k)" ]'
rc=0
"$top/lab/fwdlab" down >"$tmp/down.log" 2>&1 || rc=$?
sed 's/^/#   /' "$tmp/down.log"
check "disk full: down succeeds ($rc) and leaves no domain, network or bridge of the lab" \
	eval '[ "$rc" -eq 0 ] && [ -z "$(lab_objects)" ]'
check "disk full: down gives the hugepages back" [ "$(cat "$hp")" -eq "$hp_before" ]
exit "$TAP_FAILED"
