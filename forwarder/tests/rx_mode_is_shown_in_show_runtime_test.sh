#!/usr/bin/env bash
# Integration: the worker rx modes. With `cpu { rx-mode adaptive }` vfwd forwards a pcap and,
# idle after it, sleeps: show runtime (text and JSON) says which mode ran, how often the
# worker slept and its CPU time. `set interface rx-mode` switches at run time and show runtime
# names every mode that ran since `clear runtime`. Interrupt mode on a PMD without rx
# interrupts (net_pcap), an unknown mode in the startup file or the CLI: refused, naming the
# file and line, or the port. `adaptive-max-sleep-us` bounds adaptive's sleeps (default 50 us).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-rxm-$$"

ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
rx_packets() { ctl show interfaces | awk '$1 == "port0" { print $NF; exit }'; }
rx_packets_are() { [ "$(rx_packets)" = "$1" ]; }
worker_json() { ctl show runtime json | jq -e "$1" >/dev/null; }

conf() { # rx-mode [adaptive-max-sleep-us]
	"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" --rx-mode "$1" \
		${2:+--adaptive-max-sleep-us "$2"} \
		--prefix "vfwd-rxm-$$" --pcap port0 "$tmp/in.pcap" "$tmp/out0.pcap" \
		--pcap port1 "$tmp/empty.pcap" "$tmp/out1.pcap"
}

"$vfwd_conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 --route1 48.0.0.0/8
"$pcaptool" vfwd-mixed "$tmp" 00:00:00:00:00:00
want=$(awk '$1 == "in" { print $2 }' "$tmp/counts.txt")

# ---- adaptive from the startup file ----
conf adaptive
"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd.log" 2>&1 &
pid=$!
if wait_for test -S "$tmp/cli.sock" && wait_for rx_packets_are "$want"; then
	tap ok "adaptive_worker_takes_in_every_packet"
else
	tap fail "adaptive_worker_takes_in_every_packet"
	sed 's/^/# /' "$tmp/vfwd.log"
fi
ctl clear runtime
sleep 1 # the window is the subject: an idle adaptive worker's sleeps and CPU time over 1 s
ctl show runtime >"$tmp/rt.txt"
sed 's/^/# /' "$tmp/rt.txt" | head -12
if grep -Eq '^  rx-mode adaptive \(ran: adaptive\), sleeps [1-9][0-9]*, asleep [0-9.]+ s, cpu time [0-9.]+ s \([0-9]+ clocks\)$' \
	"$tmp/rt.txt"; then
	tap ok "show_runtime_says_adaptive_ran_and_the_worker_slept"
else
	tap fail "show_runtime_says_adaptive_ran_and_the_worker_slept"
fi
# an idle adaptive worker sleeps most of the time: less CPU time than half the wall time
# (a busy host only lowers the CPU time); the rx nodes are in VPP's "polling" state
# shellcheck disable=SC2016
if worker_json '.threads[1] | .rx_mode == "adaptive" and .rx_modes_ran == "adaptive" and
	.adaptive_max_sleep_us == 50 and .sleeps > 0 and .sleep_s > 0 and .cpu_s >= 0 and .cpu_s < .time / 2' &&
	worker_json '[.threads[1].nodes[] | select(.name | endswith("-rx")) | .state] |
	length > 0 and all(. == "polling")'; then
	tap ok "show_runtime_json_has_mode_sleeps_and_cpu_time_below_half_the_wall_time"
else
	tap fail "show_runtime_json_has_mode_sleeps_and_cpu_time_below_half_the_wall_time"
	ctl show runtime json | jq -c '.threads[1] | del(.nodes)' | sed 's/^/# /'
fi

# ---- to poll at run time: both modes ran, then after clear only poll, no sleeps ----
ctl set interface rx-mode port0 poll
polls_after_adaptive() { grep -q '^  rx-mode poll (ran: poll+adaptive)' <<<"$(ctl show runtime)"; }
if poll_until 20 "show runtime to say 'rx-mode poll (ran: poll+adaptive)'" polls_after_adaptive; then
	tap ok "set_interface_rx_mode_poll_switches_and_both_modes_are_named"
else
	tap fail "set_interface_rx_mode_poll_switches_and_both_modes_are_named"
fi
ctl clear runtime
sleep 0.5 # the window is the subject: no sleep in 0.5 s of polling
if worker_json '.threads[1] | .rx_mode == "poll" and .rx_modes_ran == "poll" and .sleeps == 0'; then
	tap ok "a_polling_worker_does_not_sleep"
else
	tap fail "a_polling_worker_does_not_sleep"
fi
# ---- refusals at run time ----
out=$(ctl set interface rx-mode port0 interrupt 2>&1 || true)
if [[ $out == *"interrupt mode needs 'rx-mode interrupt' in the startup file"* ]]; then
	tap ok "interrupt_at_run_time_without_the_startup_setting_is_refused"
else
	tap fail "interrupt_at_run_time_without_the_startup_setting_is_refused ($out)"
fi
out=$(ctl set interface rx-mode port0 sometimes 2>&1 || true)
out2=$(ctl set interface rx-mode port7 poll 2>&1 || true)
if [[ $out == *"usage: set interface rx-mode IFACE poll|adaptive|interrupt"* &&
	$out2 == *"unknown interface 'port7'"* ]]; then
	tap ok "unknown_mode_or_interface_is_refused"
else
	tap fail "unknown_mode_or_interface_is_refused ($out / $out2)"
fi
kill_wait "$pid"
pid=""

# ---- startup file: an unknown mode names the file and line ----
conf sometimes
rc=0
out=$("$vfwd" --check -c "$tmp/startup.conf" 2>&1) || rc=$?
if [ "$rc" -ne 0 ] && [[ $out == "$tmp/startup.conf:2: rx-mode 'sometimes': expected poll, adaptive or interrupt"* ]]; then
	tap ok "unknown_rx_mode_in_the_startup_file_is_refused_with_file_and_line"
else
	tap fail "unknown_rx_mode_in_the_startup_file_is_refused_with_file_and_line (rc $rc: $out)"
fi

# ---- adaptive-max-sleep-us: sleeps of 1 ms; bad bounds name the file and line ----
for bad in 0 100001; do
	conf adaptive "$bad"
	rc=0
	out=$("$vfwd" --check -c "$tmp/startup.conf" 2>&1) || rc=$?
	if [ "$rc" -ne 0 ] && [[ $out == "$tmp/startup.conf:2: "*"adaptive-max-sleep-us"* ]]; then
		tap ok "adaptive_max_sleep_us_${bad}_is_refused_with_file_and_line"
	else
		tap fail "adaptive_max_sleep_us_${bad}_is_refused_with_file_and_line (rc $rc: $out)"
	fi
done
conf adaptive 1000
"$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd-ms.log" 2>&1 &
pid=$!
if wait_for test -S "$tmp/cli.sock" && wait_for rx_packets_are "$want"; then
	ctl clear runtime
	sleep 1 # the window is the subject: an idle worker's sleeps over 1 s
	# a sleep never ends early: at most 1 s / 1 ms of them, plus the back-off's 10 (1..512 us);
	# at the default 50 us the same second holds thousands
	# shellcheck disable=SC2016
	if worker_json '.threads[1] | .adaptive_max_sleep_us == 1000 and .sleeps > 0 and
		.sleeps <= 1000 * .time + 10'; then
		tap ok "adaptive_max_sleep_us_1000_sleeps_at_most_once_a_millisecond"
	else
		tap fail "adaptive_max_sleep_us_1000_sleeps_at_most_once_a_millisecond"
		ctl show runtime json | jq -c '.threads[1] | del(.nodes)' | sed 's/^/# /'
	fi
else
	tap fail "adaptive_max_sleep_us_1000_sleeps_at_most_once_a_millisecond (vfwd did not take in the pcap)"
	sed 's/^/# /' "$tmp/vfwd-ms.log"
fi
kill_wait "$pid"
pid=""

# ---- interrupt mode on a PMD without rx interrupts: vfwd refuses to start ----
conf interrupt
rc=0
timeout 60 "$vfwd" -c "$tmp/startup.conf" >"$tmp/vfwd-intr.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q 'port0 (net_pcap): rx-mode interrupt: the PMD has no rx interrupts' \
	"$tmp/vfwd-intr.log"; then
	tap ok "interrupt_mode_on_a_pmd_without_rx_interrupts_is_refused_naming_the_port"
else
	tap fail "interrupt_mode_on_a_pmd_without_rx_interrupts_is_refused_naming_the_port (rc $rc)"
	sed 's/^/# /' "$tmp/vfwd-intr.log" | tail -5
fi
echo "1..$n_tap"
exit "$failed"
