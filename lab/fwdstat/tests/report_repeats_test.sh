#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2034 # checks are eval'd later, by check()
# report_repeats_box_plots_and_mean_stdev: a campaign of five repeats per group (A, B)
# gets box-and-whisker plots (rates and nodes' clocks/packet, SVG and PNG) whose boxes are
# the quartiles (type 7), the median and Tukey's whiskers, with a repeat beyond the whisker
# drawn as a point; and a table of mean ± sample stdev, CV and the relative change of the
# mean against the base with its error-propagated stdev, each figure recomputed here by
# Python's statistics module. A campaign of single runs gets neither.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
c=$tmp/results/20260101T000000Z-host-rep
one=$tmp/results/20260102T000000Z-host-single
# group NDR (M) example-clocks, five repeats each; A's last NDR is an outlier
a_ndr=(1.0 1.1 1.2 1.3 2.0) b_ndr=(1.5 1.6 1.7 1.8 1.9)
a_ex=(10 11 12 13 14) b_ex=(20 22 24 26 28)
for i in 0 1 2 3 4; do
	make_run "$c" "r$((i + 1))-A" A udp 64 "$(awk -v x="${a_ndr[$i]}" 'BEGIN { printf "%.0f", x * 1e6 }')" 900000 vfwd complete "${a_ex[$i]}" 12
	make_run "$c" "r$((i + 1))-B" B udp 64 "$(awk -v x="${b_ndr[$i]}" 'BEGIN { printf "%.0f", x * 1e6 }')" 900000 vfwd complete "${b_ex[$i]}" 12
done
make_run "$one" 001-A A udp 64 1000000 1000000 vfwd complete 10 12
make_run "$one" 002-B B udp 64 1100000 1100000 vfwd complete 11 12
# Repeats at two frame sizes: box plots, then the log-scale NDR plot, in one gnuplot script
# (a box plot's ranges once leaked into the NDR plot and gnuplot refused it).
sw=$tmp/results/20260103T000000Z-host-sweep
for r in 1 2; do
	make_run "$sw" "r$r-64" A udp 64 $((7000000 + r * 10000)) 7000000 vfwd complete
	make_run "$sw" "r$r-1518" A udp 1518 $((800000 + r * 1000)) 800000 vfwd complete
done
out=$tmp/report
check "report_exits_0" quiet "$FWDSTAT" report "$tmp/results" --out "$out"
d=$out/20260101T000000Z-host-rep
for f in box-rates-udp_64B box-clocks-udp_64B; do
	check "${f}_svg_and_png_written" eval '[ -s "$d/$f.svg" ] && [ -s "$d/$f.png" ] && grep -q "<svg" "$d/$f.svg"'
done
check "repeats_beside_a_sweep_get_box_plots_and_the_ndr_plot" eval '
	for f in box-rates-udp_64B box-rates-udp_1518B ndr; do
		[ -s "$out/20260103T000000Z-host-sweep/$f.svg" ] || exit 1
	done'
check "single_runs_get_no_box_plot" eval '! ls "$out/20260102T000000Z-host-single"/box-* 2>/dev/null'
check "single_runs_get_no_repeats_table" eval '! grep -q "Repeats: mean" "$out/20260102T000000Z-host-single/report.md"'
check "page_shows_the_box_plots" eval '
	grep -q "<img src=\"box-rates-udp_64B.svg\"" "$d/index.html" &&
	grep -q "<img src=\"box-clocks-udp_64B.svg\"" "$d/index.html"'

# The boxes: x q1 whisker_lo whisker_hi q3 median n "label", checked against Python.
want_boxes=$(/usr/bin/python3 - "${a_ndr[*]}" "${b_ndr[*]}" <<'PY'
import sys
def q(v, p):
    v = sorted(v); h = (len(v) - 1) * p; i = int(h)
    return v[i] + (h - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[-1]
for x, arg, g in ((1, sys.argv[1], "A"), (2, sys.argv[2], "B")):
    v = [float(s) * 1e6 for s in arg.split()]
    q1, med, q3 = q(v, .25), q(v, .5), q(v, .75)
    lo = min(t for t in v if t >= q1 - 1.5 * (q3 - q1))
    hi = max(t for t in v if t <= q3 + 1.5 * (q3 - q1))
    print(f"{x} {q1:.6f} {lo:.6f} {hi:.6f} {q3:.6f} {med:.6f} {len(v)} \"NDR (pps) {g}\"")
PY
)
got_boxes=$(awk '/^# x value/ { exit } /^[0-9]/' "$d/box-rates-udp_64B.dat" | head -n2)
check "ndr_boxes_are_quartiles_median_and_tukey_whiskers" test "$want_boxes" = "$got_boxes"
check "outlier_beyond_the_whisker_is_a_point" eval '
	grep -q "^1 2000000.000000 1$" "$d/box-rates-udp_64B.dat" &&
	[ "$(echo "$got_boxes" | head -n1 | cut -d" " -f4)" = 1300000.000000 ]'
check "every_repeat_is_a_point" test "$(awk '/^# x value/ { p = 1; next } p && NF' "$d/box-rates-udp_64B.dat" | wc -l)" -eq 20

# The table: mean ± stdev, CV, change of the mean and its stdev.
want_rows=$(/usr/bin/python3 - "${a_ndr[*]}" "${b_ndr[*]}" "${a_ex[*]}" "${b_ex[*]}" <<'PY'
import statistics as st, sys, math
def rows(a, b, fmt, fig, node):
    ma, sa, mb, sb = st.mean(a), st.stdev(a), st.mean(b), st.stdev(b)
    r = mb / ma
    sd = r * math.sqrt((sb / mb) ** 2 + (sa / ma) ** 2)
    print(f"| udp/64B | {node} | {fig} | A | 5 | {fmt(ma)} ± {fmt(sa, ma)} | {100 * sa / ma:.1f} % | base | |")
    print(f"| udp/64B | {node} | {fig} | B | 5 | {fmt(mb)} ± {fmt(sb, mb)} | {100 * sb / mb:.1f} % | {100 * (r - 1):+.1f} % | {100 * sd:.1f} % |")
rate = lambda v, ref=None: f"{v / 1e6:.3f} M"
clk = lambda v, ref=None: f"{v:.2f}"
a = [float(x) * 1e6 for x in sys.argv[1].split()]
b = [float(x) * 1e6 for x in sys.argv[2].split()]
rows(a, b, rate, "NDR (pps)", "")
rows([float(x) for x in sys.argv[3].split()], [float(x) for x in sys.argv[4].split()], clk, "clocks/packet", "example")
PY
)
got_rows=$(sed -n '/^## Repeats: mean/,/^Base group/p' "$d/report.md" | grep -E '\| (NDR|clocks)' |
	grep -E 'NDR \(pps\)|example' | sed -E 's/ +\|/ |/g; s/\| +/| /g')
printf '# %s\n' "$got_rows"
check "ndr_and_clocks_rows_match_python_statistics" test "$(printf '%s\n' "$want_rows" | sed -E 's/ +\|/ |/g; s/\| +/| /g')" = "$got_rows"
check "table_names_the_base_and_the_method" grep -q '^Base group: A. Mean and sample standard deviation (n - 1)' "$d/report.md"
check "html_has_the_repeats_table" grep -q '<h2>Repeats: mean ± stdev per group</h2>' "$d/index.html"
tap_done
