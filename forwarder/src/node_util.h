/* SPDX-License-Identifier: BSD-3-Clause
 * Helpers shared by the data-path nodes.
 */
#ifndef VFWD_NODE_UTIL_H
#define VFWD_NODE_UTIL_H

#include <stdbool.h>
#include <string.h>
#include <rte_ether.h>
#include <rte_graph_worker.h>
#include <rte_mbuf.h>

#include "vfwd/plugin.h"

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
		if (i == cnt && start == 0) { /* the whole vector takes another edge */
			rte_node_next_stream_move(graph, node, nexts[0]);
			return;
		}
		rte_node_enqueue(graph, node, nexts[start], &objs[start], i - start);
		start = i;
	}
}

/* The destination MAC as the low 48 bits of an 8-byte load (the frame holds at
 * least an Ethernet header, so the load stays inside it). */
static inline uint64_t
ether_dst48(const struct rte_ether_hdr *eth)
{
	uint64_t v;

	memcpy(&v, eth, sizeof(v));
	return v & 0xffffffffffffull;
}

/* True when the segments of m hold exactly pkt_len bytes (a driver can claim
 * more than it stored: DPDK 22.11's net_pcap does for frames over 64 KiB). */
static inline bool
mbuf_chain_ok(const struct rte_mbuf *m)
{
	uint64_t sum = 0;
	uint16_t n = 0;

	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		if (++n > m->nb_segs)
			return false;
		sum += s->data_len;
	}
	return n == m->nb_segs && sum == m->pkt_len;
}

/* Cuts m to len bytes (len <= pkt_len), freeing segments left empty. */
static inline void
mbuf_trim_to(struct rte_mbuf *m, uint32_t len)
{
	struct rte_mbuf *s = m;
	uint32_t left = len;

	while (s->next != NULL && left > s->data_len) {
		left -= s->data_len;
		s = s->next;
	}
	s->data_len = (uint16_t)left;
	if (s->next != NULL) {
		uint16_t freed = 0;

		for (struct rte_mbuf *t = s->next; t != NULL; t = t->next)
			freed++;
		rte_pktmbuf_free(s->next);
		s->next = NULL;
		m->nb_segs = (uint16_t)(m->nb_segs - freed);
	}
	m->pkt_len = len;
}

static inline void
node_prefetch_data(struct rte_mbuf *m)
{
	rte_prefetch0(rte_pktmbuf_mtod(m, void *));
}

/* Vectors of up to this many packets stay in L1 from one node to the next (their mbuf
 * headers and first data lines: 64 x 2 x 64 B = 8 KiB): the nodes after ethernet-input
 * prefetch only for larger ones. */
#define NODE_PREFETCH_MIN 64

/* The per-packet work of a node: handles one packet, counts a drop under its
 * reason in errors[], and returns the edge the packet leaves on. */
typedef rte_edge_t (*node_step_fn)(struct rte_mbuf *m, uint64_t *errors);

/* The process function of a node that handles each packet on its own: runs
 * `step` over the vector four packets at a time while the data of the next
 * four is prefetched (when `prefetch_min` or more packets came: 0 always, as
 * for ethernet-input, the first to touch the data; NODE_PREFETCH_MIN for the
 * nodes after it), then the remainder, and sends the packets on with
 * node_dispatch(), `spec` being the edge most packets are expected to take.
 * Always inlined, so each node gets its own loop with its step (a static
 * inline function) inlined into it, as if written out by hand. */
static inline __attribute__((always_inline)) uint16_t
node_process_each_pf(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt,
		     rte_edge_t spec, node_step_fn step, uint16_t prefetch_min)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	rte_edge_t nexts[cnt]; /* a vector can exceed the burst size when streams merge */
	uint16_t i = 0;
	unsigned other = 0; /* non-zero when a packet takes another edge than spec */

	if (cnt <= prefetch_min) {
		for (; i + 4 <= cnt; i += 4) {
			nexts[i] = step(pkts[i], errors);
			nexts[i + 1] = step(pkts[i + 1], errors);
			nexts[i + 2] = step(pkts[i + 2], errors);
			nexts[i + 3] = step(pkts[i + 3], errors);
			other |= (unsigned)(nexts[i] ^ spec) | (unsigned)(nexts[i + 1] ^ spec) |
				 (unsigned)(nexts[i + 2] ^ spec) | (unsigned)(nexts[i + 3] ^ spec);
		}
	}
	for (; i + 8 <= cnt; i += 4) {
		node_prefetch_data(pkts[i + 4]);
		node_prefetch_data(pkts[i + 5]);
		node_prefetch_data(pkts[i + 6]);
		node_prefetch_data(pkts[i + 7]);
		nexts[i] = step(pkts[i], errors);
		nexts[i + 1] = step(pkts[i + 1], errors);
		nexts[i + 2] = step(pkts[i + 2], errors);
		nexts[i + 3] = step(pkts[i + 3], errors);
		other |= (unsigned)(nexts[i] ^ spec) | (unsigned)(nexts[i + 1] ^ spec) |
			 (unsigned)(nexts[i + 2] ^ spec) | (unsigned)(nexts[i + 3] ^ spec);
	}
	for (; i < cnt; i++) {
		nexts[i] = step(pkts[i], errors);
		other |= (unsigned)(nexts[i] ^ spec);
	}
	node_dispatch(graph, node, objs, cnt, nexts, spec, other ? 0 : cnt);
	return cnt;
}

/* node_process_each_pf() for a node after ethernet-input */
static inline __attribute__((always_inline)) uint16_t
node_process_each(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt,
		  rte_edge_t spec, node_step_fn step)
{
	return node_process_each_pf(graph, node, objs, cnt, spec, step, NODE_PREFETCH_MIN);
}

/* Registers node `sym`_node, named `nm`, whose context holds only its error counters
 * (`n_err` reasons in `errs`, registered under the node's name at start), with its
 * process function `fn` and its `n_next` next nodes. */
#define NODE_REGISTER_COUNTED(sym, nm, fn, errs, n_err, n_next, ...)                               \
	static struct rte_node_register sym##_node = {                                             \
		.name = nm,                                                                        \
		.process = fn,                                                                     \
		.init = node_ctx_errors_init,                                                      \
		.nb_edges = n_next,                                                                \
		.next_nodes = {__VA_ARGS__},                                                       \
	};                                                                                         \
	RTE_NODE_REGISTER(sym##_node);                                                             \
	RTE_INIT(sym##_errors)                                                                     \
	{                                                                                          \
		err_register(nm, errs, n_err);                                                     \
	}

/* The same for a node that handles each packet on its own: defines `sym`_process as
 * node_process_each() over `step`, `spec` being the edge most packets take. */
#define NODE_REGISTER_EACH(sym, nm, step, spec, errs, n_err, n_next, ...)                          \
	static uint16_t sym##_process(struct rte_graph *graph, struct rte_node *node, void **objs, \
				      uint16_t cnt)                                                \
	{                                                                                          \
		return node_process_each(graph, node, objs, cnt, spec, step);                      \
	}                                                                                          \
	NODE_REGISTER_COUNTED(sym, nm, sym##_process, errs, n_err, n_next, __VA_ARGS__)

#endif
