#!/usr/bin/env bash
# TRex as the host topology's generator, vfwd as the DUT on memif ports (no VM, no
# hugepages). Proves: `fwdlab up --generator trex` starts a real TRex server (memif clients
# of vfwd's sockets); `run` with TRex's own stl/udp_for_benchmarks.py (run unchanged, its
# tunables given) completes, TRex's counters agree with vfwd's graph counters, and the run
# records the generator and its version; `ndr` completes with NDR and PDR and a DUT dump per
# trial; a profile TRex cannot load is refused with TRex's error and the file's name, no run
# started and the server left idle; TRex killed mid-trial makes the run invalid (exit 3) with
# its files kept; TRex meets the generator contract; `down` leaves no TRex process.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=trex/tests/lib.sh
. "$top/trex/tests/lib.sh"
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
# shellcheck source=lab/generators/tests/contract.sh
. "$top/lab/generators/tests/contract.sh"
host_lab_extra_cleanup() { "$top/lab/generators/trex" stop >/dev/null 2>&1 || true; }
# TRex's environment as the host driver gives it (topo_gen_env), for the direct checks
prefix=$(printf '%s' "$FWDLAB_STATE" | md5sum | cut -c1-8)
export FWDLAB_GEN_DIR=$FWDLAB_STATE/gen-trex FWDLAB_GEN_ID=$prefix FWDLAB_GEN_CORE=0 \
	FWDLAB_GEN_PORT0=$FWDLAB_STATE/run/memif0.sock FWDLAB_GEN_PORT1=$FWDLAB_STATE/run/memif1.sock \
	FWDLAB_GEN_SRC_MAC0=02:00:00:00:00:02 FWDLAB_GEN_SRC_MAC1=02:00:00:00:01:02 \
	FWDLAB_GEN_DST_MAC0=02:00:00:00:00:01 FWDLAB_GEN_DST_MAC1=02:00:00:00:01:01 FWDLAB_GEN_LINK=10gbps
stl=$trex_home/scripts/stl/udp_for_benchmarks.py
status_of() { jq -r .status "$1/meta.json" 2>/dev/null || echo none; }
run_dir() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" -print -quit; }
trex_pid() { cat "$FWDLAB_GEN_DIR/server.pid" 2>/dev/null || echo none; }
# traffic_flowing NAME: run NAME's trial is under way: its pre-trial hook (which clears vfwd's
# runtime; it runs as "[/bin/]sh [-c ]PATH/trial-hook pre DIR ...", a pattern that does not
# match tgen, whose arguments name it) has ended, and vfwd's ethernet-input has counted TRex's
# frames since.
traffic_flowing() {
	local d
	d=$(run_dir "$1")
	[ -n "$d" ] && [ -s "$d/trials/.count" ] &&
		! pgrep -f "^[^ ]*sh( -c)? [^ ]*trial-hook pre $d/trials" >/dev/null &&
		[ "$(runtime_vectors <("$FWDLAB_STATE/vfwd/bin/vfwdctl" -s "$FWDLAB_STATE/run/cli.sock" \
			show runtime) ethernet-input)" -gt 0 ]
}
# run_until_traffic NAME OUT: `lab run` at 3 kpps for 10 s as run NAME in the background
# ($job, its output in OUT); returns once its trial's traffic flows through vfwd (the trial
# driver has connected to TRex and started it), or after 120 s, saying so.
run_until_traffic() {
	lab run --label trex --rate 3000 --duration 10 --run "$1" >"$2" 2>&1 &
	job=$!
	poll_until 120 "run $1's traffic through vfwd (ethernet-input counting after the trial's clear)" \
		traffic_flowing "$1" || true
}

stage "up --generator trex" lab up --generator trex || exit 1
check "vfwd's startup file has memif ports, no vhost-user" eval '
	grep -q "vdev net_memif0,role=server" "$FWDLAB_STATE/run/startup.conf" &&
	! grep -q virtio_user "$FWDLAB_STATE/run/startup.conf"'
pid0=$(trex_pid)
check "the TRex server runs and answers (pid $pid0)" "$top/lab/generators/trex" check
# the trial server (trex/README.md "One trial"): TRex's client imported once, a child per verb
tsrv=$(cat "$FWDLAB_GEN_DIR/trial-server.pid" 2>/dev/null || echo none)
requests() { grep -c '^request [0-9]*: child [0-9]*$' "$FWDLAB_GEN_DIR/trial-server.log" 2>/dev/null || true; }
check "up started the trial server (pid $tsrv, trial.py serve) and it answered check's ping" eval '
	tr "\0" " " <"/proc/$tsrv/cmdline" | grep -q "trial.py serve --trex " &&
	[ "$(requests)" -ge 1 ]'

# 1. One trial with TRex's own profile, unchanged, at 1500 B.
stage "run udp_for_benchmarks.py 1500 B" lab run --label trex --profile "$stl" \
	--tunables "--packet_len 1500" --rate 4000 --duration 3 --run stl-run || true
r=$(run_dir stl-run)
check "the run is complete, its tgen.json by trex" eval '
	[ "$(status_of "$r")" = complete ] && jq -e ".tool == \"trex\" and .generator.name == \"trex\"" "$r/tgen.json" >/dev/null'
check "meta.json records the generator and its version (v3.08)" eval '
	jq -e ".generator.name == \"trex\" and (.generator.version | test(\"^v3\"))" "$r/meta.json" >/dev/null'
trex_counts "$r"
echo "# TRex tx $tx rx $rx; vfwd ip4-lookup $lk port1-tx $p1 (trial 0's dump)"
check "TRex sent packets and received every one" eval '[ "$tx" -gt 0 ] && [ "$tx" -eq "$rx" ]'
check "vfwd's graph counted exactly TRex's packets (ip4-lookup = TRex tx, port1-tx = TRex rx)" eval '
	[ "$lk" -eq "$tx" ] && [ "$p1" -eq "$rx" ]'
check "TRex's 1500 B frames: tx bytes = 1500 x packets (FCS counted)" \
	trials_hold "$r" ".[0].tx_bytes == 1500 * $tx"
check "the generator's own trial JSON is kept (generator-trials.jsonl, TRex port counters)" \
	trials_hold "$r" "length == 1 and .[0].trex_port_stats[\"0\"].opackets == $tx"
check "latency is null in low_end mode, and the trial says why (trex/README.md \"Latency\")" \
	trials_hold "$r" '.[0].latency_ns == null and (.[0].latency_trex.null_because | test("low_end"))'
# without the trial server, trial.py runs the verb itself
before=$(requests)
kill -TERM "$tsrv" 2>/dev/null || true
poll_until 10 "the trial server (pid $tsrv) to exit" eval '
	[ ! -d "/proc/$tsrv" ] || [ "$(awk "{print \$3}" "/proc/$tsrv/stat" 2>/dev/null)" = Z ]' || true
check "with the trial server gone, check still pings the TRex server (trial.py itself)" \
	"$top/lab/generators/trex" check
check "the trial server counted the run's requests (ping, profile, trial: $before), none after it went" eval '
	[ "$before" -ge 3 ] && [ "$(requests)" -eq "$before" ]'

# 2. NDR/PDR with the same profile; a DUT dump for every trial.
stage "ndr udp_for_benchmarks.py 1500 B up to 20 kpps" lab ndr --label trex --profile "$stl" \
	--tunables "--packet_len 1500" --max-rate 20000 --min-rate 500 --trial-duration 1 \
	--final-duration 2 --run stl-ndr || true
n=$(run_dir stl-ndr)
check "the ndr run is complete with NDR and PDR" eval '
	[ "$(status_of "$n")" = complete ] &&
	jq -e ".mode == \"ndr\" and .ndr.rate_pps > 0 and .pdr.rate_pps >= .ndr.rate_pps" "$n/tgen.json" >/dev/null'
echo "# NDR $(jq -r '.ndr.rate_pps' "$n/tgen.json" 2>/dev/null) pps ($(jq -r '.ndr.limited_by' "$n/tgen.json" 2>/dev/null)), $(jq -r '.trials | length' "$n/tgen.json" 2>/dev/null) trials"
check "a DUT dump (show runtime, errors) for every trial of the search" eval '
	t=$(jq ".trials | length" "$n/tgen.json") && [ "$t" -gt 1 ] &&
	[ "$(find "$n/trials" -name show_runtime.txt | wc -l)" -eq "$t" ] &&
	[ "$(find "$n/trials" -name show_errors.txt | wc -l)" -eq "$t" ]'
check "each trial's TRex tx equals vfwd's ip4-lookup count in that trial's dump" eval '
	ok=1; while read -r i t; do
		d=$(printf "%s/trials/%03d" "$n" "$i")
		[ "$(runtime_vectors "$d/show_runtime.txt" ip4-lookup)" -eq "$t" ] || ok=0
	done < <(jq -r ".trials[] | \"\(.index) \(.tx_packets)\"" "$n/tgen.json"); [ "$ok" = 1 ]'

# 3. A profile TRex cannot load: refused with TRex's error and the file; nothing started.
printf 'from trex_stl_lib.api import *\nimport no_such_module_here\n' >"$tmp/broken_profile.py"
runs_before=$(find "$tmp/results" -name meta.json | wc -l)
rc=0
lab run --profile "$tmp/broken_profile.py" --rate 1000 --duration 1 >"$tmp/bad.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/bad.out" | tail -n 4
check "a broken profile is refused (exit $rc) naming the file and TRex's error" eval '
	[ "$rc" -ne 0 ] && grep -q "broken_profile.py" "$tmp/bad.out" &&
	grep -q "no_such_module_here" "$tmp/bad.out"'
check "no run was started for it, and the TRex server still runs, idle" eval '
	[ "$(find "$tmp/results" -name meta.json | wc -l)" -eq "$runs_before" ] &&
	[ "$(trex_pid)" = "$pid0" ] && "$top/lab/generators/trex" check >/dev/null'

# 3b. With no TRex server running, the broken profile is refused before anything starts.
"$top/lab/generators/trex" stop
rc=0
lab run --generator trex --profile "$tmp/broken_profile.py" --rate 1000 --duration 1 \
	>"$tmp/bad2.out" 2>&1 || rc=$?
check "with no server running, the broken profile is refused (exit $rc) and no TRex server was started" eval '
	[ "$rc" -ne 0 ] && grep -q "broken_profile.py" "$tmp/bad2.out" &&
	! pgrep -f -- "--cfg $FWDLAB_GEN_DIR/trex_cfg.yaml" >/dev/null &&
	[ "$(find "$tmp/results" -name meta.json | wc -l)" -eq "$runs_before" ]'
"$top/lab/generators/trex" start 2>&1 | tail -n 1 | sed 's/^/# /'
pid0=$(trex_pid)

# 4. A server that does not answer (stopped): named with its log.
kill -STOP "$pid0"
rc=0
"$top/lab/generators/trex" check 3 >"$tmp/stopped.out" 2>&1 || rc=$?
kill -CONT "$pid0"
sed 's/^/# /' "$tmp/stopped.out" | tail -n 2
check "a TRex server that does not answer is named, with its log" eval '
	[ "$rc" -ne 0 ] && grep -q "TRex server at tcp://127.0.0.1:[0-9]* (pid $pid0), log $FWDLAB_GEN_DIR/server.log does not answer" "$tmp/stopped.out"'

# 4b. A server descheduled mid-trial for longer than TRex's 1 s watchdog (SIGSTOP 3 s, what
# a busy 2-CPU host does to it) survives and the run completes: trexctl runs TRex with
# --no-watchdog (with its watchdog the server aborted: "WATCHDOG: task 'ZMQ sync
# request-response' has not responded for more than 3.1 seconds").
run_until_traffic stopped "$tmp/stopped-run.out"
pid1=$(trex_pid)
kill -STOP "$pid1" 2>/dev/null || true
sleep 3 # the subject: 3 s stopped, longer than TRex's 1 s watchdog allows
kill -CONT "$pid1" 2>/dev/null || true
rc=0
wait "$job" || rc=$?
s=$(run_dir stopped)
sed 's/^/# /' "$tmp/stopped-run.out" | grep -E 'fwdlab:|trex:' | tail -n 3
trex_counts "$s"
echo "# stopped 3 s mid-trial: TRex tx $tx, vfwd ip4-lookup $lk"
check "a TRex server stopped 3 s mid-trial survives (pid $pid1) and the run completes (exit $rc)" eval '
	[ "$rc" -eq 0 ] && [ "$(status_of "$s")" = complete ] && [ "$(trex_pid)" = "$pid1" ] &&
	kill -0 "$pid1" 2>/dev/null && ! grep -q WATCHDOG "$FWDLAB_GEN_DIR/server.log"'
check "after the stop, TRex's tx still equals vfwd's ip4-lookup count" eval '
	[ "$tx" -gt 0 ] && [ "$lk" -eq "$tx" ]'

# 5. TRex killed mid-trial: invalid run, files kept, exit 3 as for tgen.
run_until_traffic killed "$tmp/killed.out"
victim=$(trex_pid)
kill -KILL "$victim" 2>/dev/null || true
rc=0
wait "$job" || rc=$?
k=$(run_dir killed)
sed 's/^/# /' "$tmp/killed.out" | grep 'fwdlab:' | tail -n 3
# vfwd's DPDK 22.11 net_memif server may itself die (SIGSEGV) when its client goes away
# mid-traffic; its supervisor restarts it and the failure names both (trex/README.md)
echo "# failure: $(jq -r .failure "$k/meta.json" 2>/dev/null)"
check "fwdlab run exits 3 (got $rc); the run is invalid and names the TRex server" eval '
	[ "$rc" -eq 3 ] && [ "$(status_of "$k")" = invalid ] &&
	jq -e ".failure | test(\"TRex server\")" "$k/meta.json" >/dev/null'
check "the killed run keeps tgen.log and the DUT's dumps, no half-written file" eval '
	[ -s "$k/tgen.log" ] && [ -s "$k/show_runtime.txt" ] && [ -s "$k/trials/.count" ] &&
	[ -z "$(find "$k" -name "*.tmp*")" ]'
check "the killed server is gone" eval '! kill -0 "$victim" 2>/dev/null'

# 6. TRex meets the generator contract (start brings a fresh server up).
CONTRACT_RATE=2000 contract_check trex

stage "down" quiet lab down || true
check "down leaves no TRex or vfwd process of this lab" eval '
	! pgrep -f -- "$FWDLAB_STATE" >/dev/null'
echo "1..$TAP_N"
exit "$TAP_FAILED"
