#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # checks are eval'd later, by check(), which reads d
# `fwdlab calibrate` on the loop topology, whose path is a wire of a known size: the null
# generator carries loop.cap_pps = 50000 pps. The calibration's ceiling is that wire's NDR
# (within the search's resolution of 50000); an NDR through the same wire is at the ceiling
# and is path-bound (meta.json, the summary, no verdict in fwdstat compare); an NDR through
# a narrower wire (cap 20000, the same lab and calibration) is below 90 % of the ceiling and
# is a DUT figure. `down` forgets the calibration.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
export FWDLAB_STATE=$tmp/loop FWDLAB_RESULTS=$tmp/results FWDLAB_NO_INSTALL=1
lab() { timeout 200 "$top/lab/fwdlab" --topology loop "$@"; }
trap 'lab down >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
[ -x "$top/build/tgen/bin/tgen" ] || make -s -C "$top" tgen >&2
make -s -C "$top/lab/fwdstat" >/dev/null
search=(--frame-size 64 --max-rate 200000 --trial-duration 1 --final-duration 1)
run_in() { find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" | head -n1; }
cal=$tmp/loop/calibration.json

stage "up" quiet lab up || exit 1
lab calibrate "${search[@]}" >"$tmp/cal.log" 2>&1 || true
sed 's/^/# /' "$tmp/cal.log" | tail -n 8
check "calibrate writes the lab's calibration.json for 64 B and the null generator" \
	eval '[ -s "$cal" ] && jq -e ".generator == \"null\" and .topology == \"loop\" and (.frame_sizes[\"64\"].path_ndr_pps > 0) and .frame_sizes[\"64\"].generator_ndr_pps == null" "$cal" >/dev/null'
ceil=$(jq -r '.frame_sizes["64"].path_ndr_pps' "$cal" 2>/dev/null || echo 0)
echo "# ceiling $ceil pps"
check "the ceiling is the wire's 50000 pps, within the search's resolution (47500..50000)" \
	eval 'awk -v c="$ceil" "BEGIN { exit !(c >= 47500 && c <= 50000) }"'
check "the calibration run is experiment calibrate, complete, and says it is the ceiling" \
	eval 'd=$(run_in wire-64) && jq -e ".experiment == \"calibrate\" and .status == \"complete\" and (has(\"calibration\") | not)" "$d/meta.json" >/dev/null &&
		grep -q "path   this run is a calibration" "$tmp/cal.log"'
check "calibrate prints the ceiling per frame size" grep -Eq "^  64 B  [0-9]+ pps" "$tmp/cal.log"

lab ndr "${search[@]}" --campaign "$tmp/results/cmp" --run wide --group A >"$tmp/wide.log" 2>&1 || true
d=$tmp/results/cmp/wide
check "an NDR through the calibrated wire carries the ceiling in its meta.json" \
	eval 'jq -e --argjson c "$ceil" ".calibration.path_ceiling_pps == \$c" "$d/meta.json" >/dev/null'
check "its share is NDR / ceiling and it is path-bound (share >= 0.9)" \
	eval 'jq -e --argjson c "$ceil" --slurpfile t "$d/tgen.json" "(.calibration.ndr_share - (\$t[0].ndr.rate_pps / \$c) | fabs) < 0.001 and .calibration.ndr_share >= 0.9 and .calibration.ndr_path_bound == true" "$d/meta.json" >/dev/null'
check "its summary says path-bound, not a DUT figure" grep -Eq "^   path   ceiling [0-9]+ pps .*: path-bound, not a DUT figure" "$tmp/wide.log"

# the same lab and calibration, a narrower wire: the path has room, the figure is the "DUT"'s
sed 's/^loop.cap_pps = .*/loop.cap_pps = 20000/' "$top/topologies/loop/topology.conf" >"$tmp/narrow.conf"
FWDLAB_TOPOLOGY_CONF=$tmp/narrow.conf lab ndr "${search[@]}" --campaign "$tmp/results/cmp" --run narrow --group B >"$tmp/narrow.log" 2>&1 || true
d=$tmp/results/cmp/narrow
check "an NDR through a 20000 pps wire is below 90 % of the ceiling: a DUT figure" \
	eval 'jq -e ".calibration.ndr_share < 0.9 and .calibration.ndr_path_bound == false" "$d/meta.json" >/dev/null &&
		grep -Eq "^   path   ceiling [0-9]+ pps .*: a DUT figure \(below 90 % of the ceiling\)" "$tmp/narrow.log"'

"$top/build/lab/bin/fwdstat" compare "$tmp/results/cmp" >"$tmp/cmp.md" 2>&1 || true
sed 's/^/# /' "$tmp/cmp.md" | head -n 20
check "compare marks the path-bound NDR as a lower bound and gives it no verdict" \
	eval 'grep -Eq "^\| udp/64B +\| NDR \(pps\) +\| +>=[0-9.]+ k\* \|.*\| no verdict: path-bound +\|$" "$tmp/cmp.md" &&
		grep -q "bounded by the generator or the path, not the DUT" "$tmp/cmp.md" &&
		! grep -Eq "NDR \(pps\).*(faster|slower)" "$tmp/cmp.md"'

lab down >/dev/null 2>&1 || true
check "down forgets the calibration" eval '[ ! -e "$cal" ]'
tap_done
