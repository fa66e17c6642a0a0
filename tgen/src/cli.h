/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef TGEN_CLI_H
#define TGEN_CLI_H

#include <stdio.h>

#include "dp.h"

struct opts {
	const char *mode;
	const char *json;
	const char *pre_trial, *post_trial;
	const char *trial_exec; /* another generator runs each trial (main.c exec_trial) */
	struct tgen_rate rate, min_rate, max_rate;
	bool strict_rate; /* accepted for compatibility; generator-limited trials never pass */
	double duration_s, trial_s, final_s, width, pdr_loss, link_timeout_s, warmup_s;
	double link_hold_s; /* link mode: stay connected this long after the links came up */
	double rate_tol; /* offered may fall short of requested by this ratio */
	uint32_t max_trials;
	/* latency at load after ndr: percents of the PDR lower bound (0: the minimal rate) */
	double lat_loads[8];
	uint32_t n_lat_loads;
	double lat_s;	/* their duration (0: the final duration) */
	bool mlrsearch; /* --method mlrsearch (else binary, search.c) */
	double duration_sum, exceed_ratio, warmup_trial_s;
	uint16_t nb_desc;
	uint32_t nb_mbufs;
};

void tgen_cli_usage(FILE *f);
/* The defaults that depend on --method (final duration, minimal load), after parsing. */
void tgen_cli_method_defaults(struct opts *o);
/* Prints "tgen: --OPT VAL: WHY" and returns -EINVAL. */
int tgen_cli_bad(const char *opt, const char *val, const char *why);
/* argv[1] is the mode; 0 or -EINVAL (the message is printed). */
int tgen_cli_parse(struct tgen_ctx *c, struct opts *o, int argc, char **argv);

#endif
