/* SPDX-License-Identifier: BSD-3-Clause
 * Graph edges: the one function that adds an edge between two nodes, the lookup
 * of an edge by name, and the per-port edge tables the nodes read (indexed by
 * ethdev port id). graph.c fills the tables at set-up; at run time they change
 * only through the functions here. Calls no other file of vfwd.
 */
#include <stdlib.h>
#include <string.h>
#include <rte_graph.h>

#include "edge.h"

uint16_t ip4_rewrite_next[RTE_MAX_ETHPORTS];
uint16_t arp_input_next[RTE_MAX_ETHPORTS];
uint16_t ip4_arp_next[RTE_MAX_ETHPORTS];
uint16_t ip4_arp_pending_next[RTE_MAX_ETHPORTS];
uint16_t ip4_frag_next[RTE_MAX_ETHPORTS];
uint16_t ip6_glean_next[RTE_MAX_ETHPORTS];
uint16_t ip6_nd_pending_next[RTE_MAX_ETHPORTS]; /* edges 0 drop, 1 ip6-lookup, then outputs */
uint16_t ip6_nd_next[RTE_MAX_ETHPORTS];
uint16_t ip6_rewrite_next[RTE_MAX_ETHPORTS];
uint16_t l2_xconnect_next[RTE_MAX_ETHPORTS];
uint8_t port_rx_next[RTE_MAX_ETHPORTS];

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
	l2_xconnect_next[port_id] = edge;
	__atomic_store_n(&port_rx_next[port_id], 1, __ATOMIC_RELEASE);
}

/* `set interface l3`: the port's rx goes to ethernet-input again */
void
edge_port_l3(uint16_t port_id)
{
	__atomic_store_n(&port_rx_next[port_id], 0, __ATOMIC_RELEASE);
}
