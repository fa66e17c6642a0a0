/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-rewrite: drops packets whose hop limit would expire and packets larger
 * than the output MTU (routers do not fragment IPv6, RFC 8200 5), decrements
 * the hop limit (no checksum in IPv6), writes the neighbour's and the
 * interface's MACs and sends the packet to <port>-output. A next hop with no
 * neighbour entry is counted and goes to ip6-glean (neighbour solicitation).
 */
#include <rte_ip.h>

#include "error.h"
#include "fib.h"
#include "fib6.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

/* edges 0 (drop), 1 (ip6-glean) and 2 (ip6-icmp-error) are fixed; graph setup adds one edge per
 * <port>-output */

#define foreach_ip6_rewrite_error                                                                  \
	_(UNRESOLVED, "ip6 unresolved neighbor")                                                   \
	_(HOP_LIMIT, "ip6 hop limit <= 1")                                                         \
	_(TOO_BIG, "ip6 packet too big for the MTU")

enum ip6_rewrite_error {
#define _(sym, str) IP6_REWRITE_ERROR_##sym,
	foreach_ip6_rewrite_error
#undef _
		IP6_REWRITE_N_ERROR,
};

static const char *const ip6_rewrite_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_rewrite_error
#undef _
};

/* edge 2: the ICMPv6 error (RFC 4443) when ICMP errors are on, else error-drop */
static __rte_noinline rte_edge_t
ip6_rewrite_slow(struct rte_mbuf *m, const struct rte_ipv6_hdr *ip, const struct adj6 *adj,
		 uint64_t *errors)
{
	bool icmp = __atomic_load_n(&icmp_error_conf.enabled, __ATOMIC_RELAXED);

	if (!adj->valid) {
		errors[IP6_REWRITE_ERROR_UNRESOLVED]++;
		return 1; /* ip6-glean: solicit the next hop */
	}
	if (ip->hop_limits <= 1) {
		errors[IP6_REWRITE_ERROR_HOP_LIMIT]++;
		if (icmp)
			icmp_error_mark(m, 3, 0, 0); /* time exceeded: hop limit */
	} else {
		errors[IP6_REWRITE_ERROR_TOO_BIG]++;
		if (icmp)
			icmp_error_mark(m, 2, 0, adj->mtu); /* packet too big */
	}
	return icmp ? 2 : 0;
}

static inline rte_edge_t
ip6_rewrite_one(struct rte_mbuf *m, uint64_t *errors)
{
	const struct adj6 *adj = &adj6_table[*mbuf_adj(m)];
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);

	if (unlikely(!adj->valid || ip->hop_limits <= 1 ||
		     sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len) > adj->mtu))
		return ip6_rewrite_slow(m, ip, adj, errors);
	ip->hop_limits--;
	memcpy(eth, adj->rewrite, 8);
	memcpy((uint8_t *)eth + 8, adj->rewrite + 8, 4);
	return adj->tx_edge;
}

static uint16_t
ip6_rewrite_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf *m0 = objs[0];

	return node_process_each(graph, node, objs, cnt, adj6_table[*mbuf_adj(m0)].tx_edge,
				 ip6_rewrite_one);
}

NODE_REGISTER_COUNTED(ip6_rewrite, "ip6-rewrite", ip6_rewrite_process, ip6_rewrite_error_strings,
		      IP6_REWRITE_N_ERROR, 3, "error-drop", "ip6-glean", "ip6-icmp-error");
