#!/usr/bin/env bash
# vfwd: the build folder (build/vfwd/VARIANT) copied as it is to /opt/vfwd, the layout
# `fwdlab swap` replaces as a whole. vfwd.service (overlay) runs /opt/vfwd/bin/vfwd.
set -euo pipefail
root=$1
rm -rf "$root/opt/vfwd"
install -d "$root/opt/vfwd" "$root/etc/vfwd"
cp -R --no-preserve=ownership "$FWDLAB_PAYLOAD/." "$root/opt/vfwd/"
for b in vfwd vfwdctl; do
	ln -sf "/opt/vfwd/bin/$b" "$root/usr/local/bin/$b"
done
missing=$(cd "$root" && find opt/vfwd -type f \( -perm -u+x -o -name '*.so*' \) -print |
	while read -r f; do chroot "$root" ldd "/$f" 2>/dev/null | sed -n "s|^|/$f: |; /not found/p"; done)
if [ -n "$missing" ]; then
	printf '50-vfwd: libraries missing in the image:\n%s\n' "$missing" >&2
	exit 1
fi
