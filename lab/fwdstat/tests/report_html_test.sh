#!/usr/bin/env bash
# report writes Markdown, SVG/PNG plots and an HTML page per campaign; headless chromium
# opens each page and the page itself marks every plot with the size it rendered at.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
ab=$tmp/results/20260101T000000Z-host-ab
sw=$tmp/results/20260101T010000Z-host-sweep
i=0
for spec in "${AB_RUNS[@]}"; do
	read -r g ndr ex lk <<<"$spec"
	i=$((i + 1))
	make_run "$ab" "$(printf '%03d' "$i")-$g" "$g" udp 1500 "$ndr" "$ndr" vfwd complete "$ex" "$lk"
done
make_sweep "$sw" "vfwd 64 7440476" "vfwd 512 2349624" "vfwd 1518 812743" \
	"testpmd-io 64 14880952" "testpmd-io 512 2349624" "testpmd-io 1518 812743"

out=$tmp/report
check "report_exits_0" quiet "$FWDSTAT" report "$tmp/results" --out "$out"
for f in index.html 20260101T000000Z-host-ab/index.html 20260101T000000Z-host-ab/report.md \
	20260101T000000Z-host-ab/clocks-udp_1500B.svg 20260101T000000Z-host-ab/clocks-udp_1500B.png \
	20260101T010000Z-host-sweep/ndr.svg 20260101T010000Z-host-sweep/ndr.png; do
	check "report_wrote_$f" test -s "$out/$f"
done
check "svg_is_an_svg_document" grep -q '<svg' "$out/20260101T010000Z-host-sweep/ndr.svg"
check "png_has_png_signature" test "$(head -c 8 "$out/20260101T010000Z-host-sweep/ndr.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
check "markdown_links_the_plot" grep -q '(clocks-udp_1500B.svg)' "$out/20260101T000000Z-host-ab/report.md"
check "html_has_the_verdict_table" grep -q '<td>faster</td>' "$out/20260101T000000Z-host-ab/index.html"
check "html_lists_every_run" grep -q "<td>001-A</td><td>complete</td>" "$out/20260101T000000Z-host-ab/index.html"
check "sweep_page_does_not_pool_duts_into_one_group" test "$(grep -c 'Rates per group' "$out/20260101T010000Z-host-sweep/index.html")" -eq 0
check "html_has_the_sweep_table" grep -q '<th class="r">vfwd NDR (Mpps)</th>' "$out/20260101T010000Z-host-sweep/index.html"

if ! command -v chromium >/dev/null; then
	echo "ok $((tap_n + 1)) - html_renders_in_chromium # SKIP chromium is not installed"
	tap_n=$((tap_n + 1))
	tap_done
	exit
fi
chrome() { # URL extra-args...
	local url=$1 prof
	shift
	prof=$(mktemp -d "$tmp/chrome.XXXXXX")
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		"$@" "$url" 2>>"$tmp/chrome.log"
}
for page in 20260101T000000Z-host-ab 20260101T010000Z-host-sweep; do
	chrome "file://$out/$page/index.html" --dump-dom >"$tmp/$page.dom" || true
	imgs=$(grep -o '<img[^>]*>' "$tmp/$page.dom" || true)
	printf '# %s\n' "$imgs"
	check "${page}_page_has_plots" test -n "$imgs"
	check "${page}_every_plot_rendered_960x540" \
		test "$(echo "$imgs" | grep -c 'data-rendered="960x540"')" -eq "$(echo "$imgs" | grep -c .)"
	check "${page}_no_broken_image" test "$(echo "$imgs" | grep -c 'data-broken' || true)" -eq 0
done
chrome "file://$out/20260101T000000Z-host-ab/index.html" --window-size=1200,1400 \
	--screenshot="$tmp/shot.png" >/dev/null || true
check "screenshot_taken" test -s "$tmp/shot.png"
# A blank 1200x1400 page compresses to a few KB; tables and two plots do not.
check "screenshot_is_not_blank" test "$(stat -c %s "$tmp/shot.png")" -gt 30000
if [ -n "${FWDSTAT_KEEP_SCREENSHOT:-}" ]; then cp "$tmp/shot.png" "$FWDSTAT_KEEP_SCREENSHOT"; fi
tap_done
