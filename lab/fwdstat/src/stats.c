/* SPDX-License-Identifier: MIT */
/* stats.c - statistics on small samples (a handful of repeats per group). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "stats.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static size_t
copy_finite(const double *v, size_t n, double *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			out[m++] = v[i];
	return m;
}

double
stats_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (s == NULL)
		return NAN;
	n = copy_finite(v, n, s);
	if (n == 0) {
		free(s);
		return NAN;
	}
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

struct summary
stats_summarize(const double *v, size_t n)
{
	struct summary s = {0, NAN, NAN, NAN, NAN};

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (s.n == 0 || v[i] < s.min)
			s.min = v[i];
		if (s.n == 0 || v[i] > s.max)
			s.max = v[i];
		s.n++;
	}
	if (s.n == 0)
		return s;
	s.median = stats_median(v, n);
	s.rel_spread = s.median != 0 ? (s.max - s.min) / fabs(s.median) : 0;
	return s;
}

double
stats_geomean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += log(v[i]);
	}
	return exp(sum / (double)n);
}

double
stats_delta(double base, double x)
{
	if (!(base > 0) || isnan(x))
		return NAN;
	return (x - base) / base;
}

enum verdict
stats_verdict(const struct summary *base, const struct summary *x, double min_delta)
{
	double delta, noise;

	if (base->n == 0 || x->n == 0)
		return VERDICT_NONE;
	if (base->n < 2 || x->n < 2)
		return VERDICT_FEW_RUNS;
	delta = stats_delta(base->median, x->median);
	if (isnan(delta))
		return VERDICT_NONE;
	noise = fmax(fmax(base->rel_spread, x->rel_spread), min_delta);
	if (fabs(delta) <= noise)
		return VERDICT_NOISE;
	if (x->min <= base->max && base->min <= x->max)
		return VERDICT_NOISE; /* ranges overlap */
	return delta > 0 ? VERDICT_UP : VERDICT_DOWN;
}

const char *
verdict_word(enum verdict v, int higher_is_better)
{
	switch (v) {
	case VERDICT_NOISE:
		return "within noise";
	case VERDICT_FEW_RUNS:
		return "1 run";
	case VERDICT_NONE:
		return "-";
	case VERDICT_UP:
		return higher_is_better < 0 ? "higher" : higher_is_better ? "faster" : "slower";
	case VERDICT_DOWN:
		return higher_is_better < 0 ? "lower" : higher_is_better ? "slower" : "faster";
	}
	return "-";
}

struct moments
stats_moments(const double *v, size_t n)
{
	struct moments m = {0, NAN, NAN};
	double sum = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			sum += v[i];
			m.n++;
		}
	if (m.n == 0)
		return m;
	m.mean = sum / (double)m.n;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			ss += (v[i] - m.mean) * (v[i] - m.mean);
	m.stdev = m.n > 1 ? sqrt(ss / (double)(m.n - 1)) : 0;
	return m;
}

double
stats_rel_change(const struct moments *b, const struct moments *x, double *stdev)
{
	double r;

	*stdev = NAN;
	if (b->n == 0 || x->n == 0 || !(b->mean > 0) || isnan(x->mean))
		return NAN;
	r = x->mean / b->mean;
	if (x->mean != 0)
		*stdev = fabs(r) * sqrt(pow(x->stdev / x->mean, 2) + pow(b->stdev / b->mean, 2));
	else
		*stdev = b->stdev == 0 ? x->stdev / b->mean : NAN;
	return r - 1;
}

struct ranked {
	double v;
	int from_a;
};

static int
cmp_ranked(const void *p, const void *q)
{
	const struct ranked *x = p, *y = q;

	return (x->v > y->v) - (x->v < y->v);
}

/* Doubled mid-ranks (whole numbers) of the pooled values, sorted; returns the tie term
 * sum(t^3 - t) over groups of t equal values. */
static double
midranks2(struct ranked *r, size_t n, long *rank2)
{
	double ties = 0;

	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			rank2[k] = (long)(i + j + 2); /* 2 * mean of ranks i+1..j+1 */
		ties += pow((double)(j - i + 1), 3) - (double)(j - i + 1);
		i = j + 1;
	}
	return ties;
}

/* P(|S - mean| >= |obs - mean|) for S the doubled rank sum of na values drawn without
 * replacement from rank2[0..n), counted exactly. NaN when out of memory. */
static double
mw_exact(const long *rank2, size_t n, size_t na, long obs)
{
	long total = 0;
	double *dp, count = 0, all = 0, p;

	for (size_t i = 0; i < n; i++)
		total += rank2[i];
	/* dp[k * (total + 1) + s]: subsets of k of the values seen so far with sum s */
	dp = calloc((na + 1) * (size_t)(total + 1), sizeof(*dp));
	if (dp == NULL)
		return NAN;
	dp[0] = 1;
	for (size_t i = 0; i < n; i++)
		for (size_t k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
			for (long s = total; s >= rank2[i]; s--)
				dp[k * (size_t)(total + 1) + (size_t)s] +=
					dp[(k - 1) * (size_t)(total + 1) + (size_t)(s - rank2[i])];
	for (long s = 0; s <= total; s++) {
		double c = dp[na * (size_t)(total + 1) + (size_t)s];

		if (c == 0)
			continue;
		all += c;
		/* compare |2nS - 2na*total| with |2n*obs - 2na*total| in whole numbers */
		if (labs((long)n * s - (long)na * total) >= labs((long)n * obs - (long)na * total))
			count += c;
	}
	p = all > 0 ? count / all : NAN;
	free(dp);
	return p > 1 ? 1 : p;
}

double
stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	struct ranked *r;
	long *rank2, obs = 0;
	size_t n = 0, ma = 0;
	double ties, p;

	*u = NAN;
	r = malloc((na + nb + 1) * sizeof(*r));
	rank2 = malloc((na + nb + 1) * sizeof(*rank2));
	if (r == NULL || rank2 == NULL) {
		free(r);
		free(rank2);
		return NAN;
	}
	for (size_t i = 0; i < na; i++)
		if (!isnan(a[i])) {
			r[n++] = (struct ranked){a[i], 1};
			ma++;
		}
	for (size_t i = 0; i < nb; i++)
		if (!isnan(b[i]))
			r[n++] = (struct ranked){b[i], 0};
	if (ma == 0 || ma == n) {
		free(r);
		free(rank2);
		return NAN;
	}
	ties = midranks2(r, n, rank2);
	for (size_t i = 0; i < n; i++)
		if (r[i].from_a)
			obs += rank2[i];
	*u = (double)obs / 2 - (double)ma * (double)(ma + 1) / 2;
	if (n <= STATS_MW_EXACT_MAX) {
		/* the values' order no longer matters, only which ranks a holds */
		p = mw_exact(rank2, n, ma, obs);
	} else {
		double mb = (double)(n - ma), nn = (double)n;
		double mu = (double)ma * mb / 2;
		double var = (double)ma * mb / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
		double z = var > 0 ? (fabs(*u - mu) - 0.5) / sqrt(var) : 0;

		p = var > 0 ? erfc((z > 0 ? z : 0) / sqrt(2)) : 1;
	}
	free(r);
	free(rank2);
	return p;
}

void
stats_summary_put_json(FILE *f, const struct summary *s, const char *median_key)
{
	const struct {
		const char *key;
		double v;
	} m[] = {{median_key, s->median}, {"min", s->min}, {"max", s->max}};

	fprintf(f, "\"n\": %zu", s->n);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		fputs(", ", f);
		json_put_str(f, m[i].key);
		fputs(": ", f);
		json_put_num(f, m[i].v);
	}
}
