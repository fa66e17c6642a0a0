#!/usr/bin/env bash
# shellcheck disable=SC2016 # the eval'd check expands later
# fwdlab suite checks its arguments before it touches the lab: an unknown suite names the
# known ones; ip6base refuses the sizes tgen's udp6 cannot send (below 82 B, imix); a bad frame size or
# core count is refused; a cores column that needs more CPUs than the machine has is skipped
# with a message that says so (never shared silently), and when none fits the suite stops
# with an error instead of running anything. No DPDK, no lab.
set -euo pipefail
# shellcheck source=lab/tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_RESULTS=$tmp/results FWDLAB_NO_INSTALL=1
lab() { "$top/lab/fwdlab" --topology host "$@"; }
fails_with() { # PATTERN CMD...: CMD exits non-zero and its stderr matches PATTERN
	local pat=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	sed 's/^/# /' "$tmp/err"
	[ "$rc" -ne 0 ] && grep -Eq -- "$pat" "$tmp/err"
}
check "unknown_suite_names_the_known_ones" fails_with "unknown suite 'ip4nope' \(ip4base .*l2xcbase" \
	lab suite ip4nope
check "no_suite_is_a_usage_error" fails_with "suite: which one\?" lab suite
check "ip6base_refuses_frames_below_the_udp6_minimum" \
	fails_with "frame size '78': tgen's IPv6 profile \(udp6\) sends 82..9000 B" lab suite ip6base --frame-sizes 78,1518
check "ip6base_refuses_imix_which_is_ipv4" fails_with "frame size 'imix'" lab suite ip6base --frame-sizes imix
check "bad_frame_size_is_refused" fails_with "frame size '63'" lab suite ip4base --frame-sizes 64,63
check "bad_core_count_is_refused" fails_with "--cores: 'x'" lab suite ip4base --cores 1,x
cpus=$(getconf _NPROCESSORS_ONLN)
too_many=$((cpus + 8))
check "column_without_cpus_is_skipped_and_said" fails_with \
	"skipping the ${too_many}c column: it needs $((too_many + 1)) CPUs .* this machine has $cpus; fwdlab never shares cores silently" \
	lab suite ip4base --cores "$too_many"
check "no_fitting_column_stops_before_any_run" eval \
	'grep -q "no cores column fits" "$tmp/err" && [ ! -d "$tmp/results" ]'
check "repeat_must_be_a_positive_number" fails_with "--repeat 0" lab suite ip4base --repeat 0
echo "1..$n"
