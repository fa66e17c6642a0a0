#!/usr/bin/env bash
# The host topology end to end: `fwdlab up --topology host` starts vfwd (virtio-user)
# wired to tgen (vhost-user) with --no-huge; a fixed-rate trial crosses vfwd and every
# packet tgen sent is counted by vfwd's graph; an NDR search clears and dumps the runtime
# around each trial; an interrupted run is marked incomplete; `down` leaves no process.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"

stage "up" lab up || exit 1
pid=$(cat "$FWDLAB_STATE/vfwd.pid")
check "vfwd answers show version" lab ssh dut "$top/build/vfwd/${VARIANT:-default}/bin/vfwdctl" \
	-s "$FWDLAB_STATE/run/cli.sock" show version
check "up is idempotent (a second up keeps the same vfwd)" \
	eval 'lab up >/dev/null 2>&1 && [ "$(cat "$FWDLAB_STATE/vfwd.pid")" = "$pid" ]'

# One trial at a rate this 2-core machine sustains: no loss, and vfwd counts every packet.
stage "run 5 kpps 3 s" lab run --label ci --rate 5000 --duration 3 || true
run=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name 'run-udp-1500*' -print -quit)
j=$run/tgen.json
check "run folder is complete" eval '[ "$(jq -r .status "$run/meta.json")" = complete ]'
tx=$(jq -r '.trial.tx_packets // 0' "$j" 2>/dev/null || echo 0)
rx=$(jq -r '.trial.rx_packets // 0' "$j" 2>/dev/null || echo 0)
echo "# tgen tx $tx rx $rx"
check "tgen sent packets" [ "$tx" -gt 0 ]
check "tgen received every packet it sent" [ "$tx" -eq "$rx" ]
rt=$run/show_runtime.txt
for node in ethernet-input ip4-lookup ip4-rewrite; do
	check "show_runtime.txt: $node has vectors > 0" [ "$(runtime_vectors "$rt" "$node")" -gt 0 ]
done
check "vfwd ethernet-input counted exactly tgen's tx" \
	[ "$(runtime_vectors "$rt" ethernet-input)" -eq "$tx" ]
check "vfwd ip4-rewrite counted exactly tgen's tx" \
	[ "$(runtime_vectors "$rt" ip4-rewrite)" -eq "$tx" ]
for f in show_runtime.json show_errors.txt show_interfaces.txt show_version.txt xstats.txt; do
	check "run folder has $f" [ -s "$run/$f" ]
done
check "meta.json names the live vfwd build" \
	eval '[ "$(jq -r .dut.build.name "$run/meta.json")" = vfwd ]'
check "no temporary files left in the run folder" eval '! ls "$run" | grep -q "\.tmp"'

# A dump on its own, after a finished run, is a run of its own (a finished run is never
# rewritten).
before=$(stat -c %Y "$run/show_runtime.txt")
stage "dump" quiet lab dump --label ci || true
drun=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name 'dump*' -print -quit)
check "dump on its own makes a complete dump run" \
	eval '[ "$(jq -r .status "$drun/meta.json")" = complete ] && [ -s "$drun/show_runtime.txt" ]'
check "dump left the finished run untouched" [ "$(stat -c %Y "$run/show_runtime.txt")" = "$before" ]

# NDR search with hooks: a dump per trial, each after a clear.
# Rates low enough that a loaded 2-core machine sustains them (tgen counts a trial whose
# transmit rate falls short of the request as failed).
stage "ndr" lab ndr --label ci --trial-duration 1 --final-duration 1 --min-rate 100 \
	--max-rate 3000 || true
nrun=$(find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name 'ndr-udp-1500*' -print -quit)
nj=$nrun/tgen.json
check "ndr found a rate > 0" eval '[ "$(jq -r ".ndr.rate_pps // 0 | floor" "$nj")" -gt 0 ]'
ntrials=$(jq -r '.trials | length' "$nj" 2>/dev/null || echo 0)
ndumps=$(find "$nrun/trials" -name show_runtime.txt 2>/dev/null | wc -l)
echo "# ndr trials $ntrials, trial dumps $ndumps"
check "one runtime dump per ndr trial" eval '[ "$ntrials" -gt 0 ] && [ "$ntrials" -eq "$ndumps" ]'
first=$(find "$nrun/trials" -name show_runtime.txt | sort | head -n1)
if [ -n "$first" ]; then
	t1=$(jq -r '.trials[0].tx_packets' "$nj")
	check "first trial dump counts that trial alone (cleared before it)" \
		[ "$(runtime_vectors "$first" ethernet-input)" -eq "$t1" ]
fi

# An interrupted run keeps what it had and says so.
"$top/lab/fwdlab" --topology host run --label ci --run interrupted --rate 10000 --duration 60 \
	>"$tmp/int.log" 2>&1 &
bg=$!
# interrupted_sending: the run's trial has sent for a second (tgen's progress line for second 1)
interrupted_sending() {
	local d
	d=$(find "$tmp/results" -path '*/interrupted/meta.json' -printf '%h\n' -quit)
	[ -n "$d" ] && grep -qsE '^ +1s +tx ' "$d/tgen.log.tmp" "$d/tgen.log"
}
poll_until 60 "the run to be interrupted to have sent for 1 s (tgen's progress line)" \
	interrupted_sending || true
kill -TERM "$bg" 2>/dev/null || true
wait "$bg" || true
grep -v '^VHOST' "$tmp/int.log" | tail -n 5 | sed 's/^/# /'
imeta=$(find "$tmp/results" -path '*/interrupted/meta.json' -print -quit)
check "interrupted run is marked incomplete" eval '[ "$(jq -r .status "$imeta")" = incomplete ]'
check "interrupted run says why" eval 'jq -r .failure "$imeta" | grep -q interrupted'
check "vfwd survives the interrupted tgen" lab status

stage "down" lab down || true
check "down stops vfwd" eval '! kill -0 "$pid" 2>/dev/null'
check "down removes sockets and the lab folder" [ ! -e "$FWDLAB_STATE/run" ]
check "down leaves no DPDK runtime folder" eval '! ls -d /var/run/dpdk/vfwd-* /var/run/dpdk/tgen-* 2>/dev/null | grep -q "$(printf %s "$FWDLAB_STATE" | md5sum | cut -c1-8)"'
exit "$TAP_FAILED"
