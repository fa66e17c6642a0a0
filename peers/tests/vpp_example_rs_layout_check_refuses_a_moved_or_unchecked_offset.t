#!/usr/bin/env bash
# The Rust VPP plugin's build checks its view of VPP against the install's headers: with a
# copy of peers/vpp/plugins/example-rs whose src/vpp.rs puts vlib_buffer_t.error 2 bytes off,
# build-plugin fails in layout_check.c naming the constant and the C field, and builds no .so;
# with a constant that layout_check.c does not assert, it fails naming the constant; the
# folder as committed builds (its layout check and inline check pass).
set -euo pipefail
# shellcheck source=./lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
vpp_need_build default
test_init
src=$PEERS/vpp/plugins/example-rs
build() { # FOLDER -> the build's stderr in $T/log, its status
	"$PEERS/vpp/plugins/build-plugin" --prefix "$VPP_PREFIX" --out "$T/out" "$1" >"$T/stdout" 2>"$T/log"
}
copy() { # NAME: a copy of the plugin's sources in $T/NAME
	mkdir -p "$T/$1"
	tar -C "$src" --exclude=./target -cf - . | tar -C "$T/$1" -xf -
}

copy moved/example-rs
sed -i 's/^pub const VLIB_BUFFER_OFF_ERROR: usize = \([0-9]*\);/pub const VLIB_BUFFER_OFF_ERROR: usize = 99;/' \
	"$T/moved/example-rs/src/vpp.rs"
need "the copy with a moved offset" grep -q 'VLIB_BUFFER_OFF_ERROR: usize = 99;' "$T/moved/example-rs/src/vpp.rs"
rc=0
build "$T/moved/example-rs" || rc=$?
sed 's/^/# /' "$T/log" | grep -E 'error|build-plugin' | head -n 5
check "vlib_buffer_t.error moved: build-plugin fails (exit $rc)" test "$rc" -ne 0
check "... in layout_check.c, naming the constant and the field" \
	grep -q 'RS_VLIB_BUFFER_OFF_ERROR in src/vpp.rs is not offsetof(vlib_buffer_t, error)' "$T/log"
check "... and leaves no example_rs_plugin.so" test ! -e "$T/out/example_rs_plugin.so"

copy unchecked/example-rs
echo 'pub const VLIB_BUFFER_OFF_FLAGS: usize = 4;' >>"$T/unchecked/example-rs/src/vpp.rs"
rc=0
build "$T/unchecked/example-rs" || rc=$?
sed 's/^/# /' "$T/log" | grep 'build-plugin' | head -n 3
check "a constant layout_check.c does not assert: build-plugin fails (exit $rc), naming it" \
	grep -q 'VLIB_BUFFER_OFF_FLAGS of src/vpp.rs is not checked in layout_check.c' "$T/log"

rc=0
build "$src" || rc=$?
sed 's/^/# /' "$T/log" | grep 'build-plugin' | head -n 4
check "the committed example-rs builds (exit $rc): its layout constants agree with VPP's headers" \
	grep -q 'layout constants of src/vpp.rs agree with' "$T/log"
check "... VPP's inlines compute what src/lib.rs computes (inline_check.c passes)" \
	grep -q 'inline_check.c passes' "$T/log"
check "... into one .so" test -s "$T/out/example_rs_plugin.so"
echo "1..$tap_n"
exit "$tap_failed"
