#!/usr/bin/env bash
# Checks on the built images without booting them: size within 1 GiB, manifest
# complete and matching the files, the payload installed byte for byte, no identity
# baked in (empty machine-id, no ssh host keys, root locked), units in place.
# TAP output. Environment: OUT (default images/out).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
images=$(cd "$here/.." && pwd)
out=${OUT:-$images/out}
tmp=$(mktemp -d /tmp/fwdlab-static.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0
tap() { # ok|fail NAME [why]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2${3:+ # $3}"; fi
}
check() { # NAME COMMAND... : ok when COMMAND succeeds, else its output is the reason
	local name=$1 why
	shift
	if why=$("$@" 2>&1); then tap ok "$name"; else tap fail "$name" "${why//$'\n'/; }"; fi
}

fs() { debugfs -R "$2" "$tmp/$1.raw" 2>/dev/null; }

size_ok() { # ROLE
	local b
	b=$(stat -c %s "$out/$1.qcow2")
	[ "$b" -le $((1 << 30)) ] || { echo "$1.qcow2 is $b bytes"; return 1; }
	echo "$1.qcow2: $((b >> 20)) MiB"
}
manifest_ok() { # ROLE PACKAGE...
	local role=$1 m=$out/$1.manifest.json f p
	shift
	for f in "$role.qcow2" "$role.vmlinuz" "$role.initrd"; do
		[ "$(jq -r --arg f "$f" '.outputs[$f].sha256' "$m")" = "$(sha256sum <"$out/$f" | cut -d' ' -f1)" ] ||
			{ echo "manifest sha256 of $f does not match the file"; return 1; }
	done
	for p in "$@"; do
		jq -e --arg p "$p" '.packages[$p] | strings' "$m" >/dev/null || { echo "no package $p"; return 1; }
	done
	jq -e '.payload.build_info.name and .payload.build_info.git_rev and .source_date_epoch' "$m" >/dev/null ||
		{ echo "payload build-info or source_date_epoch missing"; return 1; }
}
no_identity() { # ROLE
	# Each file is read whole before it is searched: `debugfs | grep -q` under pipefail
	# can fail when grep exits early and debugfs dies of SIGPIPE.
	local r=$1 sshdir shadow sshd
	sshdir=$(fs "$r" 'ls -l /etc/ssh')
	shadow=$(fs "$r" 'cat /etc/shadow')
	sshd=$(fs "$r" 'cat /etc/ssh/sshd_config.d/fwdlab.conf')
	[ -z "$(fs "$r" 'cat /etc/machine-id')" ] || { echo "machine-id is not empty"; return 1; }
	[[ $sshdir != *ssh_host_* ]] || { echo "ssh host keys baked in"; return 1; }
	grep -q '^root:[*!]' <<<"$shadow" || { echo "root has a password"; return 1; }
	! awk -F: '$2 !~ /^[*!]/' <<<"$shadow" | grep -q . || { echo "an account has a password"; return 1; }
	grep -q '^PasswordAuthentication no' <<<"$sshd" || { echo "sshd allows passwords"; return 1; }
}
payload_ok() { # ROLE PREFIX FILE... : files match the build-info the manifest recorded
	local r=$1 prefix=$2 f want got
	shift 2
	fs "$r" "dump $prefix/build-info.json $tmp/f" >/dev/null
	[ "$(jq -S . "$tmp/f")" = "$(jq -S .payload.build_info "$out/$r.manifest.json")" ] ||
		{ echo "$prefix/build-info.json differs from the manifest's"; return 1; }
	for f in "$@"; do
		want=$(jq -r --arg f "$f" '.payload.build_info.artifacts[$f] // empty' "$out/$r.manifest.json")
		[ -n "$want" ] || { echo "build-info.json has no artifact $f"; return 1; }
		fs "$r" "dump $prefix/$f $tmp/f" >/dev/null
		got=$(sha256sum <"$tmp/f" | cut -d' ' -f1)
		[ "$got" = "$want" ] || { echo "$prefix/$f differs from the build"; return 1; }
	done
}
units_ok() { # ROLE UNIT... (enabled: linked in multi-user.target.wants, or present)
	local r=$1 u
	shift
	for u in "$@"; do
		fs "$r" "stat /etc/systemd/system/$u" | grep -q 'Type: regular' ||
			{ echo "/etc/systemd/system/$u missing"; return 1; }
	done
	fs "$r" 'ls /etc/systemd/system/multi-user.target.wants' | grep -q fwdlab-dataplane.service ||
		{ echo "fwdlab-dataplane.service not enabled"; return 1; }
}

for role in dut tg; do
	if [ ! -f "$out/$role.qcow2" ]; then
		tap fail "${role}_image_exists" "run make -C images"
		continue
	fi
	qemu-img convert -f qcow2 -O raw "$out/$role.qcow2" "$tmp/$role.raw"
	check "${role}_image_within_1_GiB ($(size_ok "$role" 2>&1))" size_ok "$role"
	check "${role}_image_has_no_machine_id_host_keys_or_passwords" no_identity "$role"
	rm -f "$tmp/f"
done
check dut_manifest_lists_packages_build_info_and_matching_sha256 manifest_ok dut \
	librte-net-virtio23 librte-mempool-ring23 dpdk-dev qemu-guest-agent openssh-server \
	cloud-init linux-perf linux-image-cloud-amd64
check tg_manifest_lists_packages_build_info_and_matching_sha256 manifest_ok tg \
	librte-net-virtio23 librte-mempool-ring23 qemu-guest-agent openssh-server cloud-init
check dut_has_the_vfwd_build_in_opt_vfwd payload_ok dut /opt/vfwd bin/vfwd bin/vfwdctl \
	lib/libvfwd.so
check tg_has_the_tgen_build_in_opt_tgen payload_ok tg /opt/tgen bin/tgen
check dut_has_vfwd_service_and_dataplane_setup units_ok dut vfwd.service fwdlab-dataplane.service
echo "1..$n"
