/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-rewrite: drops packets whose TTL would expire (RFC 1812 5.3.1), sends
 * packets larger than the output MTU to ip4-frag (or drops them when DF is
 * set), decrements the TTL with an incremental checksum update (RFC 1624,
 * eqn. 3), writes the neighbour's and the interface's MAC addresses, and sends
 * the packet to <port>-output. Packets whose next hop has no neighbour entry
 * yet are dropped and counted.
 */
#include <rte_ip.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

/* edges 0 to 3 are fixed; graph setup adds one edge per <port>-output after them */
enum ip4_rewrite_next {
	IP4_REWRITE_NEXT_DROP,
	IP4_REWRITE_NEXT_FRAG,
	IP4_REWRITE_NEXT_ICMP_ERROR,
	IP4_REWRITE_NEXT_ARP,
	IP4_REWRITE_N_NEXT,
};

#define foreach_ip4_rewrite_error                                                                  \
	_(UNRESOLVED, "unresolved neighbor")                                                       \
	_(TTL_EXPIRED, "ip4 ttl <= 1")                                                             \
	_(MTU_DF, "ip4 MTU exceeded and DF set")

enum ip4_rewrite_error {
#define _(sym, str) IP4_REWRITE_ERROR_##sym,
	foreach_ip4_rewrite_error
#undef _
		IP4_REWRITE_N_ERROR,
};

static const char *const ip4_rewrite_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_rewrite_error
#undef _
};

static inline void
ip4_rewrite_apply(struct rte_ether_hdr *eth, struct rte_ipv4_hdr *ip, const struct adj *adj)
{
	uint32_t sum;

	/* HC' = ~(~HC + ~m + m') (RFC 1624 eqn. 3); for TTL-1, ~m + m' is 0xfeff. A ones'
	 * complement sum is the same in either byte order, so the checksum is updated as it
	 * lies in the header, with the constant in network order; one fold is enough, as
	 * ~HC + 0xfeff <= 0x1fefe folds to at most 0xffff. */
	sum = (uint16_t)~ip->hdr_checksum + (uint32_t)rte_cpu_to_be_16(0xfeff);
	sum = (sum & 0xffff) + (sum >> 16);
	ip->hdr_checksum = (uint16_t)~sum;
	ip->time_to_live--;
	memcpy(eth, adj->rewrite, 8);
	memcpy((uint8_t *)eth + 8, adj->rewrite + 8, 4);
}

static rte_edge_t
ip4_rewrite_icmp(struct rte_mbuf *m, uint8_t type, uint8_t code, uint16_t mtu)
{
	if (!icmp_error_conf.enabled)
		return IP4_REWRITE_NEXT_DROP;
	icmp_error_mark(m, type, code, mtu);
	return IP4_REWRITE_NEXT_ICMP_ERROR;
}

static __rte_noinline rte_edge_t
ip4_rewrite_slow(struct rte_mbuf *m, struct rte_ether_hdr *eth, struct rte_ipv4_hdr *ip,
		 const struct adj *adj, uint64_t *errors)
{
	if (!adj->valid) {
		errors[IP4_REWRITE_ERROR_UNRESOLVED]++;
		return IP4_REWRITE_NEXT_ARP; /* ARP for the next hop and hold the packet */
	}
	if (ip->time_to_live <= 1) {
		errors[IP4_REWRITE_ERROR_TTL_EXPIRED]++;
		return ip4_rewrite_icmp(m, 11, 0, 0); /* time exceeded in transit */
	}
	/* larger than the MTU */
	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_DF_FLAG)) {
		errors[IP4_REWRITE_ERROR_MTU_DF]++;
		return ip4_rewrite_icmp(m, 3, 4, adj->mtu); /* fragmentation needed */
	}
	ip4_rewrite_apply(eth, ip, adj);
	return IP4_REWRITE_NEXT_FRAG;
}

static inline rte_edge_t
ip4_rewrite_one(struct rte_mbuf *m, uint64_t *errors)
{
	const struct adj *adj = &adj_table[*mbuf_adj(m)];
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

	if (unlikely(!adj->valid || ip->time_to_live <= 1 ||
		     rte_be_to_cpu_16(ip->total_length) > adj->mtu))
		return ip4_rewrite_slow(m, eth, ip, adj, errors);
	ip4_rewrite_apply(eth, ip, adj);
	return adj->tx_edge;
}

static uint16_t
ip4_rewrite_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf *m0 = objs[0];

	return node_process_each(graph, node, objs, cnt, adj_table[*mbuf_adj(m0)].tx_edge,
				 ip4_rewrite_one);
}

NODE_REGISTER_COUNTED(
	ip4_rewrite, "ip4-rewrite", ip4_rewrite_process, ip4_rewrite_error_strings,
	IP4_REWRITE_N_ERROR, IP4_REWRITE_N_NEXT, [IP4_REWRITE_NEXT_DROP] = "error-drop",
	[IP4_REWRITE_NEXT_FRAG] = "ip4-frag", [IP4_REWRITE_NEXT_ICMP_ERROR] = "ip4-icmp-error",
	[IP4_REWRITE_NEXT_ARP] = "ip4-arp");
