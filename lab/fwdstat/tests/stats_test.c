/* SPDX-License-Identifier: MIT */
/* stats_test.c - medians, spreads, geomeans and verdicts on inputs with known answers. */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "tap.h"
#include "util.h"

static void
test_median(void)
{
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2}, one[] = {7};
	double with_nan[] = {NAN, 10, 20, NAN, 30};

	tap_near(stats_median(odd, 3), 3, 0, "median_of_odd_count_is_the_middle_value");
	tap_near(stats_median(even, 4), 2.5, 0, "median_of_even_count_is_mean_of_middle_two");
	tap_near(stats_median(one, 1), 7, 0, "median_of_one_value_is_that_value");
	tap_ok(isnan(stats_median(odd, 0)), "median_of_nothing_is_nan");
	tap_near(stats_median(with_nan, 5), 20, 0, "median_ignores_missing_values");
	tap_ok(odd[0] == 5 && odd[1] == 1, "median_leaves_its_input_unsorted");
}

static void
test_moments(void)
{
	double v[] = {2, 4, 4, 4, 5, 5, 7, 9}, one[] = {3};
	struct moments m = stats_moments(v, 8), b = {3, 100, 3}, x = {3, 90, 4}, o;
	double sd, ch;

	tap_ok(m.n == 8, "moments_count_the_values");
	tap_near(m.mean, 5, 1e-12, "mean_of_known_values");
	tap_near(m.stdev, sqrt(32.0 / 7), 1e-12, "sample_stdev_divides_by_n_minus_1");
	o = stats_moments(one, 1);
	tap_ok(o.mean == 3 && o.stdev == 0, "one_value_has_zero_stdev");
	ch = stats_rel_change(&b, &x, &sd);
	tap_near(ch, -0.10, 1e-12, "relative_change_of_the_means");
	tap_near(sd, 0.9 * sqrt(pow(4.0 / 90, 2) + pow(3.0 / 100, 2)), 1e-12,
		 "stdev_of_relative_change_by_error_propagation");
	b.mean = 0;
	tap_ok(isnan(stats_rel_change(&b, &x, &sd)), "relative_change_against_zero_is_nan");
}

/* The two-sided p-value by listing every split of the pooled values (for small samples). */
static double
mw_brute(const double *a, size_t na, const double *b, size_t nb)
{
	double pool[16], rank[16], obs = 0, mean, hits = 0, all = 0;
	size_t n = na + nb;

	memcpy(pool, a, na * sizeof(*a));
	memcpy(pool + na, b, nb * sizeof(*b));
	for (size_t i = 0; i < n; i++) {
		double less = 0, eq = 0;

		for (size_t j = 0; j < n; j++) {
			less += pool[j] < pool[i];
			eq += pool[j] == pool[i];
		}
		rank[i] = less + (eq + 1) / 2;
	}
	for (size_t i = 0; i < na; i++)
		obs += rank[i];
	mean = (double)na * (double)(n + 1) / 2;
	for (unsigned mask = 0; mask < (1u << n); mask++) {
		double sum = 0;

		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		for (size_t i = 0; i < n; i++)
			if (mask & (1u << i))
				sum += rank[i];
		all++;
		hits += fabs(sum - mean) >= fabs(obs - mean) - 1e-9;
	}
	return hits / all;
}

static void
test_mann_whitney(void)
{
	double lo3[] = {1, 2, 3}, hi3[] = {4, 5, 6};
	double lo5[] = {10, 11, 12, 13, 14}, hi5[] = {20, 21, 22, 23, 24};
	double same[] = {5, 5, 5, 5}, ties_a[] = {1, 2, 2, 3, 3, 3}, ties_b[] = {2, 3, 3, 4, 4, 5};
	double mix_a[] = {1, 4, 5, 8, 9}, mix_b[] = {2, 3, 6, 7, 10};
	double big_a[100], big_b[100], u;
	unsigned seed = 12345;

	tap_near(stats_mann_whitney(lo3, 3, hi3, 3, &u), 2.0 / 20, 1e-12,
		 "mw_3_vs_3_fully_apart_is_2_in_20");
	tap_near(u, 0, 0, "mw_u_of_the_lower_sample_is_0");
	tap_near(stats_mann_whitney(hi5, 5, lo5, 5, &u), 2.0 / 252, 1e-12,
		 "mw_5_vs_5_fully_apart_is_2_in_252");
	tap_near(u, 25, 0, "mw_u_of_the_higher_sample_is_na_times_nb");
	tap_near(stats_mann_whitney(same, 4, same, 4, &u), 1, 1e-12, "mw_all_ties_is_1");
	tap_near(stats_mann_whitney(mix_a, 5, mix_b, 5, &u), mw_brute(mix_a, 5, mix_b, 5), 1e-12,
		 "mw_interleaved_equals_enumeration");
	tap_near(stats_mann_whitney(ties_a, 6, ties_b, 6, &u), mw_brute(ties_a, 6, ties_b, 6),
		 1e-12, "mw_with_ties_equals_enumeration");
	tap_near(stats_mann_whitney(lo3, 3, hi5, 5, &u), mw_brute(lo3, 3, hi5, 5), 1e-12,
		 "mw_unequal_sizes_equals_enumeration");
	tap_ok(isnan(stats_mann_whitney(lo3, 0, hi3, 3, &u)), "mw_of_an_empty_sample_is_nan");
	/* 200 values: the normal approximation; a shift of 2 standard deviations is found and
	 * two draws of one distribution are not. */
	for (int i = 0; i < 100; i++) {
		double z = 0;

		for (int k = 0; k < 12; k++) {
			seed = seed * 1103515245u + 12345u;
			z += (double)((seed >> 8) & 0xffff) / 65536.0;
		}
		big_a[i] = z - 6;
		big_b[i] = z - 6 + (i % 2 ? 0.01 : -0.01);
	}
	tap_ok(stats_mann_whitney(big_a, 100, big_b, 100, &u) > 0.5,
	       "mw_large_same_distribution_is_not_significant");
	for (int i = 0; i < 100; i++)
		big_b[i] += 2;
	tap_ok(stats_mann_whitney(big_a, 100, big_b, 100, &u) < 1e-6,
	       "mw_large_shifted_by_two_sd_is_significant");
}

static void
test_summary(void)
{
	double v[] = {90, 110, 100};
	struct summary s = stats_summarize(v, 3);

	tap_ok(s.n == 3 && s.min == 90 && s.max == 110 && s.median == 100,
	       "summary_has_min_median_max");
	tap_near(s.rel_spread, 0.2, 1e-12, "relative_spread_is_range_over_median");
	s = stats_summarize(v, 1);
	tap_near(s.rel_spread, 0, 0, "single_run_has_zero_spread");
}

static void
test_geomean(void)
{
	double r[] = {2, 8}, same[] = {1.1, 1.1, 1.1}, bad[] = {1, -1};

	tap_near(stats_geomean(r, 2), 4, 1e-12, "geomean_of_2_and_8_is_4");
	tap_near(stats_geomean(same, 3), 1.1, 1e-12, "geomean_of_equal_ratios_is_that_ratio");
	tap_ok(isnan(stats_geomean(bad, 2)), "geomean_refuses_non_positive_ratios");
	tap_ok(isnan(stats_geomean(r, 0)), "geomean_of_nothing_is_nan");
}

static void
test_verdicts(void)
{
	double a[] = {100, 101, 99}, b_fast[] = {110, 111, 109}, b_close[] = {100.5, 101.5, 99.5};
	double b_overlap[] = {98, 110, 104}, b_small[] = {101.6, 101.5, 101.7};
	double one[] = {120};
	struct summary sa = stats_summarize(a, 3), sb;

	sb = stats_summarize(b_fast, 3);
	tap_ok(stats_verdict(&sa, &sb, 0.01) == VERDICT_UP, "ten_percent_clear_gain_is_up");
	tap_ok(strcmp(verdict_word(VERDICT_UP, 1), "faster") == 0, "higher_rate_reads_faster");
	tap_ok(stats_verdict(&sb, &sa, 0.01) == VERDICT_DOWN, "the_reverse_is_down");
	tap_ok(strcmp(verdict_word(VERDICT_DOWN, 0), "faster") == 0, "lower_clocks_read_faster");
	sb = stats_summarize(b_close, 3);
	tap_ok(stats_verdict(&sa, &sb, 0.01) == VERDICT_NOISE,
	       "half_percent_change_within_two_percent_spread_is_noise");
	sb = stats_summarize(b_overlap, 3);
	tap_ok(stats_verdict(&sa, &sb, 0.01) == VERDICT_NOISE,
	       "change_smaller_than_the_larger_spread_is_noise");
	sb = stats_summarize(b_small, 3);
	/* delta 1.6 %, ranges apart, spreads 2 % and 0.2 %: the larger spread wins. */
	tap_ok(stats_verdict(&sa, &sb, 0.01) == VERDICT_NOISE,
	       "non_overlapping_but_below_base_spread_is_noise");
	tap_ok(stats_verdict(&sa, &sb, 0) == VERDICT_NOISE, "min_delta_zero_still_uses_spread");
	sb = stats_summarize(one, 1);
	tap_ok(stats_verdict(&sa, &sb, 0.01) == VERDICT_FEW_RUNS, "single_run_gets_no_verdict");
	tap_near(stats_delta(100, 110), 0.10, 1e-12, "delta_is_relative_to_base");
	tap_ok(isnan(stats_delta(0, 5)), "delta_from_zero_is_undefined");
}

static void
test_rates(void)
{
	tap_near(parse_rate("10G"), 10e9, 0, "rate_10G");
	tap_near(parse_rate("25e9"), 25e9, 0, "rate_25e9");
	tap_near(parse_rate("100Mbps"), 100e6, 0, "rate_100Mbps");
	tap_ok(parse_rate("ten") < 0 && parse_rate("10X") < 0 && parse_rate("-1G") < 0,
	       "malformed_rates_are_refused");
}

int
main(void)
{
	test_median();
	test_summary();
	test_moments();
	test_mann_whitney();
	test_geomean();
	test_verdicts();
	test_rates();
	return tap_done();
}
