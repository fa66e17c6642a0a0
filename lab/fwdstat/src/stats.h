/* SPDX-License-Identifier: MIT */
/* stats.h - the statistics fwdstat reports: medians, spreads, geomeans, verdicts. */
#ifndef FWDSTAT_STATS_H
#define FWDSTAT_STATS_H

#include <stddef.h>
#include <stdio.h>

struct summary {
	size_t n;
	double median, min, max;
	double rel_spread; /* (max - min) / median; 0 for n == 1; NaN for n == 0 */
};

/* Median of n values (mean of the middle two for an even n); NaN when n == 0. */
double stats_median(const double *v, size_t n);
/* NaN values are ignored. */
struct summary stats_summarize(const double *v, size_t n);
/* Writes "n": N, "MEDIAN_KEY": median, "min": MIN, "max": MAX (JSON members, no braces). */
void stats_summary_put_json(FILE *f, const struct summary *s, const char *median_key);
/* Geometric mean of positive ratios; NaN when n == 0 or any ratio <= 0. */
double stats_geomean(const double *v, size_t n);

enum verdict {
	VERDICT_NOISE,	  /* within noise */
	VERDICT_UP,	  /* significantly higher */
	VERDICT_DOWN,	  /* significantly lower */
	VERDICT_FEW_RUNS, /* a group has fewer than 2 runs */
	VERDICT_NONE,	  /* no data */
};

/*
 * Decides whether the change from base to x is real: both groups have at least two runs,
 * their min..max ranges do not overlap, and |delta| exceeds the larger relative spread
 * and min_delta (a ratio, 0.01 for 1 %).
 */
enum verdict stats_verdict(const struct summary *base, const struct summary *x, double min_delta);
/* (x - base) / base; NaN when base is not positive. */
double stats_delta(double base, double x);
/* Words for a verdict; higher_is_better picks faster/slower, -1 picks higher/lower. */
const char *verdict_word(enum verdict v, int higher_is_better);

/* Mean and sample standard deviation (n - 1 in the denominator; 0 for one value). */
struct moments {
	size_t n;
	double mean, stdev;
};
struct moments stats_moments(const double *v, size_t n);

/*
 * Relative change of the mean x against the mean b, (x - b) / b, and its standard deviation
 * by first-order error propagation of the ratio: (x/b) * sqrt((sx/x)^2 + (sb/b)^2) (the
 * "stdev of the relative change" of CSIT's comparison tables). NaN when b is not positive.
 */
double stats_rel_change(const struct moments *b, const struct moments *x, double *stdev);

/*
 * Mann-Whitney U test (Wilcoxon rank-sum), two-sided: the probability, under the null
 * hypothesis that both samples come from one distribution (any order of the pooled values
 * equally likely), of a rank sum of a at least as far from its mean as the one observed.
 * Ties get mid-ranks. Exact (the permutation distribution, counted by dynamic programming)
 * up to STATS_MW_EXACT_MAX values in all, else the normal approximation with the tie
 * correction. NaN values are ignored; NaN when a sample is empty. *u gets U of a.
 */
#define STATS_MW_EXACT_MAX 80
double stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

#endif
