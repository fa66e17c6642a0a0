#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # checks are eval'd later, by check()
# fwdlab --topology host suite ip6base: the same suite code as ip4base, with vfwd given IPv6
# addresses, neighbours and routes and tgen sending its udp6 profile (Ether / IPv6 / UDP,
# 2001:db8:2::1 -> 2001:db8:1::1). Short trials, 82 and 1518 B, one core, one repeat: both
# runs complete under the CSIT name ...-ethip6-ip6base-ndrpdr, NDR > 0 with 0 loss at the
# NDR trial, vfwd's ip6-lookup and ip6-rewrite nodes carried the packets, and meta.json and
# tgen.json name the IPv6 profile. A size below udp6's 82 B minimum is refused before
# anything runs.
set -euo pipefail
# shellcheck source=lab/tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/tap.sh"
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
short=(--trial-duration 1 --final-duration 1 --max-rate 10kpps --min-rate 1kpps)

rc=0
lab suite ip6base --frame-sizes 78 --cores 1 >"$tmp/small.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/small.out"
check "frame_below_the_udp6_minimum_is_refused_before_anything_runs" eval \
	'[ "$rc" -ne 0 ] && grep -q "frame size '"'"'78'"'"': tgen'"'"'s IPv6 profile (udp6) sends 82..9000 B" "$tmp/small.out" &&
	[ ! -d "$tmp/results" ] || [ -z "$(ls -A "$tmp/results")" ]'

rc=0
lab suite ip6base --frame-sizes 82,1518 --cores 1 --repeat 1 "${short[@]}" >"$tmp/suite.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/suite.out"
check "ip6base_suite_exits_0" test "$rc" -eq 0
camp=$(find "$tmp/results" -maxdepth 1 -name '*-host-suite-2n1l-10ge2p1vhost-ethip6-ip6base-ndrpdr' | head -1)
check "campaign_is_named_the_csit_way" test -n "$camp"
for s in 82 1518; do
	run=$camp/${s}b-1c-ethip6-ip6base-ndrpdr.r1
	check "${s}b_run_is_complete_and_meta_names_udp6" eval \
		'jq -e ".status == \"complete\" and .profile == \"udp6\" and .frame_size == '"$s"'" "$run/meta.json" >/dev/null'
	check "${s}b_tgen_json_names_ipv6_and_udp6" eval \
		'jq -e ".profile.name == \"udp6\" and .ip.version == 6 and .profile.frame_size == '"$s"'" "$run/tgen.json" >/dev/null'
	check "${s}b_ndr_above_0_with_0_loss_at_the_ndr" eval \
		'jq -e ".ndr.rate_pps > 0 and .ndr.trial.rx_packets > 0 and .ndr.trial.loss_packets == 0" "$run/tgen.json" >/dev/null'
	check "${s}b_vfwd_forwarded_through_ip6_lookup_and_rewrite" eval \
		'awk "(\$1 == \"ip6-lookup\" || \$1 == \"ip6-rewrite\") && \$4 > 0 { n++ } END { exit n < 2 }" "$run/show_runtime.txt"'
done
check "stdout_table_names_the_udp6_frame_sizes" eval 'grep -q "udp6/82B" "$tmp/suite.out"'
tap_done
