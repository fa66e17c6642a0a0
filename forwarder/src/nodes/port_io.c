/* SPDX-License-Identifier: BSD-3-Clause
 * Per-interface nodes, registered at start-up for each port:
 *   <port>-rx      source node: rte_eth_rx_burst on this worker's queues
 *   <port>-output  the interface's output point (features would hook here)
 *   <port>-tx      rte_eth_tx_burst; packets the queue refuses are counted
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_ethdev.h>

#include "edge.h"
#include "error.h"
#include "graph.h"
#include "port.h"
#include "state.h"

/* which worker polls queue q of port index i */
int8_t rxq_worker[MAX_PORTS][MAX_WORKERS];

/* the queues one worker polls on one port; node->ctx (16 bytes) holds a pointer to it */
struct port_rx_queues {
	const uint16_t *rx_next; /* per port: 0 ethernet-input, 1 l2-xconnect (edge.c) */
	uint16_t port_id;
	uint16_t nb_q;
	uint16_t next; /* the queue polled first in the next walk */
	uint16_t q[MAX_RXQ];
};

struct port_rx_ctx {
	uint64_t *errors;
	struct port_rx_queues *rxq;
};

static struct port_rx_queues rxq_lists[MAX_WORKERS][MAX_PORTS];

struct port_tx_ctx {
	uint64_t *errors;
	uint16_t port_id;
	uint16_t queue;
	uint8_t locked;
};

static_assert(sizeof(struct port_rx_ctx) <= RTE_NODE_CTX_SZ, "rx context exceeds node->ctx");

static const char *const port_tx_error_strings[] = {"tx queue full"};

static_assert(PORT_RX_BURST_MAX == RTE_GRAPH_BURST_SIZE, "rx-burst's maximum is the graph's burst");
uint16_t port_rx_burst = PORT_RX_BURST_DEFAULT;

static uint16_t
port_rx_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct port_rx_queues *ctx = ((struct port_rx_ctx *)node->ctx)->rxq;
	struct rte_mbuf **pkts = (struct rte_mbuf **)node->objs;
	uint16_t n;

	RTE_SET_USED(objs);
	RTE_SET_USED(cnt);
	n = rte_eth_rx_burst(ctx->port_id, ctx->q[ctx->next], pkts, port_rx_burst);
	/* every queue of this worker is polled; a full burst leaves the rest for the
	 * next walk, starting after the queue that filled it */
	for (uint16_t k = 1; k < ctx->nb_q && n < port_rx_burst; k++) {
		uint16_t q = ctx->q[(ctx->next + k) % ctx->nb_q];

		n += rte_eth_rx_burst(ctx->port_id, q, pkts + n, (uint16_t)(port_rx_burst - n));
	}
	if (ctx->nb_q > 1)
		ctx->next = (uint16_t)((ctx->next + 1) % ctx->nb_q);
	if (n == 0)
		return 0;
	node->idx = n;
	rte_node_next_stream_move(graph, node,
				  __atomic_load_n(&ctx->rx_next[ctx->port_id], __ATOMIC_RELAXED));
	return n;
}

static uint16_t
port_output_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	RTE_SET_USED(objs);
	rte_node_next_stream_move(graph, node, 0);
	return cnt;
}

static uint16_t
port_tx_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	struct port *p;
	uint16_t sent;

	RTE_SET_USED(graph);
	if (likely(!ctx->locked)) {
		sent = rte_eth_tx_burst(ctx->port_id, ctx->queue, pkts, cnt);
	} else {
		p = port_by_ethdev(ctx->port_id);
		rte_spinlock_lock(&p->txq_lock[ctx->queue]);
		sent = rte_eth_tx_burst(ctx->port_id, ctx->queue, pkts, cnt);
		rte_spinlock_unlock(&p->txq_lock[ctx->queue]);
	}
	if (unlikely(sent < cnt)) {
		ctx->errors[0] += cnt - sent;
		rte_pktmbuf_free_bulk(pkts + sent, cnt - sent);
	}
	return cnt;
}

static struct port *
port_by_node(rte_node_t id)
{
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		struct port *p = &vfwd.ports[i];

		if (p->rx_node == id || p->output_node == id || p->tx_node == id)
			return p;
	}
	return NULL;
}

static int
port_rx_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct port_rx_ctx *ctx = (struct port_rx_ctx *)node->ctx;
	struct port *p = port_by_node(node->id);
	struct port_rx_queues *rq;
	int w = vfwd.cur_worker;

	RTE_SET_USED(graph);
	if (p == NULL)
		return -ENOENT;
	ctx->errors = err_block_for_node(node->name, (unsigned)w);
	rq = &rxq_lists[w][p - vfwd.ports];
	memset(rq, 0, sizeof(*rq));
	rq->rx_next = edge_table("port-rx");
	rq->port_id = p->port_id;
	for (uint16_t q = 0; q < p->nb_rxq && rq->nb_q < MAX_RXQ; q++)
		if (rxq_worker[p - vfwd.ports][q] == w)
			rq->q[rq->nb_q++] = q;
	if (rq->nb_q == 0)
		return -ENOENT;
	ctx->rxq = rq;
	return 0;
}

static int
port_tx_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct port_tx_ctx *ctx = (struct port_tx_ctx *)node->ctx;
	struct port *p = port_by_node(node->id);

	RTE_SET_USED(graph);
	if (p == NULL)
		return -ENOENT;
	ctx->errors = err_block_for_node(node->name, (unsigned)vfwd.cur_worker);
	ctx->port_id = p->port_id;
	ctx->queue = (uint16_t)(vfwd.cur_worker % p->nb_txq);
	ctx->locked = p->txq_shared;
	return 0;
}

static rte_node_t
node_register_dyn(const char *name, rte_node_process_t fn, rte_node_init_t init, uint64_t flags,
		  const char *next)
{
	struct rte_node_register *r = calloc(1, sizeof(*r) + sizeof(char *));
	rte_node_t id;

	if (r == NULL)
		return RTE_NODE_ID_INVALID;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->process = fn;
	r->init = init;
	r->flags = flags;
	r->nb_edges = 1;
	r->next_nodes[0] = next;
	id = __rte_node_register(r);
	free(r);
	return id;
}

int
port_nodes_register_all(void)
{
	char name[RTE_NODE_NAMESIZE], next[RTE_NODE_NAMESIZE];
	const char *rx_next[] = {"ethernet-input", "l2-xconnect"};

	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		struct port *p = &vfwd.ports[i];

		snprintf(name, sizeof(name), "%s-tx", p->name);
		p->tx_node =
			node_register_dyn(name, port_tx_process, port_tx_init, 0, "error-drop");
		if (err_register(name, port_tx_error_strings, 1) < 0)
			return -ENOSPC;
		snprintf(next, sizeof(next), "%s-tx", p->name);
		snprintf(name, sizeof(name), "%s-output", p->name);
		p->output_node = node_register_dyn(name, port_output_process, NULL, 0, next);
		snprintf(name, sizeof(name), "%s-rx", p->name);
		p->rx_node = node_register_dyn(name, port_rx_process, port_rx_init,
					       RTE_NODE_SOURCE_F, rx_next[0]);
		if (p->tx_node == RTE_NODE_ID_INVALID || p->output_node == RTE_NODE_ID_INVALID ||
		    p->rx_node == RTE_NODE_ID_INVALID)
			return -EINVAL;
		if (rte_node_edge_update(p->rx_node, RTE_EDGE_ID_INVALID, &rx_next[1], 1) == 0)
			return -EINVAL;
	}
	return 0;
}
