#!/usr/bin/env bash
# Checks on the built images without booting them: size within 1 GiB, manifest
# complete and matching the files, the payload installed byte for byte, units in place,
# and least privilege (issue 9): no identity or secret baked in (empty or absent
# machine-id, no ssh host keys, no authorized_keys anywhere), every account locked in
# /etc/shadow, sshd configured for keys only (no passwords, root by key only).
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

fs() { debugfs -R "$2" "$tmp/$1.raw" 2>/dev/null </dev/null; }

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
walk() { # ROLE -> $tmp/ROLE.files: "mode<TAB>size<TAB>path" of every inode under /
	# Breadth first, one debugfs run per directory level.
	local r=$1 dirs=(/) list=$tmp/$1.files
	: >"$list"
	while [ ${#dirs[@]} -gt 0 ]; do
		mapfile -t dirs < <(printf 'ls -p "%s"\n' "${dirs[@]}" |
			debugfs -f - "$tmp/$r.raw" 2>/dev/null | awk -F/ -v list="$list" '
			/^debugfs: ls -p / { d = substr($0, 16); gsub(/"/, "", d); if (d != "/") d = d "/"; next }
			NF >= 7 && $6 != "." && $6 != ".." {
				printf "%s\t%s\t%s%s\n", $3, $7, d, $6 >>list
				if ($3 ~ /^04/) print d $6
			}')
	done
	[ "$(wc -l <"$list")" -gt 1000 ] || { echo "walk of $r found only $(wc -l <"$list") files"; return 1; }
}
machine_id_empty() { # ROLE
	local r=$1 size
	size=$(awk -F'\t' '$3 == "/etc/machine-id" { print $2 }' "$tmp/$r.files")
	[ -z "$size" ] || [ "$size" = 0 ] || { echo "/etc/machine-id has $size bytes"; return 1; }
	! grep -q $'\t/var/lib/dbus/machine-id$' "$tmp/$r.files" ||
		[ -z "$(fs "$r" 'cat /var/lib/dbus/machine-id')" ] ||
		{ echo "/var/lib/dbus/machine-id is not empty"; return 1; }
}
no_secrets_files() { # ROLE: no host keys, no authorized_keys, no random seed anywhere
	local hits
	hits=$(awk -F'\t' '$1 !~ /^04/ && ($3 ~ /\/ssh_host_[^\/]*$/ || $3 ~ /\/authorized_keys[^\/]*$/ ||
		$3 == "/var/lib/systemd/random-seed")' "$tmp/$1.files")
	[ -z "$hits" ] || { echo "found: $(cut -f3 <<<"$hits" | tr '\n' ' ')"; return 1; }
}
accounts_locked() { # ROLE: every account in /etc/shadow has '*' or '!' (no hash, not empty)
	local shadow open
	shadow=$(fs "$1" 'cat /etc/shadow')
	[ "$(wc -l <<<"$shadow")" -ge 10 ] || { echo "/etc/shadow unreadable or short"; return 1; }
	grep -q '^root:[*!]' <<<"$shadow" || { echo "root is not locked"; return 1; }
	open=$(awk -F: '$2 !~ /^[*!]/ { print $1 }' <<<"$shadow")
	[ -z "$open" ] || { echo "accounts with a password or none: $(tr '\n' ' ' <<<"$open")"; return 1; }
	! fs "$1" 'cat /etc/passwd' | awk -F: '$2 != "x"' | grep -q . ||
		{ echo "/etc/passwd holds a password field"; return 1; }
}
sshd_effective() { # ROLE KEYWORD: the value sshd uses (the first one wins; Include inlined)
	local r=$1 key=$2 main
	main=$(fs "$r" 'cat /etc/ssh/sshd_config')
	[ -n "$main" ] || return 1
	while IFS= read -r line; do
		if [[ ${line,,} =~ ^[[:space:]]*include[[:space:]]+(/etc/ssh/sshd_config\.d/\*\.conf) ]]; then
			awk -F'\t' '$1 !~ /^04/ && $3 ~ /^\/etc\/ssh\/sshd_config\.d\/[^\/]*\.conf$/ { print $3 }' \
				"$tmp/$r.files" | sort | while read -r f; do fs "$r" "cat $f"; echo; done
		else
			printf '%s\n' "$line"
		fi
	done <<<"$main" | awk -v k="${key,,}" '
		tolower($1) == "match" { exit }
		tolower($1) == k { print tolower($2); exit }'
}
sshd_keys_only() { # ROLE
	local r=$1 pw kbd root empty
	pw=$(sshd_effective "$r" PasswordAuthentication)
	kbd=$(sshd_effective "$r" KbdInteractiveAuthentication)
	[ -n "$kbd" ] || kbd=$(sshd_effective "$r" ChallengeResponseAuthentication)
	root=$(sshd_effective "$r" PermitRootLogin)
	empty=$(sshd_effective "$r" PermitEmptyPasswords)
	[ "$pw" = no ] || { echo "PasswordAuthentication ${pw:-unset (default yes)}"; return 1; }
	[ "$kbd" = no ] || { echo "KbdInteractiveAuthentication ${kbd:-unset (default yes)}"; return 1; }
	case "$root" in prohibit-password | without-password | no) ;;
	*) echo "PermitRootLogin ${root:-unset} allows root to log in with a password"; return 1 ;; esac
	[ "$empty" != yes ] || { echo "PermitEmptyPasswords yes"; return 1; }
	echo "PasswordAuthentication $pw, KbdInteractiveAuthentication $kbd, PermitRootLogin $root"
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
	if ! why=$(walk "$role" 2>&1); then tap fail "${role}_image_file_list" "$why"; continue; fi
	check "${role}_machine_id_is_empty_or_absent" machine_id_empty "$role"
	check "${role}_has_no_ssh_host_keys_authorized_keys_or_random_seed" no_secrets_files "$role"
	check "${role}_every_account_is_locked_in_shadow" accounts_locked "$role"
	check "${role}_sshd_refuses_passwords_and_root_password_login ($(sshd_keys_only "$role" 2>&1))" \
		sshd_keys_only "$role"
	rm -f "$tmp/f"
done
check dut_manifest_lists_packages_build_info_and_matching_sha256 manifest_ok dut \
	librte-net-virtio23 librte-mempool-ring23 dpdk-dev qemu-guest-agent openssh-server \
	cloud-init linux-perf linux-image-cloud-amd64
check tg_manifest_lists_packages_build_info_and_matching_sha256 manifest_ok tg \
	librte-net-virtio23 librte-mempool-ring23 qemu-guest-agent openssh-server cloud-init
lock_ok() { # ROLE: the manifest names the committed lock and the image holds exactly it
	local m=$out/$1.manifest.json lock=$images/$1/packages.lock
	[ "$(jq -r '.packages_lock.sha256' "$m")" = "$(sha256sum <"$lock" | cut -d' ' -f1)" ] ||
		{ echo "manifest packages_lock.sha256 is not the sha256 of $1/packages.lock"; return 1; }
	diff <(jq -r '.packages | to_entries[] | "\(.key)\t\(.value)"' "$m" | LC_ALL=C sort) \
		<(grep -v '^#' "$lock" | cut -f1,2 | LC_ALL=C sort) ||
		{ echo "the image's packages (<) differ from $1/packages.lock (>)"; return 1; }
}
check dut_manifest_names_its_lock_and_has_exactly_the_locked_packages lock_ok dut
check tg_manifest_names_its_lock_and_has_exactly_the_locked_packages lock_ok tg
check dut_has_the_vfwd_build_in_opt_vfwd payload_ok dut /opt/vfwd bin/vfwd bin/vfwdctl \
	lib/libvfwd.so
check tg_has_the_tgen_build_in_opt_tgen payload_ok tg /opt/tgen bin/tgen
check dut_has_vfwd_service_and_dataplane_setup units_ok dut vfwd.service fwdlab-dataplane.service
echo "1..$n"
