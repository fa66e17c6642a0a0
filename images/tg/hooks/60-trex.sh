#!/usr/bin/env bash
# TRex (only in the TG image with TRex: `make images TG=trex`, FWDLAB_TREX_HOME set by
# build-image): the trex/build.sh cache folder copied as it is to /opt/trex, the lab's TRex
# driver (trex/trexctl, trial.py, lab/generators/{trex,trial-exec}) to /opt/fwdlab, and
# trex.service, which runs `trexctl start` at boot when the seed wrote /etc/fwdlab/trex.env.
set -euo pipefail
root=$1
[ -n "${FWDLAB_TREX_HOME:-}" ] || exit 0
stage=${FWDLAB_TREX_STAGE:?}
rm -rf "$root/opt/trex" "$root/opt/fwdlab/trex" "$root/opt/fwdlab/lab"
install -d "$root/opt/trex" "$root/opt/fwdlab/trex" "$root/opt/fwdlab/lab/generators"
cp -R --no-preserve=ownership "$FWDLAB_TREX_HOME/scripts" "$FWDLAB_TREX_HOME/BUILD-INFO" \
	"$root/opt/trex/"
install -m 0755 "$stage/trexctl" "$root/opt/fwdlab/trex/trexctl"
install -m 0644 "$stage/trial.py" "$root/opt/fwdlab/trex/trial.py"
install -m 0755 "$stage/trex" "$stage/trial-exec" "$root/opt/fwdlab/lab/generators/"
install -m 0644 "$FWDLAB_TOP/images/tg/trex/trex.service" "$root/etc/systemd/system/trex.service"
chroot "$root" systemctl enable trex.service 2>/dev/null
# The server's libraries are its own (scripts/so) or the image's; its client runs under
# the image's python3 with the tree's own Python libraries.
if chroot "$root" env LD_LIBRARY_PATH=/opt/trex/scripts:/opt/trex/scripts/so/x86_64 \
	ldd /opt/trex/scripts/_t-rex-64 | grep 'not found'; then
	echo "60-trex: /opt/trex/scripts/_t-rex-64 misses libraries in the image" >&2
	exit 1
fi
if ! chroot "$root" python3 /opt/fwdlab/trex/trial.py check-profile --trex /opt/trex \
	--profile udp --size 1500 >"$root/tmp/60-trex.log" 2>&1; then
	cat "$root/tmp/60-trex.log" >&2
	echo "60-trex: TRex's client does not load the udp profile under the image's python3" >&2
	exit 1
fi
rm -f "$root/tmp/60-trex.log"
find "$root/opt/trex" "$root/opt/fwdlab" -name __pycache__ -type d -prune -exec rm -rf {} +
