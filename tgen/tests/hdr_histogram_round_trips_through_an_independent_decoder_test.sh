#!/usr/bin/env bash
# tgen's HDR histogram encoder (src/hdr.c, HdrHistogram V2 compressed, base64: CSIT's `hdrh`)
# against an independent decoder written in python3 from the format's description
# (hdrh_decode.py): every recorded value lands in a decoded bucket that holds it, with the
# exact counts; buckets are no wider than 3 significant digits allow; the percentiles agree
# with the encoder's and with the exact ones within 0.1 %.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
tool=$TOP/build/tgen/tests/hdr_tool
if [ ! -x "$tool" ]; then
	echo "1..0 # SKIP $tool not built"
	exit 77
fi
tmp=$(mktemp -d /tmp/tgen-hdr.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/values" <<'PY'
import random, sys
random.seed(15)
v = [0, 1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 123456, 99999999, 3600000000]
v += [int(random.lognormvariate(7, 1.5)) for _ in range(100000)]
v += [random.randint(1, 20) for _ in range(1000)]
open(sys.argv[1], "w").write("\n".join(map(str, v)) + "\n")
PY
"$tool" 50 90 99 99.9 99.99 99.999 99.9999 100 <"$tmp/values" >"$tmp/enc"
python3 - "$here" "$tmp/values" "$tmp/enc" <<'PY'
import bisect, sys
sys.path.insert(0, sys.argv[1])
import hdrh_decode as d
vals = sorted(int(x) for x in open(sys.argv[2]))
lines = open(sys.argv[3]).read().split("\n")
h = d.decode(lines[0])
n = 0
bad = 0
def ok(cond, name):
    global n, bad
    n += 1
    bad += not cond
    print(("ok" if cond else "not ok") + " %d - %s" % (n, name))
    return cond
ok(lines[0].startswith("HISTF"), "encoding_starts_with_the_v2_compressed_cookie_HISTF")
ok(h["sig"] == 3 and h["lowest"] == 1 and h["highest"] == 3600000000 and h["ratio"] == 1.0,
   "header_holds_3_digits_lowest_1_highest_1h_ratio_1")
b = h["buckets"]
ok(sum(c for _, _, c in b) == len(vals), "decoded_total_equals_the_values_recorded")
exact = True
for lo, hi, c in b:
    i, j = bisect.bisect_left(vals, lo), bisect.bisect_right(vals, hi)
    if j - i != c:
        exact = False
        print("# bucket %d..%d: decoded %d, recorded %d" % (lo, hi, c, j - i))
ok(exact, "every_decoded_bucket_holds_exactly_the_values_recorded_in_its_range")
ok(all(hi - lo + 1 <= max(1, lo / 1000.0) for lo, hi, _ in b),
   "bucket_width_within_3_significant_digits")
enc = dict(l.split() for l in lines[1:] if l)
# the encoder's figure is never above the largest value recorded (it clamps the top bucket)
same = all(int(enc[p]) == min(d.value_at(h, float(p)), vals[-1]) for p in enc)
ok(same, "encoder_and_decoder_give_the_same_percentiles")
close = True
for p in enc:
    k = max(1, int(float(p) / 100 * len(vals) + 0.5))
    e = vals[k - 1]
    if not (e <= int(enc[p]) <= e + max(1, e / 1000.0)):
        close = False
        print("# p%s: histogram %s, exact %d" % (p, enc[p], e))
ok(close, "percentiles_within_0.1_percent_of_the_exact_ones")
print("1..%d" % n)
sys.exit(1 if bad else 0)
PY
