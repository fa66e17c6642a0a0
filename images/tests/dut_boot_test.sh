#!/usr/bin/env bash
# Boot test of the DUT image with plain qemu-system-x86_64 (q35; KVM when a time-boxed
# probe shows it works, else TCG with -cpu max) and a seed from provisioning/make-seed:
# vfwd must answer `show version` (guest agent and ssh) within the time limit, the two
# data NICs must be bound to uio_pci_generic with hugepages reserved, and vfwd must be
# restarted by systemd after a crash. Prints how long boot and provisioning took.
# TAP output. Environment: OUT (images), BOOT_LIMIT (seconds, default 900: CI machines are shared).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
images=$(cd "$here/.." && pwd)
top=$(cd "$images/.." && pwd)
out=${OUT:-$images/out}
limit=${BOOT_LIMIT:-900}
qga=$here/qga

n=0
tap() { # ok|fail NAME [why]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2${3:+ # $3}"; fi
}

for f in dut.qcow2 dut.vmlinuz dut.initrd dut.manifest.json; do
	if [ ! -f "$out/$f" ]; then
		echo "not ok 1 - dut_image_exists # $out/$f missing: run make -C images"
		exit 1
	fi
done

tmp=$(mktemp -d /tmp/fwdlab-boot.XXXXXX)
qpid=""
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 0.5; done
		kill -9 "$qpid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# A free TCP port on the loopback for ssh (hostfwd).
ssh_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mgmt_mac=52:54:00:f0:00:01
data0=52:54:00:f0:10:01
data1=52:54:00:f0:10:02

ssh-keygen -q -t ed25519 -N '' -C fwdlab-boot-test -f "$tmp/id" </dev/null
"$top/tests/lib/vfwd-conf" setup "$tmp/setup.cli" --addr4
"$top/provisioning/make-seed" --role dut --hostname dut-boot-test --ssh-key "$tmp/id.pub" \
	--mgmt-mac "$mgmt_mac" --data-mac "$data0" --data-mac "$data1" --vfwd-setup "$tmp/setup.cli" \
	--hugepages 256 --isolate 1 --out "$tmp/seed" >/dev/null
qemu-img create -q -f qcow2 -F qcow2 -b "$out/dut.qcow2" "$tmp/disk.qcow2"

accel=$("$images/lib/accel-probe" "$out/dut.vmlinuz" "$out/dut.initrd" 20)
if [ "$accel" = kvm ]; then cpu=(-accel kvm -cpu host); else cpu=(-accel tcg -cpu max); fi
echo "# accelerator: $accel; cmdline: $(cat "$tmp/seed/cmdline")"

t0=$(date +%s.%N)
qemu-system-x86_64 "${cpu[@]}" -machine q35 -smp 2 -m 2048 -nodefaults -display none \
	-no-reboot -kernel "$out/dut.vmlinuz" -initrd "$out/dut.initrd" \
	-append "$(cat "$tmp/seed/cmdline") panic=-1" \
	-drive "file=$tmp/disk.qcow2,if=virtio,format=qcow2" \
	-drive "file=$tmp/seed/seed.iso,if=virtio,format=raw,readonly=on" \
	-netdev "user,id=mgmt,hostfwd=tcp:127.0.0.1:$ssh_port-:22" \
	-device "virtio-net-pci,netdev=mgmt,mac=$mgmt_mac" \
	-netdev hubport,id=d0,hubid=1 -device "virtio-net-pci,netdev=d0,mac=$data0" \
	-netdev hubport,id=d1,hubid=1 -device "virtio-net-pci,netdev=d1,mac=$data1" \
	-chardev "socket,id=qga,path=$tmp/qga.sock,server=on,wait=off" \
	-device virtio-serial-pci -device virtserialport,chardev=qga,name=org.qemu.guest_agent.0 \
	-serial "file:$tmp/console.log" >"$tmp/qemu.log" 2>&1 &
qpid=$!

elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)"; }
guest() { "$qga" --timeout 30 "$tmp/qga.sock" exec "$@"; }
dump_console() {
	echo "# ---- last console lines"
	tail -n 40 "$tmp/console.log" 2>/dev/null | sed 's/^/# /'
	sed 's/^/# qemu: /' "$tmp/qemu.log"
}

# 1. the guest agent answers
agent_at=""
while [ "$(elapsed | cut -d. -f1)" -lt "$limit" ] && kill -0 "$qpid" 2>/dev/null; do
	if "$qga" --timeout 3 "$tmp/qga.sock" ping 2>/dev/null; then agent_at=$(elapsed); break; fi
	sleep 1
done
if [ -z "$agent_at" ]; then
	tap fail dut_boots_and_guest_agent_answers "no agent after ${limit}s"
	dump_console
	exit 1
fi
tap ok "dut_boots_and_guest_agent_answers (${agent_at}s, $accel)"

# 2. vfwd answers show version (started by fwdlab-dataplane.service from the seed)
version="" ready_at=""
while [ "$(elapsed | cut -d. -f1)" -lt "$limit" ]; do
	if version=$(guest /usr/local/bin/vfwdctl show version 2>/dev/null) && [ -n "$version" ]; then
		ready_at=$(elapsed)
		break
	fi
	sleep 1
done
want_rev=$(jq -r '.payload.build_info.git_rev' "$out/dut.manifest.json")
if [ -n "$ready_at" ] && grep -qF "$want_rev" <<<"$version"; then
	tap ok "vfwd_answers_show_version_through_guest_agent (${ready_at}s after qemu started)"
else
	tap fail vfwd_answers_show_version_through_guest_agent \
		"got '${version//$'\n'/ }', want git_rev $want_rev"
	guest /bin/systemctl status --no-pager fwdlab-dataplane vfwd 2>&1 | sed 's/^/# /' || true
	guest /bin/journalctl -b --no-pager -u fwdlab-dataplane -u vfwd -u cloud-init 2>&1 |
		tail -n 40 | sed 's/^/# /' || true
	dump_console
fi
printf '%s\n' "$version" | sed 's/^/# vfwd: /'

# 3. data NICs bound to uio_pci_generic, hugepages reserved (the DPDK data path can run)
ports=$(guest /bin/cat /run/fwdlab/ports 2>/dev/null || true)
drivers=""
while read -r _ _ pci _; do
	[ -n "$pci" ] || continue
	drivers+="$(guest /usr/bin/readlink -f "/sys/bus/pci/devices/$pci/driver" | xargs basename) "
done <<<"$ports"
huge=$(guest /bin/grep HugePages_Total /proc/meminfo | awk '{ print $2 }')
if grep -q "^port0 $data0 " <<<"$ports" && grep -q "^port1 $data1 " <<<"$ports" &&
	[ "$drivers" = "uio_pci_generic uio_pci_generic " ] && [ "${huge:-0}" -ge 256 ]; then
	tap ok "data_nics_bound_to_uio_pci_generic_with_hugepages_reserved ($huge x 2M)"
else
	tap fail data_nics_bound_to_uio_pci_generic_with_hugepages_reserved \
		"ports '${ports//$'\n'/; }' drivers '$drivers' hugepages '$huge'"
fi

# 4. vfwd has taken both ports (DPDK opened the bound NICs)
ifs=$(guest /usr/local/bin/vfwdctl show interfaces 2>&1 || true)
if grep -q port0 <<<"$ifs" && grep -q port1 <<<"$ifs"; then
	tap ok vfwd_runs_both_data_nics_through_dpdk
else
	tap fail vfwd_runs_both_data_nics_through_dpdk "show interfaces: ${ifs//$'\n'/; }"
fi
printf '%s\n' "$ifs" | sed 's/^/# /'

# 5. ssh with the lab's key (and only a key)
sshopt=(-i "$tmp/id" -p "$ssh_port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	-o BatchMode=yes -o ConnectTimeout=20 -o LogLevel=ERROR)
ssh_ver=""
for _ in $(seq 1 30); do
	ssh_ver=$(ssh "${sshopt[@]}" root@127.0.0.1 vfwdctl show version 2>/dev/null) && break
	sleep 2
done
pw_auth=$(ssh "${sshopt[@]}" root@127.0.0.1 sshd -T 2>/dev/null | awk '$1 == "passwordauthentication" { print $2 }')
if [ -n "$ssh_ver" ] && [ "$pw_auth" = no ]; then
	tap ok ssh_with_the_lab_key_reaches_vfwd_and_passwords_are_refused
else
	tap fail ssh_with_the_lab_key_reaches_vfwd_and_passwords_are_refused \
		"ssh show version '$ssh_ver', passwordauthentication '$pw_auth'"
fi

# 6. systemd restarts vfwd when it dies
pid1=$(guest /bin/systemctl show -p MainPID --value vfwd.service)
guest /bin/kill -9 "$pid1" >/dev/null 2>&1 || true
restarted=""
for _ in $(seq 1 60); do
	sleep 1
	pid2=$(guest /bin/systemctl show -p MainPID --value vfwd.service 2>/dev/null || true)
	if [ -n "$pid2" ] && [ "$pid2" != 0 ] && [ "$pid2" != "$pid1" ] &&
		guest /usr/local/bin/vfwdctl show version >/dev/null 2>&1; then
		restarted=yes
		break
	fi
done
if [ -n "$restarted" ]; then
	tap ok "vfwd_is_restarted_after_a_crash (pid $pid1 -> $pid2)"
else
	tap fail vfwd_is_restarted_after_a_crash "MainPID was $pid1, now ${pid2:-?}"
fi

echo "# figures: accel=$accel boot_to_agent=${agent_at}s boot_to_vfwd_ready=${ready_at:-never}s (target <= 90 s under TCG)"
echo "1..$n"
