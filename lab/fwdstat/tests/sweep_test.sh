#!/usr/bin/env bash
# sweep on real run folders: two DUTs (vfwd, testpmd-io) over four frame sizes on a 10G
# link, two repeats of vfwd at 64 B. Checks line rates, medians and % of line rate.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
c=$tmp/20260101T000000Z-host-sweep
make_sweep "$c" "vfwd 64 7440476" "vfwd 64 7440480" "vfwd 128 6756756" "vfwd 512 2349624" \
	"vfwd 1518 812743" "testpmd-io 64 14880952" "testpmd-io 128 8445945" \
	"testpmd-io 512 2349624" "testpmd-io 1518 812743"
make_run "$c" 010-vfwd-256 A udp 256 1 1 vfwd incomplete

check "sweep_exits_0" quiet_to "$tmp/out.md" "$FWDSTAT" sweep "$c"
sed 's/^/# /' "$tmp/out.md"
check "sweep_json" quiet_to "$tmp/out.json" "$FWDSTAT" sweep "$c" --json
q() { jq -r "$1" "$tmp/out.json"; }
check "rows_sorted_by_frame_size_without_the_incomplete_run" test "$(q '[.rows[].frame_size] | join(",")')" = "64,128,512,1518"
check "one_column_group_per_dut" test "$(q '.duts | join(",")')" = "vfwd,testpmd-io"
check "line_rate_at_64B_on_10G_is_14880952" test "$(q '.rows[0].line_rate_pps | floor')" = 14880952
check "line_rate_at_1518B_on_10G_is_812743" test "$(q '.rows[3].line_rate_pps | floor')" = 812743
check "median_of_two_repeats" test "$(q '.rows[0].duts.vfwd.ndr_pps')" = 7440478
check "half_line_rate_is_50_percent" awk -v r="$(q '.rows[0].duts.vfwd.line_ratio')" 'BEGIN { exit !(r > 0.49999 && r < 0.50001) }'
check "full_line_rate_is_100_percent" awk -v r="$(q '.rows[0].duts["testpmd-io"].line_ratio')" 'BEGIN { exit !(r > 0.99999 && r <= 1) }'
check "markdown_row_at_64B" grep -Eq '^\| +64 \| +14\.881 \| +7\.440 \(n=2\) \| +50\.0 % \| +14\.881 \| +100\.0 % \|' "$tmp/out.md"
check "markdown_row_at_1518B" grep -Eq '^\| +1518 \| +0\.813 \| +0\.813 \| +100\.0 % \|' "$tmp/out.md"
check "link_override_25G" quiet_to "$tmp/25.json" "$FWDSTAT" sweep "$c" --link 25G --json
check "line_rate_at_64B_on_25G" test "$(jq -r '.rows[0].line_rate_pps | floor' "$tmp/25.json")" = 37202380
"$FWDSTAT" compare "$c" >/dev/null 2>"$tmp/cmp.err" || true
check "compare_warns_when_a_group_pools_several_duts" grep -q 'several DUTs' "$tmp/cmp.err"
tap_done
