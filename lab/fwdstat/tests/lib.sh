# shellcheck shell=bash
# Helpers for fwdstat's script tests: real run folders in the layout of HACKING.md,
# with meta.json, tgen.json and a show_runtime.txt in VPP's layout.

FWDSTAT=${FWDSTAT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/build/lab/bin/fwdstat}
# TAP lines from the tree's one library; tap_n and tap_failed are this suite's names.
# shellcheck source=tests/lib/tap.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/tests/lib/tap.sh"
tap_alias tap_n tap_failed
ok() { tap_result "$1" "$2"; } # STATUS NAME

holds() { # FILE FILTER: the JSON in FILE satisfies the jq FILTER
	jq -e "$2" "$1" >/dev/null
}

quiet() { # command...: runs it with its output kept aside; when it fails, its last 25 lines as
	# TAP comments (a failed `lab up` says why), and its status
	local out rc=0
	out=$(mktemp)
	"$@" >"$out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "# '$*' exited $rc; its last lines:"
		grep -Ev '^(EAL|TELEMETRY|VHOST_CONFIG|VIRTIO)' "$out" | tail -n 25 | sed 's/^/#   /'
	fi
	rm -f "$out"
	return "$rc"
}

quiet_to() { # FILE command...: stdout to FILE, stderr thrown away
	local f=$1
	shift
	"$@" >"$f" 2>/dev/null
}


# runtime_row NAME STATE CALLS VECTORS SUSPENDS CLOCKS VPC: one row in VPP's widths.
runtime_row() {
	local pad=$((12 - ${#2}))
	printf '%-30s%*s%s%*s%16d%16d%16d%16s%16.2f\n' "$1" $((pad / 2)) "" "$2" \
		$((pad - pad / 2)) "" "$3" "$4" "$5" "$6" "$7"
}

# write_runtime FILE EXAMPLE_CLOCKS LOOKUP_CLOCKS: main thread and two workers; the
# worker split is 1:3 of 4,000,000 vectors at the same clocks, so the sum is exact.
write_runtime() {
	local f=$1 ex=$2 lk=$3
	{
		echo "Thread 0 vpp_main (lcore 0)"
		echo "Time 10.0, 10 sec internal node vector rate 0.00 loops/sec 1000000.00"
		echo "  vector rates in 0.0000e0, out 0.0000e0, drop 0.0000e0, punt 0.0000e0"
		echo "             Name                 State         Calls          Vectors        Suspends         Clocks       Vectors/Call  "
		runtime_row cli-process "event wait" 0 0 5 5.40e3 0
		runtime_row unix-epoll-input polling 1000 0 0 2.10e4 0
		for w in 1 2; do
			local v=$((w == 1 ? 1000000 : 3000000)) c=$((w == 1 ? 4000 : 12000))
			echo "---------------"
			echo "Thread $w vpp_wk_$((w - 1)) (lcore $w)"
			echo "Time 10.0, 10 sec internal node vector rate 250.00 loops/sec 90000.00"
			echo "  vector rates in 1.0000e5, out 1.0000e5, drop 0.0000e0, punt 0.0000e0"
			echo "             Name                 State         Calls          Vectors        Suspends         Clocks       Vectors/Call  "
			runtime_row example active "$c" "$v" 0 "$ex" 250
			runtime_row ip4-lookup active "$c" "$v" 0 "$lk" 250
			runtime_row port0-rx polling $((c * 2)) "$v" 0 4.00e1 125
		done
	} >"$f"
}

# make_run CAMPAIGN_DIR RUN GROUP PROFILE SIZE NDR PDR DUT STATUS [EXAMPLE_CLOCKS LOOKUP_CLOCKS]
make_run() {
	local d=$1/$2 status=$9
	mkdir -p "$d"
	cat >"$d/tgen.json.tmp" <<JSON
{ "tool": "tgen", "mode": "ndr", "build": {"name": "tgen"},
  "profile": { "name": "$4", "frame_size": $5, "flows": 1, "bidir": false },
  "link_bps": 10000000000,
  "params": { "min_rate_pps": 1000, "max_rate_pps": 14880952, "pdr_loss_ratio": 0.005,
              "width_ratio": 0.005, "trial_duration_s": 1, "final_duration_s": 2 },
  "ndr": { "rate_pps": $6, "rate_bps": 0, "rate_l1_bps": 0, "below_minimum": false },
  "pdr": { "rate_pps": $7, "rate_bps": 0, "rate_l1_bps": 0, "below_minimum": false },
  "trials": [] }
JSON
	mv "$d/tgen.json.tmp" "$d/tgen.json"
	if [ $# -ge 11 ]; then
		write_runtime "$d/show_runtime.txt" "${10}" "${11}"
	fi
	cat >"$d/meta.json.tmp" <<JSON
{ "run": "$2", "campaign": "$(basename "$1")", "topology": "host", "label": "test",
  "status": "$status", "failure": "$([ "$status" = complete ] || echo "interrupted")",
  "dut": { "backend": "$8", "build_label": "", "build": {"name": "vfwd"} },
  "experiment": "compare", "group": "$3", "repeat": 1,
  "profile": "$4", "frame_size": $5, "flows": 1,
  "started_at": "20260101T000000Z-$2", "finished_at": "" }
JSON
	mv "$d/meta.json.tmp" "$d/meta.json"
}

use_tmp() { # a temp folder in $tmp, removed at exit
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# The A B A B A B campaign of compare_test and report_html_test, one run a line: group, NDR
# at 1500 B, the example node's and ip4-lookup's clocks (B's example costs 20, A's 12).
# shellcheck disable=SC2034 # read by the sourcing tests
AB_RUNS=("A 1000000 12.0 12.1" "B 1200000 20.0 12.0" "A 1020000 12.2 12.0"
	"B 1210000 20.4 12.1" "A 980000 11.8 11.9" "B 1190000 19.6 12.0")

make_sweep() { # CAMPAIGN_DIR "DUT SIZE NDR"...: runs 001-DUT-SIZE.. of a sweep, NDR = PDR
	local c=$1 spec dut size ndr n=0
	shift
	for spec in "$@"; do
		read -r dut size ndr <<<"$spec"
		n=$((n + 1))
		make_run "$c" "$(printf '%03d' "$n")-$dut-$size" A udp "$size" "$ndr" "$ndr" "$dut" complete
	done
}
