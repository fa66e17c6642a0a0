/* SPDX-License-Identifier: BSD-3-Clause
 * Helpers shared by the data-path nodes.
 */
#ifndef VFWD_NODE_UTIL_H
#define VFWD_NODE_UTIL_H

#include <rte_graph_worker.h>
#include <rte_mbuf.h>

/* Sends objs[i] to nexts[i]. When every packet took the speculated edge the
 * whole stream moves without copying; otherwise runs of equal next edges are
 * enqueued together. */
static inline void
node_dispatch(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt,
	      const rte_edge_t *nexts, rte_edge_t spec, uint16_t n_spec)
{
	uint16_t start = 0;

	if (likely(n_spec == cnt)) {
		rte_node_next_stream_move(graph, node, spec);
		return;
	}
	for (uint16_t i = 1; i <= cnt; i++) {
		if (i < cnt && nexts[i] == nexts[start])
			continue;
		rte_node_enqueue(graph, node, nexts[start], &objs[start], i - start);
		start = i;
	}
}

static inline void
node_prefetch_data(struct rte_mbuf *m)
{
	rte_prefetch0(rte_pktmbuf_mtod(m, void *));
}

#endif
