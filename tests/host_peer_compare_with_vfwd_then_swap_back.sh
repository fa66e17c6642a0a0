#!/usr/bin/env bash
# Peer backends by name in the lab's experiments, on the host topology: an unknown backend is
# refused with the list of backends (swap, compare, sweep) before anything starts, peer:list
# lists them, the b2b topology refuses a peer before touching a VM; `fwdlab compare` of the
# vfwd build against peer:testpmd-io (fixed-rate trials) gives a table naming both DUTs, with
# rates for both and node rows for vfwd only; `fwdlab dump` stores testpmd's own figures and
# names it; `fwdlab swap` back to the vfwd build works
# (show version names it, a run goes through vfwd's graph).
# shellcheck disable=SC2016,SC2317 # check runs these commands and functions itself
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/host_peer_lib.sh
. "$top/tests/host_peer_lib.sh"
names="l3fwd l3fwd-graph linux ovs-dpdk testpmd-io testpmd-mac vpp"
vfwd=$top/build/vfwd/default

# refused CMD...: CMD fails and its message names every backend.
refused() {
	local out rc=0 n
	out=$("$@" 2>&1) || rc=$?
	echo "$out" | tail -n 2 | sed 's/^/# /'
	[ "$rc" -ne 0 ] || return 1
	for n in $names; do grep -qw -- "$n" <<<"$out" || return 1; done
}
check "swap peer:nosuch is refused, naming the backends" refused lab swap peer:nosuch
check "compare with peer:nosuch is refused, naming the backends" \
	refused lab compare "$vfwd" peer:nosuch --rate 1000
check "sweep --dut with peer:nosuch is refused, naming the backends" \
	refused lab sweep --sizes 64 --dut "$vfwd,peer:nosuch"
check "swap peer:list lists the backends, one a line" \
	test "$(lab swap peer:list 2>/dev/null | sort | tr '\n' ' ')" = "$names "
check "no campaign was started by the refusals" test ! -e "$FWDLAB_RESULTS"
b2b_refused() {
	local out rc=0
	out=$("$top/lab/fwdlab" --topology b2b swap peer:testpmd-io 2>&1) || rc=$?
	echo "$out" | tail -n 1 | sed 's/^/# /'
	[ "$rc" -ne 0 ] && grep -q "runs vfwd only" <<<"$out"
}
check "b2b: swap peer:testpmd-io fails at once, saying the DUT image runs vfwd only" b2b_refused

lab_up || peer_tests_end
cmp_out=$T/compare.txt
compare_vfwd_testpmd() {
	lab compare "$vfwd" peer:testpmd-io --runs 1 --profiles udp:64 --rate 2000 --duration 1 \
		>"$cmp_out"
}
stage "fwdlab compare build/vfwd/default peer:testpmd-io (1 run each, 2000 pps)" \
	compare_vfwd_testpmd || true
sed 's/^/# /' "$cmp_out"
camp=$(find "$FWDLAB_RESULTS" -mindepth 1 -maxdepth 1 -type d -name '*-host-compare-default-vs-peer-testpmd-io')
metas=$(find "${camp:-/nonexistent}" -mindepth 2 -maxdepth 2 -name meta.json 2>/dev/null | sort)
check "campaign <UTC>-host-compare-default-vs-peer-testpmd-io with 2 complete runs" \
	test "$(xargs -r jq -r .status <<<"$metas" | grep -c '^complete$')" -eq 2
check "group A ran vfwd, group B testpmd-io (meta.json dut.backend)" \
	test "$(xargs -r jq -r '"\(.group)=\(.dut.backend)"' <<<"$metas" | sort | tr '\n' ' ')" = "A=vfwd B=testpmd-io "
check "the table names both DUTs" \
	bash -c 'grep -q "group A (base): 1 run, DUT vfwd" "$1" && grep -q "group B: 1 run, DUT testpmd-io" "$1"' _ "$cmp_out"
check "the table has a rate row with figures for both" \
	awk -F'|' '$2 ~ /udp\/64B/ && $3 ~ /rx rate/ && $4 ~ /[0-9]/ && $6 ~ /[0-9]/ { f = 1 } END { exit !f }' "$cmp_out"
check "node rows: clocks/packet for vfwd, '-' for the peer" \
	grep -Eq '^\| udp/64B \| ip4-lookup +\| clocks/packet \| +[0-9.]+ \|.*\| +- \|' "$cmp_out"

stage "fwdlab dump while peer:testpmd-io is the DUT" lab dump --label peer-dump || true
dmeta=$(find "$FWDLAB_RESULTS" -path '*-host-peer-dump/*' -name meta.json -print -quit)
check "the dump run is complete and its backend.json and meta.json say testpmd-io" \
	test "$(jq -r '.status, .dut.backend' "$dmeta" 2>/dev/null | tr '\n' ' ')$(jq -r .backend "$(dirname "$dmeta")/backend.json" 2>/dev/null)" = "complete testpmd-io testpmd-io"
check "the dump holds testpmd's forwarding stats with --record-core-cycles figures" \
	grep -q 'CPU cycles/packet=' "$(dirname "$dmeta")/fwd_stats.txt"

stage "fwdlab swap back to build/vfwd/default" lab swap "$vfwd" || true
check "show version names the vfwd build again" \
	bash -c '"$1/vfwd/bin/vfwdctl" -s "$1/run/cli.sock" show version | grep -qF "$2"' _ \
	"$FWDLAB_STATE" "$(jq -r .git_rev "$vfwd/build-info.json")"
stage "fwdlab run through vfwd after the peers" lab run --label back --rate 2000 --duration 1 || true
meta=$(find "$FWDLAB_RESULTS" -path '*-host-back/*' -name meta.json -print -quit)
check "the run records dut.backend vfwd and the dump says so" \
	test "$(jq -r .dut.backend "$meta" 2>/dev/null) $(jq -r .backend "$(dirname "$meta")/backend.json" 2>/dev/null)" = "vfwd vfwd"
check "vfwd's graph routed the run's frames (ip4-rewrite vectors > 0)" \
	awk '$1 == "ip4-rewrite" && $(NF - 3) > 0 { f = 1 } END { exit !f }' "$(dirname "$meta")/show_runtime.txt"
peer_tests_end
