# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # tmp is read by the sourcing test, which sets top
# Set-up shared by the host-topology tests (source after tests/tap.sh): a private lab state
# and results folder under $tmp, `lab` = fwdlab --topology host, the builds the lab needs,
# and an EXIT trap that takes the lab down, unmounts $tmp/results if a test mounted a file
# system there, and removes $tmp (kept when HOST_LAB_KEEP=1). A test that needs more
# cleanup defines host_lab_extra_cleanup, which runs first.
tmp=$(mktemp -d)
export FWDLAB_STATE=$tmp/lab FWDLAB_RESULTS=$tmp/results FWDLAB_NO_INSTALL=1
lab() { "$top/lab/fwdlab" --topology host "$@"; }
host_lab_extra_cleanup() { :; }
host_lab_cleanup() {
	host_lab_extra_cleanup || true
	lab down >/dev/null 2>&1 || true
	if mountpoint -q "$tmp/results" 2>/dev/null; then umount "$tmp/results" || true; fi
	if [ "${HOST_LAB_KEEP:-0}" = 1 ]; then echo "# kept $tmp"; else rm -rf "$tmp"; fi
}
trap host_lab_cleanup EXIT
host_lab_need() {
	local need
	for need in "$top/build/vfwd/${VARIANT:-default}/bin/vfwd" "$top/build/tgen/bin/tgen"; do
		if [ ! -x "$need" ]; then
			echo "# $need is missing: building it"
			make -s -C "$top" forwarder tgen >&2
		fi
	done
	make -s -C "$top/lab/fwdstat" >/dev/null # incremental: a stale reader refuses new keys
}
host_lab_need
# debug_build_then_up PREFIX STAGE: label=PREFIX-<pid>-<time>; builds vfwd's debug variant
# with that label into $tmp/b/build/vfwd/debug (stage STAGE, where %s is the label), then
# brings the lab up (stage "up"); either failing ends the test.
debug_build_then_up() {
	label=$1-$$-$(date +%s)
	# shellcheck disable=SC2059 # STAGE is the format
	stage "$(printf "$2" "$label")" \
		quiet make -s -C "$top/forwarder" TOP="$tmp/b" VARIANT=debug LABEL="$label" || exit 1
	stage "up" quiet lab up || exit 1
}
