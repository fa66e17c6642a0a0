#!/usr/bin/env bash
# Plugin A/B bench (not a test): per-node clocks/packet of the C `example` feature vs the
# Rust `example-rs` feature. vfwd with one worker routes 16.0.0.1 -> 48.0.0.1 IPv4 UDP
# frames from net_pcap (infinite_rx) to net_null (--no-huge); both plugins are loaded, one
# feature is enabled on port0 per run; runs are interleaved A B A B A B; each run is a
# fresh vfwd, a warm-up, `clear runtime`, a measured interval and `show runtime json`.
# Prints a Markdown table per run and the medians. When valgrind is installed it also
# counts the instructions each process function runs per packet (callgrind, one run each
# over a finite pcap): a figure that the load of a shared machine does not move.
#
#   bench.sh [-r REPEATS] [-d SECONDS] [-w WARMUP] [-s FRAME-SIZE] [-o KEEP-DIR] [-n]
#   (defaults: 3 repeats, 5 s measured, 2 s warm-up, 1500-byte frames; -n: no callgrind)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=forwarder/plugins/example-rs/tests/lib.sh
. "$here/tests/lib.sh"

repeats=3 duration=5 warmup=2 size=1500 keep="" callgrind=1
while getopts "r:d:w:s:o:nh" opt; do
	case "$opt" in
	r) repeats=$OPTARG ;;
	d) duration=$OPTARG ;;
	w) warmup=$OPTARG ;;
	s) size=$OPTARG ;;
	o) keep=$OPTARG ;;
	n) callgrind=0 ;;
	*) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
for n in "$repeats" "$duration" "$warmup" "$size"; do
	if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -eq 0 ]; then
		echo "bench.sh: '$n' is not a positive integer" >&2
		exit 2
	fi
done
for f in "$VFWD_BUILD/bin/vfwd" "$EXRS_PLUGIN" "$EXRS_C_PLUGIN" "$PCAPTOOL"; do
	[ -e "$f" ] || { echo "bench.sh: $f is missing; run make -C $here bench" >&2; exit 1; }
done
command -v jq >/dev/null || { echo "bench.sh: jq is missing (apt-get install jq)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'vfwd_cleanup; rm -rf "$tmp"' EXIT
"$PCAPTOOL" gen "$tmp/udp.pcap" --size "$size" --count 256 --dst-mac 02:70:63:61:70:00

# one_run DIR FEATURE: prints "clocks vectors/call Mpps best" of FEATURE's node: clocks
# per packet over the whole measured interval, taken as half-second samples (clear
# runtime, wait, show runtime json), and the lowest clocks/packet of one sample, which
# is the figure least touched by other processes on a shared machine.
one_run() {
	local d=$1 feature=$2 k samples=$((duration * 2))
	mkdir -p "$d"
	vfwd_plugins "$d"
	vfwd_setup "$d" "$feature" port0
	vfwd_conf "$d" "net_pcap0,rx_pcap=$tmp/udp.pcap,infinite_rx=1" "net_null0,no-rx=1"
	vfwd_start "$d" >&2 || return 1
	sleep "$warmup"
	for k in $(seq 1 "$samples"); do
		ctl "$d" clear runtime >/dev/null
		sleep 0.5
		ctl "$d" show runtime json >"$d/show_runtime.$k.json"
	done
	ctl "$d" show runtime >"$d/show_runtime.txt"
	vfwd_stop "$d" || true
	for k in $(seq 1 "$samples"); do
		jq -r --arg n "$feature" '.threads[] | . as $t | .nodes[] | select(.name == $n) |
			"\(.clocks_total) \(.vectors) \(.calls) \($t.time)"' "$d/show_runtime.$k.json"
	done | awk '$2 > 0 {
		c += $1; v += $2; n += $3; t += $4; x = $1 / $2
		if (best == "" || x < best) best = x
	} END { if (v > 0) print c / v, v / n, v / t / 1e6, best }'
}

# instructions DIR FEATURE: callgrind's instruction count of FEATURE's process function
# over N packets of a finite pcap, as "instructions packets".
instructions() {
	local d=$1 feature=$2 n=25600 pid fn
	fn=$([ "$feature" = example ] && echo example_process || echo '*example_rs_process*')
	mkdir -p "$d"
	vfwd_plugins "$d"
	vfwd_setup "$d" "$feature" port0
	"$PCAPTOOL" gen "$d/in.pcap" --size "$size" --count "$n" --dst-mac 02:70:63:61:70:00
	vfwd_conf "$d" "net_pcap0,rx_pcap=$d/in.pcap" "net_null0,no-rx=1"
	valgrind --tool=callgrind --callgrind-out-file="$d/callgrind.out" --toggle-collect="$fn" \
		"$VFWD_BUILD/bin/vfwd" -c "$d/startup.conf" >"$d/vfwd.log" 2>&1 &
	pid=$!
	vfwd_pids+=("$pid")
	echo "$pid" >"$d/vfwd.pid"
	for _ in $(seq 1 240); do
		[ -S "$d/cli.sock" ] && [ "$(port_counters "$d" | cut -d' ' -f1)" = "$n" ] && break
		sleep 0.5
	done
	sleep 1
	vfwd_stop "$d" || true
	callgrind_annotate "$d/callgrind.out" 2>/dev/null |
		awk -v n="$n" '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1, n; exit }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

results=$tmp/results
: >"$results"
echo "vfwd $("$VFWD_BUILD/bin/vfwd" --version 2>/dev/null | head -n1), $(nproc) cpus," \
	"load $(cut -d' ' -f1-3 /proc/loadavg); ${size}-byte IPv4 UDP, ${duration} s a run" >&2
for r in $(seq 1 "$repeats"); do
	for feature in example example-rs; do
		line=$(one_run "$tmp/run-$r-$feature" "$feature") || {
			echo "bench.sh: run $r $feature failed" >&2
			exit 1
		}
		[ -n "$line" ] || { echo "bench.sh: no $feature row in show runtime" >&2; exit 1; }
		echo "$r $feature $line" >>"$results"
		echo "run $r $feature: clocks vpc Mpps best: $line" >&2
	done
done
[ -z "$keep" ] || { mkdir -p "$keep" && cp -r "$tmp"/run-* "$keep"/; }

echo
echo "Per run (${size}-byte IPv4 UDP, net_pcap infinite_rx -> net_null, one worker):"
echo
echo "| run | node | Clocks/packet | Vectors/Call | Mpps | best 0.5 s sample |"
echo "|----:|------|--------------:|-------------:|-----:|------------------:|"
while read -r r f c v m b; do
	printf '| %s | %s | %.2f | %.2f | %.3f | %.2f |\n' "$r" "$f" "$c" "$v" "$m" "$b"
done <"$results"
echo
echo "Medians over $repeats interleaved runs each (A B A B ...):"
echo
echo "| node | median Clocks/packet | min | max | median Mpps | median best sample |"
echo "|------|---------------------:|----:|----:|------------:|-------------------:|"
for f in example example-rs; do
	c=$(awk -v f="$f" '$2 == f { print $3 }' "$results" | median)
	lo=$(awk -v f="$f" '$2 == f { print $3 }' "$results" | sort -g | head -n1)
	hi=$(awk -v f="$f" '$2 == f { print $3 }' "$results" | sort -g | tail -n1)
	m=$(awk -v f="$f" '$2 == f { print $5 }' "$results" | median)
	b=$(awk -v f="$f" '$2 == f { print $6 }' "$results" | median)
	printf '| %s | %.2f | %.2f | %.2f | %.3f | %.2f |\n' "$f" "$c" "$lo" "$hi" "$m" "$b"
	eval "med_${f//-/_}=$c best_${f//-/_}=$b"
done
# shellcheck disable=SC2154 # set by the eval above
printf '\nexample-rs / example: %.2f (median clocks/packet), %.2f (median best sample)\n' \
	"$(awk -v a="$med_example_rs" -v b="$med_example" 'BEGIN { print a / b }')" \
	"$(awk -v a="$best_example_rs" -v b="$best_example" 'BEGIN { print a / b }')"

if [ "$callgrind" -eq 1 ] && ! command -v valgrind >/dev/null; then
	echo; echo "(valgrind is not installed: no instruction counts)"
	callgrind=0
fi
[ "$callgrind" -eq 1 ] || exit 0
echo
echo "Instructions per packet of the process function (callgrind, 25600 packets, 256 a vector):"
echo
echo "| node | instructions | packets | instructions/packet |"
echo "|------|-------------:|--------:|--------------------:|"
for f in example example-rs; do
	read -r ir n < <(instructions "$tmp/callgrind-$f" "$f")
	[ -n "${ir:-}" ] || { echo "bench.sh: callgrind run of $f gave no count" >&2; exit 1; }
	printf '| %s | %s | %s | %.2f |\n' "$f" "$ir" "$n" "$(awk -v a="$ir" -v b="$n" 'BEGIN { print a / b }')"
done
