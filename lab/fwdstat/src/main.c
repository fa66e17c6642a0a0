/* SPDX-License-Identifier: MIT */
/* main.c - fwdstat: subcommands runtime, compare, sweep, report, status. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "export.h"
#include "hops.h"
#include "json.h"
#include "report.h"
#include "runs.h"
#include "runtime.h"
#include "stats.h"
#include "sweep.h"
#include "topo_cmd.h"
#include "topology.h"
#include "trend.h"
#include "latency.h"
#include "util.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2
#define MAX_NODES 64

static const char usage[] =
	"usage: fwdstat COMMAND [ARGS]\n"
	"  runtime FILE... --node NAME [--thread N|all|workers] [--json]\n"
	"      clocks/packet of NODE in each show runtime dump (VPP text or vfwd JSON),\n"
	"      per thread and over the worker threads, and the median over the files\n"
	"  compare DIR... [--base GROUP] [--node NAME]... [--min-delta PCT] [--json]\n"
	"      NDR/PDR and per-node clocks/packet, vectors/call per group (meta.json\n"
	"      \"group\") and profile: median, min..max, spread, delta, verdict, geomean\n"
	"  sweep DIR... [--link RATE] [--json]\n"
	"      NDR per frame size beside the line rate link/((size+20)*8), per DUT\n"
	"  report DIR... [--out DIR] [--node NAME]... [--link RATE] [--base GROUP]\n"
	"      Markdown tables, gnuplot SVG/PNG plots and an HTML page per campaign\n"
	"  export --csit DIR... --out OUT [--openmetrics]\n"
	"      one CSIT UTI test_case record (1.5.1) per ndr/run run folder:\n"
	"      OUT/<campaign>/<run>/<test_name_long>.info.json (and .om: the runtime\n"
	"      counters in CSIT's telemetry form, with --openmetrics)\n"
	"  trend DIR... [--node NAME] [--alpha A] [--json]\n"
	"      runs of each test grouped by build (git revision, label), builds in the\n"
	"      order of their first run; a build whose runs differ from its group's by a\n"
	"      two-sided Mann-Whitney U test at p < A (default 0.001) is marked a\n"
	"      regression or progression. Metric: NDR or rx rate, or NAME's clocks/packet\n"
	"  latency DIR...\n"
	"      latency at load per ndr run (tgen --latency-loads): min/avg/max and tail\n"
	"      percentiles (us) per load (pdr_0..pdr_90) and direction, as a Markdown table\n"
	"  hops RUN_DIR [--write [--quiet]] [--json|--table|--lines] [--trial N]\n"
	"      where each trial's packets went, hop by hop (generator tx, link, DUT rx,\n"
	"      drops per node and reason, DUT tx, link, generator rx): lost_at, unaccounted,\n"
	"      limited_by; --write puts trials/NNN/hops.json and RUN_DIR/hops.json\n"
	"  status DIR... [--list complete|incomplete|invalid]\n"
	"      runs and their status (for fwdlab --resume)\n"
	"  topology check [--kind host|vm|loop] FILE\n"
	"      validate a topology.conf: one FILE:LINE: message per error, exit 1\n"
	"  topology get FILE KEY [DEFAULT]\n"
	"      the value of KEY (DEFAULT, or exit 1, when it is not set)\n"
	"  topology dump [--kind host|vm|loop] [--json] FILE\n"
	"      a valid file's settings as KEY=VALUE lines or one JSON object\n"
	"DIR is a run folder, a campaign folder or a results root. RATE: 10G, 25e9, 100M.\n";

struct opts {
	char *nodes[MAX_NODES];
	int nnodes;
	const char *base, *out, *list, *thread;
	double min_delta, link_bps, alpha;
	int json, csit, openmetrics;
};

static int
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"node", required_argument, NULL, 'n'},
		{"base", required_argument, NULL, 'b'},
		{"out", required_argument, NULL, 'o'},
		{"list", required_argument, NULL, 'l'},
		{"thread", required_argument, NULL, 't'},
		{"min-delta", required_argument, NULL, 'd'},
		{"link", required_argument, NULL, 'L'},
		{"json", no_argument, NULL, 'j'},
		{"csit", no_argument, NULL, 'c'},
		{"openmetrics", no_argument, NULL, 'm'},
		{"alpha", required_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	/* The options that only keep their argument. */
	const char **const keep[128] = {
		['b'] = &o->base,   ['o'] = &o->out,  ['l'] = &o->list,
		['t'] = &o->thread,
	};
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	o->min_delta = 0.01;
	o->alpha = 0.001;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:b:o:l:t:d:L:k:a:jcmh", longopts, NULL)) != -1) {
		if (c > 0 && c < 128 && keep[c] != NULL) {
			*keep[c] = optarg;
			continue;
		}
		switch (c) {
		case 'n':
			if (o->nnodes == MAX_NODES) {
				warnx_("at most %d --node options", MAX_NODES);
				return -EINVAL;
			}
			o->nodes[o->nnodes++] = optarg;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'c':
			o->csit = 1;
			break;
		case 'a':
			o->alpha = strtod(optarg, &end);
			if (*end != '\0' || !(o->alpha > 0 && o->alpha < 1)) {
				warnx_("--alpha %s: expected a probability between 0 and 1", optarg);
				return -EINVAL;
			}
			break;
		case 'm':
			o->openmetrics = 1;
			break;
		case 'd':
			o->min_delta = strtod(optarg, &end) / 100;
			if (*end != '\0' && strcmp(end, "%") != 0) {
				warnx_("--min-delta %s: expected a percentage", optarg);
				return -EINVAL;
			}
			break;
		case 'L':
			o->link_bps = parse_rate(optarg);
			if (o->link_bps <= 0) {
				warnx_("--link %s: expected a rate like 10G", optarg);
				return -EINVAL;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			return -EINVAL;
		}
	}
	return 0;
}

static int
thread_selector(const char *s, int *sel)
{
	char *end;
	long v;

	if (s == NULL || strcmp(s, "workers") == 0) {
		*sel = RT_WORKERS;
		return 0;
	}
	if (strcmp(s, "all") == 0) {
		*sel = RT_ALL;
		return 0;
	}
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < 0 || v > 4096)
		return -EINVAL;
	*sel = (int)v;
	return 0;
}

static void
runtime_rows(struct table *t, const char *file, const struct rt_dump *d, const char *node)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct rt_thread *th = &d->threads[i];
		struct rt_figure f = rt_node_figure(d, node, th->index);
		long r;

		if (f.found == 0 || (r = table_row(t)) < 0)
			continue;
		table_set(t, (size_t)r, 0, "%s", file);
		if (th->lcore >= 0)
			table_set(t, (size_t)r, 1, "%d %s (lcore %d)", th->index, th->name,
				  th->lcore);
		else
			table_set(t, (size_t)r, 1, "%d %s", th->index, th->name);
		table_set(t, (size_t)r, 2, "%.0f", f.calls);
		table_set(t, (size_t)r, 3, "%.0f", f.vectors);
		table_set(t, (size_t)r, 4, "%.0f", f.suspends);
		table_set(t, (size_t)r, 5, "%.0f", f.clocks);
		table_set(t, (size_t)r, 6, "%.2f", f.clocks_per_packet);
		table_set(t, (size_t)r, 7, "%.2f", f.vectors_per_call);
	}
}

static int
runtime_table_init(struct table *t)
{
	static const char *const head[] = {"file",     "thread", "calls",	  "vectors",
					   "suspends", "clocks", "clocks/packet", "vectors/call"};

	if (table_init(t, 8) != 0)
		return -ENOMEM;
	for (size_t c = 0; c < 8; c++)
		table_head(t, c, c < 2 ? 'l' : 'r', "%s", head[c]);
	return 0;
}

/* The row that sums the selected threads of one file. */
static void
runtime_total_row(struct table *t, const char *file, int sel, const struct rt_figure *f)
{
	long r = table_row(t);

	if (r < 0)
		return;
	table_set(t, (size_t)r, 0, "%s", file);
	if (sel == RT_WORKERS)
		table_set(t, (size_t)r, 1, "workers (%d)", f->found);
	else if (sel == RT_ALL)
		table_set(t, (size_t)r, 1, "all (%d)", f->found);
	else
		table_set(t, (size_t)r, 1, "thread %d", sel);
	table_set(t, (size_t)r, 2, "%.0f", f->calls);
	table_set(t, (size_t)r, 3, "%.0f", f->vectors);
	table_set(t, (size_t)r, 4, "%.0f", f->suspends);
	table_set(t, (size_t)r, 5, "%.0f", f->clocks);
	table_set(t, (size_t)r, 6, "**%.2f**", f->clocks_per_packet);
	table_set(t, (size_t)r, 7, "%.2f", f->vectors_per_call);
}

/* , "name": number */
static void
json_field(const char *name, double v)
{
	printf(", \"%s\": ", name);
	json_put_num(stdout, v);
}

static void
runtime_json_file(const char *file, const struct rt_figure *f, int first, double cpu_cpp,
		  const char *mode)
{
	printf("%s  {\"file\": ", first ? "" : ",\n");
	json_put_str(stdout, file);
	printf(", \"threads\": %d", f->found);
	json_field("clocks", f->clocks);
	json_field("vectors", f->vectors);
	json_field("calls", f->calls);
	json_field("clocks_per_packet", f->clocks_per_packet);
	json_field("vectors_per_call", f->vectors_per_call);
	json_field("cpu_clocks_per_packet", cpu_cpp);
	printf(", \"rx_mode\": ");
	json_put_str(stdout, mode);
	printf("}");
}

static void
runtime_summary(const char *node, const struct summary *s, int json, const struct table *t)
{
	if (!json) {
		table_md(t, stdout);
		printf("\n%s: median clocks/packet over %zu file%s: %.2f (min %.2f, max %.2f, "
		       "spread %.1f %%)\n",
		       node, s->n, s->n == 1 ? "" : "s", s->median, s->min, s->max,
		       s->rel_spread * 100);
		return;
	}
	printf("\n]");
	json_field("median_clocks_per_packet", s->median);
	json_field("min", s->min);
	json_field("max", s->max);
	json_field("rel_spread", s->rel_spread);
	printf("}\n");
}

static int
cmd_runtime(int argc, char **argv)
{
	struct opts o;
	struct table t;
	struct summary s;
	double *cpp = NULL;
	int sel, nfiles, ret = 0, first = 1;
	char err[512];

	if (parse_opts(argc, argv, &o) != 0 || o.nnodes != 1 || optind >= argc ||
	    thread_selector(o.thread, &sel) != 0) {
		fputs("usage: fwdstat runtime FILE... --node NAME [--thread N|all|workers] "
		      "[--json]\n",
		      stderr);
		return EXIT_USAGE;
	}
	nfiles = argc - optind;
	cpp = calloc((size_t)nfiles, sizeof(*cpp));
	if (cpp == NULL || runtime_table_init(&t) != 0) {
		free(cpp);
		return EXIT_INPUT;
	}
	if (o.json) {
		printf("{\"node\": ");
		json_put_str(stdout, o.nodes[0]);
		printf(", \"files\": [\n");
	}
	for (int i = 0; i < nfiles; i++) {
		const char *file = argv[optind + i];
		struct rt_dump d;
		struct rt_figure f;
		const char *mode = "";
		double cpu_cpp;

		cpp[i] = NAN;
		if (rt_load(file, &d, err, sizeof(err)) != 0) {
			warnx_("%s", err);
			ret = EXIT_INPUT;
			continue;
		}
		f = rt_node_figure(&d, o.nodes[0], sel);
		cpp[i] = f.clocks_per_packet;
		if (f.found == 0)
			warnx_("%s: node %s not found in the selected threads", file, o.nodes[0]);
		if (f.found != 0 && (sel == RT_WORKERS || sel == RT_ALL))
			runtime_rows(&t, file, &d, o.nodes[0]);
		if (f.found != 0)
			runtime_total_row(&t, file, sel, &f);
		cpu_cpp = rt_cpu_clocks_per_packet(&d, sel, &mode);
		if (o.json)
			runtime_json_file(file, &f, first, cpu_cpp, mode);
		else if (!isnan(cpu_cpp))
			printf("%s: %.1f cycles/packet from the workers' CPU time (rx-mode %s), "
			       "beside the nodes' clocks below\n",
			       file, cpu_cpp, mode);
		first = 0;
		rt_free(&d);
	}
	s = stats_summarize(cpp, (size_t)nfiles);
	runtime_summary(o.nodes[0], &s, o.json, &t);
	if (s.n == 0)
		ret = EXIT_INPUT;
	table_free(&t);
	free(cpp);
	return ret;
}

/* The options and the runs of DIR... for compare, sweep, status and report: 0, or the
 * exit status (usage or input error, already reported). */
static int
load_runs(int argc, char **argv, int flags, struct opts *o, struct runset *rs)
{
	char err[512];

	if (parse_opts(argc, argv, o) != 0)
		return EXIT_USAGE;
	if (optind >= argc) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	if (runs_collect(argv + optind, argc - optind, flags, rs, err, sizeof(err)) != 0) {
		warnx_("%s", err);
		runs_free(rs);
		return EXIT_INPUT;
	}
	runs_sort(rs);
	return 0;
}

static int
cmd_compare(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct cmp c;
	struct cmp_opts co;
	char err[512];
	int ret;

	ret = load_runs(argc, argv, RUNS_LOAD_RUNTIME, &o, &rs);
	if (ret != 0)
		return ret;
	co = (struct cmp_opts){NULL, o.base, o.nodes, o.nnodes, o.min_delta};
	if (cmp_build(&rs, &co, &c, err, sizeof(err)) != 0) {
		warnx_("%s", err);
		ret = EXIT_INPUT;
	} else {
		if (c.mixed_duts)
			warnx_("a group holds runs of several DUTs and pools them; compare groups "
			       "by meta.json \"group\", or use `fwdstat sweep` for DUTs side by "
			       "side");
		if (o.json)
			cmp_print_json(&c, stdout);
		else
			cmp_print_md(&c, stdout);
	}
	cmp_free(&c);
	runs_free(&rs);
	return ret;
}

static int
cmd_sweep(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct sweep *s;
	struct table t;
	char err[512];
	int ret;

	ret = load_runs(argc, argv, 0, &o, &rs);
	if (ret != 0)
		return ret;
	s = malloc(sizeof(*s));
	if (s == NULL || sweep_build(&rs, NULL, o.link_bps, s, err, sizeof(err)) != 0) {
		warnx_("%s", s == NULL ? "out of memory" : err);
		ret = EXIT_INPUT;
	} else if (o.json) {
		sweep_print_json(s, stdout);
	} else if (sweep_table(s, &t) == 0) {
		printf("Link %.3g Gb/s; line rate = link / ((frame + 20) * 8).\n\n",
		       s->link_bps / 1e9);
		table_md(&t, stdout);
		table_free(&t);
		if (sweep_any_gen_bound(s))
			printf("\n%s: the DUT forwards at least this much.\n", CMP_GEN_FOOTNOTE);
	}
	if (s != NULL)
		sweep_free(s);
	free(s);
	runs_free(&rs);
	return ret;
}

static int
cmd_status(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct table t;
	int ret;

	ret = load_runs(argc, argv, 0, &o, &rs);
	if (ret != 0)
		return ret;
	if (o.list != NULL) {
		for (size_t i = 0; i < rs.n; i++)
			if (strcmp(rs.v[i].status, o.list) == 0)
				printf("%s\n", rs.v[i].dir);
		runs_free(&rs);
		return 0;
	}
	if (table_init(&t, 8) == 0) {
		const char *h[] = {"campaign", "run",	  "status", "experiment",
				   "group",    "profile", "dut",    "failure"};
		size_t counts[3] = {0, 0, 0};

		for (size_t c = 0; c < 8; c++)
			table_head(&t, c, 'l', "%s", h[c]);
		for (size_t i = 0; i < rs.n; i++) {
			const struct run *r = &rs.v[i];
			long row = table_row(&t);

			if (row < 0)
				break;
			table_set(&t, (size_t)row, 0, "%s", r->campaign);
			table_set(&t, (size_t)row, 1, "%s", r->run);
			table_set(&t, (size_t)row, 2, "%s", r->status);
			table_set(&t, (size_t)row, 3, "%s", r->experiment);
			table_set(&t, (size_t)row, 4, "%s", r->group);
			table_set(&t, (size_t)row, 5, "%s", r->profile_key);
			table_set(&t, (size_t)row, 6, "%s", r->dut);
			table_set(&t, (size_t)row, 7, "%s", r->failure);
			counts[strcmp(r->status, "complete") == 0     ? 0
			       : strcmp(r->status, "incomplete") == 0 ? 1
								      : 2]++;
		}
		table_md(&t, stdout);
		printf("\n%zu runs: %zu complete, %zu incomplete, %zu invalid\n", rs.n, counts[0],
		       counts[1], counts[2]);
		table_free(&t);
	}
	runs_free(&rs);
	return 0;
}

static int
cmd_report(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct report_opts ro;
	int ret;

	ret = load_runs(argc, argv, RUNS_LOAD_RUNTIME, &o, &rs);
	if (ret != 0)
		return ret;
	ro = (struct report_opts){o.out != NULL ? o.out : "report",
				  o.base,
				  o.nodes,
				  o.nnodes,
				  o.min_delta,
				  o.link_bps};
	ret = report_write(&rs, &ro) == 0 ? 0 : EXIT_INPUT;
	runs_free(&rs);
	return ret;
}

static int
cmd_latency(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct table t = {0};
	int ret;

	ret = load_runs(argc, argv, 0, &o, &rs);
	if (ret != 0)
		return ret;
	if (latency_table(&rs, NULL, &t) != 0) {
		runs_free(&rs);
		return EXIT_INPUT;
	}
	if (t.nrows == 0) {
		warnx_("no ndr run with latency trials (tgen ndr --latency-loads) in these folders");
		ret = EXIT_INPUT;
	} else {
		table_md(&t, stdout);
	}
	table_free(&t);
	runs_free(&rs);
	return ret;
}

static int
cmd_export(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct export_opts eo;
	int ret;

	ret = load_runs(argc, argv, RUNS_LOAD_RUNTIME, &o, &rs);
	if (ret != 0)
		return ret;
	if (!o.csit || o.out == NULL) {
		warnx_("export: give --csit and --out OUT (the only format is CSIT's UTI records)");
		runs_free(&rs);
		return EXIT_USAGE;
	}
	eo = (struct export_opts){o.out, o.openmetrics};
	ret = export_csit(&rs, &eo) == 0 ? 0 : EXIT_INPUT;
	runs_free(&rs);
	return ret;
}

static int
cmd_trend(int argc, char **argv)
{
	struct opts o;
	struct runset rs;
	struct trend_opts to;
	int ret;

	ret = load_runs(argc, argv, RUNS_LOAD_RUNTIME, &o, &rs);
	if (ret != 0)
		return ret;
	if (o.nnodes > 1) {
		warnx_("trend: one --node at most (the metric)");
		runs_free(&rs);
		return EXIT_USAGE;
	}
	to = (struct trend_opts){o.nnodes == 1 ? o.nodes[0] : NULL, o.alpha, o.json};
	ret = trend_print(&rs, &to, stdout) == 0 ? 0 : EXIT_INPUT;
	runs_free(&rs);
	return ret;
}

/* fwdstat hops RUN_DIR [--write [--quiet]] [--json|--table|--lines] [--trial N] */
static int
cmd_hops(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"write", no_argument, NULL, 'w'}, {"json", no_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'}, {"trial", required_argument, NULL, 't'},
		{"table", no_argument, NULL, 'T'}, {"lines", no_argument, NULL, 'l'},
		{NULL, 0, NULL, 0},
	};
	struct hops_opts o = {.trial = -1};
	char err[4200], *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "wjqTlt:", longopts, NULL)) != -1) {
		switch (c) {
		case 'T':
			o.table = 1;
			break;
		case 'l':
			o.lines = 1;
			break;
		case 'w':
			o.write = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 't':
			o.trial = (int)strtol(optarg, &end, 10);
			if (*end == '\0' && o.trial >= 0)
				break;
			/* fall through */
		default:
			fputs("usage: fwdstat hops RUN_DIR [--write [--quiet]] [--json|--table|--lines] [--trial N]\n",
			      stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs("usage: fwdstat hops RUN_DIR [--write [--quiet]] [--json|--table|--lines] [--trial N]\n", stderr);
		return EXIT_USAGE;
	}
	if (hops_run(argv[optind], &o, stdout, err, sizeof(err)) != 0) {
		warnx_("%s", err);
		return EXIT_INPUT;
	}
	return 0;
}

/* fwdstat topology VERB ...: the topology reader (fwdtopo) under its older name. */
static int
cmd_topology(int argc, char **argv)
{
	return topo_cmd("fwdstat topology", argc - 1, argv + 1);
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{"runtime", cmd_runtime}, {"compare", cmd_compare}, {"sweep", cmd_sweep},
		{"report", cmd_report},	  {"status", cmd_status},   {"topology", cmd_topology},
		{"export", cmd_export},	  {"trend", cmd_trend},	    {"latency", cmd_latency},
		{"hops", cmd_hops},
	};

	if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	warnx_("unknown command '%s'", argv[1]);
	fputs(usage, stderr);
	return EXIT_USAGE;
}
