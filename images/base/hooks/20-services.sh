#!/usr/bin/env bash
# Units: networkd renders cloud-init's management network; background jobs that would
# disturb a benchmark (apt timers, scrubbing, trimming) are masked, and so are units
# that only cost boot time here: dpdk.service (Debian's binding from /etc/dpdk, which
# fwdlab-dataplane replaces), binfmt, and gettys on virtual consoles (the VMs have
# none; the serial console ttyS0 keeps its getty).
set -euo pipefail
root=$1
chroot "$root" systemctl enable systemd-networkd.service fwdlab-ssh-hostkeys.service \
	fwdlab-dataplane.service
# cloud-init runs on every boot, whatever its systemd generator managed: the generator
# links cloud-init.target only once ds-identify has found the seed, and under TCG on a
# loaded host ds-identify outlasted systemd's wait for generators, so a guest came up with
# no address, no key and no data plane (CI failed so; topologies/README.md). A static link
# does not depend on it; cloud-init's own datasource_list (NoCloud, then None) finds the seed.
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sfn /lib/systemd/system/cloud-init.target \
	"$root/etc/systemd/system/multi-user.target.wants/cloud-init.target"
chroot "$root" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
	e2scrub_reap.service fstrim.timer systemd-networkd-wait-online.service dpdk.service \
	systemd-binfmt.service proc-sys-fs-binfmt_misc.automount getty@.service autovt@.service \
	2>/dev/null
