#!/usr/bin/env bash
# tgen: the build folder (build/tgen) copied as it is to /opt/tgen.
set -euo pipefail
root=$1
rm -rf "$root/opt/tgen"
install -d "$root/opt/tgen"
cp -R --no-preserve=ownership "$FWDLAB_PAYLOAD/." "$root/opt/tgen/"
ln -sf /opt/tgen/bin/tgen "$root/usr/local/bin/tgen"
if chroot "$root" ldd /opt/tgen/bin/tgen | grep 'not found'; then
	echo "50-tgen: /opt/tgen/bin/tgen misses libraries in the image" >&2
	exit 1
fi
