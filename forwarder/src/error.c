/* SPDX-License-Identifier: BSD-3-Clause
 * Per-node, per-reason counters. Each worker owns a block of counters; a node's
 * context points at its reasons inside its worker's block. `clear errors`
 * records a baseline instead of writing to counters the workers own.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "edge.h"
#include "error.h"
#include "state.h"

struct err_node {
	char node[RTE_NODE_NAMESIZE];
	const char *const *reasons;
	uint16_t n;
	uint16_t base;
};

uint64_t err_counters[MAX_WORKERS + 1][MAX_ERRORS] __rte_cache_aligned;
static uint64_t err_baseline[MAX_ERRORS];
static struct err_node err_nodes[128];
static unsigned n_err_nodes;
static unsigned n_err_used;

int
err_register(const char *node, const char *const *reasons, uint16_t n)
{
	struct err_node *e;

	for (unsigned i = 0; i < n_err_nodes; i++)
		if (strcmp(err_nodes[i].node, node) == 0)
			return err_nodes[i].base;
	if (n_err_nodes >= RTE_DIM(err_nodes) || n_err_used + n > MAX_ERRORS)
		return -ENOSPC;
	e = &err_nodes[n_err_nodes++];
	snprintf(e->node, sizeof(e->node), "%s", node);
	e->reasons = reasons;
	e->n = n;
	e->base = (uint16_t)n_err_used;
	n_err_used += n;
	return e->base;
}

static struct err_node *
err_node_find(const char *node)
{
	for (unsigned i = 0; i < n_err_nodes; i++)
		if (strcmp(err_nodes[i].node, node) == 0)
			return &err_nodes[i];
	return NULL;
}

uint64_t *
err_block_for_node(const char *node, unsigned worker)
{
	struct err_node *e = err_node_find(node);

	/* nodes without reasons get a harmless block past the registered ones */
	if (e == NULL)
		return &err_counters[worker][MAX_ERRORS - 8];
	return &err_counters[worker][e->base];
}

static uint64_t
err_sum(unsigned idx)
{
	uint64_t s = 0;

	for (unsigned w = 0; w <= MAX_WORKERS; w++)
		s += __atomic_load_n(&err_counters[w][idx], __ATOMIC_RELAXED);
	return s;
}

uint64_t
err_get(const char *node, const char *reason)
{
	struct err_node *e = err_node_find(node);

	if (e == NULL)
		return 0;
	for (unsigned r = 0; r < e->n; r++)
		if (strcmp(e->reasons[r], reason) == 0)
			return err_sum(e->base + r) - err_baseline[e->base + r];
	return 0;
}

void
err_show(struct vfwd_cli_out *out)
{
	cli_center(out, 10, "Count");
	cli_center(out, 40, "Node");
	cli_center(out, 6, "Reason");
	vfwd_cli_printf(out, "\n");
	for (unsigned i = 0; i < n_err_nodes; i++) {
		struct err_node *e = &err_nodes[i];

		for (unsigned r = 0; r < e->n; r++) {
			uint64_t c = err_sum(e->base + r) - err_baseline[e->base + r];

			if (c == 0)
				continue;
			/* VPP's row: %10Ld%=40v%s */
			vfwd_cli_printf(out, "%10" PRIu64, c);
			cli_center(out, 40, e->node);
			vfwd_cli_printf(out, "%s\n", e->reasons[r]);
		}
	}
}

void
err_clear(void)
{
	for (unsigned i = 0; i < n_err_used; i++)
		err_baseline[i] = err_sum(i);
}

/* The counter columns [*base, *base + *n) of a node's reasons; -ENOENT when it has none. */
int
err_node_range(const char *node, uint16_t *base, uint16_t *n)
{
	struct err_node *e = err_node_find(node);

	if (e == NULL)
		return -ENOENT;
	*base = e->base;
	*n = e->n;
	return 0;
}

/* The reason of counter column idx, and its node's name in *node; NULL when unused. */
const char *
err_reason_name(uint16_t idx, const char **node)
{
	for (unsigned i = 0; i < n_err_nodes; i++) {
		struct err_node *e = &err_nodes[i];

		if (idx >= e->base && idx < e->base + e->n) {
			*node = e->node;
			return e->reasons[idx - e->base];
		}
	}
	return NULL;
}

/* the .init of a node whose context holds only its error counters */
int
node_ctx_errors_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct vfwd_node_ctx *ctx = (struct vfwd_node_ctx *)node->ctx;

	RTE_SET_USED(graph);
	ctx->errors = err_block_for_node(node->name, (unsigned)vfwd.cur_worker);
	ctx->next_by_port = edge_table(node->name); /* NULL unless the node has per-port edges */
	return 0;
}

/* ---- commands ---- */

static int
cmd_show_errors(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show errors");
	err_show(out);
	return 0;
}

static int
cmd_clear_errors(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear errors");
	err_clear();
	return 0;
}

void
err_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"show errors", "", cmd_show_errors},
		{"clear errors", "", cmd_clear_errors},
		{"show node counters", "(= show errors)", cmd_show_errors},
		{"clear node counters", "(= clear errors)", cmd_clear_errors},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
