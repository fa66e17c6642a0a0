#!/usr/bin/env bash
# make bench, node part: issue 19's per-node targets from nodes_bench in one run,
# the modes interleaved BENCH_REPEAT times (medians of the per-run medians and minima):
#   IPv4 core path (ethernet-input + ip4-input + ip4-lookup + ip4-rewrite) <= 45 clocks/packet
#   IPv6 path (ip6-input + ip6-lookup + ip6-rewrite)                       <= 60
#   ip4-lookup with CSIT's ip4scale2m (2M /32 routes, random destinations)
#     <= 1.5x ip4-lookup with 2 routes
# and, when valgrind is installed (BENCH_CALLGRIND=0 skips it), callgrind instructions
# per packet per node (each node's process function, inclusive) and for the whole walk
# (graph_walk: the nodes, rte_fib/rte_fib6 and the walk itself) for ip4 and ip6.
# Vectors of BENCH_BURST packets (default 64, vfwd's default rx-burst; 256 was the figure
# before 2026-12-06). Not a test: on a shared machine compare the ratios of one run, and
# read the minima.
#   scripts/bench-nodes.sh NODES_BENCH [WALKS]     (env: BENCH_REPEAT=3 BENCH_CALLGRIND BENCH_BURST)
set -euo pipefail
bin=${1:?usage: bench-nodes.sh NODES_BENCH [WALKS]}
walks=${2:-3000}
repeat=${BENCH_REPEAT:-3}
burst=${BENCH_BURST:-64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "bench-nodes: $bin, $walks walks of $burst packets, $repeat rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$repeat"); do
	for m in ip4 ip6 ip4-2m; do
		timeout 900 "$bin" "" "$walks" "$m" "$burst" >"$tmp/$m.$r.txt"
		grep '^# ip4scale2m' "$tmp/$m.$r.txt" || true
	done
done
python3 - "$tmp" "$repeat" <<'PY'
import statistics as st, sys
tmp, repeat = sys.argv[1], int(sys.argv[2])
def load(mode):
    runs = []
    for r in range(1, repeat + 1):
        d = {}
        for line in open("%s/%s.%d.txt" % (tmp, mode, r)):
            f = line.split()
            if len(f) == 3 and f[0] not in ("node", "#"):
                d[f[0]] = (float(f[1]), float(f[2]))
        runs.append(d)
    return runs
def med(runs, node, i):
    return st.median(d.get(node, (0, 0))[i] for d in runs)
ip4, ip6, m2 = load("ip4"), load("ip6"), load("ip4-2m")
core4 = ["ethernet-input", "ip4-input", "ip4-lookup", "ip4-rewrite"]
core6 = ["ip6-input", "ip6-lookup", "ip6-rewrite"]
print()
print("| node | ip4: median | min | ip6: median | min | ip4scale2m: median | min |")
print("|---|---:|---:|---:|---:|---:|---:|")
for n in ["walk"] + core4 + core6:
    cells = []
    for runs in (ip4, ip6, m2):
        if n in runs[0]:
            cells += ["%.1f" % med(runs, n, 0), "%.1f" % med(runs, n, 1)]
        else:
            cells += ["-", "-"]
    print("| %s | %s |" % (n, " | ".join(cells)))
s4 = [sum(med(ip4, n, i) for n in core4) for i in (0, 1)]
s6 = [sum(med(ip6, n, i) for n in core6) for i in (0, 1)]
r2 = [med(m2, "ip4-lookup", i) / med(ip4, "ip4-lookup", i) for i in (0, 1)]
print()
print("| target | median | min | goal |")
print("|---|---:|---:|---|")
print("| IPv4 core path, clocks/packet | %.1f | %.1f | <= 45 |" % tuple(s4))
print("| IPv6 path (ip6-input + ip6-lookup + ip6-rewrite), clocks/packet | %.1f | %.1f | <= 60 |" % tuple(s6))
print("| ip4-lookup, 2M routes random / 2 routes | %.2fx | %.2fx | <= 1.5x |" % tuple(r2))
PY

if [ "${BENCH_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	cg_walks=$((51200 / burst))
	echo
	echo "callgrind: instructions per packet per node ($cg_walks walks of $burst packets)"
	for m in ip4 ip6; do
		timeout 900 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$m" \
			"$bin" "" "$cg_walks" "$m" "$burst" >"$tmp/cg.$m.log" 2>&1 || {
			echo "callgrind $m failed"; tail -5 "$tmp/cg.$m.log"; continue; }
		callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg.$m" 2>/dev/null >"$tmp/cg.$m.txt"
		python3 - "$tmp/cg.$m.txt" "$m" $((cg_walks * burst)) <<'PY'
import re, sys
path, mode, pkts = sys.argv[1], sys.argv[2], int(sys.argv[3])
want = {"ip4": ["ethernet_input_process", "ip4_input_process", "ip4_lookup_process",
                "ip4_rewrite_process"],
        "ip6": ["ethernet_input_process", "ip6_input_process", "ip6_lookup_process",
                "ip6_rewrite_process"]}[mode]
got = {}
for line in open(path, errors="replace"):
    m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*:(\w+)", line) or \
        re.match(r"\s*([\d,]+)\s+\S*:(\w+)", line)
    if m and m.group(2) in want and m.group(2) not in got:
        got[m.group(2)] = int(m.group(1).replace(",", ""))
want.append("bench_walk")
cells = ["%s %.1f" % (n.replace("_process", "").replace("_", "-"), got.get(n, 0) / pkts)
         for n in want if n != "bench_walk"]
print("%s: %s; sum %.1f; whole walk %.1f" % (mode, ", ".join(cells),
      sum(got.get(n, 0) for n in want if n != "bench_walk") / pkts, got.get("bench_walk", 0) / pkts))
PY
	done
fi
