/* SPDX-License-Identifier: BSD-3-Clause
 * ethernet-input: accepts a frame only when its destination MAC is the input
 * interface's (or a group address, for ARP and IPv6 neighbour discovery), checks that the mbuf
 * chain holds the bytes pkt_len claims, and dispatches by ethertype to ip4-input, ip6-input or
 * arp-input. Everything else is dropped and counted (RFC 1812 5.3.4: a router forwards no
 * link-layer broadcast or multicast, nor frames for other hosts).
 */
#include <string.h>
#include <rte_ether.h>

#include "error.h"
#include "port.h"
#include "state.h"
#include "node_util.h"

enum ethernet_input_next {
	ETHERNET_INPUT_NEXT_DROP,
	ETHERNET_INPUT_NEXT_IP4,
	ETHERNET_INPUT_NEXT_ARP,
	ETHERNET_INPUT_NEXT_IP6,
	ETHERNET_INPUT_N_NEXT,
};

#define foreach_ethernet_input_error                                                               \
	_(TRUNCATED, "frame too short")                                                            \
	_(UNKNOWN_TYPE, "unknown ethertype")                                                       \
	_(MAC_MISMATCH, "l3 mac mismatch")                                                         \
	_(L2_GROUP, "ip4 in l2 broadcast/multicast frame")                                         \
	_(BAD_CHAIN, "mbuf chain shorter than packet length")

enum ethernet_input_error {
#define _(sym, str) ETHERNET_INPUT_ERROR_##sym,
	foreach_ethernet_input_error
#undef _
		ETHERNET_INPUT_N_ERROR,
};

static const char *const ethernet_input_error_strings[] = {
#define _(sym, str) str,
	foreach_ethernet_input_error
#undef _
};

uint64_t port_mac48[RTE_MAX_ETHPORTS];

static __rte_noinline rte_edge_t
ethernet_slow(struct rte_mbuf *m, const struct rte_ether_hdr *eth, uint64_t *errors)
{
	if (m->pkt_len != m->data_len && !mbuf_chain_ok(m)) {
		errors[ETHERNET_INPUT_ERROR_BAD_CHAIN]++;
		return ETHERNET_INPUT_NEXT_DROP;
	}
	if (!rte_is_multicast_ether_addr(&eth->dst_addr) &&
	    (port_mac48[m->port] ^ ether_dst48(eth)) != 0) {
		errors[ETHERNET_INPUT_ERROR_MAC_MISMATCH]++;
		return ETHERNET_INPUT_NEXT_DROP;
	}
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP))
		return ETHERNET_INPUT_NEXT_ARP;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6))
		return ETHERNET_INPUT_NEXT_IP6; /* ND uses multicast MACs; ip6-input sorts them */
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		if (rte_is_multicast_ether_addr(&eth->dst_addr)) {
			errors[ETHERNET_INPUT_ERROR_L2_GROUP]++;
			return ETHERNET_INPUT_NEXT_DROP;
		}
		return ETHERNET_INPUT_NEXT_IP4;
	}
	errors[ETHERNET_INPUT_ERROR_UNKNOWN_TYPE]++;
	return ETHERNET_INPUT_NEXT_DROP;
}

static inline rte_edge_t
ethernet_classify(struct rte_mbuf *m, uint64_t *errors)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	if (unlikely(m->data_len < sizeof(*eth))) {
		errors[ETHERNET_INPUT_ERROR_TRUNCATED]++;
		return ETHERNET_INPUT_NEXT_DROP;
	}
	/* the fast path: our unicast MAC, IPv4, one segment holding the whole packet */
	if (likely(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
		   ether_dst48(eth) == port_mac48[m->port] && m->pkt_len == m->data_len))
		return ETHERNET_INPUT_NEXT_IP4;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
	    ether_dst48(eth) == port_mac48[m->port] && m->pkt_len == m->data_len)
		return ETHERNET_INPUT_NEXT_IP6; /* the same fast path for unicast IPv6 */
	return ethernet_slow(m, eth, errors);
}

/* the first node to read the frames: it prefetches whatever the vector's size; the edge
 * the whole vector is expected to take is the first frame's IP version (a vector of IPv6
 * then moves on whole, as one of IPv4 does) */
static uint16_t
ethernet_input_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	const struct rte_ether_hdr *eth0 =
		rte_pktmbuf_mtod((struct rte_mbuf *)objs[0], const struct rte_ether_hdr *);

	/* two loops, each with its expected edge a constant (a variable one costs more a packet) */
	if (eth0->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6))
		return node_process_each_pf(graph, node, objs, cnt, ETHERNET_INPUT_NEXT_IP6,
					    ethernet_classify, 0);
	return node_process_each_pf(graph, node, objs, cnt, ETHERNET_INPUT_NEXT_IP4,
				    ethernet_classify, 0);
}

NODE_REGISTER_COUNTED(
	ethernet_input, "ethernet-input", ethernet_input_process, ethernet_input_error_strings,
	ETHERNET_INPUT_N_ERROR, ETHERNET_INPUT_N_NEXT, [ETHERNET_INPUT_NEXT_DROP] = "error-drop",
	[ETHERNET_INPUT_NEXT_IP4] = "ip4-input", [ETHERNET_INPUT_NEXT_ARP] = "arp-input",
	[ETHERNET_INPUT_NEXT_IP6] = "ip6-input");
