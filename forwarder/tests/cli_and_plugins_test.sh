#!/usr/bin/env bash
# vfwdctl against a running vfwd (net_null ports): socket mode 0600, one-shot and
# interactive use, errors exit non-zero and change nothing, show runtime json is
# JSON, show version prints build-info, show plugins lists the example; and a
# plugin built for another ABI version is refused with a clear message.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-cli-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
check() { # name command...
	local name=$1
	shift
	if "$@" >"$tmp/check.out" 2>&1; then
		tap ok "$name"
	else
		sed 's/^/# /' "$tmp/check.out" | tail -20
		tap fail "$name"
	fi
}

write_conf() { # plugin-path
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --prefix "vfwd-cli-$$" --mbufs 2048 \
		--null port0 --null port1 --plugins "$1"
}

write_conf "$build/plugins"
vfwd_start_or_bail vfwd_starts_with_null_ports
tap ok vfwd_starts_with_null_ports

check cli_socket_is_mode_0600 test "$(stat -c %a "$tmp/cli.sock")" = 600
check show_version_prints_build_info sh -c "'$vfwdctl' -s '$tmp/cli.sock' show version |
	grep -q '\"variant\": \"' "
check show_plugins_lists_the_example sh -c "'$vfwdctl' -s '$tmp/cli.sock' show plugins |
	grep -q 'example_plugin.so'"
check show_runtime_json_is_json sh -c "'$vfwdctl' -s '$tmp/cli.sock' show runtime json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"threads\"][1][\"nodes\"]'"
check show_runtime_has_thread_preamble sh -c "'$vfwdctl' -s '$tmp/cli.sock' show runtime |
	grep -q '^Thread 1 vfwd_wk_0 (lcore 1)'"
before=$(ctl show ip fib)
rc=0
ctl ip route add 1.0.0.0/8 via 10.9.9.9 port7 >/dev/null || rc=$?
check unknown_interface_is_an_error_exit_1 test "$rc" = 1
rc=0
ctl frobnicate the router >/dev/null || rc=$?
check unknown_command_is_an_error_exit_1 test "$rc" = 1
check failed_commands_change_nothing test "$before" = "$(ctl show ip fib)"
printf 'set interface ip address port0 10.0.0.1/24\nshow ip fib\nquit\n' |
	"$vfwdctl" -s "$tmp/cli.sock" >"$tmp/interactive.out"
check interactive_session_runs_commands_in_order grep -q '^10.0.0.1/32 *local port0' \
	"$tmp/interactive.out"
check clear_runtime_resets_calls sh -c "'$vfwdctl' -s '$tmp/cli.sock' clear runtime &&
	'$vfwdctl' -s '$tmp/cli.sock' show runtime json | python3 -c '
import json,sys
d = json.load(sys.stdin)
rx = [n for n in d[\"threads\"][1][\"nodes\"] if n[\"name\"] == \"port0-rx\"]
assert d[\"threads\"][1][\"time\"] < 5, d[\"threads\"][1][\"time\"]
'"
kill_wait "$pid"
pid=""

# a plugin for another ABI version is refused
mkdir -p "$tmp/badplugins"
cp "$testbin/bad_abi_plugin.so" "$tmp/badplugins/"
write_conf "$tmp/badplugins"
rc=0
timeout 60 "$vfwd" -c "$tmp/startup.conf" >"$tmp/bad.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] &&
	grep -q "bad_abi_plugin.so: ABI version [0-9]* does not match vfwd's [0-9]*; refusing" \
		"$tmp/bad.log"; then
	tap ok plugin_with_another_abi_version_is_refused
else
	echo "# rc=$rc"; sed 's/^/# /' "$tmp/bad.log" | tail -5
	tap fail plugin_with_another_abi_version_is_refused
fi
echo "1..$n_tap"
exit "$failed"
