#!/usr/bin/env bash
# example-rs carries vfwd's plugin ABI version: built announcing another version (cargo
# feature abi-mismatch), vfwd refuses to load it, says why, and exits non-zero without
# forwarding; the same startup file with the real build starts and lists the plugin.
# shellcheck disable=SC2016,SC2034,SC2317 # functions run through check(), conditions are eval'd
set -euo pipefail
top=$(cd "$(dirname "$0")/../../../.." && pwd)
# shellcheck source=forwarder/plugins/example-rs/tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
mismatch=${EXRS_MISMATCH_PLUGIN:-$top/build/example-rs/abi-mismatch/debug/libexample_rs_plugin.so}
need_builds "$mismatch"
tmp=$(mktemp -d)
trap 'vfwd_cleanup; rm -rf "$tmp"' EXIT

setup() { # setup DIR PLUGIN-SO
	mkdir -p "$1/plugins"
	cp "$2" "$1/plugins/example_rs_plugin.so"
	"$PCAPTOOL" gen "$1/empty.pcap" --count 0
	vfwd_setup "$1" example-rs port0
	vfwd_conf "$1" "net_pcap0,rx_pcap=$1/empty.pcap,tx_pcap=$1/out0.pcap" "net_null0"
}

bad=$tmp/bad
setup "$bad" "$mismatch"
rc=0
timeout 60 "$VFWD_BUILD/bin/vfwd" -c "$bad/startup.conf" >"$bad/vfwd.log" 2>&1 || rc=$?
sed 's/^/# vfwd: /' "$bad/vfwd.log" | grep -i -e plugin -e abi || true
check "vfwd exits non-zero on a plugin with another ABI version" \
	eval '[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]'
check "the message names the plugin and both ABI versions" \
	grep -q "example_rs_plugin.so: ABI version 1001 does not match vfwd's 1" "$bad/vfwd.log"
check "vfwd never served its CLI" eval '[ ! -S "$bad/cli.sock" ]'

good=$tmp/good
setup "$good" "$EXRS_PLUGIN"
check "the same startup file with the real build starts" vfwd_start "$good"
check "show plugins lists example_rs_plugin.so" \
	eval 'grep -q " example_rs_plugin.so .*(Rust)" <<<"$(ctl "$good" show plugins)"'
check "vfwd exits cleanly" vfwd_stop "$good"
exit "$TAP_FAILED"
