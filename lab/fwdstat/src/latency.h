/* SPDX-License-Identifier: MIT */
/* latency.h - latency at load (tgen ndr --latency-loads): table and percentile plots. */
#ifndef FWDSTAT_LATENCY_H
#define FWDSTAT_LATENCY_H

#include "report_int.h"
#include "runs.h"
#include "table.h"

/* One row per complete ndr run (of campaign camp; NULL: every run), load and direction. */
int latency_table(const struct runset *rs, const char *camp, struct table *t);
/* Per profile of camp, the percentile curves of its last run with latency trials. */
int plot_latency(struct campaign_out *co, const struct runset *rs, const char *camp);

#endif
