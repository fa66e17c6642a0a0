#!/usr/bin/env bash
# libvnet's link modes (peers/vpp/build variants, the same objects relinked): counted with
# readelf here, not taken from BUILD-INFO: default (interposable) > -Bsymbolic-functions and
# default > hidden (version script); every variant's libvnet still loads, and VPP starts on it
# (`vpp -c` with a minimal startup answers show version over its CLI).
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default bsymbolic hidden
test_init
declare -A n
for v in default bsymbolic hidden; do
	p=$("$PEERS/vpp/build" --variant "$v" --print-prefix)
	lib=$(find "$p/lib" -maxdepth 2 -name 'libvnet.so.*' -type f | head -n1)
	n[$v]=$(readlink -f "$lib" | xargs readelf -rW | grep -c JUMP_SLOT || true)
	echo "# $v: ${n[$v]} JUMP_SLOT relocations in $(basename "$lib")"
	check "$v: BUILD-INFO's count ($(sed -n 's/^jump_slot=//p' "$p/BUILD-INFO")) is readelf's (${n[$v]})" \
		test "$(sed -n 's/^jump_slot=//p' "$p/BUILD-INFO")" = "${n[$v]}"
done
check "interposable default (${n[default]}) > -Bsymbolic-functions (${n[bsymbolic]}) > 0" \
	test "${n[default]}" -gt "${n[bsymbolic]}" -a "${n[bsymbolic]}" -gt 0
check "interposable default (${n[default]}) > hidden with explicit exports (${n[hidden]})" \
	test "${n[default]}" -gt "${n[hidden]}"
# Each variant runs: VPP on its own libvnet, with the plugins it needs to forward.
for v in bsymbolic hidden; do
	p=$("$PEERS/vpp/build" --variant "$v" --print-prefix)
	cfg=$T/$v.cfg
	write_config "$cfg" "memif:$T/$v-m0.sock" "memif:$T/$v-m1.sock" "file-prefix peers-jt-$v-$$" "run-dir $T/run-$v"
	rc=0
	VPP_PREFIX=$p "$BACKEND_CMD" vpp start "$cfg" >"$T/$v.start" 2>&1 || rc=$?
	on_exit "VPP_PREFIX='$p' '$BACKEND_CMD' vpp stop '$cfg'"
	ver=""
	if VPP_PREFIX=$p "$BACKEND_CMD" vpp dump "$cfg" "$T/dump-$v" >/dev/null 2>&1; then
		ver=$(head -n1 "$T/dump-$v/show_version.txt")
	fi
	check "$v: VPP starts on this libvnet and answers ($ver)" test "$rc" -eq 0 -a -n "$ver"
	check "$v: the running VPP mapped this variant's libvnet" \
		grep -q "$(readlink -f "$p")/.*libvnet" "/proc/$(cat "$T/run-$v/vpp.pid")/maps"
	VPP_PREFIX=$p "$BACKEND_CMD" vpp stop "$cfg" || true
done
echo "1..$tap_n"
exit "$tap_failed"
