/* SPDX-License-Identifier: MIT */
/* sweep.h - NDR per frame size beside the theoretical line rate, one column group per DUT. */
#ifndef FWDSTAT_SWEEP_H
#define FWDSTAT_SWEEP_H

#include <stdio.h>

#include "compare.h"
#include "runs.h"

#define SWEEP_MAX_DUTS 8
#define SWEEP_MAX_SIZES 64

struct sweep {
	double link_bps;
	char duts[SWEEP_MAX_DUTS][96];
	size_t nduts;
	double sizes[SWEEP_MAX_SIZES];
	size_t nsizes;
	struct samples ndr[SWEEP_MAX_SIZES][SWEEP_MAX_DUTS];
};

/* Theoretical line rate in packets/s: link_bps / ((size + 20) * 8). */
double line_rate_pps(double link_bps, double frame_size);

/* link_bps <= 0: take it from the runs' tgen.json, else 10 Gb/s. */
int sweep_build(const struct runset *rs, const char *campaign, double link_bps, struct sweep *s,
		char *err, size_t errlen);
void sweep_free(struct sweep *s);
int sweep_table(const struct sweep *s, struct table *t);
void sweep_print_json(const struct sweep *s, FILE *f);
/* True when some cell holds a generator-bound NDR (then print CMP_GEN_FOOTNOTE). */
int sweep_any_gen_bound(const struct sweep *s);

#endif
