/* SPDX-License-Identifier: BSD-3-Clause */
/* MLRsearch's rules (src/mlrsearch.c), each on a model of the rate-capped DUT (capdut: known
 * capacity, loss (rate - cap) / rate above it), against tgen's binary search where they
 * differ. No DPDK. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tgen.h"

static int n_test, n_fail;

static void
tap(int ok, const char *name)
{
	n_test++;
	n_fail += !ok;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", n_test, name);
}

/* cap: capacity; cold: loss of the very first trial (a DUT warming up its caches, ARP...);
 * spike_every: every Nth trial at or below capacity loses spike (0: never). */
struct capdut {
	double cap, cold, spike, gen_max;   /* gen_max: tgen offers at most this (0: any) */
	uint32_t spike_every, hiccup_every; /* every Nth trial tgen offers only half */
	uint32_t trials, warmups, below_min;
	double first_rate, min_rate_seen;
	const char *first_phase;
};

static void
capdut_trial(struct capdut *d, const struct tgen_search_step *st, struct tgen_search_trial *t)
{
	double r = st->rate_pps, loss;
	bool limited = false;

	if (d->hiccup_every && d->trials % d->hiccup_every == d->hiccup_every - 1)
		r /= 2, limited = true;
	if (d->gen_max > 0 && r > d->gen_max)
		r = d->gen_max, limited = true;
	loss = r > d->cap ? (r - d->cap) / r : 0;

	if (d->trials == 0) {
		d->first_rate = r;
		d->first_phase = st->phase;
		loss = loss > d->cold ? loss : d->cold;
	} else if (d->spike_every && d->trials % d->spike_every == 0 && loss == 0) {
		loss = d->spike;
	}
	if (d->min_rate_seen == 0 || r < d->min_rate_seen)
		d->min_rate_seen = r;
	d->trials++;
	d->warmups += strcmp(st->phase, "warmup") == 0;
	memset(t, 0, sizeof(*t));
	t->requested_pps = st->rate_pps;
	t->offered_pps = r;
	t->generator_limited = limited;
	t->duration_s = st->duration_s;
	t->loss_ratio = loss;
}

static struct tgen_mlr_params
csit(double min, double max)
{
	return (struct tgen_mlr_params){.min_pps = min,
					.max_pps = max,
					.pdr_loss = 0.005,
					.width = 0.005,
					.trial_s = 1,
					.duration_sum = 21,
					.exceed_ratio = 0.5,
					.warmup_s = 0,
					.max_trials = 1000};
}

static void
mlr_run(const struct tgen_mlr_params *p, struct capdut *d, struct tgen_mlr_result res[2])
{
	struct tgen_mlr m;
	struct tgen_search_step st;
	struct tgen_search_trial t;

	tgen_mlr_init(&m, p);
	while (tgen_mlr_next(&m, &st)) {
		capdut_trial(d, &st, &t);
		tgen_mlr_record(&m, &t);
	}
	tgen_mlr_result(&m, 0, &res[0]);
	tgen_mlr_result(&m, 1, &res[1]);
	tgen_mlr_free(&m);
}

static double
binary_ndr(struct capdut *d, double min, double max)
{
	struct tgen_search s;
	struct tgen_search_step st;
	struct tgen_search_trial t;
	enum tgen_limit lim;
	bool below;

	tgen_search_init(&s, min, max, 0.005, 0.005, 1, 1, 60);
	while (tgen_search_next(&s, &st)) {
		capdut_trial(d, &st, &t);
		tgen_search_record(&s, &t);
	}
	return tgen_search_result(&s, 0, &below, &lim);
}

int
main(void)
{
	struct tgen_mlr_params p = csit(9001, 1e6);
	struct tgen_mlr_result r[2];
	struct capdut d = {.cap = 100000};
	double pdr_true = 100000 / (1 - 0.005);

	mlr_run(&p, &d, r);
	printf("# capdut 100 kpps, CSIT defaults: %u trials; NDR [%.0f, %.0f] (%u trials at the "
	       "lower bound), PDR [%.0f, %.0f], conditional %.0f\n",
	       d.trials, r[0].lower_pps, r[0].upper_pps, r[0].lower_trials, r[1].lower_pps,
	       r[1].upper_pps, r[1].conditional_pps);
	tap(d.warmups == 1 && d.first_rate == 1e6 && strcmp(d.first_phase, "warmup") == 0,
	    "warmup_trial_first_at_max_load");
	tap(r[0].lower_pps <= 100000 && r[0].upper_pps > 100000 &&
		    r[0].upper_pps - r[0].lower_pps <= 0.005 * r[0].upper_pps &&
		    r[0].limit == TGEN_LIMIT_DUT,
	    "ndr_relevant_bounds_straddle_the_capacity_within_the_width");
	tap(r[1].lower_pps <= pdr_true && r[1].upper_pps > pdr_true &&
		    r[1].upper_pps - r[1].lower_pps <= 0.005 * r[1].upper_pps,
	    "pdr_relevant_bounds_straddle_the_half_percent_loss_point");
	/* a lower bound with D = 21 s and E = 0.5 needs at least 11 good 1 s trials */
	tap(r[0].lower_trials >= 11 && r[1].lower_trials >= 11,
	    "lower_bounds_hold_the_goal_duration_sum_times_one_minus_exceed_ratio");
	tap(r[0].conditional_pps == r[0].lower_pps, "conditional_throughput_of_a_lossless_bound");

	/* the exceed ratio: one trial in three at any load under capacity loses 1 % (noise) */
	d = (struct capdut){.cap = 100000, .spike = 0.01, .spike_every = 3};
	mlr_run(&p, &d, r);
	printf("# 1 in 3 trials lose 1 %%: mlrsearch %u trials NDR %.0f PDR %.0f\n", d.trials,
	       r[0].lower_pps, r[1].lower_pps);
	tap(r[0].lower_pps >= 100000 * 0.99 && r[0].lower_pps <= 100000,
	    "exceed_ratio_half_keeps_ndr_at_capacity_despite_one_bad_trial_in_three");
	{
		struct capdut b = {.cap = 100000, .spike = 0.01, .spike_every = 3};
		double ndr = binary_ndr(&b, 9001, 1e6);

		printf("# the same DUT, binary search: NDR %.0f\n", ndr);
		tap(ndr < 100000 * 0.99 || ndr > 100000,
		    "binary_search_is_thrown_off_by_the_same_noise");
	}
	p.exceed_ratio = 0;
	d = (struct capdut){.cap = 100000, .spike = 0.01, .spike_every = 3};
	mlr_run(&p, &d, r);
	tap(r[0].lower_pps < 100000 * 0.99,
	    "exceed_ratio_zero_lets_one_bad_trial_disqualify_a_load");
	p.exceed_ratio = 0.5;

	/* the warm-up: a DUT that loses half of the first trial's packets (cold); with a duration
	 * sum of one trial, that trial alone would decide the maximum load */
	p.duration_sum = 1;
	d = (struct capdut){.cap = 1e12, .cold = 0.5};
	mlr_run(&p, &d, r);
	tap(r[0].lower_pps == 1e6 && r[0].limit == TGEN_LIMIT_MAX_RATE,
	    "discarded_warmup_trial_hides_a_cold_start_loss");
	p.warmup_s = -1;
	d = (struct capdut){.cap = 1e12, .cold = 0.5};
	mlr_run(&p, &d, r);
	tap(r[0].lower_pps < 1e6 && d.warmups == 0,
	    "without_the_warmup_the_cold_trial_counts_against_the_max_load");
	p.warmup_s = 0;
	p.duration_sum = 21;

	/* the minimal load: a DUT that drops everything */
	d = (struct capdut){.cap = 0};
	mlr_run(&p, &d, r);
	tap(r[0].below && r[1].below && r[0].upper_pps == 9001 && d.min_rate_seen == 9001,
	    "drop_all_dut_is_below_the_minimal_load_and_never_measured_under_it");
	printf("# drop-all: %u trials\n", d.trials);

	/* the width */
	p.width = 0.02;
	d = (struct capdut){.cap = 100000};
	mlr_run(&p, &d, r);
	tap(r[0].upper_pps - r[0].lower_pps <= 0.02 * r[0].upper_pps &&
		    r[0].upper_pps - r[0].lower_pps > 0.005 * r[0].upper_pps * 0.5,
	    "width_option_sets_how_close_the_bounds_end");
	p.width = 0.005;

	/* the goal duration sum: with D = 3 trials, each bound needs 2 of them */
	p.duration_sum = 3;
	d = (struct capdut){.cap = 100000};
	mlr_run(&p, &d, r);
	tap(r[0].lower_trials >= 2 && r[0].lower_trials < 11 && r[0].lower_pps <= 100000 &&
		    r[0].upper_pps > 100000,
	    "duration_sum_option_sets_the_trials_a_bound_needs");
	printf("# duration sum 3 s: %u trials\n", d.trials);

	/* a trial tgen could not offer is left out; a load it can never offer bounds the result */
	d = (struct capdut){.cap = 100000, .hiccup_every = 5};
	mlr_run(&p, &d, r);
	tap(r[0].lower_pps <= 100000 && r[0].upper_pps > 100000 &&
		    r[0].offered_pps == r[0].lower_pps && r[0].limit == TGEN_LIMIT_DUT,
	    "generator_hiccups_are_left_out_and_do_not_mark_the_result");
	d = (struct capdut){.cap = 100000, .gen_max = 60000};
	mlr_run(&p, &d, r);
	printf("# tgen at most 60 kpps: NDR %.0f (offered %.0f) upper %.0f, %u trials\n",
	       r[0].lower_pps, r[0].offered_pps, r[0].upper_pps, d.trials);
	tap(r[0].offered_pps <= 60000 && r[0].limit == TGEN_LIMIT_GENERATOR && !r[0].below,
	    "a_load_tgen_never_offers_bounds_the_result_by_the_generator");

	/* no loss up to the maximum load */
	p = csit(9001, 50000);
	d = (struct capdut){.cap = 100000};
	mlr_run(&p, &d, r);
	tap(r[0].lower_pps == 50000 && r[0].upper_pps == 0 && r[0].limit == TGEN_LIMIT_MAX_RATE,
	    "lossless_up_to_max_load_is_max_rate_bound");
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
