/* SPDX-License-Identifier: BSD-3-Clause */
/* Receive statistics: sequence tracking (loss, duplicates, reordering) and a log-linear
 * latency histogram (about 3 % resolution). No DPDK here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tgen.h"

static unsigned int
lat_bucket(uint64_t ns)
{
	unsigned int e, sub;

	if (ns < TGEN_LAT_SUB)
		return (unsigned int)ns;
	e = 63 - __builtin_clzll(ns); /* ns in [2^e, 2^(e+1)) */
	sub = (unsigned int)((ns >> (e - 5)) & (TGEN_LAT_SUB - 1));
	return (e - 4) * TGEN_LAT_SUB + sub;
}

static uint64_t
lat_bucket_value(unsigned int b)
{
	unsigned int e, sub;

	if (b < TGEN_LAT_SUB)
		return b;
	e = b / TGEN_LAT_SUB + 4;
	sub = b % TGEN_LAT_SUB;
	/* the middle of the bucket */
	return ((uint64_t)(TGEN_LAT_SUB + sub) << (e - 5)) + ((1ull << (e - 5)) >> 1);
}

void
tgen_lat_reset(struct tgen_lat *l)
{
	memset(l, 0, sizeof(*l));
}

void
tgen_lat_add(struct tgen_lat *l, uint64_t ns)
{
	if (l->count == 0 || ns < l->min)
		l->min = ns;
	if (ns > l->max)
		l->max = ns;
	l->count++;
	l->sum += (double)ns;
	l->hist[lat_bucket(ns)]++;
}

uint64_t
tgen_lat_percentile(const struct tgen_lat *l, double q)
{
	uint64_t want, acc = 0, v;
	unsigned int b;

	if (l->count == 0)
		return 0;
	want = (uint64_t)(q * (double)l->count + 0.999999);
	if (want < 1)
		want = 1;
	for (b = 0; b < TGEN_LAT_BUCKETS; b++) {
		acc += l->hist[b];
		if (acc >= want) {
			v = lat_bucket_value(b);
			if (v < l->min)
				v = l->min;
			if (v > l->max)
				v = l->max;
			return v;
		}
	}
	return l->max;
}

int
tgen_seq_init(struct tgen_seq *s, uint64_t nbits)
{
	memset(s, 0, sizeof(*s));
	s->nbits = (nbits + 63) & ~63ull;
	s->bits = calloc(s->nbits / 64 + 1, sizeof(uint64_t));
	return s->bits == NULL ? -ENOMEM : 0;
}

void
tgen_seq_reset(struct tgen_seq *s)
{
	uint64_t *bits = s->bits, n = s->nbits;

	memset(bits, 0, (n / 64 + 1) * sizeof(uint64_t));
	memset(s, 0, sizeof(*s));
	s->bits = bits;
	s->nbits = n;
}

void
tgen_seq_free(struct tgen_seq *s)
{
	free(s->bits);
	s->bits = NULL;
}

void
tgen_seq_add(struct tgen_seq *s, uint32_t seq)
{
	uint64_t w, m;

	s->received++;
	if (seq >= s->nbits) {
		s->out_of_range++;
		s->unique++;
		return;
	}
	w = seq / 64;
	m = 1ull << (seq % 64);
	if (s->bits[w] & m) {
		s->duplicates++;
		return;
	}
	s->bits[w] |= m;
	s->unique++;
	if (s->any && seq < s->max_seen)
		s->reordered++;
	if (!s->any || seq > s->max_seen)
		s->max_seen = seq;
	s->any = true;
}
