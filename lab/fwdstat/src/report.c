/* SPDX-License-Identifier: MIT */
/*
 * report.c - writes OUT/<campaign>/{report.md,index.html,*.svg,*.png,*.dat,plots.gp} and
 * OUT/index.html. Plots: per-node clocks/packet per group as bars with min..max error bars
 * (one plot per profile), and NDR per frame size per DUT against the line rate.
 */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "compare.h"
#include "latency.h"
#include "report.h"
#include "report_int.h"
#include "stats.h"
#include "sweep.h"
#include "table.h"
#include "util.h"

extern char **environ;

/* One bar cluster per node, one bar per group, error bars min..max. */
static int
plot_clocks(struct campaign_out *co, const struct cmp *c, size_t prof)
{
	char name[160], path[4400], title[200];
	struct plot_body b;
	FILE *f;
	size_t rows = 0;
	double ymax = 0;
	int ret;

	safe_name(name, sizeof(name), c->profiles[prof]);
	snprintf(path, sizeof(path), "clocks-%s", name);
	str_copy(name, sizeof(name), path);
	snprintf(path, sizeof(path), "%s/%s.dat", co->dir, name);
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "# node, then median min max clocks/packet per group:");
	for (size_t g = 0; g < c->ngroups; g++)
		fprintf(f, " %s", c->groups[g]);
	fputc('\n', f);
	for (size_t i = 0; i < c->nfigs; i++) {
		const struct cmp_fig *fg = &c->figs[i];

		if (fg->profile != prof || fg->kind != FIG_CPP)
			continue;
		fprintf(f, "\"%s\"", fg->node);
		for (size_t g = 0; g < c->ngroups; g++) {
			struct summary s = stats_summarize(fg->g[g].v, fg->g[g].n);

			if (s.n == 0)
				fprintf(f, " NaN NaN NaN");
			else
				fprintf(f, " %.4f %.4f %.4f", s.median, s.min, s.max);
			if (s.n > 0 && s.max > ymax)
				ymax = s.max;
		}
		fputc('\n', f);
		rows++;
	}
	fclose(f);
	if (rows == 0) {
		remove(path);
		return 0;
	}
	snprintf(title, sizeof(title), "clocks/packet per node, %s (median, bars min..max)",
		 c->profiles[prof]);
	ret = plot_begin(co, &b, name, title);
	if (ret <= 0)
		return ret;
	fprintf(b.m,
		"set ylabel 'clocks/packet'\nset yrange [0:%.4g]\n"
		"set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
		"set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
		"set xtics rotate by -35 nomirror\nset grid ytics\nset key top left\n"
		"set datafile missing 'NaN'\nplot ",
		ymax > 0 ? ymax * 1.15 : 1);
	for (size_t g = 0; g < c->ngroups; g++) {
		fputs(g ? ", " : "", b.m);
		gp_str(b.m, co->dir, name, ".dat");
		fprintf(b.m, " using %zu:%zu:%zu%s title '%s'", 2 + 3 * g, 3 + 3 * g, 4 + 3 * g,
			g == 0 ? ":xtic(1)" : "", gp_text(title, sizeof(title), c->groups[g]));
	}
	return plot_end(co, &b);
}

static int
plot_ndr(struct campaign_out *co, const struct sweep *s)
{
	char path[4400], title[200];
	struct plot_body b;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/ndr.dat", co->dir);
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "# frame_size line_rate_mpps, then NDR Mpps per DUT:");
	for (size_t d = 0; d < s->nduts; d++)
		fprintf(f, " %s", s->duts[d]);
	fputc('\n', f);
	for (size_t z = 0; z < s->nsizes; z++) {
		fprintf(f, "%.0f %.6f", s->sizes[z], line_rate_pps(s->link_bps, s->sizes[z]) / 1e6);
		for (size_t d = 0; d < s->nduts; d++) {
			const struct samples *sm = &s->ndr[z][d];

			if (sm->n == 0)
				fprintf(f, " NaN");
			else
				fprintf(f, " %.6f", stats_median(sm->v, sm->n) / 1e6);
		}
		fputc('\n', f);
	}
	fclose(f);
	snprintf(title, sizeof(title), "NDR per frame size against the %.3g Gb/s line rate",
		 s->link_bps / 1e9);
	ret = plot_begin(co, &b, "ndr", title);
	if (ret <= 0)
		return ret;
	fputs("set xlabel 'frame size (bytes)'\nset ylabel 'Mpps'\n"
	      "set logscale y\nset grid\nset key top right\nset datafile missing 'NaN'\n"
	      "plot ",
	      b.m);
	for (size_t d = 0; d < s->nduts; d++) {
		gp_str(b.m, co->dir, "ndr", ".dat");
		fprintf(b.m, " using 1:%zu with linespoints lw 2 pt 7 title '%s NDR', ", 3 + d,
			gp_text(title, sizeof(title), s->duts[d]));
	}
	gp_str(b.m, co->dir, "ndr", ".dat");
	fputs(" using 1:2 with lines dt 2 lw 2 lc rgb '#000000' title 'line rate'", b.m);
	return plot_end(co, &b);
}

static int
run_gnuplot(const char *script)
{
	char *argv[] = {"gnuplot", (char *)script, NULL};
	pid_t pid;
	int st, ret;

	ret = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
	if (ret != 0) {
		warnx_("cannot run gnuplot (install gnuplot-nox): %s", strerror(ret));
		return -ret;
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		warnx_("gnuplot failed on %s", script);
		return -EIO;
	}
	return 0;
}

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"
	"<style>\nbody{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}\n"
	"table{border-collapse:collapse;margin:1em 0;font-size:90%%}\n"
	"th,td{border:1px solid #bbb;padding:3px 8px}th{background:#eee}\n"
	".r{text-align:right;font-variant-numeric:tabular-nums}\n"
	"figure{margin:1em 0}img{max-width:100%%;border:1px solid #ddd}\n</style>\n"
	"</head>\n<body>\n";

/* Marks each plot with its rendered size once loaded, so a headless browser can check it. */
static const char html_tail[] =
	"<script>\nfor (const img of document.images) {\n"
	"  const mark = () => img.setAttribute('data-rendered', img.naturalWidth + 'x' +\n"
	"    img.naturalHeight);\n"
	"  if (img.complete && img.naturalWidth > 0) mark(); else img.onload = mark;\n"
	"  img.onerror = () => img.setAttribute('data-broken', 'yes');\n}\n</script>\n"
	"</body>\n</html>\n";

static void
write_plots(FILE *md, FILE *html, const struct campaign_out *co)
{
	for (size_t i = 0; i < co->nplots; i++) {
		const struct plot *p = &co->plots[i];

		fprintf(md, "![%s](%s.svg)\n\n", p->title, p->name);
		fprintf(html, "<figure><img src=\"%s.svg\" alt=\"", p->name);
		html_put(html, p->title);
		fprintf(html, "\" width=\"960\" height=\"540\"><figcaption>");
		html_put(html, p->title);
		fprintf(html,
			" (<a href=\"%s.png\">PNG</a>, <a href=\"%s.dat\">data</a>)"
			"</figcaption></figure>\n",
			p->name, p->name);
	}
}

void
write_table(FILE *md, FILE *html, const char *title, struct table *t)
{
	fprintf(md, "## %s\n\n", title);
	table_md(t, md);
	fputs("\n", md);
	fputs("<h2>", html);
	html_put(html, title);
	fputs("</h2>\n", html);
	table_html(t, html);
}

/* The note under a table with generator-bound cells (`>=X*`). */
static void
gen_footnote(FILE *md, FILE *html, const char *more)
{
	fprintf(md, "%s: the DUT forwards at least this much%s.\n\n", CMP_GEN_FOOTNOTE, more);
	fprintf(html, "<p class=\"note\">%s: the DUT forwards at least this much%s.</p>\n",
		CMP_GEN_FOOTNOTE, more);
}

static int
camp_gen_bound(const struct runset *rs, const char *camp)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->v[i].campaign, camp) == 0 &&
		    (rs->v[i].ndr_gen_bound || rs->v[i].pdr_gen_bound))
			return 1;
	return 0;
}

/* Every run of the campaign, complete or not, with its rates. */
static int
runs_table(const struct runset *rs, const char *camp, struct table *t)
{
	static const char *const head[] = {"run",	"status",    "group",	"profile", "dut",
					   "NDR (pps)", "PDR (pps)", "started", "failure"};
	char a[32], b[32];

	if (table_init(t, 9) != 0)
		return -ENOMEM;
	for (size_t c = 0; c < 9; c++)
		table_head(t, c, c == 5 || c == 6 ? 'r' : 'l', "%s", head[c]);
	for (size_t i = 0; i < rs->n; i++) {
		const struct run *r = &rs->v[i];
		long row;

		if (strcmp(r->campaign, camp) != 0)
			continue;
		row = table_row(t);
		if (row < 0)
			return (int)row;
		table_set(t, (size_t)row, 0, "%s", r->run);
		table_set(t, (size_t)row, 1, "%s", r->status);
		table_set(t, (size_t)row, 2, "%s", r->group);
		table_set(t, (size_t)row, 3, "%s", r->profile_key);
		table_set(t, (size_t)row, 4, "%s", r->dut);
		table_set(t, (size_t)row, 5, "%s%s%s", r->ndr_gen_bound ? ">=" : "",
			  fmt_pps(a, sizeof(a), r->ndr_pps), r->ndr_gen_bound ? "*" : "");
		table_set(t, (size_t)row, 6, "%s%s%s", r->pdr_gen_bound ? ">=" : "",
			  fmt_pps(b, sizeof(b), r->pdr_pps), r->pdr_gen_bound ? "*" : "");
		table_set(t, (size_t)row, 7, "%s", r->started_at);
		table_set(t, (size_t)row, 8, "%s", r->failure);
	}
	return 0;
}

static int
report_campaign(const struct runset *rs, const struct report_opts *o, const char *camp,
		struct campaign_out *co)
{
	struct cmp_opts cop = {camp, o->base, o->nodes, o->nnodes, o->min_delta};
	struct sweep *sw = calloc(1, sizeof(*sw));
	struct cmp c;
	struct table t = {0};
	char path[4400], err[512];
	FILE *md = NULL, *html = NULL;
	int have_cmp, have_sweep, ret = 0;

	if (sw == NULL)
		return -ENOMEM;
	have_cmp = cmp_build(rs, &cop, &c, err, sizeof(err)) == 0;
	if (have_cmp && c.mixed_duts && c.ngroups == 1) {
		/* One group over several DUTs is a sweep: per-group figures would mix them. */
		cmp_free(&c);
		have_cmp = 0;
	}
	have_sweep =
		sweep_build(rs, camp, o->link_bps, sw, err, sizeof(err)) == 0 && sw->nsizes > 1;
	snprintf(path, sizeof(path), "%s/plots.gp", co->dir);
	co->gp = fopen(path, "w");
	if (co->gp == NULL) {
		ret = -errno;
		goto out;
	}
	for (size_t p = 0; have_cmp && p < c.nprofiles && ret == 0; p++)
		ret = plot_clocks(co, &c, p);
	for (size_t p = 0; have_cmp && p < c.nprofiles && ret == 0; p++)
		ret = plot_boxes(co, &c, p);
	if (have_sweep && ret == 0)
		ret = plot_ndr(co, sw);
	if (ret == 0)
		ret = plot_latency(co, rs, camp);
	fclose(co->gp);
	co->gp = NULL;
	if (ret == 0 && co->nplots > 0)
		ret = run_gnuplot(path);
	snprintf(path, sizeof(path), "%s/report.md", co->dir);
	md = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/index.html", co->dir);
	html = fopen(path, "w");
	if (md == NULL || html == NULL) {
		ret = -errno;
		goto out;
	}
	fprintf(md, "# Campaign %s\n\n", camp);
	fprintf(html, html_head, camp);
	fputs("<h1>Campaign ", html);
	html_put(html, camp);
	fputs("</h1>\n", html);
	if (have_cmp)
		cmp_print_groups(&c, html, 1);
	if (have_cmp && cmp_table(&c, 0, &t) == 0) {
		write_table(md, html, "Rates per group", &t);
		if (cmp_any_gen_bound(&c))
			gen_footnote(md, html,
				     "; no faster/slower verdict and no geometric mean from it");
		cmp_print_summary_html(&c, html);
	}
	table_free(&t);
	if (have_cmp && cmp_table(&c, 1, &t) == 0 && t.nrows > 0)
		write_table(md, html, "Nodes per group (worker threads)", &t);
	table_free(&t);
	if (have_cmp && repeats_table(&c, &t) == 0 && t.nrows > 0) {
		write_table(md, html, "Repeats: mean ± stdev per group", &t);
		repeats_note(md, html, &c);
	}
	table_free(&t);
	if (have_sweep && sweep_table(sw, &t) == 0)
		write_table(md, html, "NDR per frame size", &t);
	table_free(&t);
	if (have_sweep && sweep_any_gen_bound(sw))
		gen_footnote(md, html, "; its point in the NDR plot is a lower bound");
	if (latency_table(rs, camp, &t) == 0 && t.nrows > 0)
		write_table(md, html, "Latency at load (0/10/50/90 % of the PDR)", &t);
	table_free(&t);
	fputs("## Plots\n\n", md);
	fputs("<h2>Plots</h2>\n", html);
	write_plots(md, html, co);
	if (runs_table(rs, camp, &t) == 0)
		write_table(md, html, "Runs", &t);
	if (camp_gen_bound(rs, camp))
		gen_footnote(md, html, "");
	table_free(&t);
	if (!have_cmp && !have_sweep)
		fputs("<p>No complete runs.</p>\n", html);
	fputs(html_tail, html);
out:
	if (md != NULL)
		fclose(md);
	if (html != NULL)
		fclose(html);
	if (have_cmp)
		cmp_free(&c);
	sweep_free(sw);
	free(sw);
	return ret;
}

int
report_write(const struct runset *rs, const struct report_opts *o)
{
	char path[4400], safe[160];
	struct campaign_out *co = calloc(1, sizeof(*co));
	FILE *idx;
	int ret = 0;

	if (co == NULL)
		return -ENOMEM;
	ret = mkdir_p(o->out);
	snprintf(path, sizeof(path), "%s/index.html", o->out);
	idx = ret == 0 ? fopen(path, "w") : NULL;
	if (idx == NULL) {
		warnx_("%s: %s", o->out, strerror(ret ? -ret : errno));
		free(co);
		return -EIO;
	}
	fprintf(idx, html_head, "fwdlab campaigns");
	fputs("<h1>fwdlab campaigns</h1>\n<ul>\n", idx);
	for (size_t i = 0; i < rs->n && ret == 0; i++) {
		const char *camp = rs->v[i].campaign;
		int seen = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(rs->v[k].campaign, camp) == 0;
		if (seen)
			continue;
		memset(co, 0, sizeof(*co));
		safe_name(safe, sizeof(safe), camp);
		snprintf(co->dir, sizeof(co->dir), "%s/%s", o->out, safe);
		ret = mkdir_p(co->dir);
		if (ret == 0)
			ret = report_campaign(rs, o, camp, co);
		if (ret != 0) {
			warnx_("%s: report failed: %s", co->dir, strerror(-ret));
			break;
		}
		fprintf(idx, "<li><a href=\"%s/index.html\">", safe);
		html_put(idx, camp);
		fputs("</a></li>\n", idx);
		printf("%s/index.html\n", co->dir);
	}
	fputs("</ul>\n", idx);
	fputs(html_tail, idx);
	fclose(idx);
	free(co);
	return ret;
}
