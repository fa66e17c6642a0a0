/* SPDX-License-Identifier: BSD-3-Clause
 * `show runtime` in VPP's layout, and its JSON twin. Node statistics come from
 * rte_graph's per-node counters (cycles, calls, objects); `clear runtime`
 * stores a baseline so the workers' counters are never written by the main
 * lcore.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include "cli.h"
#include "runtime.h"
#include "rx_mode.h"
#include "state.h"

#define MAX_NODES 512

struct node_base {
	uint64_t calls, objs, cycles;
};

static struct node_base rt_base[MAX_WORKERS][MAX_NODES];
static uint64_t rt_clear_tsc[MAX_WORKERS + 1];
static uint64_t rt_base_loops[MAX_WORKERS];

struct node_row {
	const char *name;
	const char *state;
	uint64_t calls, vectors, clocks;
	bool is_input, is_output, is_drop;
};

static int
row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct node_row *)a)->name, ((const struct node_row *)b)->name);
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Collects this worker's rows with calls since the last clear; returns the count. */
static unsigned
runtime_rows(unsigned w, struct node_row *rows)
{
	struct rte_graph *g = vfwd.graph[w];
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;
	unsigned n = 0;

	if (g == NULL)
		return 0;
	rte_graph_foreach_node(count, off, g, node)
	{
		const struct node_base *b = node->id < MAX_NODES ? &rt_base[w][node->id] : NULL;
		struct node_row *r = &rows[n];
		uint64_t calls = __atomic_load_n(&node->total_calls, __ATOMIC_RELAXED);

		r->name = node->name;
		r->calls = calls - (b ? b->calls : 0);
		r->vectors =
			__atomic_load_n(&node->total_objs, __ATOMIC_RELAXED) - (b ? b->objs : 0);
		r->clocks = __atomic_load_n(&node->total_cycles, __ATOMIC_RELAXED) -
			    (b ? b->cycles : 0);
		r->is_input = ends_with(node->name, "-rx");
		r->is_output = ends_with(node->name, "-tx");
		r->is_drop = strcmp(node->name, "error-drop") == 0;
		r->state = r->is_input ? rx_mode_node_state(w) : "active";
		if (r->calls > 0 && n < MAX_NODES)
			n++;
	}
	qsort(rows, n, sizeof(rows[0]), row_cmp);
	return n;
}

/* VPP prints %e without '+' and leading exponent zeros: 1.23e4, 0.00e0. */
static const char *
vpp_e(char *buf, size_t len, int prec, double x)
{
	char tmp[64], *e;
	int exp;

	snprintf(tmp, sizeof(tmp), "%.*e", prec, x);
	e = strchr(tmp, 'e');
	if (e == NULL) {
		snprintf(buf, len, "%s", tmp);
		return buf;
	}
	exp = atoi(e + 1);
	*e = '\0';
	snprintf(buf, len, "%se%d", tmp, exp);
	return buf;
}

struct thread_sum {
	double dt, avg_vec, per_loop, in, out, drop;
};

static void
thread_summary(unsigned w, const struct node_row *rows, unsigned n, struct thread_sum *s)
{
	uint64_t in = 0, out = 0, drop = 0, ivec = 0, icalls = 0, loops;
	uint64_t now = rte_rdtsc();

	for (unsigned i = 0; i < n; i++) {
		if (rows[i].is_input) {
			in += rows[i].vectors;
			continue;
		}
		if (rows[i].is_output)
			out += rows[i].vectors;
		else {
			ivec += rows[i].vectors;
			icalls += rows[i].calls;
		}
		if (rows[i].is_drop)
			drop += rows[i].vectors;
	}
	s->dt = (double)(now - rt_clear_tsc[w + 1]) / (double)vfwd.tsc_hz;
	if (s->dt <= 0)
		s->dt = 1e-9;
	loops = 0;
	if (w < MAX_WORKERS) {
		loops = __atomic_load_n(&vfwd.loops[w], __ATOMIC_RELAXED);
		loops = loops > rt_base_loops[w] ? loops - rt_base_loops[w] : 0;
	}
	s->avg_vec = icalls ? (double)ivec / (double)icalls : 0;
	s->per_loop = loops ? (double)in / (double)loops : 0;
	s->in = (double)in / s->dt;
	s->out = (double)out / s->dt;
	s->drop = (double)drop / s->dt;
}

static void
header_print(struct vfwd_cli_out *out)
{
	cli_center(out, 30, "Name");
	cli_center(out, 12, "State");
	cli_center(out, 16, "Calls");
	cli_center(out, 16, "Vectors");
	cli_center(out, 16, "Suspends");
	cli_center(out, 16, "Clocks");
	cli_center(out, 16, "Vectors/Call");
	vfwd_cli_printf(out, "\n");
}

static void
thread_print(struct vfwd_cli_out *out, int idx, const char *name, unsigned lcore,
	     const struct thread_sum *s, const struct node_row *rows, unsigned n)
{
	char a[32], b[32], c[32], d[32], e[32];

	if (idx > 0)
		vfwd_cli_printf(out, "---------------\n");
	vfwd_cli_printf(out, "Thread %d %s (lcore %u)\n", idx, name, lcore);
	vfwd_cli_printf(out,
			"Time %.1f, average vectors/node %.2f, last %d main loops %.2f per node "
			"%.2f\n  vector rates in %s, out %s, drop %s, punt %s\n",
			s->dt, s->avg_vec, 128, s->per_loop, s->avg_vec,
			vpp_e(a, sizeof(a), 4, s->in), vpp_e(b, sizeof(b), 4, s->out),
			vpp_e(c, sizeof(c), 4, s->drop), vpp_e(d, sizeof(d), 4, 0.0));
	if (idx > 0)
		rx_mode_show(out, (unsigned)idx - 1, false);
	header_print(out);
	for (unsigned i = 0; i < n; i++) {
		const struct node_row *r = &rows[i];
		double x = r->vectors ? (double)r->clocks / (double)r->vectors
				      : (r->calls ? (double)r->clocks / (double)r->calls : 0);
		double v = r->calls ? (double)r->vectors / (double)r->calls : 0;

		vfwd_cli_printf(out, "%-30s", r->name);
		cli_center(out, 12, r->state);
		vfwd_cli_printf(out, "%16" PRIu64 "%16" PRIu64 "%16d%16s%16.2f\n", r->calls,
				r->vectors, 0, vpp_e(e, sizeof(e), 2, x), v);
	}
}

static void
thread_json(struct vfwd_cli_out *out, int idx, const char *name, unsigned lcore,
	    const struct thread_sum *s, const struct node_row *rows, unsigned n)
{
	vfwd_cli_printf(out,
			"%s{\"thread\": %d, \"name\": \"%s\", \"lcore\": %u, \"time\": %.6f, "
			"\"average_vectors_per_node\": %.4f, \"vectors_per_main_loop\": %.4f, "
			"\"vector_rates\": {\"in\": %.6e, \"out\": %.6e, \"drop\": %.6e, "
			"\"punt\": 0}",
			idx ? ", " : "", idx, name, lcore, s->dt, s->avg_vec, s->per_loop, s->in,
			s->out, s->drop);
	if (idx > 0)
		rx_mode_show(out, (unsigned)idx - 1, true);
	vfwd_cli_printf(out, ", \"nodes\": [");
	for (unsigned i = 0; i < n; i++) {
		const struct node_row *r = &rows[i];
		double x = r->vectors ? (double)r->clocks / (double)r->vectors
				      : (r->calls ? (double)r->clocks / (double)r->calls : 0);

		vfwd_cli_printf(out,
				"%s{\"name\": \"%s\", \"state\": \"%s\", \"calls\": %" PRIu64
				", \"vectors\": %" PRIu64
				", \"suspends\": 0, \"clocks_total\": %" PRIu64
				", \"clocks\": %.4f, \"vectors_per_call\": %.4f}",
				i ? ", " : "", r->name, r->state, r->calls, r->vectors, r->clocks,
				x, r->calls ? (double)r->vectors / (double)r->calls : 0);
	}
	vfwd_cli_printf(out, "]}");
}

int
runtime_show(struct vfwd_cli_out *out, bool json)
{
	struct node_row *rows = calloc(MAX_NODES, sizeof(*rows));
	struct thread_sum s;
	char name[32];

	if (rows == NULL)
		return cli_error(out, -ENOMEM, "out of memory");
	if (json)
		vfwd_cli_printf(out, "{\"tsc_hz\": %" PRIu64 ", \"threads\": [", vfwd.tsc_hz);
	memset(&s, 0, sizeof(s));
	s.dt = (double)(rte_rdtsc() - rt_clear_tsc[0]) / (double)vfwd.tsc_hz;
	if (json)
		thread_json(out, 0, "vfwd_main", rte_get_main_lcore(), &s, rows, 0);
	else
		thread_print(out, 0, "vfwd_main", rte_get_main_lcore(), &s, rows, 0);
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		unsigned n = runtime_rows(w, rows);

		thread_summary(w, rows, n, &s);
		snprintf(name, sizeof(name), "vfwd_wk_%u", w);
		if (json)
			thread_json(out, (int)w + 1, name, vfwd.worker_lcore[w], &s, rows, n);
		else
			thread_print(out, (int)w + 1, name, vfwd.worker_lcore[w], &s, rows, n);
	}
	if (json)
		vfwd_cli_printf(out, "]}\n");
	free(rows);
	return 0;
}

void
runtime_clear(void)
{
	uint64_t now = rte_rdtsc();

	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct rte_graph *g = vfwd.graph[w];
		struct rte_node *node;
		rte_graph_off_t off;
		rte_node_t count;

		rt_clear_tsc[w + 1] = now;
		rt_base_loops[w] = __atomic_load_n(&vfwd.loops[w], __ATOMIC_RELAXED);
		if (g == NULL)
			continue;
		rte_graph_foreach_node(count, off, g, node)
		{
			if (node->id >= MAX_NODES)
				continue;
			rt_base[w][node->id].calls = node->total_calls;
			rt_base[w][node->id].objs = node->total_objs;
			rt_base[w][node->id].cycles = node->total_cycles;
		}
	}
	rt_clear_tsc[0] = now;
	rx_mode_clear();
}

void
runtime_start(void)
{
	uint64_t now = rte_rdtsc();

	for (unsigned i = 0; i <= MAX_WORKERS; i++)
		rt_clear_tsc[i] = now;
	rx_mode_init();
	rx_mode_clear();
}

/* ---- commands ---- */

static int
cmd_show_runtime(struct vfwd_cli_out *out, int argc, char **argv)
{
	bool json = argc == 1 && strcmp(argv[0], "json") == 0;

	if (argc > 1 || (argc == 1 && !json))
		return cli_error(out, -EINVAL, "usage: show runtime [json]");
	return runtime_show(out, json);
}

static int
cmd_clear_runtime(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear runtime");
	runtime_clear();
	return 0;
}

static int
cmd_show_threads(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show threads");
	vfwd_cli_printf(out, "%-7s%-20s%-12s%-8s%-7s%-7s\n", "ID", "Name", "Type", "lcore", "Core",
			"Socket");
	vfwd_cli_printf(out, "%-7d%-20s%-12s%-8u%-7d%-7d\n", 0, "vfwd_main", "main",
			rte_get_main_lcore(), rte_lcore_to_cpu_id((int)rte_get_main_lcore()),
			(int)rte_lcore_to_socket_id(rte_get_main_lcore()));
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		char name[32];

		snprintf(name, sizeof(name), "vfwd_wk_%u", w);
		vfwd_cli_printf(out, "%-7u%-20s%-12s%-8u%-7d%-7d\n", w + 1, name, "workers",
				vfwd.worker_lcore[w], rte_lcore_to_cpu_id((int)vfwd.worker_lcore[w]),
				(int)rte_lcore_to_socket_id(vfwd.worker_lcore[w]));
	}
	return 0;
}

static int
cmd_show_buffers(struct vfwd_cli_out *out, int argc, char **argv)
{
	const struct rte_mempool *mp = vfwd.pool;

	NO_ARGS(out, argc, argv, "show buffers");
	vfwd_cli_printf(out, "%-20s%-7s%-6s%-8s%-11s%-9s%-9s%-9s\n", "Pool Name", "Index", "NUMA",
			"Size", "Data Size", "Total", "Avail", "Used");
	if (mp == NULL)
		return 0;
	vfwd_cli_printf(out, "%-20s%-7d%-6d%-8u%-11u%-9u%-9u%-9u\n", mp->name, 0, mp->socket_id,
			mp->elt_size, rte_pktmbuf_data_room_size((struct rte_mempool *)mp), mp->size,
			rte_mempool_avail_count(mp), rte_mempool_in_use_count(mp));
	return 0;
}

void
runtime_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"show runtime", "[json]", cmd_show_runtime},
		{"clear runtime", "", cmd_clear_runtime},
		{"show threads", "", cmd_show_threads},
		{"show buffers", "", cmd_show_buffers},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
