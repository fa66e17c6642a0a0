/* SPDX-License-Identifier: MIT */
/*
 * latency.c - latency at load (tgen ndr --latency-loads, CSIT's pdr_0..pdr_90): a table of
 * min/avg/max and tail percentiles per run, load and direction, and per profile a plot of the
 * percentile curves (latency against 1/(1 - percentile), log scale out to 99.9999 %, the
 * HdrHistogram "percentile distribution" view), from tgen.json's "latency" object.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "latency.h"
#include "plot.h"
#include "table.h"
#include "util.h"

static const char *const loads[] = {"pdr_0", "pdr_10", "pdr_50", "pdr_90"};
static const char *const dirs[] = {"forward", "reverse"};
#define NLOADS (sizeof(loads) / sizeof(loads[0]))

static struct json *
run_tgen(const struct run *r)
{
	char path[4400], err[256];

	snprintf(path, sizeof(path), "%s/tgen.json", r->dir);
	return json_parse_file(path, err, sizeof(err));
}

/* The percentile curve's value at pct (tgen's "percentiles": [[pct, us], ...]); NaN if none. */
static double
curve_at(const struct json *l, double pct)
{
	const struct json *c = json_get(l, "percentiles");

	for (const struct json *p = c != NULL ? c->child : NULL; p != NULL; p = p->next)
		if (p->child != NULL && p->child->next != NULL && fabs(p->child->num - pct) < 1e-9)
			return p->child->next->num;
	return NAN;
}

static int
usable(const struct run *r)
{
	return r->has_tgen && strcmp(r->status, "complete") == 0 &&
	       strcmp(r->experiment, "ndr") == 0;
}

int
latency_table(const struct runset *rs, const char *camp, struct table *t)
{
	static const double tail[] = {50, 99, 99.9, 99.9999};
	char b[64];

	if (table_init(t, 10) < 0)
		return -ENOMEM;
	table_head(t, 0, 'l', "run");
	table_head(t, 1, 'l', "load");
	table_head(t, 2, 'r', "rate");
	table_head(t, 3, 'l', "direction");
	table_head(t, 4, 'r', "min us");
	table_head(t, 5, 'r', "avg us");
	table_head(t, 6, 'r', "max us");
	for (size_t i = 0; i < 3; i++)
		table_head(t, 7 + i, 'r', "p%g us", tail[i + 1]);
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];
		struct json *j;

		if ((camp != NULL && strcmp(r->campaign, camp) != 0) || !usable(r))
			continue;
		j = run_tgen(r);
		for (size_t k = 0; j != NULL && k < NLOADS; k++) {
			char path[64];
			const struct json *ld;

			snprintf(path, sizeof(path), "latency.%s", loads[k]);
			ld = json_get(j, path);
			for (size_t d = 0; ld != NULL && d < 2; d++) {
				const struct json *l = json_get(ld, dirs[d]);
				long row;

				if (l == NULL || l->type != JSON_OBJECT)
					continue;
				row = table_row(t);
				if (row < 0) {
					json_free(j);
					return -ENOMEM;
				}
				table_set(t, (size_t)row, 0, "%s", r->run);
				table_set(t, (size_t)row, 1, "%s", loads[k]);
				table_set(t, (size_t)row, 2, "%s",
					  fmt_pps(b, sizeof(b), json_num(ld, "rate_pps", NAN)));
				table_set(t, (size_t)row, 3, "%s", dirs[d]);
				table_set(t, (size_t)row, 4, "%.0f", json_num(l, "min", NAN));
				table_set(t, (size_t)row, 5, "%.0f", json_num(l, "avg", NAN));
				table_set(t, (size_t)row, 6, "%.0f", json_num(l, "max", NAN));
				for (size_t p = 0; p < 3; p++)
					table_set(t, (size_t)row, 7 + p, "%.0f",
						  curve_at(l, tail[p + 1]));
			}
		}
		json_free(j);
	}
	return 0;
}

/* The last complete ndr run of profile key prof in camp that has latency, or NULL. */
static const struct run *
last_with_latency(const struct runset *rs, const char *camp, const char *prof, struct json **tj)
{
	const struct run *best = NULL;

	*tj = NULL;
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];
		struct json *j;

		if (strcmp(r->campaign, camp) != 0 || strcmp(r->profile_key, prof) != 0 ||
		    !usable(r))
			continue;
		j = run_tgen(r);
		if (j != NULL && json_get(j, "latency.pdr_0") != NULL) {
			json_free(*tj);
			*tj = j;
			best = r;
		} else {
			json_free(j);
		}
	}
	return best;
}

/* The latency curve of load k and direction d in a trial's JSON; NULL when it has none. */
static const struct json *
curve_get(const struct json *tj, size_t k, size_t d)
{
	char jp[64];
	const struct json *l;

	snprintf(jp, sizeof(jp), "latency.%s.%s", loads[k], dirs[d]);
	l = json_get(tj, jp);
	return l != NULL && l->type == JSON_OBJECT ? l : NULL;
}

static int
plot_one(struct campaign_out *co, const struct run *r, const struct json *tj)
{
	static const double pct[] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
	char name[160], path[4400], title[200], txt[140];
	size_t ncurves = 0;
	struct plot_body b;
	FILE *f;
	int ret;

	safe_name(txt, sizeof(txt), r->profile_key);
	snprintf(name, sizeof(name), "latency-%.140s", txt);
	snprintf(path, sizeof(path), "%s/%s.dat", co->dir, name);
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "# run %s: one block per load and direction; 1/(1-p) percentile latency_us\n",
		r->run);
	for (size_t k = 0; k < NLOADS; k++)
		for (size_t d = 0; d < 2; d++) {
			const struct json *l = curve_get(tj, k, d);

			if (l == NULL)
				continue;
			fprintf(f, "%s# %s %s\n", ncurves ? "\n\n" : "", loads[k], dirs[d]);
			for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
				double v = curve_at(l, pct[i]);

				if (!isnan(v))
					fprintf(f, "%.6g %g %.0f\n", 1 / (1 - pct[i] / 100), pct[i],
						v < 1 ? 1 : v);
			}
			ncurves++;
		}
	fclose(f);
	if (ncurves == 0)
		return 0;
	snprintf(title, sizeof(title),
		 "%.60s: latency percentiles at 0/10/50/90 %% of the PDR (%.80s)", r->profile_key,
		 r->run);
	ret = plot_begin(co, &b, name, title);
	if (ret <= 0)
		return ret;
	fputs("set xlabel 'percentile'\nset ylabel 'latency (us)'\n"
	      "set logscale x\nset logscale y\nset grid\nset key top left\n"
	      "set xtics ('50%%' 2, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, "
	      "'99.999%%' 100000, '99.9999%%' 1000000)\nset xrange [1.5:1500000]\nplot ",
	      b.m);
	ncurves = 0;
	for (size_t k = 0; k < NLOADS; k++)
		for (size_t d = 0; d < 2; d++) {
			const struct json *l = curve_get(tj, k, d);

			if (l == NULL)
				continue;
			fputs(ncurves ? ", " : "", b.m);
			gp_str(b.m, co->dir, name, ".dat");
			fprintf(b.m,
				" index %zu using 1:3 with linespoints lw 2 pt 7 %stitle '%s %s'",
				ncurves, d ? "dt 2 " : "", loads[k], dirs[d]);
			ncurves++;
		}
	return plot_end(co, &b);
}

int
plot_latency(struct campaign_out *co, const struct runset *rs, const char *camp)
{
	int ret = 0;

	for (size_t i = 0; i < rs->n && ret == 0; i++) {
		const struct run *r = &rs->v[i], *last;
		struct json *tj;
		size_t k;

		if (strcmp(r->campaign, camp) != 0 || !usable(r))
			continue;
		for (k = 0; k < i; k++) /* one plot per profile */
			if (strcmp(rs->v[k].campaign, camp) == 0 && usable(&rs->v[k]) &&
			    strcmp(rs->v[k].profile_key, r->profile_key) == 0)
				break;
		if (k < i)
			continue;
		last = last_with_latency(rs, camp, r->profile_key, &tj);
		if (last != NULL)
			ret = plot_one(co, last, tj);
		json_free(tj);
	}
	return ret;
}
