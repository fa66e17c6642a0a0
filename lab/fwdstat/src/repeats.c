/* SPDX-License-Identifier: MIT */
/*
 * repeats.c - the repeats of each group on a campaign's page, as CSIT's release reports
 * show them: box-and-whisker plots (the box from the first to the third quartile with the
 * median inside, whiskers to the furthest value within 1.5 times the box's height, Tukey's
 * rule; every repeat drawn as a point over it) and a table of mean ± standard deviation per
 * group with the relative change of the mean against the base group and its stdev.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "stats.h"
#include "util.h"

/* The figures of one profile a box plot shows: rates, or the nodes' clocks/packet. */
static int
box_wanted(const struct cmp_fig *f, size_t prof, int nodes)
{
	if (f->profile != prof)
		return 0;
	return nodes ? f->kind == FIG_CPP : FIG_IS_RATE(f->kind);
}

/* True when some group of some wanted figure has two values or more. */
static int
box_has_repeats(const struct cmp *c, size_t prof, int nodes)
{
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < c->ngroups && box_wanted(&c->figs[i], prof, nodes); g++)
			if (c->figs[i].g[g].n >= 2)
				return 1;
	return 0;
}

/* The label of one box: "NDR A" or "ip4-lookup A". */
static void
box_label(char *buf, size_t len, const struct cmp *c, const struct cmp_fig *f, size_t g)
{
	snprintf(buf, len, "%s %s", f->kind == FIG_CPP ? f->node : fig_name(f->kind),
		 c->groups[g]);
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile p of n sorted values by linear interpolation between order statistics
 * (Hyndman and Fan's type 7, R's and numpy's default). */
static double
quantile(const double *v, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)floor(h);

	return i + 1 < n ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* One box: its x, the quartiles, the whiskers (the furthest values within 1.5 IQR of the
 * box, Tukey's rule) and the median; the values beyond the whiskers go to outliers. */
struct box {
	double q1, median, q3, lo, hi;
};

static struct box
box_of(double *v, size_t n)
{
	struct box b;
	double fence_lo, fence_hi;

	qsort(v, n, sizeof(*v), cmp_dbl);
	b.q1 = quantile(v, n, 0.25);
	b.median = quantile(v, n, 0.5);
	b.q3 = quantile(v, n, 0.75);
	fence_lo = b.q1 - 1.5 * (b.q3 - b.q1);
	fence_hi = b.q3 + 1.5 * (b.q3 - b.q1);
	b.lo = b.median;
	b.hi = b.median;
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= fence_lo && v[i] < b.lo)
			b.lo = v[i];
		if (v[i] <= fence_hi && v[i] > b.hi)
			b.hi = v[i];
	}
	if (b.q1 < b.lo)
		b.lo = b.q1;
	if (b.q3 > b.hi)
		b.hi = b.q3;
	return b;
}

/*
 * The .dat file: block 0, one row per box (x q1 whisker_lo whisker_hi q3 median n,
 * then its label); block 1, every repeat as `x value` (drawn as points over the box).
 */
static int
box_data(const char *path, const struct cmp *c, size_t prof, int nodes, size_t *nboxes)
{
	char label[160];
	double *tmp;
	size_t x = 0;
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	*nboxes = 0;
	fputs("# x q1 whisker_lo whisker_hi q3 median n label\n", f);
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < c->ngroups && box_wanted(&c->figs[i], prof, nodes); g++) {
			const struct samples *s = &c->figs[i].g[g];
			size_t n = 0;
			struct box b;

			x++;
			tmp = malloc((s->n + 1) * sizeof(*tmp));
			if (tmp == NULL) {
				fclose(f);
				return -ENOMEM;
			}
			for (size_t k = 0; k < s->n; k++)
				if (!isnan(s->v[k]))
					tmp[n++] = s->v[k];
			box_label(label, sizeof(label), c, &c->figs[i], g);
			if (n > 0) {
				b = box_of(tmp, n);
				fprintf(f, "%zu %.6f %.6f %.6f %.6f %.6f %zu \"%s\"\n", x, b.q1, b.lo,
					b.hi, b.q3, b.median, n, label);
			}
			free(tmp);
		}
	*nboxes = x;
	fputs("\n\n# x value: every repeat\n", f);
	x = 0;
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < c->ngroups && box_wanted(&c->figs[i], prof, nodes); g++) {
			const struct samples *s = &c->figs[i].g[g];

			x++;
			for (size_t k = 0; k < s->n; k++)
				if (!isnan(s->v[k]))
					fprintf(f, "%zu %.6f %zu\n", x, s->v[k], g + 1);
		}
	return fclose(f) == 0 ? 0 : -EIO;
}

static int
box_script(struct campaign_out *co, const struct cmp *c, size_t prof, int nodes,
	   const char *name, size_t nboxes)
{
	char title[200], label[160], text[200], *body = NULL;
	size_t size = 0, k = 0;
	struct plot *p;
	FILE *m;

	snprintf(title, sizeof(title),
		 "%s, %s: repeats per group (box: quartiles, line: median, whiskers: 1.5 IQR)",
		 nodes ? "clocks/packet per node" : "rates", c->profiles[prof]);
	p = plot_add(co, name, title);
	if (p == NULL)
		return 0;
	m = open_memstream(&body, &size);
	if (m == NULL)
		return -ENOMEM;
	/* reset before and after: gnuplot settings (ranges, tics) outlive a plot in one script */
	fprintf(m,
		"reset\nset title '%s'\nset ylabel '%s'\nset boxwidth 0.5\n"
		"set style fill solid 0.3 border -1\nset xrange [0.3:%zu.7]\nset yrange [0:*]\n"
		"set grid ytics\nset xtics rotate by -35 nomirror\nunset key\nset xtics (",
		gp_text(text, sizeof(text), title), nodes ? "clocks/packet" : "pps", nboxes);
	for (size_t i = 0; i < c->nfigs; i++)
		for (size_t g = 0; g < c->ngroups && box_wanted(&c->figs[i], prof, nodes); g++) {
			box_label(label, sizeof(label), c, &c->figs[i], g);
			fprintf(m, "%s'%s' %zu", k ? ", " : "", gp_text(text, sizeof(text), label),
				k + 1);
			k++;
		}
	fputs(")\nplot ", m);
	/* box and whiskers, the median as a flat candle, the repeats as points coloured by
	 * group (gnuplot's own boxplot style draws no box below four values) */
	gp_str(m, co->dir, name, ".dat");
	fputs(" index 0 using 1:2:3:4:5 with candlesticks whiskerbars 0.5 lc rgb '#4477aa', ",
	      m);
	gp_str(m, co->dir, name, ".dat");
	fputs(" index 0 using 1:6:6:6:6 with candlesticks lw 2 lc rgb '#000000', ", m);
	gp_str(m, co->dir, name, ".dat");
	fputs(" index 1 using 1:2:3 with points pt 7 ps 0.7 lc variable\nreset", m);
	fclose(m);
	gp_terminals(co->gp, co, p, body);
	free(body);
	return 0;
}

int
plot_boxes(struct campaign_out *co, const struct cmp *c, size_t prof)
{
	char safe[160], name[200], path[4400];

	safe_name(safe, sizeof(safe), c->profiles[prof]);
	for (int nodes = 0; nodes <= 1; nodes++) {
		size_t nboxes = 0;
		int ret;

		if (!box_has_repeats(c, prof, nodes))
			continue;
		snprintf(name, sizeof(name), "box-%s-%s", nodes ? "clocks" : "rates", safe);
		snprintf(path, sizeof(path), "%s/%s.dat", co->dir, name);
		ret = box_data(path, c, prof, nodes, &nboxes);
		if (ret == 0 && nboxes > 0)
			ret = box_script(co, c, prof, nodes, name, nboxes);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* "1.234 M", "45.6 k", "812" for rates; "12.34" for clocks. */
static void
fmt_fig(char *buf, size_t len, enum fig_kind k, double v, double ref)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (FIG_IS_RATE(k) && ref >= 1e6)
		snprintf(buf, len, "%.3f M", v / 1e6);
	else if (FIG_IS_RATE(k) && ref >= 1e3)
		snprintf(buf, len, "%.2f k", v / 1e3);
	else if (FIG_IS_RATE(k))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static int
fig_has_repeats(const struct cmp *c, const struct cmp_fig *f)
{
	if (f->kind == FIG_VPC)
		return 0;
	for (size_t g = 0; g < c->ngroups; g++)
		if (f->g[g].n >= 2)
			return 1;
	return 0;
}

static void
repeats_row(struct table *t, size_t r, const struct cmp *c, const struct cmp_fig *f, size_t g,
	    const struct moments *base)
{
	struct moments m = stats_moments(f->g[g].v, f->g[g].n);
	char mean[32], sd[32], ch[32], chsd[32];
	double change, change_sd;

	table_set(t, r, 0, "%s", c->profiles[f->profile]);
	table_set(t, r, 1, "%s", f->kind == FIG_CPP ? f->node : "");
	table_set(t, r, 2, "%s", fig_name(f->kind));
	table_set(t, r, 3, "%s", c->groups[g]);
	table_set(t, r, 4, "%zu", m.n);
	fmt_fig(mean, sizeof(mean), f->kind, m.mean, m.mean);
	fmt_fig(sd, sizeof(sd), f->kind, m.stdev, m.mean);
	table_set(t, r, 5, "%s%s ± %s%s", f->g[g].nbound ? ">=" : "", mean, sd,
		  f->g[g].nbound ? "*" : "");
	if (m.n > 0 && m.mean != 0)
		table_set(t, r, 6, "%.1f %%", 100 * m.stdev / fabs(m.mean));
	else
		table_set(t, r, 6, "-");
	if (g == c->base) {
		table_set(t, r, 7, "base");
		table_set(t, r, 8, "%s", "");
		return;
	}
	change = stats_rel_change(base, &m, &change_sd);
	fmt_pct(ch, sizeof(ch), change, 1);
	fmt_pct(chsd, sizeof(chsd), change_sd, 0);
	table_set(t, r, 7, "%s", ch);
	table_set(t, r, 8, "%s", chsd);
}

int
repeats_table(const struct cmp *c, struct table *t)
{
	static const char *const head[] = {
		"profile", "node", "figure", "group", "runs", "mean ± stdev", "CV",
		"change of mean vs base", "stdev of change"};

	if (table_init(t, 9) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < 9; i++)
		table_head(t, i, i >= 4 ? 'r' : 'l', "%s", head[i]);
	for (size_t i = 0; i < c->nfigs; i++) {
		const struct cmp_fig *f = &c->figs[i];
		struct moments base;

		if (!fig_has_repeats(c, f))
			continue;
		base = stats_moments(f->g[c->base].v, f->g[c->base].n);
		for (size_t g = 0; g < c->ngroups; g++) {
			long r = table_row(t);

			if (r < 0)
				return (int)r;
			repeats_row(t, (size_t)r, c, f, g, &base);
		}
	}
	return 0;
}

void
repeats_note(FILE *md, FILE *html, const struct cmp *c)
{
	static const char note[] =
		"Mean and sample standard deviation (n - 1) of each group's repeats; CV is "
		"stdev / mean. The change is (mean - mean of base) / mean of base, its stdev "
		"(x/b) sqrt((sx/x)^2 + (sb/b)^2) by error propagation, as in CSIT's comparison "
		"tables. The verdicts above use medians and ranges (\"Verdict rule\"); fwdlab "
		"trend tests changes between builds.";

	fprintf(md, "Base group: %s. %s\n\n", c->groups[c->base], note);
	fprintf(html, "<p class=\"note\">Base group: ");
	html_put(html, c->groups[c->base]);
	fprintf(html, ". %s</p>\n", note);
}
