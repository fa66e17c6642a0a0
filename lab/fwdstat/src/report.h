/* SPDX-License-Identifier: MIT */
/* report.h - per-campaign Markdown, gnuplot plots (SVG, PNG) and a static HTML page. */
#ifndef FWDSTAT_REPORT_H
#define FWDSTAT_REPORT_H

#include "runs.h"

struct report_opts {
	const char *out; /* output folder; one sub-folder per campaign */
	const char *base;
	char **nodes;
	int nnodes;
	double min_delta, link_bps;
};

/* 0, or -errno after printing why (a plot gnuplot could not draw is an error). */
int report_write(const struct runset *rs, const struct report_opts *o);

#endif
