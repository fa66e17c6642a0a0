#!/usr/bin/env bash
# Two builds of an image from the same commit give the same bytes: the root filesystem
# tarball, the qcow2, kernel and initrd (sha256 compared). The first build is
# images/out when its inputs key is current (make check builds it just before),
# else a scratch build; the second is always a scratch build from nothing but the
# package cache. TAP output, one test per image.
#   reproducible_test.sh [dut] [tg]       (default: dut)
# Environment: SCRATCH=1 makes both builds scratch builds (images/out is not used);
# KEEP=1 keeps the work folder (both builds' outputs, their rootfs tarballs and logs)
# and prints its path, to compare what differs (tar tvf, diffoscope).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
images=$(cd "$here/.." && pwd)
roles=("$@")
[ ${#roles[@]} -gt 0 ] || roles=(dut)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fwdlab-repro.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	trap 'echo "# KEEP=1: outputs kept in $tmp (a/ and b/: ROLE.rootfs.tar, qcow2, kernel, initrd)"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi

# Both builds take the payload from one snapshot (someone may rebuild vfwd meanwhile).
top=$(cd "$images/.." && pwd)
mkdir -p "$tmp/payload"
cp -R "${VFWD_BUILD:-$top/build/vfwd/${VARIANT:-default}}" "$tmp/payload/vfwd"
cp -R "${TGEN_BUILD:-$top/build/tgen}" "$tmp/payload/tgen"
export VFWD_BUILD=$tmp/payload/vfwd TGEN_BUILD=$tmp/payload/tgen

build() { # ROLE DIR
	OUT=$2 WORK=$tmp/work-$1 FORCE=1 KEEP_ROOTFS=${KEEP:-0} "$images/build-image" "$1" >"$2.log" 2>&1 || {
		sed 's/^/# /' "$2.log"
		return 1
	}
}
sums() { # MANIFEST -> one "name sha256" a line, and the rootfs tarball's
	jq -r '(.outputs | to_entries[] | "\(.key) \(.value.sha256)"), "rootfs.tar \(.rootfs_tar_sha256)"' "$1"
}

n=0
for role in "${roles[@]}"; do
	n=$((n + 1))
	name="${role}_image_rebuilds_to_the_same_sha256"
	start=$(date +%s)
	if ! build "$role" "$tmp/b"; then echo "not ok $n - $name # scratch build failed"; continue; fi
	a=$images/out
	# images/out counts as the first build when it was made from the same inputs and
	# the same payload build-info (the inputs key leaves out built_at and git_rev).
	if [ "${SCRATCH:-0}" = 1 ] || [ "$(cat "$a/$role.key" 2>/dev/null)" != "$(cat "$tmp/b/$role.key")" ] ||
		[ "$(jq -S .payload.build_info "$a/$role.manifest.json")" != \
			"$(jq -S .payload.build_info "$tmp/b/$role.manifest.json")" ]; then
		a=$tmp/a
		if ! build "$role" "$a"; then echo "not ok $n - $name # scratch build failed"; continue; fi
	fi
	secs=$(($(date +%s) - start))
	if diff <(sums "$a/$role.manifest.json") <(sums "$tmp/b/$role.manifest.json") >"$tmp/diff"; then
		echo "ok $n - $name ($(sums "$a/$role.manifest.json" | awk '$1 ~ /qcow2/ { print substr($2, 1, 16) }'), rebuilt in ${secs}s)"
	else
		echo "not ok $n - $name # differs:"
		sed 's/^/# /' "$tmp/diff"
		diff <(jq -S .packages "$a/$role.manifest.json") <(jq -S .packages "$tmp/b/$role.manifest.json") |
			sed 's/^/# packages: /' | head -n 20 || true
	fi
done
echo "1..$n"
