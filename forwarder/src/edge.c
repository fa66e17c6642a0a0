/* SPDX-License-Identifier: BSD-3-Clause
 * Graph edges: the one function that adds an edge between two nodes, the lookup
 * of an edge by name, and the per-port edge tables the nodes read (indexed by
 * ethdev port id; each node finds its own at graph creation and keeps it in its
 * node->ctx). graph.c fills the tables at set-up; at run time they change
 * only through the functions here. Calls no other file of vfwd.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_common.h>
#include <rte_graph.h>

#include "edge.h"

/* a node's per-port next edges; `output`: graph set-up records its edge to each port's
 * <port>-output in it */
struct edge_table {
	const char *node;
	bool output;
	uint16_t next[RTE_MAX_ETHPORTS];
};

static struct edge_table edge_tables[] = {
	{.node = "port-rx"},	 /* every <port>-rx: 0 ethernet-input, 1 l2-xconnect */
	{.node = "l2-xconnect"}, /* the xconnect peer's output (edge_port_xconnect) */
	{.node = "arp-input", .output = true},
	{.node = "ip4-rewrite", .output = true},
	{.node = "ip4-frag", .output = true},
	{.node = "ip4-arp", .output = true},
	{.node = "ip4-arp-pending", .output = true},
	{.node = "ip6-rewrite", .output = true},
	{.node = "ip6-nd", .output = true},
	{.node = "ip6-glean", .output = true},
	{.node = "ip6-nd-pending", .output = true},
};

static struct edge_table *
edge_table_find(const char *node)
{
	for (unsigned i = 0; i < RTE_DIM(edge_tables); i++)
		if (strcmp(edge_tables[i].node, node) == 0)
			return &edge_tables[i];
	return NULL;
}

/* The per-port next edges of `node` ("port-rx" for the <port>-rx nodes), NULL if it has none. */
const uint16_t *
edge_table(const char *node)
{
	struct edge_table *t = edge_table_find(node);

	return t == NULL ? NULL : t->next;
}

/* Graph set-up, for each port: an edge from every node that sends out of a port (and from
 * l2-xconnect) to the port's `output` node, recorded in the nodes' tables. */
int
edge_port_output(uint16_t port_id, const char *output)
{
	for (unsigned i = 0; i < RTE_DIM(edge_tables); i++) {
		struct edge_table *t = &edge_tables[i];
		uint16_t e;

		if (strcmp(t->node, "port-rx") == 0)
			continue;
		e = edge_add(t->node, output);
		if (e == RTE_EDGE_ID_INVALID)
			return -EINVAL;
		if (t->output)
			t->next[port_id] = e;
	}
	return 0;
}

/* Index of the edge from node `from` to the node named `to`, RTE_EDGE_ID_INVALID if none. */
uint16_t
edge_index(rte_node_t from, const char *to)
{
	rte_edge_t n = rte_node_edge_count(from);
	char **names;
	uint16_t idx = RTE_EDGE_ID_INVALID;

	if (n == 0 || n == RTE_EDGE_ID_INVALID)
		return RTE_EDGE_ID_INVALID;
	names = calloc(n, sizeof(char *));
	if (names == NULL)
		return RTE_EDGE_ID_INVALID;
	n = rte_node_edge_get(from, names);
	for (rte_edge_t i = 0; i < n; i++)
		if (strcmp(names[i], to) == 0)
			idx = i;
	free(names);
	return idx;
}

/* Appends an edge from `from` to `to` (once) and returns its index. */
uint16_t
edge_add(const char *from, const char *to)
{
	rte_node_t id = rte_node_from_name(from);
	const char *names[1] = {to};
	uint16_t idx;

	if (id == RTE_NODE_ID_INVALID)
		return RTE_EDGE_ID_INVALID;
	idx = edge_index(id, to);
	if (idx != RTE_EDGE_ID_INVALID)
		return idx;
	if (rte_node_edge_update(id, RTE_EDGE_ID_INVALID, names, 1) == 0)
		return RTE_EDGE_ID_INVALID;
	return edge_index(id, to);
}

/* `set interface l2 xconnect`: the port's rx goes to l2-xconnect, then out on `edge` */
void
edge_port_xconnect(uint16_t port_id, uint16_t edge)
{
	edge_table_find("l2-xconnect")->next[port_id] = edge;
	__atomic_store_n(&edge_table_find("port-rx")->next[port_id], 1, __ATOMIC_RELEASE);
}

/* `set interface l3`: the port's rx goes to ethernet-input again */
void
edge_port_l3(uint16_t port_id)
{
	__atomic_store_n(&edge_table_find("port-rx")->next[port_id], 0, __ATOMIC_RELEASE);
}
