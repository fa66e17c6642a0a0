#!/usr/bin/env bash
# make bench: one worker, 64-byte IPv4/UDP from net_pcap (infinite_rx) to
# net_null, for vfwd (plain and with the example feature), DPDK's l3fwd-graph
# and testpmd io, one after the other in the same run, each with the same ports,
# the same packets, its main lcore on CPU 0 and its one worker on CPU 1.
# Each forwarder is measured the same way: port 1's tx counter (DPDK telemetry)
# and the CPU time of the worker thread (/proc) over the same window. Prints
# wall-clock Mpps, Mpps per second of worker CPU (what one idle core would
# forward; on a shared box the worker is preempted, and this figure is not),
# per-node clocks/packet and the ratios. Not a test: compare ratios from one run.
#   scripts/bench.sh BUILD_DIR     (env: BENCH_SECONDS=8 BENCH_REPEAT=2)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
top=${TOP:-$(cd "$here/.." && pwd)}
build=${1:-$top/build/vfwd/default}
secs=${BENCH_SECONDS:-8}
repeat=${BENCH_REPEAT:-2}
work=$top/build/bench
mkdir -p "$work"
tmp=$(mktemp -d)
pid=""
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf -- /var/run/dpdk/{vfwd,l3fwd,tpmd}-bench-$$
	[ -n "${BENCH_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

# ---- input: 1024 x 64-byte frames 198.18.0.1 -> 198.18.1.x ----
"$top/build/peers/tools/pcaptool" gen "$tmp/in.pcap" --count 1024 --size 60 \
	--dst-mac 02:70:63:61:70:00 --src-mac 02:00:00:00:00:02 --src-ip 198.18.0.1 \
	--dst-ip 198.18.1.1 --dst-ips 250
eal_common=(--no-huge -m 1024 --no-pci "--log-level=*:warning")
pcap_rx="net_pcap0,rx_pcap=$tmp/in.pcap,infinite_rx=1"
null_tx="net_null0,no-rx=1"

# ---- l3fwd-graph: the peers' build (peers/build-examples: dpdk-doc sources + peers/patches) ----
l3fwd=""
if "$top/peers/build-examples" l3fwd-graph >"$work/l3fwd-graph.build.log" 2>&1; then
	l3fwd=$top/build/peers/bin/l3fwd-graph
else
	echo "bench: peers/build-examples l3fwd-graph failed (see $work/l3fwd-graph.build.log)"
fi

# measure PID PREFIX: over $secs seconds, port 1's tx packets (telemetry) and the CPU time of
# the worker (thread rte-worker-1) and the main thread ->
# "wall_mpps mpps_per_worker_cpu_s worker_cpu_share main_cpu_share"
measure() {
	python3 - "$1" "/var/run/dpdk/$2/dpdk_telemetry.v2" "$secs" <<'PY'
import glob, json, os, socket, sys, time
pid, sock_path, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
hz = os.sysconf("SC_CLK_TCK")
def tx():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(sock_path)
    s.recv(4096)
    s.send(b"/ethdev/stats,1")
    v = json.loads(s.recv(65536).decode())["/ethdev/stats"]["opackets"]
    s.close()
    return v
def cpu(comm):
    for t in glob.glob("/proc/%s/task/*" % pid):
        try:
            if open(t + "/comm").read().strip() != comm:
                continue
            f = open(t + "/stat").read().rsplit(")", 1)[1].split()
            return (int(f[11]) + int(f[12])) / hz
        except OSError:
            pass
    return 0.0
main_comm = open("/proc/%s/comm" % pid).read().strip()
def snap():
    return time.monotonic(), tx(), cpu("rte-worker-1"), cpu(main_comm)
t0, p0, w0, m0 = snap()
time.sleep(secs)
t1, p1, w1, m1 = snap()
dt, dp, dw = t1 - t0, p1 - p0, w1 - w0
core = dp / dw / 1e6 if dw > 0 else 0
print("%.3f %.3f %.2f %.2f" % (dp / dt / 1e6, core, dw / dt, (m1 - m0) / dt))
PY
}

wait_telemetry() { # PREFIX: until the process answers on its telemetry socket (20 s at most)
	for _ in $(seq 1 200); do
		[ -S "/var/run/dpdk/$1/dpdk_telemetry.v2" ] && return 0
		sleep 0.1
	done
	return 1
}

run_vfwd() { # example(0|1) [build] -> "mpps e i l r x core_mpps wk_share main_share"
	local b=${2:-$build}
	"$top/tests/lib/vfwd-conf" setup "$tmp/setup.cli" --addr4 --nbr1 02:00:00:00:01:02 \
		--route1 198.18.1.0/24
	if [ "$1" = 1 ]; then
		echo "set interface feature port0 example arc ip4-unicast" >>"$tmp/setup.cli"
	fi
	cat >"$tmp/vfwd.conf" <<CONF
unix { cli-listen $tmp/cli.sock  exec $tmp/setup.cli }
cpu { main-core 0  corelist-workers 1 }
dpdk {
	eal-args "${eal_common[*]} --file-prefix vfwd-bench-$$"
	num-mbufs 16384
	vdev $pcap_rx { name port0 }
	vdev $null_tx { name port1 }
}
CONF
	"$b/bin/vfwd" -c "$tmp/vfwd.conf" >"$tmp/vfwd.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 100); do
		[ -S "$tmp/cli.sock" ] && break
		sleep 0.1
	done
	sleep 2
	"$b/bin/vfwdctl" -s "$tmp/cli.sock" clear runtime
	m=$(measure "$pid" "vfwd-bench-$$")
	"$b/bin/vfwdctl" -s "$tmp/cli.sock" show runtime json >"$tmp/rt.json"
	"$b/bin/vfwdctl" -s "$tmp/cli.sock" show runtime >"$work/vfwd-example$1.runtime.txt"
	kill "$pid"
	wait "$pid" || true
	pid=""
	python3 - "$tmp/rt.json" "$m" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = sys.argv[2].split()
w = d["threads"][1]
nodes = {n["name"]: n for n in w["nodes"]}
def clk(name):
    n = nodes.get(name)
    return n["clocks"] if n else 0.0
print("%s %.1f %.1f %.1f %.1f %.1f %s %s %s" % (m[0], clk("ethernet-input"), clk("ip4-input"),
      clk("ip4-lookup"), clk("ip4-rewrite"), clk("example"), m[1], m[2], m[3]))
PY
}

run_l3fwd() { # -> "mpps cls lookup rewrite core_mpps wk_share main_share"
	[ -n "$l3fwd" ] || { echo "0 0 0 0 0 0 0"; return; }
	# the routes and neighbor MAC of vfwd's setup.cli; the main lcore prints graph stats
	"$l3fwd" -l 0,1 "${eal_common[@]}" --file-prefix "l3fwd-bench-$$" \
		--vdev "$pcap_rx" --vdev "$null_tx" -- -p 0x3 -P --config="(0,0,1)" \
		--route=198.18.1.0/24,1 --eth-dest=1,02:00:00:00:01:02 >"$tmp/l3fwd.log" 2>&1 &
	pid=$!
	# Its main lcore busy-waits between stats prints (rte_delay_ms spins) where vfwd's and
	# testpmd's main threads sleep; on a shared box that spin takes CPU from the worker.
	# SCHED_IDLE lets the main thread run only on an otherwise idle CPU (BENCH_L3FWD_MAIN_SPIN=1
	# leaves it as it is). Only once the EAL is up: threads created later would inherit it.
	wait_telemetry "l3fwd-bench-$$" || true
	[ -n "${BENCH_L3FWD_MAIN_SPIN:-}" ] || chrt --idle -p 0 "$pid" >/dev/null || true
	sleep 2
	m=$(measure "$pid" "l3fwd-bench-$$")
	# back to SCHED_OTHER, or a starved main thread may take long to see the signal
	chrt --other -p 0 "$pid" >/dev/null || true
	kill -INT "$pid"
	wait "$pid" || true
	pid=""
	python3 - "$tmp/l3fwd.log" "$m" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
m = sys.argv[2].split()
tables = text.split("\x1b[2J")
stats = {}
for t in tables[-3:-1] if len(tables) > 2 else tables[-1:]:
    for line in t.splitlines():
        f = [x.strip() for x in line.split("|")]
        if len(f) >= 8 and f[1] and f[2].isdigit():
            objs_call, mpps, cyc_call = float(f[5]), float(f[6]), float(f[7])
            stats.setdefault(f[1], []).append((mpps, cyc_call / objs_call if objs_call else 0))
def get(prefix, i):
    v = [s[-1][i] for k, s in stats.items() if k.startswith(prefix)]
    return max(v) if v else 0.0
print("%s %.1f %.1f %.1f %s %s %s" % (m[0], get("pkt_cls", 1), get("ip4_lookup", 1),
      get("ip4_rewrite", 1), m[1], m[2], m[3]))
PY
}

run_testpmd() { # -> "mpps core_mpps wk_share main_share"
	command -v dpdk-testpmd >/dev/null || { echo "0 0 0 0"; return; }
	dpdk-testpmd -l 0,1 "${eal_common[@]}" --file-prefix "tpmd-bench-$$" \
		--vdev "$pcap_rx" --vdev "$null_tx" -- --forward-mode=io --nb-cores=1 \
		--total-num-mbufs=16384 --stats-period 1 >"$tmp/testpmd.log" 2>&1 </dev/null &
	pid=$!
	wait_telemetry "tpmd-bench-$$" || true
	sleep 2
	measure "$pid" "tpmd-bench-$$"
	kill -INT "$pid"
	wait "$pid" || true
	pid=""
}

printf 'bench: %s, %s s per run, %s rounds, 64-byte frames, one worker, pcap(infinite_rx) -> null\n' \
	"$build" "$secs" "$repeat"
: >"$work/results.txt"
# link variants (issue 6): set BENCH_VARIANTS="default interposable bsymbolic" to run vfwd
# from each build folder beside BUILD_DIR, interleaved A B C A B C
read -r -a variants <<<"${BENCH_VARIANTS:-}"
for r in $(seq 1 "$repeat"); do
	for v in "${variants[@]}"; do
		if [ -x "$top/build/vfwd/$v/bin/vfwd" ]; then
			echo "round $r: vfwd[$v] $(run_vfwd 0 "$top/build/vfwd/$v" | tee -a "$work/var-$v.txt")"
		fi
	done
	echo "round $r: vfwd $(run_vfwd 0 | tee -a "$work/v0.txt")"
	echo "round $r: vfwd+example $(run_vfwd 1 | tee -a "$work/v1.txt")"
	echo "round $r: l3fwd-graph $(run_l3fwd | tee -a "$work/l3.txt")"
	echo "round $r: testpmd-io $(run_testpmd | tee -a "$work/tp.txt")"
done
python3 - "$work" "${variants[@]}" <<'PY'
import statistics as st, sys, os
w = sys.argv[1]
def rows(n):
    p = os.path.join(w, n)
    r = [list(map(float, l.split())) for l in open(p) if l.strip()]
    os.remove(p)
    return r
def med(r, i):
    return st.median(x[i] for x in r) if r else 0.0
v0, v1, l3, tp = rows("v0.txt"), rows("v1.txt"), rows("l3.txt"), rows("tp.txt")
core = [med(v0, i) for i in range(1, 5)]
print()
print("| forwarder | Mpps (median) | ratio to l3fwd-graph | Mpps per worker CPU-second "
      "| ratio to l3fwd-graph | worker CPU share | main thread CPU share |")
print("|---|---|---|---|---|---|---|")
ref, ref_core = med(l3, 0) or float("nan"), med(l3, 4) or float("nan")
for name, r, c in (("vfwd", v0, 6), ("vfwd + example feature", v1, 6), ("l3fwd-graph", l3, 4),
                   ("testpmd io", tp, 1)):
    print("| %s | %.2f | %.2fx | %.2f | %.2fx | %.2f | %.2f |" % (
        name, med(r, 0), med(r, 0) / ref, med(r, c), med(r, c) / ref_core, med(r, c + 1),
        med(r, c + 2)))
print()
print("vfwd clocks/packet: ethernet-input %.1f, ip4-input %.1f, ip4-lookup %.1f, "
      "ip4-rewrite %.1f, sum %.1f (target <= 60)" % (*core, sum(core)))
print("vfwd example feature: %.1f clocks/packet (target <= 6)" % med(v1, 5))
print("l3fwd-graph clocks/packet: pkt_cls %.1f, ip4_lookup %.1f, ip4_rewrite %.1f, sum %.1f"
      % (med(l3, 1), med(l3, 2), med(l3, 3), med(l3, 1) + med(l3, 2) + med(l3, 3)))
var = [(v, rows("var-%s.txt" % v)) for v in sys.argv[2:] if os.path.exists(os.path.join(w, "var-%s.txt" % v))]
if var:
    base = med(var[0][1], 0) or float("nan")
    print()
    core_base = med(var[0][1], 6) or float("nan")
    print("| link variant | Mpps (median) | vs %s | Mpps per worker CPU-second | vs %s "
          "| 4 core nodes clocks/packet |" % (var[0][0], var[0][0]))
    print("|---|---|---|---|---|---|")
    for v, r in var:
        print("| %s | %.2f | %+.1f%% | %.2f | %+.1f%% | %.1f |" % (
            v, med(r, 0), (med(r, 0) / base - 1) * 100, med(r, 6),
            (med(r, 6) / core_base - 1) * 100, sum(med(r, i) for i in range(1, 5))))
PY
