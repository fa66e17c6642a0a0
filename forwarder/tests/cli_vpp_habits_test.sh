#!/usr/bin/env bash
# VPP's CLI habits against a running vfwd, as a VPP user types them: any
# unique prefix of each word (sh run, sh int, sh err, sh ip nei), VPP's
# spellings as aliases (show interface, show hardware-interfaces, show node
# counters, show threads, show buffers) beside today's, an ambiguous prefix
# refused, and show ip fib PREFIX / ADDRESS printing only the matching route.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-vppcli-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
check() { # name command... : passes when the command succeeds
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then tap ok "$name"; else sed 's/^/# /' "$tmp/out" | head -5; tap fail "$name"; fi
}
has() { # pattern command... : the command succeeds and prints the pattern
	local re=$1
	shift
	local o
	o=$(ctl "$@" 2>&1) && grep -Eq -- "$re" <<<"$o"
}

"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --prefix "vfwd-vppcli-$$" --mbufs 2048 \
	--null port0 --null port1
vfwd_start_or_bail
ctl set int ip addr port0 10.0.0.1/24
ctl set interface ip address port1 10.0.1.1/24
ctl ip route add 48.0.0.0/8 via 10.0.1.2 port1
ctl ip ro add 48.1.0.0/16 via 10.0.1.3 port1

check sh_run_is_show_runtime has "^Thread 1 vfwd_wk_0" sh run
check sh_int_is_show_interfaces has "^port0 " sh int
check sh_err_is_show_errors has "Count +Node +Reason" sh err
check sh_ip_nei_is_show_ip_neighbors has "^Interface +IP +MAC" sh ip nei
check set_int_ip_addr_took_effect has "^10\.0\.0\.1/32 +local port0" show ip fib 10.0.0.1/32
check show_interface_is_vpps_spelling has "^port1 " show interface
check show_hardware_interfaces_is_vpps_spelling has "driver net_null" show hardware-interfaces
check show_node_counters_is_vpps_spelling has "Count +Node +Reason" show node counters
check show_threads_lists_main_and_worker has "^1 +vfwd_wk_0 +workers +1 " show threads
check show_buffers_lists_the_pool has "^vfwd_mbufs +0 +.* 2048 " show buffers
check todays_spellings_still_work has "^port0 " show interfaces
if out=$(ctl s 2>&1); then
	tap fail "ambiguous_prefix_is_refused ($out)"
elif grep -q "ambiguous" <<<"$out"; then
	tap ok ambiguous_prefix_is_refused
else
	tap fail "ambiguous_prefix_is_refused ($out)"
fi
n=$(ctl show ip fib 48.0.0.0/8 | wc -l)
if [ "$n" = 1 ] && has "^48\.0\.0\.0/8 +via 10\.0\.1\.2 port1" show ip fib 48.0.0.0/8; then
	tap ok show_ip_fib_prefix_prints_only_that_route
else
	ctl show ip fib 48.0.0.0/8 | sed 's/^/# /'
	tap fail show_ip_fib_prefix_prints_only_that_route
fi
if [ "$(ctl sh ip fib 48.1.2.3 | wc -l)" = 1 ] && has "^48\.1\.0\.0/16 +via 10\.0\.1\.3" sh ip fib 48.1.2.3 &&
	has "^48\.0\.0\.0/8 " sh ip fib 48.2.0.1; then
	tap ok show_ip_fib_address_prints_its_longest_match
else
	tap fail show_ip_fib_address_prints_its_longest_match
fi
if ! ctl show ip fib 99.0.0.0/8 >/dev/null 2>&1; then
	tap ok show_ip_fib_of_an_absent_prefix_is_an_error
else
	tap fail show_ip_fib_of_an_absent_prefix_is_an_error
fi
echo "1..$n_tap"
exit "$failed"
