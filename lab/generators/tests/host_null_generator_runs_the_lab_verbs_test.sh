#!/usr/bin/env bash
# A generator added from the contract alone (lab/generators/null) runs the lab's verbs on the
# host topology with vfwd as the DUT: `run` and `ndr --generator null` complete with the
# same results layout as tgen (tgen.json naming null as its tool and generator, meta.json's
# generator, a DUT dump per trial, generator-trials.jsonl), and the one search finds the
# capacity null's wire was given within its width. Then `run --generator tgen` is tgen's
# again on the same vfwd, and the lab's generator is tgen again. Last, tgen itself meets the
# contract (contract.sh) against the lab's vfwd.
# shellcheck disable=SC2016,SC2034 # checks are eval'd
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
# shellcheck source=lab/generators/tests/contract.sh
. "$top/lab/generators/tests/contract.sh"
run_dir() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" -print -quit; }
stage "up" quiet lab up || exit 1
export FWDLAB_NULL_CAP_PPS=20000
stage "run --generator null" quiet lab run --generator null --rate 1000 --duration 1 --run null-run || true
r=$(run_dir null-run)
check "the run is complete; tgen.json and meta.json name null" eval '
	[ "$(jq -r .status "$r/meta.json")" = complete ] &&
	jq -e ".tool == \"null\" and .generator.name == \"null\" and .search.tool == \"tgen\" and .trial.tx_packets == 1000" "$r/tgen.json" >/dev/null &&
	jq -e ".generator == {name: \"null\", version: \"1\"}" "$r/meta.json" >/dev/null'
check "the DUT was dumped after the trial and the generator's JSON kept" eval '
	[ -s "$r/trials/000/show_runtime.txt" ] && [ -s "$r/show_runtime.txt" ] &&
	[ "$(wc -l <"$r/generator-trials.jsonl")" -eq 1 ]'
stage "ndr --generator null" quiet lab ndr --generator null --max-rate 50000 --trial-duration 1 \
	--final-duration 1 --run null-ndr || true
n=$(run_dir null-ndr)
check "NDR within the 0.5 % width below null's 20000 pps cap" eval '
	jq -e ".ndr.rate_pps <= 20000 and .ndr.rate_pps >= 19900 and .ndr.limited_by == \"dut\"" "$n/tgen.json" >/dev/null'
check "one DUT dump per trial" eval '
	[ "$(find "$n/trials" -name show_runtime.txt | wc -l)" -eq "$(jq ".trials | length" "$n/tgen.json")" ]'
stage "run (tgen)" quiet lab run --generator tgen --rate 2000 --duration 2 --run tgen-run || true
t=$(run_dir tgen-run)
check "tgen runs again on the same lab, the lab's generator is tgen again, and its run says so" eval '
	[ "$(cat "$FWDLAB_STATE/generator")" = tgen ] &&
	jq -e ".tool == \"tgen\" and .trial.rx_packets == .trial.tx_packets and .trial.tx_packets > 0" "$t/tgen.json" >/dev/null &&
	jq -e ".generator.name == \"tgen\"" "$t/meta.json" >/dev/null'
prefix=$(printf '%s' "$FWDLAB_STATE" | md5sum | cut -c1-8)
export FWDLAB_GEN_DIR=$tmp/gen-tgen FWDLAB_GEN_PORT0=$FWDLAB_STATE/run/port0.sock \
	FWDLAB_GEN_PORT1=$FWDLAB_STATE/run/port1.sock FWDLAB_GEN_DST_MAC0=02:00:00:00:00:01 \
	FWDLAB_GEN_DST_MAC1=02:00:00:00:01:01 FWDLAB_GEN_LINK=10gbps \
	FWDLAB_GEN_ARGS="-l 0,1 --main-lcore 1 --no-huge -m 512 --file-prefix tgen-$prefix"
contract_check tgen
stage "down" quiet lab down || true
echo "1..$TAP_N"
exit "$TAP_FAILED"
