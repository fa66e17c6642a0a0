#!/usr/bin/env bash
# Installs provisioning/guest (the in-guest data-plane setup that reads what the
# cloud-init seed writes to /etc/fwdlab) into the image.
set -euo pipefail
root=$1
src=$FWDLAB_TOP/provisioning/guest
install -d "$root/usr/lib/fwdlab" "$root/etc/fwdlab"
install -m 0755 "$src/fwdlab-dataplane" "$root/usr/lib/fwdlab/fwdlab-dataplane"
install -m 0644 "$src/fwdlab-dataplane.service" "$root/etc/systemd/system/"
