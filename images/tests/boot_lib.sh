# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # variables are used (ssh_port: set) by the sourcing boot tests
# Shared by the DUT boot tests (dut_boot_test.sh, dut_vpp_boot_test.sh; sourced): a DUT image
# booted by plain qemu-system-x86_64 (q35; KVM when a time-boxed probe shows it works, else
# TCG with -cpu max; no libvirt) with a seed from provisioning/make-seed, reached through the
# QEMU guest agent and ssh. Environment: OUT (images, default images/out), BOOT_LIMIT
# (seconds, default 900: CI machines are shared).
# Sets: here, images, top, out, limit, qga, n, tmp, qpid, ssh_port, accel, t0.
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

boot_need_image() { # ROLE fail|skip HINT: the image's four files, else a failure or a skip
	local f
	for f in "$1.qcow2" "$1.vmlinuz" "$1.initrd" "$1.manifest.json"; do
		[ -f "$out/$f" ] && continue
		if [ "$2" = skip ]; then
			echo "1..0 # SKIP $out/$f missing: $3"
			exit 0
		fi
		echo "not ok 1 - $1_image_exists # $out/$f missing: $3"
		exit 1
	done
}

boot_tmp() { # NAME: the test's folder /tmp/NAME.XXXXXX, removed (QEMU stopped first) at exit
	tmp=$(mktemp -d "/tmp/$1.XXXXXX")
	qpid=""
	trap boot_cleanup EXIT
}
boot_cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 0.5; done
		kill -9 "$qpid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}

free_port() { # udp|tcp: a free port on the loopback
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1]=="udp" else socket.SOCK_STREAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "$1"
}

# boot_qemu ROLE MGMT_MAC QEMU_ARGS...: boots $out/ROLE.* from the seed in $tmp/seed on an
# overlay disk, ssh forwarded from 127.0.0.1:$ssh_port, the guest agent on $tmp/qga.sock,
# the console in $tmp/console.log; QEMU_ARGS (the data NICs, after the management NIC) are
# the test's. Sets accel, t0 and qpid.
boot_qemu() {
	local role=$1 mgmt_mac=$2 cpu
	shift 2
	qemu-img create -q -f qcow2 -F qcow2 -b "$out/$role.qcow2" "$tmp/disk.qcow2"
	accel=$("$images/lib/accel-probe" "$out/$role.vmlinuz" "$out/$role.initrd" 20)
	if [ "$accel" = kvm ]; then cpu=(-accel kvm -cpu host); else cpu=(-accel tcg -cpu max); fi
	echo "# accelerator: $accel; cmdline: $(cat "$tmp/seed/cmdline")"
	t0=$(date +%s.%N)
	qemu-system-x86_64 "${cpu[@]}" -machine q35 -smp 2 -m 2048 -nodefaults -display none \
		-no-reboot -kernel "$out/$role.vmlinuz" -initrd "$out/$role.initrd" \
		-append "$(cat "$tmp/seed/cmdline") panic=-1" \
		-drive "file=$tmp/disk.qcow2,if=virtio,format=qcow2" \
		-drive "file=$tmp/seed/seed.iso,if=virtio,format=raw,readonly=on" \
		-netdev "user,id=mgmt,hostfwd=tcp:127.0.0.1:$ssh_port-:22" \
		-device "virtio-net-pci,netdev=mgmt,mac=$mgmt_mac" \
		"$@" \
		-chardev "socket,id=qga,path=$tmp/qga.sock,server=on,wait=off" \
		-device virtio-serial-pci -device virtserialport,chardev=qga,name=org.qemu.guest_agent.0 \
		-serial "file:$tmp/console.log" >"$tmp/qemu.log" 2>&1 &
	qpid=$!
}

elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)"; }
guest() { "$qga" --timeout 30 "$tmp/qga.sock" exec "$@"; }
dump_console() {
	echo "# ---- last console lines"
	tail -n 40 "$tmp/console.log" 2>/dev/null | sed 's/^/# /'
	sed 's/^/# qemu: /' "$tmp/qemu.log"
}

# boot_wait_agent NAME: test NAME passes when the guest agent answers within $limit s
# (agent_at: when); else it fails, the console is shown and the test ends.
boot_wait_agent() {
	agent_at=""
	while [ "$(elapsed | cut -d. -f1)" -lt "$limit" ] && kill -0 "$qpid" 2>/dev/null; do
		if "$qga" --timeout 3 "$tmp/qga.sock" ping 2>/dev/null; then agent_at=$(elapsed); break; fi
		sleep 1
	done
	if [ -z "$agent_at" ]; then
		tap fail "$1" "no agent after ${limit}s"
		dump_console
		echo "1..$n"
		exit 1
	fi
	tap ok "$1 (${agent_at}s, $accel)"
}

# boot_restarted NAME UNIT TRIES PAUSE CMD...: kill -9 UNIT's main process in the guest; test
# NAME passes when systemd started a new one and CMD succeeds, within TRIES x PAUSE s.
boot_restarted() {
	local name=$1 unit=$2 tries=$3 pause=$4 pid1 pid2="" restarted=""
	shift 4
	pid1=$(guest /bin/systemctl show -p MainPID --value "$unit" | tr -d '\r')
	guest /bin/kill -9 "$pid1" >/dev/null 2>&1 || true
	for _ in $(seq 1 "$tries"); do
		sleep "$pause"
		pid2=$(guest /bin/systemctl show -p MainPID --value "$unit" 2>/dev/null | tr -d '\r' || true)
		if [ -n "$pid2" ] && [ "$pid2" != 0 ] && [ "$pid2" != "$pid1" ] && "$@" >/dev/null 2>&1; then
			restarted=yes
			break
		fi
	done
	if [ -n "$restarted" ]; then
		tap ok "$name (pid $pid1 -> $pid2)"
	else
		tap fail "$name" "MainPID was $pid1, now ${pid2:-?}"
	fi
}
