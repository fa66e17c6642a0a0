/* SPDX-License-Identifier: BSD-3-Clause
 * Graph edges (edge.c): the one function that adds an edge, the edge lookup, and the per-port edge tables the nodes read.
 */
#ifndef VFWD_EDGE_H
#define VFWD_EDGE_H

#include "defs.h"

/* ---- graph edges and the per-port edge tables (edge.c) ---- */
uint16_t edge_index(rte_node_t from, const char *to);
uint16_t edge_add(const char *from, const char *to);
void edge_port_xconnect(uint16_t port_id, uint16_t edge);
void edge_port_l3(uint16_t port_id);

/* per-port next edges, indexed by ethdev port id; graph.c fills them at set-up */
extern uint8_t port_rx_next[RTE_MAX_ETHPORTS];
extern uint16_t l2_xconnect_next[RTE_MAX_ETHPORTS];
extern uint16_t arp_input_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_rewrite_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_frag_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_arp_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_arp_pending_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_rewrite_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_nd_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_glean_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_nd_pending_next[RTE_MAX_ETHPORTS];

#endif /* VFWD_EDGE_H */
