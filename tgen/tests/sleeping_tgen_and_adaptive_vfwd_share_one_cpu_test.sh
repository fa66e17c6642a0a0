#!/usr/bin/env bash
# shellcheck disable=SC2034 # dut_pid is read by cleanup() in lib.sh
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# tgen (--pacing sleep) and vfwd's worker (rx-mode adaptive) on the same CPU, CPU 0: neither
# busy-polls, so each gets the CPU when it has work. tgen offers the requested rate within
# 1 % with no GENERATOR-LIMITED trial (5 kpps at 1500 B, 20 kpps at 64 B), every packet comes
# back, tgen slept for at least half of the time its CPU was measured over and was on a CPU
# for less than half of it, vfwd's show runtime says adaptive and that the worker slept, and
# the accounting is exact (sent + skipped = the schedule's slots). A trial in which the host
# kept tgen or vfwd off the CPU for more than the pacer's 10 ms of catch-up (pacer_skipped or
# tx_refused > 0: seen at load average 13 on 2 cores, and in every trial at load 10-14 on
# 2026-12-06) is repeated, at most twice, each retry printed with its cause and counted at
# the end; if every try was stalled so, the rate checks are skipped with the evidence, never
# passed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_vfwd_dut
"$VFWD_CONF" setup "$tmp/setup.cli" --addr4 --nbr0 02:00:00:00:00:02 --nbr1 02:00:00:00:01:02 \
	--route1 48.0.0.0/8
# vfwd's worker on CPU 0, tgen's one polling thread (-l 0, lib.sh) too
"$VFWD_CONF" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --exec "$tmp/setup.cli" \
	--main-core 1 --workers 0 --rx-mode adaptive \
	--prefix "dut-$id" --mem 512 --no-pci --log-level 5 --mbufs 16384 \
	--virtio-user port0 "path=$tmp/port0.sock,server=1,queue_size=4096,mac=$mac0" \
	--virtio-user port1 "path=$tmp/port1.sock,server=1,queue_size=4096,mac=$mac1"
setsid "$VFWD" -c "$tmp/startup.conf" >>"$tmp/dut.log" 2>&1 </dev/null &
dut_pid=$!
ctl() { "$VFWDCTL" -s "$tmp/cli.sock" "$@"; }

rc=0
tgen link --dst-mac0 "$mac0" --dst-mac1 "$mac1" || rc=$?
vfwd_wait_cli || true
check "tgen_connects_to_vfwd_and_vfwd_answers" test "$rc" -eq 0 -a -S "$tmp/cli.sock"

drain=1 # s: tgen's receive window after the trial (--drain), inside its CPU and sleep counts
# one_rate RATE SIZE DURATION: up to 3 tries until one is not stalled
one_rate() {
	local rate=$1 size=$2 dur=$3 json=$tmp/run-$1-$2.json try tries=3 stalled=1
	for ((try = 1; try <= tries; try++)); do
		ctl clear runtime >/dev/null
		rc=0
		tgen run --pacing sleep --rate "$rate" --size "$size" --duration "$dur" --drain "$drain" \
			--dst-mac0 "$mac0" --dst-mac1 "$mac1" --json "$json" || rc=$?
		show "$tmp/tgen.out" | grep -E '^# (trial|tgen offered)' || true
		echo "# try $try (load $(cut -d' ' -f1 /proc/loadavg)): $(jq -c --argjson dr "$drain" '.trial |
			([.threads[].cpu_s] | add) as $cpu | {tx_packets, pacer_skipped, tx_refused, sleeps,
			cpu_s: $cpu, slept_s, cpu_of_window: ($cpu / (.duration_s + $dr) * 1000 | round / 1000),
			cpu_us_per_sleep: (if .sleeps > 0 then $cpu / .sleeps * 1e6 | round else null end)}' \
			"$json")"
		ctl show runtime json >"$tmp/rt.json"
		[ "$rc" -eq 0 ] || break
		if jqe '.trial.pacer_skipped == 0 and .trial.tx_refused == 0' "$json"; then
			stalled=0
			break
		fi
		[ "$try" -lt "$tries" ] || break
		tap_retry "$try" $((tries - 1)) "the host stalled tgen or vfwd beyond the pacer's 10 ms" \
			"catch-up at $rate, $size B ($(jq -c '.trial | {pacer_skipped, tx_refused}' "$json")," \
			"load $(cut -d' ' -f1 /proc/loadavg))"
	done
	check "run_${rate}_${size}B_exits_0" test "$rc" -eq 0
	# shellcheck disable=SC2016 # jq's
	check "run_${rate}_${size}B_sent_plus_skipped_is_the_schedule" jqe '.trial |
		(.tx_packets + .pacer_skipped) as $n |
		($n - .duration_s * .rate_pps_requested | fabs) <= .burst + 1' "$json"
	# Yielded, over the window tgen's sleep and CPU time are counted over (the trial and its
	# drain: duration_s + $drain, measured in this run): asleep for at least half of it (a late
	# wake-up only adds to that) and on a CPU for less than half of it, where a busy poller that
	# had the CPU to itself would be on it all the time. Measured on 2026-12-06 on this 2-core
	# machine, shared (3 s trials, 1 s drain; tgen's CPU as a share of that 4 s window):
	#   load 5.1-8.3, 12 unstalled trials: 5 kpps 0.16-0.25, 20 kpps 0.24-0.32 (at most 1.29 s:
	#     0.43 of the 3 s trial alone), asleep 3.76-3.93 s; 22-35 us of CPU per sleep
	#   load 9.8-14.3 (2 and 4 CPU hogs beside): 0.12-0.23, every trial stalled
	#   a busy-polling tgen in the same runs: 0.55-0.64 at load 6-8, and 0.08-0.18 at load 10-14
	#     (starved): the same-run busy poller is no yardstick on a loaded host (the sleeping
	#     tgen's CPU was 0.28-0.51 of it at load 6-8, and 0.95-2.8 times it at load 10-14).
	# (Before 2026-12-06 the bound was 0.5, then 0.8, of the trial alone, against CPU time that
	# includes the drain.)
	# shellcheck disable=SC2016 # jq's
	check "run_${rate}_${size}B_slept_and_yielded_the_cpu" jqe --argjson dr "$drain" '.trial |
		(.duration_s + $dr) as $w | .pacing == "sleep" and .sleeps > 0 and
		.slept_s >= $w * 0.5 and ([.threads[].cpu_s] | add) < $w * 0.5' "$json"
	check "run_${rate}_${size}B_vfwd_ran_adaptive_and_slept" jqe '.threads[1] |
		.rx_mode == "adaptive" and .rx_modes_ran == "adaptive" and .sleeps > 0' "$tmp/rt.json"
	if [ "$stalled" = 1 ]; then
		ntap=$((ntap + 1))
		echo "ok $ntap - run_${rate}_${size}B_offered_within_1pct_not_limited_and_lossless" \
			"# SKIP the host stalled tgen or vfwd beyond 10 ms in 3 tries"
		return 0
	fi
	check "run_${rate}_${size}B_offered_within_1pct_not_limited_and_lossless" jqe '.trial |
		.generator_limited == false and
		(.rate_pps_offered - .rate_pps_requested | fabs) <= .rate_pps_requested * 0.01 and
		.rx_packets == .tx_packets and .loss_packets == 0' "$json"
}
one_rate 5kpps 1500 3
one_rate 20kpps 64 3
tap_retries
finish
