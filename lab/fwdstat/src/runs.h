/* SPDX-License-Identifier: MIT */
/* runs.h - finds and loads run folders (meta.json, tgen.json, show_runtime.*). */
#ifndef FWDSTAT_RUNS_H
#define FWDSTAT_RUNS_H

#include <stddef.h>

#include "runtime.h"

struct run {
	char *dir;
	char run[128], campaign[160], status[24], failure[160];
	char experiment[24], group[32], profile[32], topology[16];
	char dut[96];		       /* dut.build_label, else dut.spec, else dut.backend, else label */
	char variant[32], git_rev[48]; /* dut.build.variant, dut.build.git_rev */
	char build_label[64];	       /* dut.build_label ("" for none) */
	char profile_key[96];	       /* "udp/1500B", "udp/64B/253flows", "imix" */
	int repeat, has_meta, has_tgen, has_rt;
	double frame_size, flows, link_bps;
	double ndr_pps, pdr_pps; /* NaN when tgen.json lacks them */
	double rx_pps;		 /* mode "run": the trial's received rate, else NaN */
	/* ndr.limited_by / pdr.limited_by is "generator" (missing: old JSON, the DUT); mode
	 * "run": trial.generator_limited. The rate is then a lower bound of the DUT's. */
	int ndr_gen_bound, pdr_gen_bound, rx_gen_bound;
	/* meta.json's calibration.ndr_path_bound (fwdlab calibrate): the NDR is within the
	 * lab's calibrated path ceiling, so it too is only a lower bound of the DUT's; it then
	 * counts as bound (ndr_gen_bound) everywhere a bound rate gets no verdict. Also set when
	 * hops.json's NDR figure is limited_by "path (...)". 0 when tgen itself found the
	 * generator short (that bound is named instead). */
	int ndr_path_bound;
	char started_at[32];
	struct rt_dump rt;
};

struct runset {
	struct run *v;
	size_t n, cap;
};

#define RUNS_LOAD_RUNTIME 1 /* also parse show_runtime.txt / .json */

/*
 * Collects the runs under each path (a run, a campaign or a results root). Returns 0,
 * or -errno with a message in err when a path is missing or a run's file is malformed.
 */
int runs_collect(char *const *paths, int npaths, int flags, struct runset *rs, char *err,
		 size_t errlen);
void runs_free(struct runset *rs);
/* Orders runs by campaign, then started_at, then name. */
void runs_sort(struct runset *rs);
/* Usable for statistics: status complete. Prints a warning for the others once. */
int run_usable(const struct run *r, int warn);

#endif
