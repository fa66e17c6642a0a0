#!/usr/bin/env bash
# A generator-bound NDR is never shown as a DUT figure. The runs' tgen.json is a real tgen
# output (tests/data/tgen_ndr_generator_bound.json: `tgen ndr` on two net_ring ports on a
# 100 Gb/s link at 64 B, where tgen is the only bottleneck, so ndr/pdr say limited_by
# generator); copies get another rate or frame size with jq and keep tgen's shape. Old
# tgen.json without limited_by (limited_by deleted) must still give unmarked cells.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
data=${FWDSTAT_DATA:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data}
fixture=$data/tgen_ndr_generator_bound.json
use_tmp

# tgen_json RUN_DIR NDR SIZE KIND: tgen.json from the real fixture; KIND generator keeps
# limited_by generator, dut sets it to dut, old deletes it (tgen before the field).
tgen_json() {
	local d=$1 ndr=$2 size=$3 kind=$4
	jq --argjson r "$ndr" --argjson s "$size" --arg k "$kind" '
		.profile.frame_size = $s | .ndr.rate_pps = $r | .pdr.rate_pps = ($r + 1000) |
		if $k == "old" then del(.ndr.limited_by, .pdr.limited_by)
		else .ndr.limited_by = $k | .pdr.limited_by = $k end' "$fixture" >"$d/tgen.json.tmp"
	mv "$d/tgen.json.tmp" "$d/tgen.json"
}

check "fixture_is_real_tgen_output_marked_generator" quiet jq -e '.tool == "tgen" and
	.ndr.limited_by == "generator" and .pdr.limited_by == "generator" and
	.ndr.trial.generator_limited and (.trials | length) > 0' "$fixture"

# ---- compare: at 64 B group B is generator-bound (would read "faster": ranges apart,
# +20 %); at 1500 B both groups are old JSON, B 20 % faster: that verdict must stay.
c=$tmp/20260101T000000Z-host-ab
i=0
for spec in "A 1000000 old" "B 1200000 generator" "A 1010000 old" "B 1210000 generator" \
	"A 990000 old" "B 1190000 dut"; do
	read -r g ndr kind <<<"$spec"
	i=$((i + 1))
	make_run "$c" "$(printf '%03d' "$i")-$g-64" "$g" udp 64 0 0 vfwd complete
	tgen_json "$c/$(printf '%03d' "$i")-$g-64" "$ndr" 64 "$kind"
	make_run "$c" "$(printf '%03d' "$i")-$g-1500" "$g" udp 1500 0 0 vfwd complete
	tgen_json "$c/$(printf '%03d' "$i")-$g-1500" $((ndr / 2)) 1500 old
done
check "compare_exits_0" quiet_to "$tmp/cmp.md" "$FWDSTAT" compare "$c"
sed 's/^/# /' "$tmp/cmp.md"
check "compare_json" quiet_to "$tmp/cmp.json" "$FWDSTAT" compare "$c" --json
q() { jq -r "$1" "$tmp/cmp.json"; }
fig() { q ".figures[] | select(.profile==\"$1\" and .figure==\"$2\") | $3"; }
check "json_cell_of_bound_group_says_generator_bound" \
	test "$(fig udp/64B ndr_pps '.groups.B.generator_bound, .groups.A.generator_bound' | xargs)" = "true false"
check "json_pdr_cell_is_flagged_too" test "$(fig udp/64B pdr_pps '.groups.B.generator_bound')" = true
check "json_verdict_is_withheld_for_a_bound_group" \
	test "$(fig udp/64B ndr_pps '.vs_base.B.verdict')" = "no verdict: generator-bound"
check "json_old_tgen_json_cells_are_unflagged" \
	test "$(fig udp/1500B ndr_pps '[.groups[].generator_bound] | any')" = false
check "json_unbound_profile_keeps_its_verdict" test "$(fig udp/1500B ndr_pps '.vs_base.B.verdict')" = faster
check "geomean_leaves_the_bound_profile_out" \
	awk -v g="$(q '.geomean.B.ndr_ratio')" 'BEGIN { exit !(g > 1.1999 && g < 1.2001) }'
check "markdown_marks_the_bound_median" \
	grep -Eq '^\| udp/64B +\| NDR \(pps\) +\| +1\.000 M \| [^|]+\| +>=1\.200 M\* \|.*\| no verdict: generator-bound +\|$' "$tmp/cmp.md"
check "markdown_old_json_row_is_unmarked" \
	grep -Eq '^\| udp/1500B +\| NDR \(pps\) +\| +500\.0 k \| [^|]+\| +600\.0 k \|.*\| faster +\|$' "$tmp/cmp.md"
check "markdown_has_the_footnote" grep -q '^\* bounded by the generator or the path, not the DUT' "$tmp/cmp.md"
check "markdown_geomean_over_one_profile" \
	grep -q 'Geometric mean of the NDR change, B vs A, over 1 profile: +20.0 %' "$tmp/cmp.md"

# The base group bound withholds the verdict as well.
"$FWDSTAT" compare "$c" --base B --json >"$tmp/b.json" 2>/dev/null
check "bound_base_group_withholds_the_verdict" test "$(jq -r '.figures[] |
	select(.profile=="udp/64B" and .figure=="ndr_pps") | .vs_base.A.verdict' "$tmp/b.json")" \
	= "no verdict: generator-bound"

# ---- sweep: 64 B is the real tgen.json as written; 128 and 512 B old JSON.
s=$tmp/20260101T010000Z-host-sweep
make_run "$s" 001-vfwd-64 A udp 64 0 0 vfwd complete
cp "$fixture" "$s/001-vfwd-64/tgen.json"
make_run "$s" 002-vfwd-128 A udp 128 0 0 vfwd complete
tgen_json "$s/002-vfwd-128" 3000000 128 old
make_run "$s" 003-vfwd-512 A udp 512 0 0 vfwd complete
tgen_json "$s/003-vfwd-512" 2000000 512 dut
check "sweep_exits_0" quiet_to "$tmp/sw.md" "$FWDSTAT" sweep "$s"
sed 's/^/# /' "$tmp/sw.md"
check "sweep_json" quiet_to "$tmp/sw.json" "$FWDSTAT" sweep "$s" --json
sq() { jq -r "$1" "$tmp/sw.json"; }
check "sweep_json_bound_cell_is_flagged" test "$(sq '.rows[0].duts.vfwd.generator_bound')" = true
check "sweep_json_bound_cell_keeps_tgen_rate" test "$(sq '.rows[0].duts.vfwd.ndr_pps')" = \
	"$(jq -r .ndr.rate_pps "$fixture")"
check "sweep_json_old_and_dut_cells_are_unflagged" \
	test "$(sq '[.rows[1,2].duts.vfwd.generator_bound] | join(",")')" = "false,false"
ndr_m=$(jq -r '.ndr.rate_pps / 1e6 * 1000 | round / 1000 | tostring' "$fixture")
check "sweep_markdown_marks_the_bound_cell" \
	grep -Eq "^\| +64 \| +148\.810 \| +>=${ndr_m//./\\.}[0-9]*\* \| +>=[0-9.]+ %\* \|$" "$tmp/sw.md"
check "sweep_markdown_old_cell_is_unmarked" grep -Eq '^\| +128 \| +84\.459 \| +3\.000 \| +3\.6 % \|$' "$tmp/sw.md"
check "sweep_markdown_has_the_footnote" grep -q '^\* bounded by the generator or the path, not the DUT' "$tmp/sw.md"

# Old JSON only: no mark, no footnote.
o=$tmp/20260101T020000Z-host-old
make_run "$o" 001-vfwd-64 A udp 64 0 0 vfwd complete
tgen_json "$o/001-vfwd-64" 7000000 64 old
"$FWDSTAT" sweep "$o" >"$tmp/old.md" 2>/dev/null
unmarked() { # FILE: no `>=` mark and no footnote, but the NDR is there
	! grep -q -e '>=' -e 'bounded by the generator' "$1" && grep -Eq '^\| +64 \| .*7\.000' "$1"
}
check "old_json_sweep_has_no_mark_and_no_footnote" unmarked "$tmp/old.md"

# ---- lab/summary on the real tgen outputs (ndr, and a `run` tgen could not keep up with)
summary=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/summary
export FWDSTAT
SUMMARY_NODES=ip4-lookup "$summary" "$s/001-vfwd-64" >"$tmp/sum.txt" 2>&1 || true
sed 's/^/# /' "$tmp/sum.txt"
check "summary_ndr_is_a_lower_bound_by_the_generator" grep -Eq \
	'^ +NDR +>= [0-9]+ pps .*: bounded by the generator, not the DUT$' "$tmp/sum.txt"
SUMMARY_NODES=ip4-lookup "$summary" "$s/002-vfwd-128" >"$tmp/sum-old.txt" 2>&1 || true
check "summary_old_json_ndr_is_plain" grep -Eq '^ +NDR +3000000 pps  \([0-9.]+ Gb/s L1\)$' \
	"$tmp/sum-old.txt"
make_run "$tmp/20260101T030000Z-host-run" 001 A udp 64 0 0 vfwd complete
cp "$data/tgen_run_generator_limited.json" "$tmp/20260101T030000Z-host-run/001/tgen.json"
SUMMARY_NODES=ip4-lookup "$summary" "$tmp/20260101T030000Z-host-run/001" >"$tmp/sum-run.txt" 2>&1 ||
	true
sed 's/^/# /' "$tmp/sum-run.txt"
check "summary_run_warns_the_generator_limited_the_trial" grep -Eq \
	'^ +warning: tgen offered [0-9]+ pps of the [0-9]+ pps requested: the generator, not the DUT' \
	"$tmp/sum-run.txt"
"$FWDSTAT" compare "$tmp/20260101T030000Z-host-run" --json >"$tmp/run.json" 2>/dev/null
check "compare_flags_the_rx_rate_of_a_generator_limited_run" test "$(jq -r '.figures[] |
	select(.figure=="rx_pps") | .groups.A.generator_bound' "$tmp/run.json")" = true

# ---- report: the footnote under the tables of the HTML page
check "report_exits_0" quiet "$FWDSTAT" report "$s" "$c" --out "$tmp/report"
check "report_sweep_page_has_the_footnote" \
	grep -q 'bounded by the generator or the path, not the DUT.*lower bound' \
	"$tmp/report/20260101T010000Z-host-sweep/index.html"
check "report_compare_page_marks_and_withholds" grep -q 'no verdict: generator-bound' \
	"$tmp/report/20260101T000000Z-host-ab/index.html"
tap_done
