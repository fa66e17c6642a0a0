#!/usr/bin/env bash
# VPP: the install tree (a peers/vpp/build variant, or a user's unpacked .debs) copied as
# it is to /opt/vpp, the unit `fwdlab swap` replaces as a whole; its libraries are found
# through ld.so.conf (the install tree has no rpath). vpp.service (overlay) runs
# /opt/vpp/bin/vpp -c /etc/vpp/startup.conf, which the cloud-init seed writes.
set -euo pipefail
root=$1
rm -rf "$root/opt/vpp"
install -d "$root/opt/vpp" "$root/etc/vpp" "$root/etc/ld.so.conf.d"
cp -R --no-preserve=ownership "$FWDLAB_PAYLOAD/." "$root/opt/vpp/"
# The folder of libvppinfra: lib/x86_64-linux-gnu (CMake's install) or lib (older layouts).
libdir=$(cd "$root/opt/vpp" && find lib -maxdepth 2 -name 'libvppinfra.so*' -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "50-vpp: no libvppinfra.so in the VPP build" >&2; exit 1; }
echo "/opt/vpp/$libdir" >"$root/etc/ld.so.conf.d/fwdlab-vpp.conf"
chroot "$root" ldconfig
for b in vpp vppctl; do
	ln -sf "/opt/vpp/bin/$b" "$root/usr/local/bin/$b"
done
missing=$(cd "$root" && find opt/vpp -type f \( -perm -u+x -o -name '*.so*' \) -print |
	while read -r f; do chroot "$root" ldd "/$f" 2>/dev/null | sed -n "s|^|/$f: |; /not found/p"; done)
if [ -n "$missing" ]; then
	printf '50-vpp: libraries missing in the image:\n%s\n' "$missing" >&2
	exit 1
fi
