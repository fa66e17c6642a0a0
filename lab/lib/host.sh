# shellcheck shell=bash
# Host resources: libvirtd without an init system, hugetlbfs, 2 MB hugepages (host-setup,
# down, and the b2b driver).

init_system_runs() {
	[ "$(ps -p 1 -o comm= 2>/dev/null)" = systemd ] || [ -d /run/systemd/system ]
}

# libvirt_state_dirs: the folders that Debian's packages, systemd units and tmpfiles give
# libvirt on a machine with an init system (owner, group, mode). Without one nothing makes
# them, and `virsh start` of a domain on a libvirt network fails (dnsmasq's folder).
libvirt_state_dirs() {
	local spec path owner mode qemu_user=libvirt-qemu
	id "$qemu_user" >/dev/null 2>&1 || qemu_user=root
	for spec in /var/lib/libvirt:root:0755 /var/lib/libvirt/dnsmasq:root:0755 \
		/var/lib/libvirt/network:root:0700 /var/lib/libvirt/images:root:0711 \
		/var/lib/libvirt/boot:root:0711 /var/lib/libvirt/qemu:$qemu_user:0750 \
		/var/lib/libvirt/qemu/channel:$qemu_user:0750 \
		/var/lib/libvirt/qemu/channel/target:$qemu_user:0750 \
		/var/cache/libvirt:root:0711 /var/cache/libvirt/qemu:root:0711 \
		/var/log/libvirt:root:0755 /var/log/libvirt/qemu:root:0755 \
		/run/libvirt:root:0755 /run/libvirt/qemu:root:0755 /run/libvirt/network:root:0755; do
		IFS=: read -r path owner mode <<<"$spec"
		[ -d "$path" ] && continue
		mkdir -p "$path" || die "host-setup: cannot create libvirt's folder $path"
		if ! chown "$owner:$owner" "$path" || ! chmod "$mode" "$path"; then
			die "host-setup: cannot set owner $owner, mode $mode on $path"
		fi
		say "host-setup: created $path ($owner, $mode), as an init system would"
	done
}

libvirt_start() {
	if ! command -v virsh >/dev/null || ! command -v libvirtd >/dev/null; then
		die "libvirt is not installed (make deps, or fwdlab host-setup without --no-install)"
	fi
	libvirt_state_dirs
	if virsh -c qemu:///system version >/dev/null 2>&1; then
		if ! grep -q ' hugetlbfs ' /proc/mounts && ! init_system_runs &&
			[ -s /run/libvirtd.pid ]; then
			# libvirtd finds hugetlbfs mounts when it starts: mount, then restart it.
			hugetlbfs_mount
			say "restarting libvirtd so that it sees hugetlbfs"
			kill -TERM "$(cat /run/libvirtd.pid)"
			wait_until 30 "libvirtd to stop" test ! -e /run/libvirtd.pid || true
			libvirtd -d || die "libvirtd -d failed"
			wait_until 30 libvirtd virsh -c qemu:///system version ||
				die "libvirtd does not answer on qemu:///system"
		fi
		return 0
	fi
	if init_system_runs; then
		systemctl start virtlogd libvirtd || die "systemctl start libvirtd failed"
	else
		hugetlbfs_mount
		pgrep -x virtlogd >/dev/null || virtlogd -d || die "virtlogd -d failed"
		pgrep -x libvirtd >/dev/null || libvirtd -d || die "libvirtd -d failed"
	fi
	wait_until 30 libvirtd virsh -c qemu:///system version ||
		die "libvirtd does not answer on qemu:///system"
}

hugetlbfs_mount() {
	if ! grep -q ' hugetlbfs ' /proc/mounts; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs hugetlbfs /dev/hugepages || warn "cannot mount hugetlbfs"
	fi
}

# hugepages_reserve N: adds N 2 MB pages to the pool; down gives back what we added.
hugepages_reserve() {
	local want=$1 f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages have got added
	have=$(cat "$f")
	added=$(cat "$STATE/hugepages" 2>/dev/null || echo 0)
	if [ "$added" -ge "$want" ]; then return 0; fi
	echo $((have + want - added)) >"$f"
	got=$(cat "$f")
	mkdir -p "$STATE"
	echo $((added + got - have)) >"$STATE/hugepages"
	if [ $((got - have)) -lt $((want - added)) ]; then
		die "asked for $want hugepages of 2 MB, the kernel gave $((added + got - have))"
	fi
	hugetlbfs_mount
	say "reserved $want hugepages of 2 MB ($(cat "$f") in the pool)"
}

hugepages_release() {
	local f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages added have
	[ -s "$STATE/hugepages" ] || return 0
	added=$(cat "$STATE/hugepages")
	have=$(cat "$f")
	if [ "$added" -gt 0 ]; then
		echo $((have > added ? have - added : 0)) >"$f"
		say "released $added hugepages ($(cat "$f") left in the pool)"
	fi
	rm -f "$STATE/hugepages"
}

