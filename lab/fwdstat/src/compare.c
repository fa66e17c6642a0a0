/* SPDX-License-Identifier: MIT */
/* compare.c - medians, spreads, deltas and verdicts per profile, figure and group. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json.h"
#include "util.h"

const char *
fig_name(enum fig_kind k)
{
	static const char *const names[] = {"NDR (pps)", "PDR (pps)", "rx rate (pps)",
					    "clocks/packet", "vectors/call"};

	return names[k];
}

static const char *
fig_key(enum fig_kind k)
{
	static const char *const keys[] = {"ndr_pps", "pdr_pps", "rx_pps", "clocks_per_packet",
					   "vectors_per_call"};

	return keys[k];
}

/* 1: higher is faster (rates); 0: lower is faster (clocks); -1: neither (vectors/call) */
static int
fig_higher_is_better(enum fig_kind k)
{
	return FIG_IS_RATE(k) ? 1 : k == FIG_CPP ? 0 : -1;
}

static int
samples_add(struct samples *s, double v)
{
	if (isnan(v))
		return 0;
	if (vec_reserve(&s->v, &s->cap, s->n, sizeof(*s->v)) != 0)
		return -ENOMEM;
	s->v[s->n++] = v;
	return 0;
}

/* A figure with a generator-bound value in either group gets no faster/slower verdict. */
static int
fig_gen_bound(const struct cmp_fig *f, size_t a, size_t b)
{
	return f->g[a].nbound > 0 || f->g[b].nbound > 0;
}

/* The no-verdict word of such a figure: the path's when either group has a path-bound value. */
static const char *
fig_bound_verdict(const struct cmp_fig *f, size_t a, size_t b)
{
	return f->g[a].npath > 0 || f->g[b].npath > 0 ? CMP_PATH_VERDICT : CMP_GEN_VERDICT;
}

int
cmp_any_gen_bound(const struct cmp *c)
{
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < c->ngroups; g++)
			if (c->figs[i].g[g].nbound > 0)
				return 1;
	return 0;
}

static long
profile_index(struct cmp *c, const char *key)
{
	for (size_t i = 0; i < c->nprofiles; i++)
		if (strcmp(c->profiles[i], key) == 0)
			return (long)i;
	if (vec_reserve(&c->profiles, &c->pcap, c->nprofiles, sizeof(*c->profiles)) != 0)
		return -ENOMEM;
	str_copy(c->profiles[c->nprofiles], sizeof(c->profiles[0]), key);
	return (long)c->nprofiles++;
}

static struct cmp_fig *
fig_get(struct cmp *c, size_t profile, enum fig_kind kind, const char *node)
{
	struct cmp_fig *f;

	for (size_t i = 0; i < c->nfigs; i++) {
		f = &c->figs[i];
		if (f->profile == profile && f->kind == kind && strcmp(f->node, node) == 0)
			return f;
	}
	if (vec_reserve(&c->figs, &c->fcap, c->nfigs, sizeof(*c->figs)) != 0)
		return NULL;
	f = &c->figs[c->nfigs++];
	memset(f, 0, sizeof(*f));
	f->profile = profile;
	f->kind = kind;
	str_copy(f->node, sizeof(f->node), node);
	return f;
}

static int
node_wanted(const struct cmp_opts *o, const char *name)
{
	if (o->nnodes == 0)
		return 1;
	for (int i = 0; i < o->nnodes; i++)
		if (strcmp(o->nodes[i], name) == 0)
			return 1;
	return 0;
}

static int
cmp_group_index(struct cmp *c, const char *g)
{
	for (size_t i = 0; i < c->ngroups; i++)
		if (strcmp(c->groups[i], g) == 0)
			return (int)i;
	return -1;
}

static int
cmp_group_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int
cmp_collect_groups(struct cmp *c, const struct runset *rs, const struct cmp_opts *o, char *err,
		   size_t errlen)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];

		if (o->campaign != NULL && strcmp(r->campaign, o->campaign) != 0)
			continue;
		if (!run_usable(r, 0) || cmp_group_index(c, r->group) >= 0)
			continue;
		if (c->ngroups == CMP_MAX_GROUPS) {
			snprintf(err, errlen, "more than %d groups", CMP_MAX_GROUPS);
			return -E2BIG;
		}
		str_copy(c->groups[c->ngroups++], sizeof(c->groups[0]), r->group);
	}
	qsort(c->groups, c->ngroups, sizeof(c->groups[0]), cmp_group_names);
	c->base = 0;
	if (o->base != NULL) {
		int b = cmp_group_index(c, o->base);

		if (b < 0) {
			snprintf(err, errlen, "--base %s: no complete run has that group", o->base);
			return -ENOENT;
		}
		c->base = (size_t)b;
	}
	if (c->ngroups == 0) {
		snprintf(err, errlen, "no complete runs to compare");
		return -ENOENT;
	}
	return 0;
}

/* True when node i of worker thread t was already counted on an earlier worker thread. */
static int
rt_seen_before(const struct rt_dump *d, size_t t, size_t i)
{
	const char *name = d->threads[t].nodes[i].name;

	for (size_t u = 0; u < t; u++) {
		if (!rt_thread_is_worker(d, u))
			continue;
		for (size_t k = 0; k < d->threads[u].n; k++)
			if (d->threads[u].nodes[k].vectors > 0 &&
			    strcmp(d->threads[u].nodes[k].name, name) == 0)
				return 1;
	}
	return 0;
}

/* A rate figure exists only once some run has it (NDR runs, or fixed-rate runs). bound: 0 the
 * DUT's, 1 the generator's, 2 the path's. */
static int
rate_add(struct cmp *c, size_t profile, enum fig_kind kind, int g, double v, int bound)
{
	struct cmp_fig *f;

	if (isnan(v))
		return 0;
	f = fig_get(c, profile, kind, "");
	if (f == NULL)
		return -ENOMEM;
	f->g[g].nbound += bound ? 1 : 0;
	f->g[g].npath += bound == 2 ? 1 : 0;
	return samples_add(&f->g[g], v);
}

static int
cmp_add_run(struct cmp *c, const struct run *r, const struct cmp_opts *o)
{
	int g = cmp_group_index(c, r->group);
	long p = profile_index(c, r->profile_key);
	struct cmp_fig *f;

	if (p < 0)
		return (int)p;
	if (rate_add(c, (size_t)p, FIG_NDR, g, r->ndr_pps,
		     r->ndr_path_bound ? 2 : r->ndr_gen_bound) != 0 ||
	    rate_add(c, (size_t)p, FIG_PDR, g, r->pdr_pps, r->pdr_gen_bound) != 0 ||
	    rate_add(c, (size_t)p, FIG_RX, g, r->rx_pps, r->rx_gen_bound) != 0)
		return -ENOMEM;
	for (size_t t = 0; t < r->rt.n; t++) {
		const struct rt_thread *th = &r->rt.threads[t];

		if (!rt_thread_is_worker(&r->rt, t))
			continue;
		for (size_t i = 0; i < th->n; i++) {
			const struct rt_node *n = &th->nodes[i];
			struct rt_figure rf;

			if (n->vectors <= 0 || !node_wanted(o, n->name) ||
			    rt_seen_before(&r->rt, t, i))
				continue;
			rf = rt_node_figure(&r->rt, n->name, RT_WORKERS);
			f = fig_get(c, (size_t)p, FIG_CPP, n->name);
			if (f == NULL || samples_add(&f->g[g], rf.clocks_per_packet) != 0)
				return -ENOMEM;
			f = fig_get(c, (size_t)p, FIG_VPC, n->name);
			if (f == NULL || samples_add(&f->g[g], rf.vectors_per_call) != 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static int
cmp_fig_order(const void *a, const void *b)
{
	const struct cmp_fig *x = a, *y = b;
	int c;

	if (x->profile != y->profile)
		return x->profile < y->profile ? -1 : 1;
	if (FIG_IS_RATE(x->kind) != FIG_IS_RATE(y->kind))
		return FIG_IS_RATE(x->kind) ? -1 : 1;
	c = strcmp(x->node, y->node);
	return c != 0 ? c : (int)x->kind - (int)y->kind;
}

int
cmp_build(const struct runset *rs, const struct cmp_opts *o, struct cmp *c, char *err,
	  size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->min_delta = o->min_delta;
	ret = cmp_collect_groups(c, rs, o, err, errlen);
	if (ret != 0)
		return ret;
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];

		if (o->campaign != NULL && strcmp(r->campaign, o->campaign) != 0)
			continue;
		if (!run_usable(r, 1))
			continue;
		ret = cmp_add_run(c, r, o);
		if (ret != 0) {
			snprintf(err, errlen, "%s: %s", r->dir, strerror(-ret));
			return ret;
		}
		c->nruns++;
		{
			int g = cmp_group_index(c, r->group);

			if (c->group_runs[g]++ == 0)
				c->group_first[g] = r;
			else if (strcmp(c->group_first[g]->dut, r->dut) != 0)
				c->mixed_duts = 1;
		}
	}
	if (c->nfigs > 0)
		qsort(c->figs, c->nfigs, sizeof(*c->figs), cmp_fig_order);
	return 0;
}

void
cmp_free(struct cmp *c)
{
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < CMP_MAX_GROUPS; g++)
			free(c->figs[i].g[g].v);
	free(c->figs);
	free(c->profiles);
	memset(c, 0, sizeof(*c));
}

/* Rates keep the unit of the median (M or k) across a row's median and range. */
static void
fmt_value(char *buf, size_t len, enum fig_kind k, double v, double ref)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (FIG_IS_RATE(k) && ref >= 1e6)
		snprintf(buf, len, "%.3f M", v / 1e6);
	else if (FIG_IS_RATE(k) && ref >= 1e3)
		snprintf(buf, len, "%.1f k", v / 1e3);
	else if (FIG_IS_RATE(k))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static void
fmt_range(char *buf, size_t len, enum fig_kind k, const struct summary *s)
{
	char lo[32], hi[32];

	if (s->n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_value(lo, sizeof(lo), k, s->min, s->median);
	fmt_value(hi, sizeof(hi), k, s->max, s->median);
	snprintf(buf, len, "%s..%s (%.1f %%)", lo, hi, s->rel_spread * 100);
}

int
cmp_table(const struct cmp *c, int nodes, struct table *t)
{
	size_t col = nodes ? 3 : 2, nother = c->ngroups - 1;
	size_t ncols = col + 2 * c->ngroups + 2 * nother;

	if (table_init(t, ncols) != 0)
		return -ENOMEM;
	table_head(t, 0, 'l', "profile");
	if (nodes)
		table_head(t, 1, 'l', "node");
	table_head(t, col - 1, 'l', "figure");
	for (size_t g = 0, k = col; g < c->ngroups; g++, k += 2) {
		table_head(t, k, 'r', "%s median", c->groups[g]);
		table_head(t, k + 1, 'r', "%s min..max (spread)", c->groups[g]);
	}
	for (size_t g = 0, k = col + 2 * c->ngroups; g < c->ngroups; g++) {
		if (g == c->base)
			continue;
		table_head(t, k++, 'r', "%s vs %s", c->groups[g], c->groups[c->base]);
		table_head(t, k++, 'l', "%s verdict", c->groups[g]);
	}
	for (size_t i = 0; i < c->nfigs; i++) {
		const struct cmp_fig *f = &c->figs[i];
		struct summary s[CMP_MAX_GROUPS];
		char buf[96];
		long r;

		if (nodes != (f->kind == FIG_CPP || f->kind == FIG_VPC))
			continue;
		r = table_row(t);
		if (r < 0)
			return (int)r;
		table_set(t, (size_t)r, 0, "%s", c->profiles[f->profile]);
		if (nodes)
			table_set(t, (size_t)r, 1, "%s", f->node);
		table_set(t, (size_t)r, col - 1, "%s", fig_name(f->kind));
		for (size_t g = 0, k = col; g < c->ngroups; g++, k += 2) {
			s[g] = stats_summarize(f->g[g].v, f->g[g].n);
			fmt_value(buf, sizeof(buf), f->kind, s[g].median, s[g].median);
			if (f->g[g].nbound > 0)
				table_set(t, (size_t)r, k, ">=%s*", buf);
			else
				table_set(t, (size_t)r, k, "%s", buf);
			fmt_range(buf, sizeof(buf), f->kind, &s[g]);
			table_set(t, (size_t)r, k + 1, "%s", buf);
		}
		for (size_t g = 0, k = col + 2 * c->ngroups; g < c->ngroups; g++) {
			enum verdict v;

			if (g == c->base)
				continue;
			v = stats_verdict(&s[c->base], &s[g], c->min_delta);
			fmt_pct(buf, sizeof(buf), stats_delta(s[c->base].median, s[g].median), 1);
			table_set(t, (size_t)r, k++, "%s", buf);
			table_set(t, (size_t)r, k++, "%s",
				  fig_gen_bound(f, c->base, g)
					  ? fig_bound_verdict(f, c->base, g)
					  : verdict_word(v, fig_higher_is_better(f->kind)));
		}
	}
	return 0;
}

double
cmp_geomean(const struct cmp *c, size_t group, enum fig_kind kind, size_t *nprof)
{
	double *ratios = calloc(c->nprofiles + 1, sizeof(*ratios)), gm;
	size_t n = 0;

	if (ratios == NULL)
		return NAN;
	for (size_t i = 0; i < c->nfigs; i++) {
		const struct cmp_fig *f = &c->figs[i];
		double b, x;

		if (f->kind != kind || fig_gen_bound(f, c->base, group))
			continue;
		b = stats_median(f->g[c->base].v, f->g[c->base].n);
		x = stats_median(f->g[group].v, f->g[group].n);
		if (b > 0 && x > 0)
			ratios[n++] = x / b;
	}
	gm = stats_geomean(ratios, n);
	free(ratios);
	if (nprof != NULL)
		*nprof = n;
	return gm;
}

static void
cmp_print_geomeans(const struct cmp *c, FILE *f, int html)
{
	static const char *const short_names[] = {"NDR", "PDR", "rx rate"};

	for (size_t g = 0; g < c->ngroups; g++) {
		for (enum fig_kind k = FIG_NDR; k <= FIG_RX; k++) {
			size_t n;
			double gm;
			char buf[32];

			if (g == c->base)
				continue;
			gm = cmp_geomean(c, g, k, &n);
			if (n == 0)
				continue;
			fmt_pct(buf, sizeof(buf), gm - 1, 1);
			fprintf(f,
				"%sGeometric mean of the %s change, %s vs %s, over %zu "
				"profile%s: %s (ratio %.4f)%s\n",
				html ? "<li>" : "- ", short_names[k], c->groups[g],
				c->groups[c->base], n, n == 1 ? "" : "s", buf, gm,
				html ? "</li>" : "");
		}
	}
}

void
cmp_print_groups(const struct cmp *c, FILE *f, int html)
{
	fputs(html ? "<ul>\n" : "", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct run *r = c->group_first[g];

		if (r == NULL)
			continue;
		fprintf(f, "%sgroup %s%s: %zu run%s, DUT %s%s%s%s%s%s\n", html ? "<li>" : "- ",
			c->groups[g], g == c->base ? " (base)" : "", c->group_runs[g],
			c->group_runs[g] == 1 ? "" : "s", r->dut, r->variant[0] ? ", variant " : "",
			r->variant, r->git_rev[0] ? ", git " : "", r->git_rev, html ? "</li>" : "");
	}
	fputs(html ? "</ul>\n" : "", f);
}

void
cmp_print_md(const struct cmp *c, FILE *f)
{
	struct table t;

	cmp_print_groups(c, f, 0);
	fprintf(f, "\n## Rates\n\n");
	if (cmp_table(c, 0, &t) == 0)
		table_md(&t, f);
	table_free(&t);
	if (cmp_any_gen_bound(c))
		fprintf(f,
			"\n%s: the DUT forwards at least this much; no faster/slower verdict "
			"and no geometric mean from such a figure. For one, the DUT must be "
			"the bound: a higher --max-rate, a generator with more cores or "
			"TRex, a faster link type (`fwdlab calibrate` shows the path's "
			"ceiling).\n",
			CMP_GEN_FOOTNOTE);
	fprintf(f, "\n");
	cmp_print_geomeans(c, f, 0);
	fprintf(f, "\n## Nodes (worker threads)\n\n");
	if (cmp_table(c, 1, &t) == 0)
		table_md(&t, f);
	table_free(&t);
	fprintf(f,
		"\n%zu complete runs. Verdict: a change counts when both groups have 2+ runs, "
		"their min..max ranges do not overlap and |delta| exceeds both relative spreads "
		"and %.1f %%.\n",
		c->nruns, c->min_delta * 100);
}

void
cmp_print_summary_html(const struct cmp *c, FILE *f)
{
	fputs("<ul>\n", f);
	cmp_print_geomeans(c, f, 1);
	fputs("</ul>\n", f);
}

static void
put_summary_json(FILE *f, const struct samples *s)
{
	struct summary sm = stats_summarize(s->v, s->n);

	fputc('{', f);
	stats_summary_put_json(f, &sm, "median");
	fputs(", \"rel_spread\": ", f);
	json_put_num(f, sm.rel_spread);
	fprintf(f, ", \"generator_bound\": %s", s->nbound > s->npath ? "true" : "false");
	fprintf(f, ", \"path_bound\": %s", s->npath > 0 ? "true" : "false");
	fputs(", \"values\": [", f);
	for (size_t i = 0; i < s->n; i++) {
		fputs(i ? ", " : "", f);
		json_put_num(f, s->v[i]);
	}
	fputs("]}", f);
}

static void
put_fig_json(const struct cmp *c, const struct cmp_fig *fg, FILE *f)
{
	struct summary base = stats_summarize(fg->g[c->base].v, fg->g[c->base].n);

	fputs("    {\"profile\": ", f);
	json_put_str(f, c->profiles[fg->profile]);
	fprintf(f, ", \"figure\": \"%s\", \"node\": ", fig_key(fg->kind));
	if (fg->node[0] != '\0')
		json_put_str(f, fg->node);
	else
		fputs("null", f);
	fputs(",\n     \"groups\": {", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		fputs(g ? ", " : "", f);
		json_put_str(f, c->groups[g]);
		fputs(": ", f);
		put_summary_json(f, &fg->g[g]);
	}
	fputs("},\n     \"vs_base\": {", f);
	for (size_t g = 0, first = 1; g < c->ngroups; g++) {
		struct summary x;

		if (g == c->base)
			continue;
		x = stats_summarize(fg->g[g].v, fg->g[g].n);
		fputs(first ? "" : ", ", f);
		first = 0;
		json_put_str(f, c->groups[g]);
		fputs(": {\"delta\": ", f);
		json_put_num(f, stats_delta(base.median, x.median));
		fprintf(f, ", \"verdict\": \"%s\"}",
			fig_gen_bound(fg, c->base, g)
				? fig_bound_verdict(fg, c->base, g)
				: verdict_word(stats_verdict(&base, &x, c->min_delta),
					       fig_higher_is_better(fg->kind)));
	}
	fputs("}}", f);
}

void
cmp_print_json(const struct cmp *c, FILE *f)
{
	fputs("{\"base\": ", f);
	json_put_str(f, c->groups[c->base]);
	fputs(", \"groups\": [", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		fputs(g ? ", " : "", f);
		json_put_str(f, c->groups[g]);
	}
	fputs("], \"group_info\": {", f);
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct run *r = c->group_first[g];

		fputs(g ? ", " : "", f);
		json_put_str(f, c->groups[g]);
		fprintf(f, ": {\"runs\": %zu, \"dut\": ", c->group_runs[g]);
		json_put_str(f, r != NULL ? r->dut : "");
		fputs(", \"variant\": ", f);
		json_put_str(f, r != NULL ? r->variant : "");
		fputs(", \"git_rev\": ", f);
		json_put_str(f, r != NULL ? r->git_rev : "");
		fputs("}", f);
	}
	fprintf(f, "}, \"runs\": %zu, \"min_delta\": ", c->nruns);
	json_put_num(f, c->min_delta);
	fputs(",\n  \"figures\": [\n", f);
	for (size_t i = 0; i < c->nfigs; i++) {
		put_fig_json(c, &c->figs[i], f);
		fputs(i + 1 < c->nfigs ? ",\n" : "\n", f);
	}
	fputs("  ],\n  \"geomean\": {", f);
	for (size_t g = 0, first = 1; g < c->ngroups; g++) {
		if (g == c->base)
			continue;
		fputs(first ? "" : ", ", f);
		first = 0;
		json_put_str(f, c->groups[g]);
		fputs(": {\"ndr_ratio\": ", f);
		json_put_num(f, cmp_geomean(c, g, FIG_NDR, NULL));
		fputs(", \"pdr_ratio\": ", f);
		json_put_num(f, cmp_geomean(c, g, FIG_PDR, NULL));
		fputs(", \"rx_ratio\": ", f);
		json_put_num(f, cmp_geomean(c, g, FIG_RX, NULL));
		fputs("}", f);
	}
	fputs("}}\n", f);
}
