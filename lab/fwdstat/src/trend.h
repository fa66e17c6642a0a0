/* SPDX-License-Identifier: MIT */
/* trend.h - runs of each test grouped by build, over builds, with significant changes. */
#ifndef FWDSTAT_TREND_H
#define FWDSTAT_TREND_H

#include <stdio.h>

#include "runs.h"

struct trend_opts {
	const char *node; /* the metric: this node's clocks/packet; NULL: NDR, or rx rate */
	double alpha;	  /* significance level of each comparison (default 0.001) */
	int json;
};

/* Prints the trend of every test (README "trend"); 0, or -errno. */
int trend_print(const struct runset *rs, const struct trend_opts *o, FILE *f);

#endif
