/* SPDX-License-Identifier: MIT */
/*
 * trend.c - the runs of each test (CSIT's test_name_long) grouped by the DUT build that ran
 * them (git revision, and build label when set), the builds in the order of their first
 * run. Walking the builds in that order, each build's runs are compared with all runs of
 * the builds since the last change (the current group, as CSIT's trending groups results)
 * by a two-sided Mann-Whitney U test; p < alpha marks a change (a regression or a
 * progression by the metric's direction) and the build starts a new group. README "trend".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "json.h"
#include "stats.h"
#include "table.h"
#include "trend.h"
#include "util.h"

struct tbuild {
	char key[128], git_rev[48], label[64], first[32];
	struct samples_ {
		double *v;
		size_t n, cap;
	} s;
	size_t nbound;	/* values that are generator-bound lower bounds */
	size_t group;	/* index of the first build of its group */
	double p, u, change;
	const char *verdict;
};

struct ttest {
	char name[160];
	struct tbuild *b;
	size_t n, cap;
};

struct trend {
	struct ttest *t;
	size_t n, cap;
};

static int
push(double **v, size_t *n, size_t *cap, double x)
{
	if (vec_reserve(v, cap, *n, sizeof(**v)) != 0)
		return -ENOMEM;
	(*v)[(*n)++] = x;
	return 0;
}

/* The run's figure: the node's clocks/packet over the workers, else NDR, else rx rate. */
static double
run_metric(const struct run *r, const struct trend_opts *o, int *bound)
{
	*bound = 0;
	if (o->node != NULL) {
		if (!r->has_rt)
			return NAN;
		return rt_node_figure(&r->rt, o->node, RT_WORKERS).clocks_per_packet;
	}
	if (!isnan(r->ndr_pps)) {
		*bound = r->ndr_gen_bound;
		return r->ndr_pps;
	}
	*bound = r->rx_gen_bound;
	return r->rx_pps;
}

static struct ttest *
test_get(struct trend *tr, const char *name)
{
	for (size_t i = 0; i < tr->n; i++)
		if (strcmp(tr->t[i].name, name) == 0)
			return &tr->t[i];
	if (vec_reserve(&tr->t, &tr->cap, tr->n, sizeof(*tr->t)) != 0)
		return NULL;
	memset(&tr->t[tr->n], 0, sizeof(tr->t[0]));
	str_copy(tr->t[tr->n].name, sizeof(tr->t[0].name), name);
	return &tr->t[tr->n++];
}

static struct tbuild *
build_get(struct ttest *t, const struct run *r)
{
	char key[128];

	if (r->git_rev[0] != '\0')
		snprintf(key, sizeof(key), "%s%s%s%s", r->git_rev, r->build_label[0] ? " (" : "",
			 r->build_label, r->build_label[0] ? ")" : "");
	else
		snprintf(key, sizeof(key), "%s", r->dut);
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->b[i].key, key) == 0)
			return &t->b[i];
	if (vec_reserve(&t->b, &t->cap, t->n, sizeof(*t->b)) != 0)
		return NULL;
	memset(&t->b[t->n], 0, sizeof(t->b[0]));
	str_copy(t->b[t->n].key, sizeof(t->b[0].key), key);
	str_copy(t->b[t->n].git_rev, sizeof(t->b[0].git_rev), r->git_rev);
	str_copy(t->b[t->n].label, sizeof(t->b[0].label), r->build_label);
	str_copy(t->b[t->n].first, sizeof(t->b[0].first), r->started_at);
	return &t->b[t->n++];
}

static int
trend_collect(const struct runset *rs, const struct trend_opts *o, struct trend *tr)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];
		struct csit_names names;
		struct ttest *t;
		struct tbuild *b;
		double v;
		int bound;

		if (!run_usable(r, 1) || export_names(r, &names) != 0)
			continue;
		v = run_metric(r, o, &bound);
		if (isnan(v))
			continue;
		t = test_get(tr, names.test_name_long);
		b = t != NULL ? build_get(t, r) : NULL;
		if (b == NULL || push(&b->s.v, &b->s.n, &b->s.cap, v) != 0)
			return -ENOMEM;
		b->nbound += bound != 0;
		if (strcmp(r->started_at, b->first) < 0)
			str_copy(b->first, sizeof(b->first), r->started_at);
	}
	return 0;
}

static int
cmp_builds(const void *a, const void *b)
{
	const struct tbuild *x = a, *y = b;
	int c = strcmp(x->first, y->first);

	return c != 0 ? c : strcmp(x->key, y->key);
}

/* The smallest two-sided p-value n1 and n2 values can give: 2 / C(n1 + n2, n1). */
static double
min_p(size_t n1, size_t n2)
{
	double c = 1;

	for (size_t k = 1; k <= n1; k++)
		c = c * (double)(n2 + k) / (double)k;
	return fmin(1, 2 / c);
}

/* Walks the builds of a test in order and marks the changes (the rule in the header). */
static int
trend_walk(struct ttest *t, const struct trend_opts *o)
{
	int higher_is_better = o->node == NULL;
	size_t g = 0;

	qsort(t->b, t->n, sizeof(*t->b), cmp_builds);
	for (size_t i = 0; i < t->n; i++) {
		struct tbuild *b = &t->b[i];
		double *pool = NULL, med_pool, med_b;
		size_t np = 0, cap = 0, bound = 0;

		b->p = b->u = b->change = NAN;
		b->group = g;
		if (i == 0) {
			b->verdict = "first";
			continue;
		}
		for (size_t k = g; k < i; k++) {
			for (size_t j = 0; j < t->b[k].s.n; j++)
				if (push(&pool, &np, &cap, t->b[k].s.v[j]) != 0) {
					free(pool);
					return -ENOMEM;
				}
			bound += t->b[k].nbound;
		}
		med_pool = stats_median(pool, np);
		med_b = stats_median(b->s.v, b->s.n);
		b->change = stats_delta(med_pool, med_b);
		b->p = stats_mann_whitney(b->s.v, b->s.n, pool, np, &b->u);
		free(pool);
		if (bound > 0 || b->nbound > 0) {
			b->verdict = "no verdict: generator-bound";
		} else if (min_p(b->s.n, np) >= o->alpha) {
			b->verdict = "too few runs for alpha";
		} else if (!(b->p < o->alpha)) {
			b->verdict = "no change";
		} else {
			b->verdict = (med_b > med_pool) == higher_is_better ? "progression"
									      : "regression";
			b->group = g = i;
		}
	}
	return 0;
}

static void
fmt_metric(char *buf, size_t len, const struct trend_opts *o, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (o->node != NULL)
		snprintf(buf, len, "%.2f", v);
	else
		fmt_pps(buf, len, v);
}

static int
trend_table(const struct ttest *t, const struct trend_opts *o, struct table *tb)
{
	static const char *const head[] = {"build", "first run", "runs", "median",
					   "mean ± stdev", "group", "median vs group",
					   "p (Mann-Whitney)", "verdict"};

	if (table_init(tb, 9) != 0)
		return -ENOMEM;
	for (size_t c = 0; c < 9; c++)
		table_head(tb, c, c >= 2 && c <= 7 ? 'r' : 'l', "%s", head[c]);
	for (size_t i = 0; i < t->n; i++) {
		const struct tbuild *b = &t->b[i];
		struct moments m = stats_moments(b->s.v, b->s.n);
		char med[32], mean[32], sd[32], ch[32];
		long r = table_row(tb);

		if (r < 0)
			return (int)r;
		fmt_metric(med, sizeof(med), o, stats_median(b->s.v, b->s.n));
		fmt_metric(mean, sizeof(mean), o, m.mean);
		fmt_metric(sd, sizeof(sd), o, m.stdev);
		table_set(tb, (size_t)r, 0, "%s", b->key);
		table_set(tb, (size_t)r, 1, "%s", b->first);
		table_set(tb, (size_t)r, 2, "%zu", b->s.n);
		table_set(tb, (size_t)r, 3, "%s%s%s", b->nbound ? ">=" : "", med, b->nbound ? "*" : "");
		table_set(tb, (size_t)r, 4, "%s ± %s", mean, sd);
		table_set(tb, (size_t)r, 5, "%zu", b->group + 1);
		table_set(tb, (size_t)r, 6, "%s", fmt_pct(ch, sizeof(ch), b->change, 1));
		if (isnan(b->p))
			table_set(tb, (size_t)r, 7, "-");
		else
			table_set(tb, (size_t)r, 7, "%.2g", b->p);
		table_set(tb, (size_t)r, 8, "%s", b->verdict);
	}
	return 0;
}

static void
trend_json(const struct trend *tr, const struct trend_opts *o, FILE *f)
{
	fputs("{\"metric\": ", f);
	json_put_str(f, o->node != NULL ? "clocks_per_packet" : "rate_pps");
	fputs(", \"node\": ", f);
	if (o->node != NULL)
		json_put_str(f, o->node);
	else
		fputs("null", f);
	fputs(", \"alpha\": ", f);
	json_put_num(f, o->alpha);
	fputs(", \"tests\": [", f);
	for (size_t i = 0; i < tr->n; i++) {
		const struct ttest *t = &tr->t[i];

		fputs(i ? ",\n  {\"test\": " : "\n  {\"test\": ", f);
		json_put_str(f, t->name);
		fputs(", \"builds\": [", f);
		for (size_t k = 0; k < t->n; k++) {
			const struct tbuild *b = &t->b[k];
			struct moments m = stats_moments(b->s.v, b->s.n);

			fputs(k ? ",\n    {\"build\": " : "\n    {\"build\": ", f);
			json_put_str(f, b->key);
			fputs(", \"git_rev\": ", f);
			json_put_str(f, b->git_rev);
			fputs(", \"label\": ", f);
			json_put_str(f, b->label);
			fputs(", \"first_run\": ", f);
			json_put_str(f, b->first);
			fprintf(f, ", \"runs\": %zu, \"values\": [", b->s.n);
			for (size_t j = 0; j < b->s.n; j++) {
				fputs(j ? ", " : "", f);
				json_put_num(f, b->s.v[j]);
			}
			fputs("], \"median\": ", f);
			json_put_num(f, stats_median(b->s.v, b->s.n));
			fputs(", \"mean\": ", f);
			json_put_num(f, m.mean);
			fputs(", \"stdev\": ", f);
			json_put_num(f, m.stdev);
			fprintf(f, ", \"group\": %zu, \"generator_bound\": %s, \"change\": ",
				b->group + 1, b->nbound ? "true" : "false");
			json_put_num(f, b->change);
			fputs(", \"p\": ", f);
			json_put_num(f, b->p);
			fputs(", \"verdict\": ", f);
			json_put_str(f, b->verdict);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("\n]}\n", f);
}

static void
trend_md(const struct trend *tr, const struct trend_opts *o, FILE *f)
{
	size_t reg = 0, prog = 0;

	if (o->node != NULL)
		fprintf(f, "Metric: %s clocks/packet over the worker threads (lower is better).\n",
			o->node);
	else
		fputs("Metric: NDR of ndr runs, rx rate of fixed-rate runs (higher is better).\n",
		      f);
	fprintf(f,
		"Rule: each build's runs against all runs of its group (the builds since the last "
		"change), Mann-Whitney U, two-sided, exact; a change when p < %g.\n",
		o->alpha);
	for (size_t i = 0; i < tr->n; i++) {
		struct table tb = {0};

		fprintf(f, "\n### %s\n\n", tr->t[i].name);
		if (trend_table(&tr->t[i], o, &tb) == 0)
			table_md(&tb, f);
		table_free(&tb);
		for (size_t k = 0; k < tr->t[i].n; k++) {
			reg += strcmp(tr->t[i].b[k].verdict, "regression") == 0;
			prog += strcmp(tr->t[i].b[k].verdict, "progression") == 0;
		}
	}
	fprintf(f, "\n%zu test(s): %zu regression(s), %zu progression(s)\n", tr->n, reg, prog);
}

int
trend_print(const struct runset *rs, const struct trend_opts *o, FILE *f)
{
	struct trend tr = {0};
	int ret = trend_collect(rs, o, &tr);

	for (size_t i = 0; i < tr.n && ret == 0; i++)
		ret = trend_walk(&tr.t[i], o);
	if (ret == 0 && tr.n == 0)
		warnx_("trend: no complete ndr or run runs%s%s", o->node ? " with node " : "",
		       o->node ? o->node : "");
	if (ret == 0 && o->json)
		trend_json(&tr, o, f);
	else if (ret == 0)
		trend_md(&tr, o, f);
	for (size_t i = 0; i < tr.n; i++) {
		for (size_t k = 0; k < tr.t[i].n; k++)
			free(tr.t[i].b[k].s.v);
		free(tr.t[i].b);
	}
	free(tr.t);
	return ret;
}
