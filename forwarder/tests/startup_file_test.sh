#!/usr/bin/env bash
# A bad startup file is refused with FILE:LINE: message and a non-zero exit;
# good files (including the shipped example) parse.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tmp=$(mktemp -d)
trap 'dpdk_runtime_cleanup "vfwd-bad-$$" "vfwd-long-$$"; rm -rf "$tmp"' EXIT

expect_error() { # name line-number regex file-content
	local name=$1 line=$2 re=$3 f=$tmp/$1.conf rc=0
	printf '%s\n' "$4" >"$f"
	"$vfwd" --check -c "$f" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] && grep -Eq "^$f:$line: $re" "$tmp/out"; then
		tap ok "$name"
	else
		echo "# rc=$rc output: $(cat "$tmp/out")"
		tap fail "$name"
	fi
}

expect_error unknown_section_is_refused_with_file_and_line 3 "unknown section 'dpkd'" \
	'unix { cli-listen /tmp/x.sock }
cpu { main-core 0 corelist-workers 1 }
dpkd { }'
expect_error unknown_dpdk_option_is_refused 4 "unknown dpdk option 'num-mbuf'" \
	'cpu { main-core 0 corelist-workers 1 }
dpdk {
	eal-args "--no-huge"
	num-mbuf 100
}'
expect_error bad_number_is_refused 2 "'num-rx-desc' wants a number" \
	'dpdk {
	vdev net_null0 { name port0 num-rx-desc lots }
}'
expect_error multicast_or_malformed_hw_addr_is_refused 2 "hw-addr '03:00:00:00:00:01': want a unicast MAC" \
	'dpdk {
	vdev net_null0 { name port0 hw-addr 03:00:00:00:00:01 }
}'
expect_error short_hw_addr_is_refused 3 "hw-addr '02:00:00:01': want a unicast MAC" \
	'dpdk {
	vdev net_null0 { name port0 }
	vdev net_null1 { name port1 hw-addr 02:00:00:01 }
}'
expect_error missing_brace_is_refused 1 "missing '}' for this '{'" \
	'cpu {
	main-core 0
'
expect_error bad_core_list_is_refused 1 "bad core list" 'cpu { corelist-workers 3-1 }'
expect_error worker_on_main_core_is_refused 1 "worker core 0 is also the main core" \
	'cpu { main-core 0 corelist-workers 0 }'
expect_error duplicate_worker_is_refused_with_file_and_line 2 "worker core 1 listed twice" \
	'unix { cli-listen /tmp/x.sock }
cpu { main-core 0 corelist-workers 1,2,1 }'
expect_error overlapping_worker_range_is_refused 1 "worker core 2 listed twice" \
	'cpu { corelist-workers 1-3,2 }'
# cores the machine does not have: caught before the EAL, with the line of the setting
ncpu=$(nproc --all)
if [ "$ncpu" -le 64 ]; then
	expect_error main_core_64_is_refused_with_file_and_line 3 "main-core 64 is not a CPU" \
		'unix { cli-listen /tmp/x.sock }
cpu {
	main-core 64
	corelist-workers 1
}'
fi
expect_error absent_worker_core_is_refused_with_file_and_line 2 "worker core 127 is not a CPU" \
	'cpu { main-core 0
	corelist-workers 127 }'
expect_error unterminated_string_is_refused 2 "unterminated string" \
	'dpdk {
	eal-args "--no-huge
}'
expect_error duplicate_interface_name_is_refused 3 "duplicate interface name 'a'" \
	'dpdk {
	vdev net_null0 { name a }
	vdev net_null1 { name a }
}'
expect_error plugin_option_must_be_enable_or_disable 1 "plugin option is enable or disable" \
	'plugins { plugin example_plugin.so { maybe } }'

rc=0
"$vfwd" --check -c "$tmp/does-not-exist.conf" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q "does-not-exist.conf" "$tmp/out"; then
	tap ok missing_file_is_refused
else
	tap fail missing_file_is_refused
fi

if "$vfwd" --check -c "$here/../examples/startup.conf"; then
	tap ok shipped_example_startup_file_parses
else
	tap fail shipped_example_startup_file_parses
fi

# a real start with a bad device also names the file and line, and exits non-zero
cat >"$tmp/baddev.conf" <<CONF
unix { cli-listen $tmp/cli.sock }
cpu { main-core 0 corelist-workers 1 }
dpdk {
	eal-args "--no-huge -m 256 --file-prefix vfwd-bad-$$ --log-level=*:error"
	vdev net_null0 { name port0 }
	dev 0000:ff:1f.7 { name port1 }
}
CONF
rc=0
timeout 60 "$vfwd" -c "$tmp/baddev.conf" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "$tmp/baddev.conf:6: device '0000:ff:1f.7'" "$tmp/out"; then
	tap ok absent_device_is_refused_with_file_and_line
else
	echo "# rc=$rc: $(tail -3 "$tmp/out")"
	tap fail absent_device_is_refused_with_file_and_line
fi

# an exec line longer than 1 KiB is one command, and its error names its own line
pad=$(printf '%1500s' '')
printf 'show version\nip route add 1.2.3.0/24 via 10.0.1.2 port0%sbogus\nshow version\n' "$pad" \
	>"$tmp/long.cli"
cat >"$tmp/long.conf" <<CONF
unix { cli-listen $tmp/cli.sock  exec $tmp/long.cli }
cpu { main-core 0 corelist-workers 1 }
dpdk {
	eal-args "--no-huge -m 256 --file-prefix vfwd-long-$$ --log-level=*:error"
	vdev net_null0 { name port0 }
}
CONF
rc=0
timeout 60 "$vfwd" -c "$tmp/long.conf" >"$tmp/out" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "^$tmp/long.cli:2: error: usage: ip route add" "$tmp/out" &&
	! grep -q "long.cli:3:" "$tmp/out"; then
	tap ok exec_line_over_1k_is_one_command_with_its_own_line_number
else
	echo "# rc=$rc: $(cut -c1-200 "$tmp/out" | tail -5)"
	tap fail exec_line_over_1k_is_one_command_with_its_own_line_number
fi
echo "1..$n_tap"
exit "$failed"
