#!/usr/bin/env python3
"""An HdrHistogram decoder written from the format's description (V2 and V2 compressed,
base64), independent of tgen's C encoder: it rebuilds the bucket layout from the header's
significant digits, lowest and highest trackable values and returns (value -> count) with
each value the lowest of its bucket, plus the bucket's width.

  hdrh_decode.py BASE64            prints "LOWEST HIGHEST COUNT" per non-empty bucket
  hdrh_decode.py --pct P BASE64    prints the value at percentile P (HdrHistogram's rule)
"""
import base64
import math
import struct
import sys
import zlib

V2 = 0x1C849303
V2_COMPRESSED = 0x1C849304


class Layout:
    def __init__(self, sig, lowest, highest):
        largest_single = 2 * 10 ** sig
        self.unit_mag = int(math.floor(math.log2(lowest)))
        sub_count_mag = int(math.ceil(math.log2(largest_single)))
        self.sub_half_mag = max(sub_count_mag, 1) - 1
        self.sub_half = 1 << self.sub_half_mag

    def value_of(self, index):
        bucket = (index >> self.sub_half_mag) - 1
        sub = (index & (self.sub_half - 1)) + self.sub_half
        if bucket < 0:
            sub -= self.sub_half
            bucket = 0
        return sub << (bucket + self.unit_mag)

    def width_of(self, index):
        bucket = max((index >> self.sub_half_mag) - 1, 0)
        return 1 << (bucket + self.unit_mag)


def varints(data):
    i = 0
    while i < len(data):
        v, shift, n = 0, 0, 0
        while True:
            b = data[i]
            i += 1
            n += 1
            if n == 9:  # the ninth byte carries 8 bits
                v |= b << shift
                break
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        yield (v >> 1) ^ -(v & 1)  # ZigZag


def decode(text):
    raw = base64.b64decode(text, validate=True)
    cookie, length = struct.unpack(">II", raw[:8])
    if cookie & ~0xF0 != V2_COMPRESSED:
        raise ValueError("not a V2 compressed histogram: cookie %#x" % cookie)
    rec = zlib.decompress(raw[8:8 + length])
    cookie, plen, norm, sig, lowest, highest, ratio = struct.unpack(">IIiiqqd", rec[:40])
    if cookie & ~0xF0 != V2:
        raise ValueError("inner record is not V2: cookie %#x" % cookie)
    if norm != 0:
        raise ValueError("normalizing index offset %d not supported" % norm)
    lay = Layout(sig, lowest, highest)
    buckets, index = [], 0
    for c in varints(rec[40:40 + plen]):
        if c < 0:
            index += -c
            continue
        if c:
            v = lay.value_of(index)
            buckets.append((v, v + lay.width_of(index) - 1, c))
        index += 1
    return {"sig": sig, "lowest": lowest, "highest": highest, "ratio": ratio,
            "buckets": buckets}


def value_at(h, pct):
    total = sum(c for _, _, c in h["buckets"])
    want = max(1, int(pct / 100.0 * total + 0.5))
    acc = 0
    for _, hi, c in h["buckets"]:
        acc += c
        if acc >= want:
            return hi
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--pct":
        print(value_at(decode(argv[3]), float(argv[2])))
        return 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    for lo, hi, c in decode(argv[1])["buckets"]:
        print(lo, hi, c)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
