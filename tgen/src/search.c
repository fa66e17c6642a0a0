/* SPDX-License-Identifier: BSD-3-Clause */
/* NDR/PDR search in the manner of RFC 2544 and CSIT's MLRsearch: a first trial at the
 * maximum load, a jump to the measured forwarding rate, bisection with short trials until the
 * interval is narrower than the width, then both bounds confirmed at the final duration
 * (a bound that does not hold at the final duration moves and the bisection goes on there).
 * Every trial updates both criteria. A trial in which tgen could not offer the requested rate
 * (generator_limited) passes only at the rate it offered; after a first such pass the search
 * asks for that rate again at the final duration, and when tgen falls short a second time
 * (the DUT still passing) it stops climbing: the result is bounded by the generator. A trial
 * that offers the rate again clears the limit. No DPDK here. */
#include <math.h>
#include <string.h>

#include "tgen.h"

#define NCRIT 2

void
tgen_search_init(struct tgen_search *s, double min_pps, double max_pps, double width,
		 double pdr_loss, double trial_s, double final_s, uint32_t max_trials)
{
	memset(s, 0, sizeof(*s));
	s->min_pps = min_pps;
	s->max_pps = max_pps;
	s->width = width;
	s->pdr_loss = pdr_loss;
	s->trial_s = trial_s;
	s->final_s = final_s;
	s->max_trials = max_trials;
}

static double
crit_threshold(const struct tgen_search *s, int k)
{
	return k == 0 ? 0.0 : s->pdr_loss;
}

double
tgen_search_pass_rate(const struct tgen_search_trial *t)
{
	return t->generator_limited ? t->offered_pps : t->requested_pps;
}

static void
bound_pass(const struct tgen_search *s, struct tgen_bound *b, const struct tgen_search_trial *t,
	   double dur)
{
	double rate = tgen_search_pass_rate(t);

	/* a generator-limited pass at the final duration replaces a lower bound that only a
	 * short trial measured: that rate may never be offered again */
	if (rate >= b->lo ||
	    (t->generator_limited && dur >= s->final_s && b->lo_dur < s->final_s)) {
		b->lo = rate;
		b->lo_dur = dur;
	}
	/* a longer trial passing at or above the failing bound overrules it */
	if (b->hi > 0 && rate >= b->hi && dur >= b->hi_dur)
		b->hi = 0;
	if (t->generator_limited) {
		b->gen_r = t->requested_pps;
		b->gen_dur = dur;
		b->gen_tries++;
	}
}

static void
bound_fail(struct tgen_bound *b, const struct tgen_search_trial *t, double dur)
{
	double rate = t->requested_pps;

	if (b->hi == 0 || rate <= b->hi) {
		b->hi = rate;
		b->hi_dur = dur;
	}
	if (b->lo > 0 && rate <= b->lo && dur >= b->lo_dur)
		b->lo = 0;
}

void
tgen_search_record(struct tgen_search *s, const struct tgen_search_trial *t)
{
	double dur = t->duration_s;
	int k;

	s->trials++;
	s->started = true;
	/* the rate the DUT forwarded of the schedule (not the measured rx rate, which is low
	 * when tgen itself fell behind) */
	s->last_rx_pps = t->requested_pps * (1 - t->loss_ratio);
	for (k = 0; k < NCRIT; k++) {
		struct tgen_bound *b = &s->b[k];

		if (t->loss_ratio <= crit_threshold(s, k))
			bound_pass(s, b, t, dur);
		else
			bound_fail(b, t, dur);
		/* tgen offered a rate it once could not: that limit is gone */
		if (!t->generator_limited && b->gen_r > 0 && t->requested_pps >= b->gen_r &&
		    dur >= b->gen_dur) {
			b->gen_r = 0;
			b->gen_tries = 0;
		}
		b->downs = b->lo == 0 ? b->downs + 1 : 0;
	}
}

/* The generator, not the DUT, bounds criterion k: something passed, and tgen could not offer
 * a rate below the lowest one the DUT failed. */
static bool
gen_bound(const struct tgen_bound *b)
{
	return b->gen_r > 0 && b->lo > 0 && (b->hi == 0 || b->hi > b->gen_r);
}

static bool
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (a > b ? a : b);
}

/* Criterion k is settled when both bounds hold at the final duration and are close. */
static bool
crit_done(const struct tgen_search *s, int k)
{
	const struct tgen_bound *b = &s->b[k];

	if (gen_bound(b))
		return b->gen_tries >= 2 && b->gen_dur >= s->final_s && b->lo_dur >= s->final_s;
	if (b->lo == 0)
		return b->hi > 0 && b->hi <= s->min_pps * (1 + 1e-9) && b->hi_dur >= s->final_s;
	if (b->hi == 0)
		return near(b->lo, s->max_pps) && b->lo_dur >= s->final_s;
	return (b->hi - b->lo) <= s->width * b->hi && b->lo_dur >= s->final_s &&
	       b->hi_dur >= s->final_s;
}

static double
clamp_rate(const struct tgen_search *s, double r)
{
	if (r < s->min_pps)
		return s->min_pps;
	if (r > s->max_pps)
		return s->max_pps;
	return r;
}

static void
crit_step(const struct tgen_search *s, int k, struct tgen_search_step *st)
{
	const struct tgen_bound *b = &s->b[k];
	bool final = b->lo_dur >= s->final_s || b->hi_dur >= s->final_s;
	double r;

	st->duration_s = final ? s->final_s : s->trial_s;
	st->phase = final ? "final" : "search";
	if (gen_bound(b)) {
		/* tgen could not offer gen_r: try it again at the final duration, and stop
		 * climbing if it still cannot (or confirm the lower bound) */
		r = b->gen_tries < 2 || b->gen_dur < s->final_s ? b->gen_r : b->lo;
		st->duration_s = s->final_s;
		st->phase = "final";
	} else if (b->lo == 0) {
		/* nothing passed yet: just below the forwarding rate seen, and steps down that
		 * double with every failure */
		double step = s->width * 2 * (double)(1u << (b->downs < 20 ? b->downs : 20));

		r = b->hi * (1 - (step < 0.5 ? step : 0.5));
		if (s->last_rx_pps * (1 - s->width) < r)
			r = s->last_rx_pps * (1 - s->width);
		if (b->hi <= s->min_pps * (1 + 1e-9)) {
			r = s->min_pps; /* confirm "below minimum" at the final duration */
			st->duration_s = s->final_s;
			st->phase = "final";
		}
	} else if (b->hi == 0) {
		/* nothing failed: confirm at the final duration, or step up towards max */
		if (b->lo_dur < s->final_s) {
			r = b->lo;
			st->duration_s = s->final_s;
			st->phase = "final";
		} else {
			r = b->lo * (1 + 4 * s->width);
		}
	} else if ((b->hi - b->lo) <= s->width * b->hi) {
		/* narrow: confirm the bounds at the final duration, lower bound first */
		r = b->lo_dur < s->final_s ? b->lo : b->hi;
		st->duration_s = s->final_s;
		st->phase = "final";
	} else {
		r = (b->lo + b->hi) / 2;
	}
	st->rate_pps = clamp_rate(s, r);
}

int
tgen_search_next(struct tgen_search *s, struct tgen_search_step *st)
{
	int k;

	if (!s->started) {
		st->rate_pps = s->max_pps;
		st->duration_s = s->trial_s;
		st->phase = "max";
		return 1;
	}
	if (s->trials >= s->max_trials)
		return 0;
	for (k = 0; k < NCRIT; k++) {
		if (!crit_done(s, k)) {
			crit_step(s, k, st);
			return 1;
		}
	}
	return 0;
}

double
tgen_search_result(const struct tgen_search *s, int k, bool *below, enum tgen_limit *limit)
{
	const struct tgen_bound *b = &s->b[k];

	/* A loss-free trial meets every loss ratio, so PDR is never below NDR, even when a
	 * noisy trial between them moved PDR's own lower bound down. */
	if (k > 0 && s->b[0].lo > b->lo)
		b = &s->b[0];
	*below = b->lo == 0;
	if (gen_bound(b))
		*limit = TGEN_LIMIT_GENERATOR;
	else if (b->lo > 0 && b->hi == 0 && near(b->lo, s->max_pps))
		*limit = TGEN_LIMIT_MAX_RATE;
	else
		*limit = TGEN_LIMIT_DUT;
	return b->lo;
}

const char *
tgen_limit_name(enum tgen_limit l)
{
	switch (l) {
	case TGEN_LIMIT_GENERATOR:
		return "generator";
	case TGEN_LIMIT_MAX_RATE:
		return "max_rate";
	default:
		return "dut";
	}
}
