/* SPDX-License-Identifier: MIT */
/* report_int.h - what report.c shares with the other writers of a campaign's page. */
#ifndef FWDSTAT_REPORT_INT_H
#define FWDSTAT_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "plot.h"
#include "table.h"

void write_table(FILE *md, FILE *html, const char *title, struct table *t);

/* repeats.c: box-and-whisker plots of the repeats of each group (one plot for the rates,
 * one for the nodes' clocks/packet, per profile; none without a group of two runs or more),
 * and the mean ± stdev table with the relative change against the base group. */
int plot_boxes(struct campaign_out *co, const struct cmp *c, size_t prof);
int repeats_table(const struct cmp *c, struct table *t);
void repeats_note(FILE *md, FILE *html, const struct cmp *c);

#endif
