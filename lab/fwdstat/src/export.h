/* SPDX-License-Identifier: MIT */
/* export.h - run folders as CSIT UTI test_case records (*.info.json) and OpenMetrics. */
#ifndef FWDSTAT_EXPORT_H
#define FWDSTAT_EXPORT_H

#include "runs.h"

struct export_opts {
	const char *out;  /* output folder: OUT/<campaign>/<run>/<test_name_long>.info.json */
	int openmetrics;  /* also the runtime counters, in the record and in a .om file */
};

/* The CSIT names of a run (README "export --csit"). */
struct csit_names {
	char nic[32], frame[24], cores[32], suite_part[64], type[8];
	char test_name_long[160], test_name_short[96], suite[160], test_id[320];
};

/* Fills the names from a run and its tgen.json; 0, or -EINVAL for a run that is no test. */
int export_names(const struct run *r, struct csit_names *n);

/*
 * Writes one record per run folder under rs (dump runs are not tests and are skipped;
 * failed runs are records with passed false). Prints each file written. 0 or -errno.
 */
int export_csit(const struct runset *rs, const struct export_opts *o);

/* The OpenMetrics text of a runtime dump (one family per counter, `# EOF` last). */
int export_openmetrics(const struct rt_dump *d, char **text, size_t *len);

#endif
