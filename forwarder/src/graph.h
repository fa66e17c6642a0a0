/* SPDX-License-Identifier: BSD-3-Clause
 * Graph set-up and workers (graph.c); the per-port rx/tx nodes (nodes/port_io.c).
 */
#ifndef VFWD_GRAPH_H
#define VFWD_GRAPH_H

#include <rte_cycles.h>
#include <rte_graph_worker.h>

#include "state.h"

/* ---- graph and nodes (graph.c) ---- */
int graph_nodes_setup(void);
int graphs_create(void);
int workers_launch(void);
void workers_stop(void);

/* per-port nodes (nodes/port_io.c), and the nodes that release held packets */
int port_nodes_register_all(void);
extern int8_t rxq_worker[MAX_PORTS][MAX_WORKERS];
void ip4_arp_pending_flush(void);

void ip6_nd_pending_flush(void);

/* One walk of a worker's graph: rte_graph_walk() with one TSC read per node instead of two,
 * as VPP's dispatch chains its time stamps. A node's clocks run from the end of the node
 * before it (or the start of the walk) to its own end, so they take in the walk's few
 * instructions between two nodes; the counters are rte_graph's own (total_cycles,
 * total_calls, total_objs: `show runtime`). A walk of ten nodes reads the TSC 11 times, not
 * 20; each read costs some 20-40 clocks, so at 64-packet vectors 3-5 clocks a packet. */
static inline void
graph_walk(struct rte_graph *graph)
{
	const rte_graph_off_t *cir_start = graph->cir_start;
	const rte_node_t mask = graph->cir_mask;
	uint32_t head = graph->head;
	uint64_t t = rte_rdtsc();

	while (likely(head != graph->tail)) {
		struct rte_node *node =
			(struct rte_node *)RTE_PTR_ADD(graph, cir_start[(int32_t)head++]);
		void **objs = node->objs;
		uint64_t now;
		uint16_t rc;

		rte_prefetch0(objs);
		rc = node->process(graph, node, objs, node->idx);
		now = rte_rdtsc();
		node->total_cycles += now - t;
		t = now;
		node->total_calls++;
		node->total_objs += rc;
		node->idx = 0;
		head = likely((int32_t)head > 0) ? head & mask : head;
	}
	graph->tail = 0;
}

#endif /* VFWD_GRAPH_H */
