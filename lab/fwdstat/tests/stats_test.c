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
	test_geomean();
	test_verdicts();
	test_rates();
	return tap_done();
}
