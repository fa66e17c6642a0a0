#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # eval checks expand later (and read rc)
# fwdlab plan --topology host lists each vfwd and tgen thread with its CPU and mode, and
# picks the yielding modes (vfwd rx-mode adaptive, tgen --pacing sleep) when the polling
# threads must share CPUs, saying why; with enough CPUs (nproc honours OMP_NUM_THREADS) it
# keeps busy-polling, each thread on its own CPU. The topology file can name the modes (a
# shared busy poller is warned about); interrupt mode is refused on the host topology.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
conf=$tmp/topo.conf
host=$top/topologies/host/topology.conf
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$conf FWDLAB_NO_INSTALL=1
# plan_on N: `fwdlab plan` as on a host of N CPUs, into $out (and shown as TAP comments).
plan_on() {
	out=$(OMP_NUM_THREADS=$1 "$top/lab/fwdlab" --topology host plan 2>&1)
	printf '# %s\n' "${out//$'\n'/$'\n'# }"
}

cp "$host" "$conf"
plan_on 2
check "two cpus: every vfwd and tgen thread has its row with cpu and mode" eval '
	grep -Eq "^  vfwd +main \(CLI\) +0 " <<<"$out" &&
	grep -Eq "^  vfwd +worker \(lcore 1\) +1 +rx-mode adaptive \(auto\)$" <<<"$out" &&
	grep -Eq "^  tgen +main \(tx \+ rx\) +0 +pacing sleep \(auto\)$" <<<"$out"'
check "two cpus: the plan says the threads share and that it yields" grep -q \
	"polling threads must share CPUs (2 polling threads and the rest need 3 CPUs, 2 online): yielding modes" <<<"$out"

plan_on 4
check "four cpus: busy-polling, each thread on its own cpu" eval '
	grep -Eq "worker \(lcore 1\) +1 +rx-mode poll \(auto\)$" <<<"$out" &&
	grep -Eq "main \(tx \+ rx\) +0 +pacing busy \(auto\)$" <<<"$out" &&
	grep -q "busy-polling, each thread on its own CPU" <<<"$out"'

# tgen on vfwd's worker CPU (the layout before issue 17): two pollers on CPU 1
sed 's/^tgen.eal_args = .*/tgen.eal_args = -l 0,1 --main-lcore 1 --no-huge -m 512/' "$host" >"$conf"
plan_on 4
check "tgen on the worker's cpu: shared even with four cpus, yielding" eval '
	grep -q "CPU 1 runs two polling threads" <<<"$out" &&
	grep -Eq "main \(tx \+ rx\) +1 +pacing sleep \(auto\)$" <<<"$out"'
sed -i 's/^vfwd.rx_mode = .*/vfwd.rx_mode = poll/; s/^tgen.pacing = .*/tgen.pacing = busy/' "$conf"
plan_on 4
check "named busy modes on a shared cpu: kept, with a warning" eval '
	grep -Eq "rx-mode poll$" <<<"$out" && grep -Eq "pacing busy$" <<<"$out" &&
	grep -q "warning: polling threads share CPUs" <<<"$out"'

sed 's/^vfwd.rx_mode = .*/vfwd.rx_mode = interrupt/' "$host" >"$conf"
try "$top/lab/fwdlab" --topology host plan
check "interrupt mode is refused on the host topology, naming the file" eval '
	[ "$rc" -ne 0 ] && grep -q "$conf: vfwd.rx_mode = interrupt does not work on the host topology" <<<"$out"'
sed 's/^tgen.pacing = .*/tgen.pacing = fast/' "$host" >"$conf"
try "$top/lab/fwdlab" --topology host plan
check "a bad pacing value is refused with file and line" eval '
	[ "$rc" -ne 0 ] && grep -q "$conf:[0-9]*: tgen.pacing = fast: expected auto, busy or sleep" <<<"$out"'
echo "1..$n"
