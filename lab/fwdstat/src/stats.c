/* SPDX-License-Identifier: MIT */
/* stats.c - statistics on small samples (a handful of repeats per group). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
