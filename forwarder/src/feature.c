/* SPDX-License-Identifier: BSD-3-Clause
 * The ip4-unicast and ip6-unicast feature arcs. DPDK 22.11 has no feature-arc
 * library, so an arc is a small table: for each input port, the ordered list of
 * enabled features becomes next_edge[row][port], where row 0 is the arc's start
 * node (ip4-input, ip6-input) and row 1 + slot is feature `slot`. Every node of
 * the arc has an edge to every later candidate, so enabling a feature at run
 * time only rewrites the table. Edge 1 of the start node and of every feature
 * is the arc's end (ip4-lookup, ip6-lookup).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "edge.h"
#include "error.h"
#include "feature.h"
#include "state.h"

struct feature_arc ip4_unicast_arc = {
	.name = ARC_IP4_UNICAST, .start = "ip4-input", .end = "ip4-lookup"};
struct feature_arc ip6_unicast_arc = {
	.name = ARC_IP6_UNICAST, .start = "ip6-input", .end = "ip6-lookup"};
static struct feature_arc *const arcs[] = {&ip4_unicast_arc, &ip6_unicast_arc};
static bool arc_finalized;

#define EDGE_END 1 /* edge 1 of the start node and of every feature: the arc's end */

static struct feature_arc *
arc_by_name(const char *name)
{
	for (unsigned a = 0; a < RTE_DIM(arcs); a++)
		if (strcmp(arcs[a]->name, name) == 0)
			return arcs[a];
	return NULL;
}

int
feature_find(const char *node, struct feature_arc **arc)
{
	for (unsigned a = 0; a < RTE_DIM(arcs); a++)
		for (unsigned s = 0; s < arcs[a]->n_features; s++)
			if (strcmp(arcs[a]->features[s].name, node) == 0) {
				if (arc != NULL)
					*arc = arcs[a];
				return (int)s;
			}
	return -1;
}

static int
feature_node_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct vfwd_node_ctx *ctx = (struct vfwd_node_ctx *)node->ctx;
	struct feature_arc *arc;
	int s = feature_find(node->name, &arc);

	RTE_SET_USED(graph);
	if (s < 0)
		return -ENOENT;
	ctx->errors = err_block_for_node(node->name, (unsigned)vfwd.cur_worker);
	ctx->next_by_port = arc->next_edge[1 + s];
	return 0;
}

VFWD_API int
vfwd_feature_register(const struct vfwd_feature_reg *reg)
{
	struct feature_arc *arc;
	struct rte_node_register *r;
	struct feature *f;
	rte_node_t id;

	if (reg == NULL || reg->name == NULL || reg->process == NULL || reg->arc == NULL)
		return -EINVAL;
	arc = arc_by_name(reg->arc);
	if (arc == NULL)
		return -ENOENT;
	if (arc_finalized || arc->n_features >= MAX_FEATURES)
		return -ENOSPC;
	if (strlen(reg->name) >= RTE_NODE_NAMESIZE || feature_find(reg->name, NULL) >= 0)
		return -EEXIST;
	r = calloc(1, sizeof(*r) + 2 * sizeof(char *));
	if (r == NULL)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", reg->name);
	r->process = reg->process;
	r->init = feature_node_init;
	r->nb_edges = 2;
	r->next_nodes[0] = "error-drop";
	r->next_nodes[EDGE_END] = arc->end;
	id = __rte_node_register(r);
	free(r);
	if (id == RTE_NODE_ID_INVALID)
		return -EINVAL;
	if (reg->n_errors && err_register(reg->name, reg->errors, reg->n_errors) < 0)
		return -ENOSPC;
	f = &arc->features[arc->n_features++];
	snprintf(f->name, sizeof(f->name), "%s", reg->name);
	f->node = id;
	f->order = reg->order;
	f->n_errors = reg->n_errors;
	return 0;
}

/* Rebuilds the next-edge rows of one input port of `arc` from its enabled features. */
static void
arc_port_update(struct feature_arc *arc, uint16_t port_id)
{
	unsigned chain[MAX_FEATURES], n = 0;

	for (unsigned s = 0; s < arc->n_features; s++) {
		unsigned j = n;

		if (!(arc->enabled[port_id] & (1u << s)))
			continue;
		while (j > 0 && arc->features[chain[j - 1]].order > arc->features[s].order) {
			chain[j] = chain[j - 1];
			j--;
		}
		chain[j] = s;
		n++;
	}
	/* write from the tail so a packet in flight never meets a half-built chain */
	for (unsigned k = n; k-- > 0;) {
		unsigned row = 1 + chain[k];
		uint16_t after = k + 1 < n ? arc->edge[row][chain[k + 1]] : EDGE_END;

		__atomic_store_n(&arc->next_edge[row][port_id], after, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&arc->next_edge[0][port_id], n ? arc->edge[0][chain[0]] : EDGE_END,
			 __ATOMIC_RELEASE);
}

static int
arc_finalize(struct feature_arc *arc)
{
	for (unsigned s = 0; s < arc->n_features; s++) {
		arc->edge[0][s] = edge_add(arc->start, arc->features[s].name);
		if (arc->edge[0][s] == RTE_EDGE_ID_INVALID)
			return -EINVAL;
		for (unsigned t = 0; t < arc->n_features; t++) {
			if (t == s)
				continue;
			arc->edge[1 + s][t] =
				edge_add(arc->features[s].name, arc->features[t].name);
			if (arc->edge[1 + s][t] == RTE_EDGE_ID_INVALID)
				return -EINVAL;
		}
	}
	for (unsigned r = 0; r <= MAX_FEATURES; r++)
		for (unsigned p = 0; p < RTE_MAX_ETHPORTS; p++)
			arc->next_edge[r][p] = EDGE_END;
	return 0;
}

int
feature_arc_finalize(void)
{
	for (unsigned a = 0; a < RTE_DIM(arcs); a++)
		if (arc_finalize(arcs[a]) < 0)
			return -EINVAL;
	arc_finalized = true;
	return 0;
}

int
feature_enable(const char *port, const char *feature, const char *arc_name, bool enable, char *err,
	       size_t len)
{
	struct feature_arc *arc = arc_by_name(arc_name), *its = NULL;
	struct port *p = port_by_name(port);
	int s;

	if (arc == NULL) {
		snprintf(err, len, "unknown arc '%s' (%s, %s)", arc_name, ARC_IP4_UNICAST,
			 ARC_IP6_UNICAST);
		return -ENOENT;
	}
	if (p == NULL) {
		snprintf(err, len, "unknown interface '%s'", port);
		return -ENODEV;
	}
	s = feature_find(feature, &its);
	if (s < 0 || its != arc) {
		if (s >= 0)
			snprintf(err, len, "feature '%s' is on arc %s, not %s", feature, its->name,
				 arc->name);
		else
			snprintf(err, len, "unknown feature '%s' on arc %s", feature, arc->name);
		return -ENOENT;
	}
	if (enable)
		arc->enabled[p->port_id] |= 1u << s;
	else
		arc->enabled[p->port_id] &= ~(1u << s);
	arc_port_update(arc, p->port_id);
	return 0;
}

/* ---- commands ---- */

static int
cmd_set_feature(struct vfwd_cli_out *out, int argc, char **argv)
{
	char err[160];
	bool disable = argc == 5 && strcmp(argv[4], "disable") == 0;

	if ((argc != 4 && !disable) || strcmp(argv[2], "arc") != 0)
		return cli_error(out, -EINVAL,
				 "usage: set interface feature IFACE FEATURE arc ARC [disable]");
	if (feature_enable(argv[0], argv[1], argv[3], !disable, err, sizeof(err)) < 0)
		return cli_error(out, -EINVAL, "%s", err);
	return 0;
}

static int
cmd_show_features(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show features");
	for (unsigned a = 0; a < RTE_DIM(arcs); a++) {
		const struct feature_arc *arc = arcs[a];

		vfwd_cli_printf(out, "arc %s: %u features\n", arc->name, arc->n_features);
		for (unsigned s = 0; s < arc->n_features; s++)
			vfwd_cli_printf(out, "  [%d] %s\n", arc->features[s].order,
					arc->features[s].name);
		for (unsigned i = 0; i < vfwd.n_ports; i++) {
			const struct port *p = &vfwd.ports[i];

			vfwd_cli_printf(out, "%s:", p->name);
			for (unsigned s = 0; s < arc->n_features; s++)
				if (arc->enabled[p->port_id] & (1u << s))
					vfwd_cli_printf(out, " %s", arc->features[s].name);
			vfwd_cli_printf(out, "%s\n", p->xconnect >= 0 ? " (l2 xconnect)" : "");
		}
	}
	return 0;
}

void
feature_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"set interface feature", "IFACE FEATURE arc ip4-unicast|ip6-unicast [disable]",
		 cmd_set_feature},
		{"show features", "", cmd_show_features},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
