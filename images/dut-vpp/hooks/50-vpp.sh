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
# What a running VPP loads must resolve: vpp, vppctl, the libraries, plugins and crypto
# engines. The stats tools in bin/ (vpp_get_stats, ...) link libvppapiclient, which a
# build of only the folders VPP needs (peers/vpp/build without VPP_BUILD_ALL=1) does not
# install: they are reported, not fatal.
unresolved() { # FILE... -> "FILE: lib => not found" lines
	local f
	for f in "$@"; do chroot "$root" ldd "/$f" 2>/dev/null | sed -n "s|^|/$f: |; /not found/p"; done
}
mapfile -t core < <(cd "$root" && { ls opt/vpp/bin/vpp opt/vpp/bin/vppctl; find opt/vpp/lib -type f -name '*.so*'; })
missing=$(unresolved "${core[@]}")
if [ -n "$missing" ]; then
	printf '50-vpp: libraries missing in the image:\n%s\n' "$missing" >&2
	exit 1
fi
mapfile -t tools < <(cd "$root" && find opt/vpp/bin -type f -perm -u+x ! -name vpp ! -name vppctl)
others=$(unresolved "${tools[@]}")
[ -z "$others" ] || printf '50-vpp: note: tools that will not run (not built):\n%s\n' "$others" >&2
