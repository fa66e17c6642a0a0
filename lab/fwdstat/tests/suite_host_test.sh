#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd later, by check(); tests/host_lab.sh sets tmp
# suite_runs_a_csit_matrix_with_latency_and_a_report: `fwdlab --topology host suite` on real
# vfwd and tgen processes, with 1 s trials and a small matrix. ip4base at 64 B, cores 1 and
# one column more than the machine's CPUs, --repeat 2: the column that does not fit is
# skipped and said; two complete runs named the CSIT way in one campaign (group 1c, repeats
# 1 and 2), each with latency at pdr_0..pdr_90 and its HDR histogram; the table, the 1c line
# of the speedups and an HTML report with box plots, latency curves and the latency table.
# ip4scale20k-rnd: 20,000 /32 routes loaded through the CLI, tgen drawing each packet's
# destination at random over them (--flow-order rnd), forwarded. l2xcbase: the DUT
# cross-connects (l2-xconnect in show runtime), and is routed again afterwards.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
# shellcheck source=/dev/null
. "$top/tests/host_lab.sh"
short=(--trial-duration 1 --final-duration 1 --max-rate 10kpps --min-rate 1kpps)
cpus=$(getconf _NPROCESSORS_ONLN)
big=$((cpus + 4))
vctl() { "$tmp/lab/vfwd/bin/vfwdctl" -s "$tmp/lab/run/cli.sock" "$@"; }

rc=0
lab suite ip4base --frame-sizes 64 --cores "1,$big" --repeat 2 "${short[@]}" >"$tmp/suite.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/suite.out"
check "ip4base_suite_exits_0" test "$rc" -eq 0
camp=$(find "$tmp/results" -maxdepth 1 -name '*-host-suite-2n1l-10ge2p1vhost-ethip4-ip4base-ndrpdr' | head -1)
check "campaign_is_named_the_csit_way" test -n "$camp"
check "column_without_cpus_is_skipped_and_said" grep -q "skipping the ${big}c column" "$tmp/suite.out"
check "suite_json_records_the_columns_run" eval 'jq -e ".suite == \"ip4base\" and .cores_run == [1] and
	.repeat == 2 and (.cores_asked | index('"$big"'))" "$camp/suite.json" >/dev/null'
check "two_complete_runs_named_the_csit_way_group_1c_repeats_1_2" eval '
	[ "$(for r in 1 2; do jq -r "[.status, .group, (.repeat | tostring)] | join(\" \")" "$camp/64b-1c-ethip4-ip4base-ndrpdr.r$r/meta.json"; done | tr "\n" " ")" = "complete 1c 1 complete 1c 2 " ]'
check "every_run_has_latency_at_the_four_loads_with_histograms" eval '
	for r in 1 2; do jq -e "[.latency.pdr_0, .latency.pdr_10, .latency.pdr_50, .latency.pdr_90] |
		all(.forward.count > 0 and (.forward.hdrh | startswith(\"HISTF\")))" \
		"$camp/64b-1c-ethip4-ip4base-ndrpdr.r$r/tgen.json" >/dev/null || exit 1; done'
check "stdout_has_the_table_the_latency_and_the_1c_line" eval '
	grep -q "udp/64B" "$tmp/suite.out" && grep -Eq "^\| 64b-1c-.* \| pdr_90 " "$tmp/suite.out" &&
	grep -Eq "^64B 1c: NDR median [0-9]+ pps" "$tmp/suite.out"'
html=$camp/report/$(basename "$camp")/index.html
check "report_has_box_plots_latency_curves_and_table" eval '
	grep -q "box-rates-" "$html" && grep -q "latency-udp_64B" "$html" &&
	grep -q "Latency at load" "$html" &&
	[ -s "$camp/report/$(basename "$camp")/latency-udp_64B_253flows.svg" ] &&
	grep -q "Repeats: mean" "$html"'

rc=0
lab suite ip4scale20k-rnd --frame-sizes 64 --cores 1 "${short[@]}" >"$tmp/scale.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/scale.out"
check "ip4scale20k_rnd_suite_exits_0" test "$rc" -eq 0
scale=$(find "$tmp/results" -maxdepth 2 -path '*ip4scale20k-rnd-ndrpdr/64b-1c-*' -name '*.r1' | head -1)
check "20000_routes_loaded_through_the_cli" eval '
	grep -q "20000 /32 routes from 48.0.0.1 loaded (rnd order)" "$tmp/scale.out" &&
	grep -q "48.0.78.32/32" <<<"$(vctl show ip fib 48.0.78.32 2>/dev/null)"'
check "tgen_drew_20000_destinations_at_random_and_they_were_forwarded" eval '
	jq -e ".profile.flows == 20000 and .profile.flow_field == \"dst\" and
		.profile.flow_order == \"rnd\" and .ndr.rate_pps > 0 and
		.ndr.trial.rx_packets > 0" "$scale/tgen.json" >/dev/null'

rc=0
lab suite l2xcbase --frame-sizes 64 --cores 1 "${short[@]}" >"$tmp/l2.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/l2.out"
check "l2xcbase_suite_exits_0" test "$rc" -eq 0
l2=$(find "$tmp/results" -maxdepth 2 -path '*eth-l2xcbase-ndrpdr/64b-1c-*' -name '*.r1' | head -1)
check "l2xcbase_forwarded_through_l2_xconnect" eval '
	jq -e ".ndr.rate_pps > 0" "$l2/tgen.json" >/dev/null &&
	awk "\$1 == \"l2-xconnect\" && \$4 > 0 { f = 1 } END { exit !f }" "$l2/show_runtime.txt"'
check "dut_is_routed_again_after_l2xcbase" eval '
	vctl show interfaces >"$tmp/ifs" 2>&1 && ! grep -qi "xconnect" "$tmp/ifs"'
tap_done
