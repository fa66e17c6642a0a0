/* SPDX-License-Identifier: BSD-3-Clause
 * error-drop: frees every packet it receives. The node that sent a packet here
 * has already counted it under its own reason.
 */
#include "defs.h"

static uint16_t
error_drop_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	RTE_SET_USED(graph);
	RTE_SET_USED(node);
	rte_pktmbuf_free_bulk((struct rte_mbuf **)objs, cnt);
	return cnt;
}

static struct rte_node_register error_drop_node = {
	.name = "error-drop",
	.process = error_drop_process,
};

RTE_NODE_REGISTER(error_drop_node);
