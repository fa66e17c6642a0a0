/* SPDX-License-Identifier: BSD-3-Clause */
/* NDR/PDR search with MLRsearch's semantics (FD.io CSIT; IETF BMWG draft "Multiple Loss Ratio
 * Search"), beside tgen's binary search (search.c). Written from the methodology text; no CSIT
 * code is used. What it keeps of MLRsearch:
 * - A warm-up trial at the maximum load first, its result discarded.
 * - Goals: NDR (loss ratio 0) and PDR (loss ratio <= pdr_loss), each with a goal duration sum
 *   D (21 s), an exceed ratio E (0.5) and a width W (0.5 %). A trial is bad for a goal when
 *   its loss ratio is above the goal's; every trial at a load counts for both goals.
 * - A load is classified from its trials: with good and bad the durations of its good and bad
 *   trials and missing = max(0, D - good - bad), it is an upper bound when even the optimistic
 *   exceed ratio bad / (good + bad + missing) is above E, a lower bound when the pessimistic
 *   one (bad + missing) / (good + bad + missing) is at most E, and undecided otherwise (it is
 *   measured again).
 * - The relevant upper bound is the smallest load that is an upper bound; the relevant lower
 *   bound the largest lower bound below it. A goal is met when they are within W of each
 *   other (relative to the upper bound), when the maximum load is a lower bound, or when the
 *   minimal load is an upper bound (below minimum).
 * - A preceding target per goal with D equal to one trial and 4 W, so that the coarse part of
 *   the search spends one trial per load (MLRsearch's preceding targets, simplified to one).
 * - The conditional throughput: the forwarding rates of the trials at the relevant lower bound,
 *   the E quantile from the bottom (MLRsearch's definition with equal trial durations).
 * tgen's rule that no rate it did not offer is reported: a trial counts at the load asked
 * for, and the result is the lowest rate offered by the good trials at the relevant lower
 * bound, named generator-bound when one of them fell short. No DPDK here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tgen.h"

#define NGOAL 2

static double
goal_loss(const struct tgen_mlr *m, int k)
{
	return k == 0 ? 0.0 : m->pdr_loss;
}

int
tgen_mlr_init(struct tgen_mlr *m, const struct tgen_mlr_params *p)
{
	memset(m, 0, sizeof(*m));
	m->p = *p;
	m->pdr_loss = p->pdr_loss;
	m->warmed = p->warmup_s < 0; /* negative: no warm-up trial */
	m->t = calloc(p->max_trials + 1, sizeof(*m->t));
	return m->t == NULL ? -1 : 0;
}

void
tgen_mlr_free(struct tgen_mlr *m)
{
	free(m->t);
	m->t = NULL;
}

static bool
same_load(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (a > b ? a : b);
}

/* The target t: 0, 1 the preceding ones of NDR, PDR; 2, 3 the final ones. */
static void
target_of(const struct tgen_mlr *m, int t, int *goal, double *dsum, double *width)
{
	*goal = t % NGOAL;
	*dsum = t < NGOAL ? m->p.trial_s : m->p.duration_sum;
	*width = t < NGOAL ? 4 * m->p.width : m->p.width;
	if (*dsum < m->p.trial_s)
		*dsum = m->p.trial_s;
}

enum mlr_class { MLR_UNDECIDED, MLR_LOWER, MLR_UPPER };

/* A good trial tgen could not offer (generator_limited) says nothing of the load: it is left
 * out, and the load measured again, until MLR_GEN_TRIES of them at that load show that tgen
 * cannot offer it; then they count, and the result is held to what they offered. */
#define MLR_GEN_TRIES 3

static bool
skipped(const struct tgen_mlr *m, const struct tgen_mlr_trial *t, int k)
{
	uint32_t i, n = 0;

	if (!t->limited || t->loss_ratio > goal_loss(m, k))
		return false;
	for (i = 0; i < m->n; i++)
		n += same_load(m->t[i].load, t->load) && m->t[i].limited &&
		     m->t[i].loss_ratio <= goal_loss(m, k);
	return n < MLR_GEN_TRIES;
}

/* Classifies load for goal k and duration sum dsum from every trial measured at it. */
static enum mlr_class
classify(const struct tgen_mlr *m, double load, int k, double dsum)
{
	double good = 0, bad = 0, missing, total;
	uint32_t i;

	for (i = 0; i < m->n; i++) {
		if (!same_load(m->t[i].load, load) || skipped(m, &m->t[i], k))
			continue;
		if (m->t[i].loss_ratio > goal_loss(m, k))
			bad += m->t[i].duration_s;
		else
			good += m->t[i].duration_s;
	}
	missing = dsum - good - bad;
	if (missing < 0)
		missing = 0;
	total = good + bad + missing;
	if (total <= 0)
		return MLR_UNDECIDED;
	if (bad / total > m->p.exceed_ratio)
		return MLR_UPPER;
	if ((bad + missing) / total <= m->p.exceed_ratio * (1 + 1e-12))
		return MLR_LOWER;
	return MLR_UNDECIDED;
}

static bool
only_good(const struct tgen_mlr *m, double load, int k)
{
	uint32_t i;

	for (i = 0; i < m->n; i++)
		if (same_load(m->t[i].load, load) && m->t[i].loss_ratio > goal_loss(m, k))
			return false;
	return true;
}

/* The relevant bounds of goal k at duration sum dsum (0: none), and the undecided load
 * between them to measure next (0: none). */
static void
bounds_of(const struct tgen_mlr *m, int k, double dsum, double *lo, double *hi, double *undec)
{
	double good_undec = 0;
	uint32_t i;

	*lo = *hi = *undec = 0;
	for (i = 0; i < m->n; i++) {
		double l = m->t[i].load;

		if (classify(m, l, k, dsum) == MLR_UPPER && (*hi == 0 || l < *hi))
			*hi = l;
	}
	for (i = 0; i < m->n; i++) {
		double l = m->t[i].load;
		enum mlr_class c = classify(m, l, k, dsum);

		if (c == MLR_LOWER && l > *lo && (*hi == 0 || l < *hi))
			*lo = l;
	}
	/* an undecided load between them is measured again: the largest one that has only good
	 * trials (it may become the lower bound, which makes the loads below irrelevant), else
	 * the smallest one */
	for (i = 0; i < m->n; i++) {
		double l = m->t[i].load;

		if (l <= *lo || (*hi != 0 && l >= *hi) || classify(m, l, k, dsum) != MLR_UNDECIDED)
			continue;
		if (only_good(m, l, k)) {
			if (good_undec < l)
				good_undec = l;
		} else if (*undec == 0 || l < *undec) {
			*undec = l;
		}
	}
	if (good_undec > 0)
		*undec = good_undec;
}

/* The worst loss ratio measured at load (how far below it to look next). */
static double
worst_loss(const struct tgen_mlr *m, double load)
{
	double w = 0;
	uint32_t i;

	for (i = 0; i < m->n; i++)
		if (same_load(m->t[i].load, load) && m->t[i].loss_ratio > w)
			w = m->t[i].loss_ratio;
	return w;
}

static bool
measured(const struct tgen_mlr *m, double load)
{
	uint32_t i;

	for (i = 0; i < m->n; i++)
		if (same_load(m->t[i].load, load))
			return true;
	return false;
}

/* The next load for target t, or 0 when the target is met (m->limit[k] says how). */
static double
target_next(struct tgen_mlr *m, int t)
{
	int k;
	double dsum, width, lo, hi, undec, r, step;

	target_of(m, t, &k, &dsum, &width);
	bounds_of(m, k, dsum, &lo, &hi, &undec);
	if (hi > 0 && hi <= m->p.min_pps * (1 + 1e-9))
		return 0; /* below minimum: the minimal load is an upper bound */
	if (hi == 0 && lo > 0 && same_load(lo, m->p.max_pps))
		return 0; /* no loss up to the maximum load */
	if (undec > 0)
		return undec;
	if (lo > 0 && hi > 0 && hi - lo <= width * hi)
		return 0;
	if (hi == 0 && lo == 0)
		return m->p.max_pps;
	if (hi == 0) {
		/* nothing failed above lo (the maximum load was not offered at lo): expand */
		r = lo * (1 + 4 * width);
		return r > m->p.max_pps ? m->p.max_pps : r;
	}
	if (lo == 0) {
		/* below the smallest upper bound, by the share it lost (at least 2 W, at most half)
		 */
		step = worst_loss(m, hi);
		if (step < 2 * width)
			step = 2 * width;
		if (step > 0.5)
			step = 0.5;
		r = hi * (1 - step);
		while (measured(m, r) && r > m->p.min_pps)
			r *= 1 - step;
		return r < m->p.min_pps ? m->p.min_pps : r;
	}
	return (lo + hi) / 2;
}

int
tgen_mlr_next(struct tgen_mlr *m, struct tgen_search_step *st)
{
	int t;
	double r;

	if (!m->warmed) {
		st->rate_pps = m->p.max_pps;
		st->duration_s = m->p.warmup_s > 0 ? m->p.warmup_s : m->p.trial_s;
		st->phase = "warmup";
		return 1;
	}
	if (m->n >= m->p.max_trials)
		return 0;
	for (t = 0; t < 2 * NGOAL; t++) {
		r = target_next(m, t);
		if (r > 0) {
			st->rate_pps = r;
			st->duration_s = m->p.trial_s;
			st->phase = t < NGOAL ? "search" : "final";
			m->asked = r;
			return 1;
		}
	}
	return 0;
}

void
tgen_mlr_record(struct tgen_mlr *m, const struct tgen_search_trial *tr)
{
	struct tgen_mlr_trial *t;

	if (!m->warmed) {
		m->warmed = true; /* the warm-up trial: discarded */
		return;
	}
	if (m->n >= m->p.max_trials)
		return;
	t = &m->t[m->n++];
	t->duration_s = tr->duration_s;
	t->loss_ratio = tr->loss_ratio;
	t->load = tr->requested_pps;
	t->offered = tr->offered_pps;
	t->limited = tr->generator_limited;
	t->fwd_pps = tr->offered_pps * (1 - tr->loss_ratio);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
tgen_mlr_result(const struct tgen_mlr *m, int k, struct tgen_mlr_result *res)
{
	double dsum, width, undec, fwd[64];
	uint32_t i, n = 0;
	int goal;

	memset(res, 0, sizeof(*res));
	target_of(m, NGOAL + k, &goal, &dsum, &width);
	bounds_of(m, k, dsum, &res->lower_pps, &res->upper_pps, &undec);
	res->below = res->lower_pps == 0;
	/* never a load tgen did not offer: the lowest offered rate of the lower bound's good
	 * trials, and the generator named when one of them fell short */
	res->offered_pps = res->lower_pps;
	for (i = 0; i < m->n; i++) {
		const struct tgen_mlr_trial *t = &m->t[i];

		if (res->lower_pps == 0 || !same_load(t->load, res->lower_pps) ||
		    t->loss_ratio > goal_loss(m, k) || skipped(m, t, k))
			continue;
		if (t->offered < res->offered_pps)
			res->offered_pps = t->offered;
		res->gen_short = res->gen_short || t->limited;
	}
	if (res->gen_short && res->lower_pps > 0)
		res->limit = TGEN_LIMIT_GENERATOR;
	else if (res->upper_pps == 0 && same_load(res->lower_pps, m->p.max_pps))
		res->limit = TGEN_LIMIT_MAX_RATE;
	else
		res->limit = TGEN_LIMIT_DUT;
	for (i = 0; i < m->n && n < 64; i++)
		if (res->lower_pps > 0 && same_load(m->t[i].load, res->lower_pps) &&
		    !skipped(m, &m->t[i], k))
			fwd[n++] = m->t[i].fwd_pps;
	if (n > 0) {
		qsort(fwd, n, sizeof(fwd[0]), cmp_double);
		res->conditional_pps = fwd[(uint32_t)floor(m->p.exceed_ratio * (n - 1) + 0.5)];
		/* never above the load itself (offered may be a packet over) */
		if (res->conditional_pps > res->lower_pps)
			res->conditional_pps = res->lower_pps;
	}
	if (res->conditional_pps > res->offered_pps)
		res->conditional_pps = res->offered_pps;
	for (i = 0; i < m->n; i++)
		if (same_load(m->t[i].load, res->lower_pps) && !skipped(m, &m->t[i], k))
			res->lower_trials++;
}
