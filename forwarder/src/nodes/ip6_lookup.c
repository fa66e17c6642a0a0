/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-lookup: longest-prefix match of the destination (rte_fib6, the whole
 * vector in one bulk lookup); the adjacency index travels to ip6-rewrite in
 * the mbuf's dynamic field. Packets for the router go to ip6-nd; a link-local
 * source is never forwarded (RFC 4291 2.5.6).
 */
#include <rte_ip.h>
#include <rte_fib6.h>

#include "error.h"
#include "fib.h"
#include "fib6.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

enum ip6_lookup_next {
	IP6_LOOKUP_NEXT_DROP,
	IP6_LOOKUP_NEXT_REWRITE,
	IP6_LOOKUP_NEXT_LOCAL,
	IP6_LOOKUP_NEXT_ICMP_ERROR,
	IP6_LOOKUP_N_NEXT,
};

#define foreach_ip6_lookup_error                                                                   \
	_(NO_ROUTE, "ip6 no route")                                                                \
	_(DROP_ROUTE, "ip6 drop route")                                                            \
	_(LINK_LOCAL_SRC, "ip6 link-local source not forwarded")

enum ip6_lookup_error {
#define _(sym, str) IP6_LOOKUP_ERROR_##sym,
	foreach_ip6_lookup_error
#undef _
		IP6_LOOKUP_N_ERROR,
};

static const char *const ip6_lookup_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_lookup_error
#undef _
};

static __rte_noinline rte_edge_t
ip6_lookup_slow(struct rte_mbuf *m, const struct rte_ipv6_hdr *ip, uint32_t hop, uint64_t *errors)
{
	if (hop == UINT32_MAX) {
		errors[IP6_LOOKUP_ERROR_NO_ROUTE]++;
		if (!__atomic_load_n(&icmp_error_conf.enabled, __ATOMIC_RELAXED))
			return IP6_LOOKUP_NEXT_DROP;
		icmp_error_mark(m, 1, 0, 0); /* destination unreachable: no route */
		return IP6_LOOKUP_NEXT_ICMP_ERROR;
	}
	if (adj6_table[hop].type == ADJ_LOCAL)
		return IP6_LOOKUP_NEXT_LOCAL;
	if (adj6_table[hop].type >= ADJ_GLEAN) { /* forwarded, but from a link-local source */
		errors[IP6_LOOKUP_ERROR_LINK_LOCAL_SRC]++;
		return IP6_LOOKUP_NEXT_DROP;
	}
	RTE_SET_USED(ip);
	errors[IP6_LOOKUP_ERROR_DROP_ROUTE]++;
	return IP6_LOOKUP_NEXT_DROP;
}

/* Writes each packet's adjacency into its mbuf; true when every packet goes to ip6-rewrite
 * (a forwarding adjacency, a source that is not link-local). Offset and table in locals, as
 * ip4-lookup does. */
static inline bool
ip6_lookup_store(struct rte_mbuf **pkts, const uint64_t *hop, uint16_t cnt, uint32_t miss)
{
	const int off = mbuf_adj_offset;
	const struct adj6 *adjs = adj6_table;
	bool all = true;

	for (uint16_t i = 0; i < cnt; i++) {
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(
			pkts[i], const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		uint32_t h = hop[i] == FIB6_MISS ? miss : (uint32_t)hop[i];
		uint16_t s01;

		memcpy(&s01, ip->src_addr, 2);
		all &= (h != UINT32_MAX) & (adjs[h == UINT32_MAX ? 0 : h].type >= ADJ_GLEAN) &
		       ((rte_be_to_cpu_16(s01) & 0xffc0) != 0xfe80);
		*RTE_MBUF_DYNFIELD(pkts[i], off, uint32_t *) = h;
	}
	return all;
}

static uint16_t
ip6_lookup_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	uint32_t miss = __atomic_load_n(&fib6_default_adj, __ATOMIC_ACQUIRE);
	rte_edge_t nexts[cnt];
	uint8_t dst[cnt][RTE_FIB6_IPV6_ADDR_SIZE];
	uint64_t hop[cnt];
	uint16_t n_spec = 0;

	for (uint16_t i = 0; i < cnt; i++) {
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(
			pkts[i], const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);

		memcpy(dst[i], ip->dst_addr, 16);
	}
	rte_fib6_lookup_bulk(fib6_fib, dst, hop, cnt);
	if (likely(ip6_lookup_store(pkts, hop, cnt, miss))) {
		rte_node_next_stream_move(graph, node, IP6_LOOKUP_NEXT_REWRITE);
		return cnt;
	}
	for (uint16_t i = 0; i < cnt; i++) {
		const struct rte_ipv6_hdr *ip = rte_pktmbuf_mtod_offset(
			pkts[i], const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		uint32_t h = hop[i] == FIB6_MISS ? miss : (uint32_t)hop[i];
		bool ll_src = ip->src_addr[0] == 0xfe && (ip->src_addr[1] & 0xc0) == 0x80;

		*mbuf_adj(pkts[i]) = h;
		if (likely(h != UINT32_MAX && adj6_table[h].type >= ADJ_GLEAN && !ll_src))
			nexts[i] = IP6_LOOKUP_NEXT_REWRITE;
		else
			nexts[i] = ip6_lookup_slow(pkts[i], ip, h, errors);
		n_spec += nexts[i] == IP6_LOOKUP_NEXT_REWRITE;
	}
	node_dispatch(graph, node, objs, cnt, nexts, IP6_LOOKUP_NEXT_REWRITE, n_spec);
	return cnt;
}

NODE_REGISTER_COUNTED(ip6_lookup, "ip6-lookup", ip6_lookup_process, ip6_lookup_error_strings,
		      IP6_LOOKUP_N_ERROR, IP6_LOOKUP_N_NEXT, [IP6_LOOKUP_NEXT_DROP] = "error-drop",
		      [IP6_LOOKUP_NEXT_REWRITE] = "ip6-rewrite", [IP6_LOOKUP_NEXT_LOCAL] = "ip6-nd",
		      [IP6_LOOKUP_NEXT_ICMP_ERROR] = "ip6-icmp-error");
