/* SPDX-License-Identifier: BSD-3-Clause */
/* An HDR histogram (Gil Tene's HdrHistogram layout: buckets of 2^k-wide sub-buckets, enough of
 * them for N significant decimal digits) and its standard "V2 compressed" encoding, which is
 * what CSIT's `hdrh` latency field holds:
 *   base64( be32 cookie 0x1c849314 | be32 length | zlib(V2 record) )
 *   V2 record: be32 cookie 0x1c849313 | be32 payload length | be32 normalizing index offset (0)
 *              | be32 significant digits | be64 lowest | be64 highest | be64 (double) 1.0
 *              | payload: the counts from index 0 to the last non-zero one, each a ZigZag
 *                LEB128 varint, a run of N zero counts written as the one value -N.
 * Written from the format's description; no HdrHistogram code is used. No DPDK here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tgen.h"

#define HDR_V2_COOKIE 0x1c849313u	     /* V2 base 0x1c849303, word-size nibble 0x10 */
#define HDR_V2_COMPRESSED_COOKIE 0x1c849314u /* V2 compressed base 0x1c849304 | 0x10 */
#define HDR_HEADER_LEN 40

int
tgen_hdr_init(struct tgen_hdr *h, int64_t highest, int sig)
{
	int64_t largest_single = 2, untrackable;
	int i;

	memset(h, 0, sizeof(*h));
	if (sig < 1 || sig > 5 || highest < 2)
		return -EINVAL;
	for (i = 0; i < sig; i++)
		largest_single *= 10; /* 2 * 10^sig */
	h->sig = sig;
	h->lowest = 1;
	h->highest = highest;
	h->unit_mag = 0; /* floor(log2(lowest)) */
	h->sub_count_mag = 0;
	while ((1ll << h->sub_count_mag) < largest_single)
		h->sub_count_mag++;
	h->sub_half_mag = h->sub_count_mag - 1;
	h->sub_count = 1u << h->sub_count_mag;
	h->sub_half = h->sub_count / 2;
	h->sub_mask = (uint64_t)(h->sub_count - 1) << h->unit_mag;
	untrackable = (int64_t)h->sub_count << h->unit_mag;
	h->buckets = 1;
	while (untrackable <= highest) {
		untrackable <<= 1;
		h->buckets++;
	}
	h->len = (uint32_t)(h->buckets + 1) * h->sub_half;
	h->lzc_base = 64 - h->unit_mag - h->sub_half_mag - 1;
	h->counts = calloc(h->len, sizeof(*h->counts));
	return h->counts == NULL ? -ENOMEM : 0;
}

void
tgen_hdr_free(struct tgen_hdr *h)
{
	free(h->counts);
	h->counts = NULL;
}

void
tgen_hdr_reset(struct tgen_hdr *h)
{
	memset(h->counts, 0, h->len * sizeof(*h->counts));
	h->total = h->min = h->max = h->clamped = 0;
	h->sum = 0;
}

static uint32_t
hdr_index(const struct tgen_hdr *h, uint64_t v)
{
	int bucket = h->lzc_base - __builtin_clzll(v | h->sub_mask);
	uint32_t sub = (uint32_t)(v >> (bucket + h->unit_mag));

	return ((uint32_t)(bucket + 1) << h->sub_half_mag) + sub - h->sub_half;
}

/* The lowest value that lands in counts[i]. */
static uint64_t
hdr_index_value(const struct tgen_hdr *h, uint32_t i)
{
	int bucket = (int)(i >> h->sub_half_mag) - 1;
	uint64_t sub = (i & (h->sub_half - 1)) + h->sub_half;

	if (bucket < 0) {
		sub -= h->sub_half;
		bucket = 0;
	}
	return sub << (bucket + h->unit_mag);
}

/* The highest value equivalent to v (the top of its sub-bucket). */
static uint64_t
hdr_highest_equivalent(const struct tgen_hdr *h, uint64_t v)
{
	uint32_t i = hdr_index(h, v);

	return i + 1 < h->len ? hdr_index_value(h, i + 1) - 1 : (uint64_t)h->highest;
}

void
tgen_hdr_record(struct tgen_hdr *h, uint64_t v)
{
	if (v > (uint64_t)h->highest) {
		v = (uint64_t)h->highest; /* counted at the top, and said so */
		h->clamped++;
	}
	if (h->total == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->total++;
	h->sum += (double)v;
	h->counts[hdr_index(h, v)]++;
}

uint64_t
tgen_hdr_value_at(const struct tgen_hdr *h, double pct)
{
	uint64_t want, acc = 0, v;
	uint32_t i;

	if (h->total == 0)
		return 0;
	want = (uint64_t)(pct / 100.0 * (double)h->total + 0.5);
	if (want < 1)
		want = 1;
	for (i = 0; i < h->len; i++) {
		acc += h->counts[i];
		if (acc >= want) {
			v = hdr_highest_equivalent(h, hdr_index_value(h, i));
			return v > h->max ? h->max : v;
		}
	}
	return h->max;
}

static size_t
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return 4;
}

static size_t
put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
	return 8;
}

/* ZigZag, then LEB128 (7 bits a byte, low first; at most 9 bytes as HdrHistogram's). */
static size_t
put_zigzag(uint8_t *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (z >= 0x80 && n < 8) {
		p[n++] = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	p[n++] = (uint8_t)z;
	return n;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *
base64(const uint8_t *in, size_t n)
{
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
	size_t i;

	if (out == NULL)
		return NULL;
	for (i = 0; i + 2 < n; i += 3) {
		uint32_t w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		*o++ = b64[w >> 18];
		*o++ = b64[(w >> 12) & 63];
		*o++ = b64[(w >> 6) & 63];
		*o++ = b64[w & 63];
	}
	if (i < n) {
		uint32_t w = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);

		*o++ = b64[w >> 18];
		*o++ = b64[(w >> 12) & 63];
		*o++ = i + 1 < n ? b64[(w >> 6) & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

/* The V2 record (header and payload) into a new buffer; *len its length. */
static uint8_t *
hdr_v2_record(const struct tgen_hdr *h, size_t *len)
{
	uint32_t last = 0, i, zeros;
	uint8_t *buf, *p;
	double one = 1.0;
	uint64_t one_bits;

	for (i = 0; i < h->len; i++)
		if (h->counts[i] != 0)
			last = i + 1;
	buf = malloc(HDR_HEADER_LEN + (size_t)last * 9 + 9);
	if (buf == NULL)
		return NULL;
	p = buf + HDR_HEADER_LEN;
	for (i = 0; i < last; i++) {
		if (h->counts[i] != 0) {
			p += put_zigzag(p, (int64_t)h->counts[i]);
			continue;
		}
		for (zeros = 0; i < last && h->counts[i] == 0; i++)
			zeros++;
		i--;
		p += zeros > 1 ? put_zigzag(p, -(int64_t)zeros) : put_zigzag(p, 0);
	}
	memcpy(&one_bits, &one, sizeof(one));
	put_be32(buf, HDR_V2_COOKIE);
	put_be32(buf + 4, (uint32_t)(p - buf - HDR_HEADER_LEN));
	put_be32(buf + 8, 0);
	put_be32(buf + 12, (uint32_t)h->sig);
	put_be64(buf + 16, (uint64_t)h->lowest);
	put_be64(buf + 24, (uint64_t)h->highest);
	put_be64(buf + 32, one_bits);
	*len = (size_t)(p - buf);
	return buf;
}

char *
tgen_hdr_encode(const struct tgen_hdr *h)
{
	size_t len;
	uint8_t *rec = hdr_v2_record(h, &len), *out;
	uLongf zlen;
	char *s = NULL;

	if (rec == NULL)
		return NULL;
	zlen = compressBound(len);
	out = malloc(zlen + 8);
	if (out == NULL)
		goto out_rec;
	if (compress2(out + 8, &zlen, rec, len, Z_DEFAULT_COMPRESSION) != Z_OK)
		goto out_out;
	put_be32(out, HDR_V2_COMPRESSED_COOKIE);
	put_be32(out + 4, (uint32_t)zlen);
	s = base64(out, zlen + 8);
out_out:
	free(out);
out_rec:
	free(rec);
	return s;
}

/* 50 % out to 99.9999 %, each a tenfold smaller tail: the points of a percentile curve */
const double tgen_lat_curve_pct[TGEN_LAT_CURVE_N] = {0,	    50,	    90,	     99, 99.9,
						     99.99, 99.999, 99.9999, 100};

void
tgen_dir_lat_fill(struct tgen_dir_lat *l, const struct tgen_hdr *h)
{
	int i;

	memset(l, 0, sizeof(*l));
	if (h->counts == NULL || h->total == 0)
		return;
	l->count = h->total;
	l->min_us = h->min;
	l->max_us = h->max;
	l->avg_us = (uint64_t)(h->sum / (double)h->total + 0.5);
	l->clamped = h->clamped;
	for (i = 0; i < TGEN_LAT_CURVE_N; i++)
		l->curve_us[i] = i == 0 ? h->min : tgen_hdr_value_at(h, tgen_lat_curve_pct[i]);
	l->hdrh = tgen_hdr_encode(h);
}

void
tgen_dir_lat_free(struct tgen_dir_lat *l)
{
	free(l->hdrh);
	l->hdrh = NULL;
}
