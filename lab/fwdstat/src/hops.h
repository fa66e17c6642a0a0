/* SPDX-License-Identifier: MIT */
/* hops.h - where each trial's packets went, hop by hop (fwdstat hops RUN_DIR). */
#ifndef FWDSTAT_HOPS_H
#define FWDSTAT_HOPS_H

#include <stdio.h>

struct hops_opts {
	int write;  /* write trials/NNN/hops.json and RUN_DIR/hops.json */
	int json;   /* print the run's hops.json instead of the table */
	int trial;  /* the trial whose table is printed; -1: the one that bounded the figure */
	int quiet;  /* with write: print nothing */
	int table;  /* print the table only */
	int lines;  /* print the figures' lines only (NDR/PDR, or the run's) */
};

/* Reads RUN_DIR (meta.json, tgen.json, generator-trials.jsonl, trials/NNN/) and prints or
 * writes the per-hop accounting of every trial. 0, or -errno with a message in err. */
int hops_run(const char *dir, const struct hops_opts *o, FILE *out, char *err, size_t errlen);

#endif
