#!/usr/bin/env bash
# Nothing that identifies one machine is baked in: machine-id, ssh host keys, random
# seed and hostname are made at first boot (systemd, cloud-init). The build host's
# resolv.conf and hostname (copied by mmdebstrap) are replaced by fixed contents.
set -euo pipefail
root=$1
: >"$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id" "$root/var/lib/systemd/random-seed"
rm -f "$root"/etc/ssh/ssh_host_*
printf 'fwdlab-%s\n' "$FWDLAB_ROLE" >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
printf '# the lab has no DNS; cloud-init/networkd may replace this file\n' >"$root/etc/resolv.conf"
# root stays locked (no password); logins are by ssh key or through the guest agent.
grep -q '^root:[*!]' "$root/etc/shadow" || { echo "10-identity: root has a password" >&2; exit 1; }
rm -rf "${root:?}"/var/lib/cloud/* "$root"/var/log/journal/*
