/* SPDX-License-Identifier: MIT */
/* compare.h - A/B(/C...) comparison of runs grouped by meta.json "group" and profile. */
#ifndef FWDSTAT_COMPARE_H
#define FWDSTAT_COMPARE_H

#include <stdio.h>

#include "runs.h"
#include "stats.h"
#include "table.h"

#define CMP_MAX_GROUPS 8

/* Rates first (FIG_RX: received rate of a fixed-rate `run`), then the node figures. */
enum fig_kind { FIG_NDR, FIG_PDR, FIG_RX, FIG_CPP, FIG_VPC };
#define FIG_IS_RATE(k) ((k) <= FIG_RX)

struct samples {
	double *v;
	size_t n, cap;
	size_t nbound; /* values the generator or the path, not the DUT, bounded (lower bounds) */
	size_t npath;  /* of those, the path's (meta.json calibration.ndr_path_bound) */
};

#define CMP_GEN_FOOTNOTE "* bounded by the generator or the path, not the DUT"
#define CMP_GEN_VERDICT "no verdict: generator-bound"
#define CMP_PATH_VERDICT "no verdict: path-bound"

struct cmp_fig {
	size_t profile;
	enum fig_kind kind;
	char node[RT_NAME_MAX]; /* FIG_CPP, FIG_VPC */
	struct samples g[CMP_MAX_GROUPS];
};

struct cmp {
	char groups[CMP_MAX_GROUPS][32];
	const struct run *group_first[CMP_MAX_GROUPS]; /* describes the group's DUT build */
	size_t group_runs[CMP_MAX_GROUPS];
	int mixed_duts; /* some group holds runs of more than one DUT (a sweep, not an A/B) */
	size_t ngroups, base;
	char (*profiles)[96];
	size_t nprofiles, pcap;
	struct cmp_fig *figs;
	size_t nfigs, fcap;
	double min_delta;
	size_t nruns;
};

struct cmp_opts {
	const char *campaign; /* only runs of this campaign; NULL for all */
	const char *base;     /* base group; NULL for the first in sorted order */
	char **nodes;	      /* restrict node figures to these; NULL for every node */
	int nnodes;
	double min_delta; /* ratio */
};

int cmp_build(const struct runset *rs, const struct cmp_opts *o, struct cmp *c, char *err,
	      size_t errlen);
void cmp_free(struct cmp *c);
/* The rate table (NDR/PDR) and the node table; both with deltas and verdicts. */
int cmp_table(const struct cmp *c, int nodes, struct table *t);
/* Geometric mean of median_X / median_base over profiles for a rate figure; NaN if none. */
double cmp_geomean(const struct cmp *c, size_t group, enum fig_kind kind, size_t *nprof);
void cmp_print_md(const struct cmp *c, FILE *f);
/* One line per group: runs, DUT, build variant and git revision of its first run. */
void cmp_print_groups(const struct cmp *c, FILE *f, int html);
void cmp_print_json(const struct cmp *c, FILE *f);
void cmp_print_summary_html(const struct cmp *c, FILE *f);
/* True when some rate cell is generator-bound (then the tables need CMP_GEN_FOOTNOTE). */
int cmp_any_gen_bound(const struct cmp *c);
const char *fig_name(enum fig_kind k);

#endif
