/* SPDX-License-Identifier: BSD-3-Clause
 * Graph set-up and workers (graph.c); the per-port rx/tx nodes (nodes/port_io.c).
 */
#ifndef VFWD_GRAPH_H
#define VFWD_GRAPH_H

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

#endif /* VFWD_GRAPH_H */
