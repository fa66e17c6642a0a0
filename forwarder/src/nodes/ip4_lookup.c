/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-lookup: longest-prefix match of the destination address (rte_fib
 * DIR-24-8, one bulk lookup per vector); the adjacency index travels to ip4-rewrite in the
 * mbuf's dynamic field.
 */
#include <rte_ip.h>
#include <rte_cycles.h>
#include <rte_fib.h>
#include <rte_pause.h>

#include "error.h"
#include "fib.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

/*
 * A deliberately slow build for tests of fwdlab's trend detection (lab/fwdstat README,
 * "trend"): EXTRA_CFLAGS=-DVFWD_SLOW_LOOKUP_CYCLES=N spins N TSC cycles per packet in
 * ip4-lookup. Zero (the default) compiles to nothing.
 */
#ifndef VFWD_SLOW_LOOKUP_CYCLES
#define VFWD_SLOW_LOOKUP_CYCLES 0
#endif

static inline void
ip4_lookup_slow_down(uint16_t cnt)
{
	uint64_t until;

	if (VFWD_SLOW_LOOKUP_CYCLES == 0)
		return;
	until = rte_rdtsc() + (uint64_t)VFWD_SLOW_LOOKUP_CYCLES * cnt;
	while (rte_rdtsc() < until)
		rte_pause();
}

enum ip4_lookup_next {
	IP4_LOOKUP_NEXT_DROP,
	IP4_LOOKUP_NEXT_REWRITE,
	IP4_LOOKUP_NEXT_LOCAL,
	IP4_LOOKUP_NEXT_ICMP_ERROR,
	IP4_LOOKUP_N_NEXT,
};

#define foreach_ip4_lookup_error                                                                   \
	_(NO_ROUTE, "no route")                                                                    \
	_(DROP_ROUTE, "drop route")                                                                \
	_(BCAST, "ip4 directed broadcast (not forwarded)")

enum ip4_lookup_error {
#define _(sym, str) IP4_LOOKUP_ERROR_##sym,
	foreach_ip4_lookup_error
#undef _
		IP4_LOOKUP_N_ERROR,
};

static const char *const ip4_lookup_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_lookup_error
#undef _
};

static inline uint32_t
ip4_dst(struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	return rte_be_to_cpu_32(ip->dst_addr);
}

static __rte_noinline rte_edge_t
ip4_lookup_slow(struct rte_mbuf *m, uint32_t hop, uint64_t *errors)
{
	const struct adj *adj;

	if (hop == UINT32_MAX) {
		errors[IP4_LOOKUP_ERROR_NO_ROUTE]++;
		if (!icmp_error_conf.enabled)
			return IP4_LOOKUP_NEXT_DROP;
		icmp_error_mark(m, 3, 0, 0); /* destination unreachable: net */
		return IP4_LOOKUP_NEXT_ICMP_ERROR;
	}
	adj = &adj_table[hop]; /* only now: &adj_table[UINT32_MAX] is out of bounds (UBSan) */
	if (adj->type == ADJ_LOCAL)
		return IP4_LOOKUP_NEXT_LOCAL;
	if (adj->type == ADJ_BCAST)
		errors[IP4_LOOKUP_ERROR_BCAST]++;
	else
		errors[IP4_LOOKUP_ERROR_DROP_ROUTE]++;
	return IP4_LOOKUP_NEXT_DROP;
}

static inline rte_edge_t
ip4_lookup_next(struct rte_mbuf *m, uint32_t hop, uint64_t *errors)
{
	*mbuf_adj(m) = hop;
	if (likely(hop != UINT32_MAX && adj_table[hop].type >= ADJ_GLEAN))
		return IP4_LOOKUP_NEXT_REWRITE;
	return ip4_lookup_slow(m, hop, errors);
}

/* Writes each packet's adjacency (UINT32_MAX: no route) into its mbuf; true when every
 * packet goes to ip4-rewrite (a route whose adjacency forwards). The mbuf field's offset and
 * the table are held in locals: the stores through the mbufs would make the compiler read
 * the globals again for each packet. */
static inline bool
ip4_lookup_store(struct rte_mbuf **pkts, const uint64_t *hop, uint16_t cnt)
{
	const int off = mbuf_adj_offset;
	const struct adj *adjs = adj_table;
	bool all = true;

	for (uint16_t i = 0; i < cnt; i++) {
		bool miss = hop[i] == FIB_MISS;
		uint32_t h = miss ? 0 : (uint32_t)hop[i];

		all &= !miss & (adjs[h].type >= ADJ_GLEAN);
		*RTE_MBUF_DYNFIELD(pkts[i], off, uint32_t *) = miss ? UINT32_MAX : h;
	}
	return all;
}

static uint16_t
ip4_lookup_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	rte_edge_t nexts[cnt]; /* a vector can exceed the burst size when streams merge */
	uint32_t dst[cnt];
	uint64_t hop[cnt];
	uint16_t i, n_spec = 0;

	for (i = 0; i + 4 <= cnt; i += 4) {
		if (cnt > NODE_PREFETCH_MIN && i + 8 <= cnt) {
			node_prefetch_data(pkts[i + 4]);
			node_prefetch_data(pkts[i + 5]);
			node_prefetch_data(pkts[i + 6]);
			node_prefetch_data(pkts[i + 7]);
		}
		dst[i] = ip4_dst(pkts[i]);
		dst[i + 1] = ip4_dst(pkts[i + 1]);
		dst[i + 2] = ip4_dst(pkts[i + 2]);
		dst[i + 3] = ip4_dst(pkts[i + 3]);
	}
	for (; i < cnt; i++)
		dst[i] = ip4_dst(pkts[i]);
	rte_fib_lookup_bulk(fib_ip4, dst, hop, cnt);
	ip4_lookup_slow_down(cnt);
	/* the adjacency of each packet into its mbuf; when all are forwarded (the usual case)
	 * the vector moves on whole, else each packet's edge is found (below) */
	if (likely(ip4_lookup_store(pkts, hop, cnt))) {
		rte_node_next_stream_move(graph, node, IP4_LOOKUP_NEXT_REWRITE);
		return cnt;
	}
	for (i = 0; i < cnt; i++) {
		nexts[i] = ip4_lookup_next(
			pkts[i], hop[i] == FIB_MISS ? UINT32_MAX : (uint32_t)hop[i], errors);
		n_spec += nexts[i] == IP4_LOOKUP_NEXT_REWRITE;
	}
	node_dispatch(graph, node, objs, cnt, nexts, IP4_LOOKUP_NEXT_REWRITE, n_spec);
	return cnt;
}

NODE_REGISTER_COUNTED(
	ip4_lookup, "ip4-lookup", ip4_lookup_process, ip4_lookup_error_strings, IP4_LOOKUP_N_ERROR,
	IP4_LOOKUP_N_NEXT, [IP4_LOOKUP_NEXT_DROP] = "error-drop",
	[IP4_LOOKUP_NEXT_REWRITE] = "ip4-rewrite", [IP4_LOOKUP_NEXT_LOCAL] = "ip4-local",
	[IP4_LOOKUP_NEXT_ICMP_ERROR] = "ip4-icmp-error");
