/* SPDX-License-Identifier: MIT */
/* sweep.c - the frame-size table network engineers publish. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "stats.h"
#include "sweep.h"
#include "util.h"

double
line_rate_pps(double link_bps, double frame_size)
{
	return link_bps / ((frame_size + 20) * 8);
}

static long
sweep_index(double *arr, size_t *n, size_t max, double v)
{
	for (size_t i = 0; i < *n; i++)
		if (arr[i] == v)
			return (long)i;
	if (*n == max)
		return -E2BIG;
	arr[*n] = v;
	return (long)(*n)++;
}

static long
sweep_dut_index(struct sweep *s, const char *dut)
{
	for (size_t i = 0; i < s->nduts; i++)
		if (strcmp(s->duts[i], dut) == 0)
			return (long)i;
	if (s->nduts == SWEEP_MAX_DUTS)
		return -E2BIG;
	str_copy(s->duts[s->nduts], sizeof(s->duts[0]), dut);
	return (long)s->nduts++;
}

static int
sweep_add(struct sweep *s, const struct run *r)
{
	long d = sweep_dut_index(s, r->dut);
	long z;
	struct samples *sm;

	if (d < 0)
		return (int)d;
	z = sweep_index(s->sizes, &s->nsizes, SWEEP_MAX_SIZES, r->frame_size);
	if (z < 0)
		return (int)z;
	sm = &s->ndr[z][d];
	if (vec_reserve(&sm->v, &sm->cap, sm->n, sizeof(*sm->v)) != 0)
		return -ENOMEM;
	sm->v[sm->n++] = r->ndr_pps;
	sm->nbound += r->ndr_gen_bound ? 1 : 0;
	return 0;
}

int
sweep_any_gen_bound(const struct sweep *s)
{
	for (size_t z = 0; z < s->nsizes; z++)
		for (size_t d = 0; d < s->nduts; d++)
			if (s->ndr[z][d].nbound > 0)
				return 1;
	return 0;
}

int
sweep_build(const struct runset *rs, const char *campaign, double link_bps, struct sweep *s,
	    char *err, size_t errlen)
{
	double links[256];
	size_t nlinks = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];
		int ret;

		if (campaign != NULL && strcmp(r->campaign, campaign) != 0)
			continue;
		if (!run_usable(r, 1) || isnan(r->frame_size) || isnan(r->ndr_pps) ||
		    strcmp(r->profile, "imix") == 0)
			continue;
		ret = sweep_add(s, r);
		if (ret != 0) {
			snprintf(err, errlen, "%s: too many frame sizes or DUTs (%d, %d at most)",
				 r->dir, SWEEP_MAX_SIZES, SWEEP_MAX_DUTS);
			return ret;
		}
		if (!isnan(r->link_bps) && nlinks < 256)
			links[nlinks++] = r->link_bps;
	}
	if (s->nsizes == 0) {
		snprintf(err, errlen, "no complete run with a frame size and an NDR");
		return -ENOENT;
	}
	s->link_bps = link_bps > 0 ? link_bps : nlinks ? stats_median(links, nlinks) : 10e9;
	for (size_t i = 1; i < nlinks; i++)
		if (links[i] != links[0] && link_bps <= 0)
			warnx_("runs disagree on link_bps (%.0f vs %.0f); using the median %.0f",
			       links[0], links[i], s->link_bps);
	/* Order rows by frame size (insertion sort keeps the sample rows with their size). */
	for (size_t i = 1; i < s->nsizes; i++) {
		for (size_t j = i; j > 0 && s->sizes[j - 1] > s->sizes[j]; j--) {
			double tz = s->sizes[j];
			struct samples tmp[SWEEP_MAX_DUTS];

			s->sizes[j] = s->sizes[j - 1];
			s->sizes[j - 1] = tz;
			memcpy(tmp, s->ndr[j], sizeof(tmp));
			memcpy(s->ndr[j], s->ndr[j - 1], sizeof(tmp));
			memcpy(s->ndr[j - 1], tmp, sizeof(tmp));
		}
	}
	return 0;
}

void
sweep_free(struct sweep *s)
{
	for (size_t z = 0; z < SWEEP_MAX_SIZES; z++)
		for (size_t d = 0; d < SWEEP_MAX_DUTS; d++)
			free(s->ndr[z][d].v);
	memset(s, 0, sizeof(*s));
}

int
sweep_table(const struct sweep *s, struct table *t)
{
	if (table_init(t, 2 + 2 * s->nduts) != 0)
		return -ENOMEM;
	table_head(t, 0, 'r', "frame (B)");
	table_head(t, 1, 'r', "line rate (Mpps)");
	for (size_t d = 0; d < s->nduts; d++) {
		table_head(t, 2 + 2 * d, 'r', "%s NDR (Mpps)", s->duts[d]);
		table_head(t, 3 + 2 * d, 'r', "%s %% line", s->duts[d]);
	}
	for (size_t z = 0; z < s->nsizes; z++) {
		double line = line_rate_pps(s->link_bps, s->sizes[z]);
		long r = table_row(t);

		if (r < 0)
			return (int)r;
		table_set(t, (size_t)r, 0, "%.0f", s->sizes[z]);
		table_set(t, (size_t)r, 1, "%.3f", line / 1e6);
		for (size_t d = 0; d < s->nduts; d++) {
			const struct samples *sm = &s->ndr[z][d];
			double m = stats_median(sm->v, sm->n);

			if (sm->n == 0)
				continue;
			table_set(t, (size_t)r, 2 + 2 * d,
				  sm->n > 1 ? "%s%.3f%s (n=%zu)" : "%s%.3f%s",
				  sm->nbound ? ">=" : "", m / 1e6, sm->nbound ? "*" : "", sm->n);
			table_set(t, (size_t)r, 3 + 2 * d, "%s%.1f %%%s", sm->nbound ? ">=" : "",
				  100 * m / line, sm->nbound ? "*" : "");
		}
	}
	return 0;
}

void
sweep_print_json(const struct sweep *s, FILE *f)
{
	fputs("{\"link_bps\": ", f);
	json_put_num(f, s->link_bps);
	fputs(", \"duts\": [", f);
	for (size_t d = 0; d < s->nduts; d++) {
		fputs(d ? ", " : "", f);
		json_put_str(f, s->duts[d]);
	}
	fputs("],\n  \"rows\": [\n", f);
	for (size_t z = 0; z < s->nsizes; z++) {
		double line = line_rate_pps(s->link_bps, s->sizes[z]);

		fprintf(f, "    {\"frame_size\": %.0f, \"line_rate_pps\": ", s->sizes[z]);
		json_put_num(f, line);
		fputs(", \"duts\": {", f);
		for (size_t d = 0, first = 1; d < s->nduts; d++) {
			const struct samples *sm = &s->ndr[z][d];
			struct summary su = stats_summarize(sm->v, sm->n);

			if (sm->n == 0)
				continue;
			fputs(first ? "" : ", ", f);
			first = 0;
			json_put_str(f, s->duts[d]);
			fputs(": {", f);
			stats_summary_put_json(f, &su, "ndr_pps");
			fputs(", \"line_ratio\": ", f);
			json_put_num(f, su.median / line);
			fprintf(f, ", \"generator_bound\": %s}", sm->nbound ? "true" : "false");
		}
		fputs(z + 1 < s->nsizes ? "}},\n" : "}}\n", f);
	}
	fputs("  ]}\n", f);
}
