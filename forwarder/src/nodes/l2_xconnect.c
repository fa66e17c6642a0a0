/* SPDX-License-Identifier: BSD-3-Clause
 * l2-xconnect: sends every frame of an input interface, untouched, to the
 * output of its cross-connected peer (`set interface l2 xconnect A B`).
 */
#include "vfwd_int.h"
#include "node_util.h"

/* edge 0 is error-drop; graph setup adds one edge per <port>-output */
uint16_t l2_xconnect_next[RTE_MAX_ETHPORTS];

static uint16_t
l2_xconnect_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	rte_edge_t nexts[cnt]; /* a vector can exceed the burst size when streams merge */
	rte_edge_t spec = l2_xconnect_next[pkts[0]->port];
	uint16_t n_spec = 0;

	RTE_SET_USED(graph);
	for (uint16_t i = 0; i < cnt; i++) {
		nexts[i] = l2_xconnect_next[pkts[i]->port];
		n_spec += nexts[i] == spec;
	}
	node_dispatch(graph, node, objs, cnt, nexts, spec, n_spec);
	return cnt;
}

static struct rte_node_register l2_xconnect_node = {
	.name = "l2-xconnect",
	.process = l2_xconnect_process,
	.nb_edges = 1,
	.next_nodes = {"error-drop"},
};

RTE_NODE_REGISTER(l2_xconnect_node);
