/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-nd: ICMPv6 for the router itself (RFC 4861, RFC 4443). A neighbour
 * solicitation for the input interface's address is answered with a
 * neighbour advertisement carrying our MAC (and its sender, when it gave its
 * link-layer address, is passed to the main lcore to learn); an advertisement
 * passes its target to be learned; an echo request to our address gets its
 * echo reply through ip6-lookup. ND messages must arrive with hop limit 255
 * and a valid checksum; everything else is counted and dropped.
 */
#include <rte_ip.h>
#include <rte_ring.h>

#include "edge.h"
#include "error.h"
#include "fib6.h"
#include "state.h"
#include "node_util.h"

/* edge 0 error-drop, 1 ip6-lookup; graph setup adds one edge per <port>-output */

#define foreach_ip6_nd_error                                                                       \
	_(NA_SENT, "neighbor advertisements sent")                                                 \
	_(NA_RECEIVED, "neighbor advertisements received")                                         \
	_(ECHO_REPLIES, "icmp6 echo replies sent")                                                 \
	_(NOT_FOR_US, "neighbor solicitation not for an interface address")                        \
	_(BAD, "icmp6 truncated, bad checksum or hop limit != 255")                                \
	_(OTHER, "icmp6 type not handled")                                                         \
	_(LOCAL, "ip6 local destination (not forwarded)")                                          \
	_(LEARN_FULL, "ND learn queue full")

enum ip6_nd_error {
#define _(sym, str) IP6_ND_ERROR_##sym,
	foreach_ip6_nd_error
#undef _
		IP6_ND_N_ERROR,
};

static const char *const ip6_nd_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_nd_error
#undef _
};

#define ND_NS 135
#define ND_NA 136

static void
nd_learn(const uint8_t *ip, const uint8_t *mac, uint16_t port_id, uint64_t *errors)
{
	struct nd_learn_msg msg = {.port_id = port_id};

	memcpy(msg.ip, ip, 16);
	memcpy(msg.mac, mac, 6);
	if (rte_ring_mp_enqueue_elem(vfwd.punt6_ring, &msg, sizeof(msg)) < 0)
		errors[IP6_ND_ERROR_LEARN_FULL]++;
}

/* The link-layer address option of the given type (1 source, 2 target), or NULL. */
static const uint8_t *
nd_lladdr_opt(const uint8_t *opt, unsigned len, uint8_t type)
{
	while (len >= 8) {
		unsigned olen = opt[1] * 8u;

		if (olen == 0 || olen > len)
			return NULL;
		if (opt[0] == type && olen >= 8)
			return opt + 2;
		opt += olen;
		len -= olen;
	}
	return NULL;
}

static uint16_t
icmp6_cksum(const struct rte_ipv6_hdr *ip, const void *l4, unsigned len)
{
	uint32_t s = rte_ipv6_phdr_cksum(ip, 0);

	s += rte_raw_cksum(l4, len);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Rewrites the NS in m into our NA (RFC 4861 7.2.4) and returns its edge. */
static rte_edge_t
nd_advertise(struct rte_mbuf *m, const struct port *p, uint64_t *errors,
	     const uint16_t *next_by_port)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);
	uint8_t *na = (uint8_t *)(ip + 1);
	static const uint8_t all_nodes[16] = {0xff, 2, [15] = 1};
	bool dad = ip->src_addr[0] == 0 && memcmp(ip->src_addr, ip->src_addr + 1, 15) == 0;
	uint16_t c;

	if (dad) {
		memcpy(ip->dst_addr, all_nodes, 16);
		memcpy(&eth->dst_addr, (const uint8_t[6]){0x33, 0x33, 0, 0, 0, 1}, 6);
	} else {
		memcpy(ip->dst_addr, ip->src_addr, 16);
		eth->dst_addr = eth->src_addr;
	}
	memcpy(ip->src_addr, p->ip6, 16);
	eth->src_addr = p->mac;
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = RTE_BE16(32);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255;
	na[0] = ND_NA;
	na[1] = 0;
	na[2] = na[3] = 0;
	na[4] = (uint8_t)(0x80 | (dad ? 0 : 0x40) | 0x20); /* R, S (unless DAD), O */
	na[5] = na[6] = na[7] = 0;
	memcpy(na + 8, p->ip6, 16); /* target */
	na[24] = 2;		    /* target link-layer address option */
	na[25] = 1;
	memcpy(na + 26, &p->mac, 6);
	c = icmp6_cksum(ip, na, 32);
	memcpy(na + 2, &c, 2);
	mbuf_trim_to(m, RTE_ETHER_HDR_LEN + 40 + 32);
	errors[IP6_ND_ERROR_NA_SENT]++;
	return next_by_port[m->port];
}

static rte_edge_t
ip6_nd_one(struct rte_mbuf *m, uint64_t *errors, const uint16_t *next_by_port)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eth + 1);
	const struct port *p = port_by_ethdev(m->port);
	uint8_t *icmp = (uint8_t *)(ip + 1);
	unsigned plen = rte_be_to_cpu_16(ip->payload_len);
	const uint8_t *ll;

	if (ip->proto != IPPROTO_ICMPV6) {
		errors[IP6_ND_ERROR_LOCAL]++;
		return 0;
	}
	if (plen < 8 || m->nb_segs != 1 || icmp6_cksum(ip, icmp, plen) != 0 || p == NULL) {
		errors[IP6_ND_ERROR_BAD]++;
		return 0;
	}
	if (icmp[0] == ND_NS || icmp[0] == ND_NA) {
		if (ip->hop_limits != 255 || icmp[1] != 0 || plen < 24 || icmp[8] == 0xff) {
			errors[IP6_ND_ERROR_BAD]++;
			return 0;
		}
	}
	if (icmp[0] == ND_NS) {
		if (!p->has_ip6 || memcmp(icmp + 8, p->ip6, 16) != 0) {
			errors[IP6_ND_ERROR_NOT_FOR_US]++;
			return 0;
		}
		ll = nd_lladdr_opt(icmp + 24, plen - 24, 1);
		if (ll != NULL && ip->src_addr[0] != 0 && !(ll[0] & 1))
			nd_learn(ip->src_addr, ll, m->port, errors);
		return nd_advertise(m, p, errors, next_by_port);
	}
	if (icmp[0] == ND_NA) {
		ll = nd_lladdr_opt(icmp + 24, plen - 24, 2);
		if (ll == NULL)
			ll = eth->src_addr.addr_bytes;
		errors[IP6_ND_ERROR_NA_RECEIVED]++;
		if (!(ll[0] & 1))
			nd_learn(icmp + 8, ll, m->port, errors);
		return 0;
	}
	if (icmp[0] == 128 && icmp[1] == 0 && ip->dst_addr[0] != 0xff) { /* echo request */
		uint8_t a[16];
		uint16_t c;

		memcpy(a, ip->src_addr, 16);
		memcpy(ip->src_addr, ip->dst_addr, 16);
		memcpy(ip->dst_addr, a, 16);
		ip->hop_limits = 64;
		icmp[0] = 129;
		icmp[2] = icmp[3] = 0;
		c = icmp6_cksum(ip, icmp, plen);
		memcpy(icmp + 2, &c, 2);
		errors[IP6_ND_ERROR_ECHO_REPLIES]++;
		return 1;
	}
	errors[IP6_ND_ERROR_OTHER]++;
	return 0;
}

static uint16_t
ip6_nd_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	const uint16_t *next_by_port = ((struct vfwd_node_ctx *)node->ctx)->next_by_port;

	for (uint16_t i = 0; i < cnt; i++)
		rte_node_enqueue_x1(graph, node, ip6_nd_one(objs[i], errors, next_by_port),
				    objs[i]);
	return cnt;
}

NODE_REGISTER_COUNTED(ip6_nd, "ip6-nd", ip6_nd_process, ip6_nd_error_strings, IP6_ND_N_ERROR, 2,
		      "error-drop", "ip6-lookup");
