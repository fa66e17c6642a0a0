/* SPDX-License-Identifier: BSD-3-Clause
 * Graph edges (edge.c): the one function that adds an edge, the edge lookup, and the per-port edge
 * tables the nodes read.
 */
#ifndef VFWD_EDGE_H
#define VFWD_EDGE_H

#include "defs.h"

/* ---- graph edges and the per-port edge tables (edge.c) ---- */
uint16_t edge_index(rte_node_t from, const char *to);
uint16_t edge_add(const char *from, const char *to);

/* The nodes whose next edge depends on a port have a table of it, next[ethdev port id]:
 * those that send out of a port (their edge to its <port>-output: arp-input, ip4-rewrite,
 * ip4-frag, ip4-arp, ip4-arp-pending, ip6-rewrite, ip6-nd, ip6-glean, ip6-nd-pending), the
 * <port>-rx nodes ("port-rx": 0 ethernet-input, 1 l2-xconnect) and l2-xconnect (the output
 * of the input port's xconnect peer). Graph set-up fills them (edge_port_output); a node's
 * init puts its table in its node->ctx, as DPDK's lib/node does, so no node reads a
 * global; at run time they change only through edge_port_xconnect() and edge_port_l3(). */
const uint16_t *edge_table(const char *node);
int edge_port_output(uint16_t port_id, const char *output);
void edge_port_xconnect(uint16_t port_id, uint16_t edge);
void edge_port_l3(uint16_t port_id);

#endif /* VFWD_EDGE_H */
