#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # boot_lib.sh (sourced) sets and reads the boot's variables
# Boot test of the DUT image with plain qemu-system-x86_64 (q35; KVM when a time-boxed
# probe shows it works, else TCG with -cpu max) and a seed from provisioning/make-seed:
# vfwd must answer `show version` (guest agent and ssh) within the time limit, the two
# data NICs must be bound to uio_pci_generic with hugepages reserved, and vfwd must be
# restarted by systemd after a crash. Prints how long boot and provisioning took.
# TAP output. Environment: OUT (images), BOOT_LIMIT (seconds, default 900: CI machines are shared).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=boot_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot_lib.sh"
boot_need_image dut fail "run make -C images"
boot_tmp fwdlab-boot
ssh_port=$(free_port tcp) # ssh (hostfwd)
mgmt_mac=52:54:00:f0:00:01
data0=52:54:00:f0:10:01
data1=52:54:00:f0:10:02

ssh-keygen -q -t ed25519 -N '' -C fwdlab-boot-test -f "$tmp/id" </dev/null
"$top/tests/lib/vfwd-conf" setup "$tmp/setup.cli" --addr4
"$top/provisioning/make-seed" --role dut --hostname dut-boot-test --ssh-key "$tmp/id.pub" \
	--mgmt-mac "$mgmt_mac" --data-mac "$data0" --data-mac "$data1" --vfwd-setup "$tmp/setup.cli" \
	--hugepages 256 --isolate 1 --out "$tmp/seed" >/dev/null
boot_qemu dut "$mgmt_mac" \
	-netdev hubport,id=d0,hubid=1 -device "virtio-net-pci,netdev=d0,mac=$data0" \
	-netdev hubport,id=d1,hubid=1 -device "virtio-net-pci,netdev=d1,mac=$data1"

# 1. the guest agent answers
boot_wait_agent dut_boots_and_guest_agent_answers

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
boot_restarted vfwd_is_restarted_after_a_crash vfwd.service 60 1 guest /usr/local/bin/vfwdctl show version

echo "# figures: accel=$accel boot_to_agent=${agent_at}s boot_to_vfwd_ready=${ready_at:-never}s (target <= 90 s under TCG)"
echo "1..$n"
