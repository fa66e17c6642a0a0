/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-glean: IPv6 packets whose next hop has no neighbour entry. The node
 * sends a neighbour solicitation for the next hop (the route's, or the
 * destination on a connected prefix) to its solicited-node multicast address
 * (RFC 4861 7.2.2), with our link-layer address, at most once a second per
 * target, and drops the packet (IPv6 has no held queue here; the sender
 * retransmits). The advertisement is learned by ip6-nd.
 */
#include <rte_cycles.h>
#include <rte_ip.h>

#include "vfwd_int.h"
#include "node_util.h"

#define ND_THROTTLE_SLOTS 256

/* edge 0 error-drop; graph setup adds one edge per <port>-output */
uint16_t ip6_glean_next[RTE_MAX_ETHPORTS];

static const char *const ip6_glean_error_strings[] = {
	"ip6 neighbor solicitations sent",
	"ip6 neighbor solicitations throttled",
	"ip6 packets dropped while resolving",
	"ip6 interface has no address",
};

struct nd_throttle {
	uint8_t ip[16];
	uint64_t last;
};
static RTE_DEFINE_PER_LCORE(struct nd_throttle[ND_THROTTLE_SLOTS], nd_throttle);

static bool
nd_may_solicit(const uint8_t *ip, uint64_t now)
{
	uint32_t h;
	struct nd_throttle *t;

	memcpy(&h, ip + 12, 4);
	t = &RTE_PER_LCORE(nd_throttle)[(h * 2654435761u >> 24) % ND_THROTTLE_SLOTS];
	if (t->last != 0 && memcmp(t->ip, ip, 16) == 0 && now - t->last < rte_get_tsc_hz())
		return false;
	memcpy(t->ip, ip, 16);
	t->last = now;
	return true;
}

static struct rte_mbuf *
nd_solicit_build(const struct port *p, const uint8_t *target)
{
	struct rte_mbuf *r = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f, *ns;
	struct rte_ipv6_hdr *ip;
	uint32_t s;
	uint16_t c;

	if (r == NULL)
		return NULL;
	f = (uint8_t *)rte_pktmbuf_append(r, RTE_ETHER_HDR_LEN + 40 + 32);
	if (f == NULL) {
		rte_pktmbuf_free(r);
		return NULL;
	}
	memset(f, 0, RTE_ETHER_HDR_LEN + 40 + 32);
	f[0] = 0x33;
	f[1] = 0x33;
	f[2] = 0xff;
	memcpy(f + 3, target + 13, 3);
	memcpy(f + 6, &p->mac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip = (struct rte_ipv6_hdr *)(f + RTE_ETHER_HDR_LEN);
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = RTE_BE16(32);
	ip->proto = IPPROTO_ICMPV6;
	ip->hop_limits = 255;
	memcpy(ip->src_addr, p->ip6, 16);
	ip->dst_addr[0] = 0xff;
	ip->dst_addr[1] = 0x02;
	ip->dst_addr[11] = 0x01;
	ip->dst_addr[12] = 0xff;
	memcpy(ip->dst_addr + 13, target + 13, 3);
	ns = (uint8_t *)(ip + 1);
	ns[0] = 135;
	memcpy(ns + 8, target, 16);
	ns[24] = 1; /* source link-layer address */
	ns[25] = 1;
	memcpy(ns + 26, &p->mac, 6);
	s = rte_ipv6_phdr_cksum(ip, 0) + rte_raw_cksum(ns, 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	c = (uint16_t)~s;
	memcpy(ns + 2, &c, 2);
	r->port = p->port_id;
	return r;
}

static uint16_t
ip6_glean_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	uint64_t now = rte_rdtsc();

	for (uint16_t i = 0; i < cnt; i++) {
		struct rte_mbuf *m = objs[i];
		const struct adj6 *adj = &adj6_table[*mbuf_adj(m)];
		const struct port *p = port_by_ethdev(adj->port_id);
		const struct rte_ipv6_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		const uint8_t *target = adj->type == ADJ_GLEAN ? ip->dst_addr : adj->nh;
		struct rte_mbuf *r;

		errors[2]++;
		if (p == NULL || !p->has_ip6) {
			errors[3]++;
		} else if (!nd_may_solicit(target, now)) {
			errors[1]++;
		} else if ((r = nd_solicit_build(p, target)) != NULL) {
			rte_node_enqueue_x1(graph, node, ip6_glean_next[p->port_id], r);
			errors[0]++;
		}
		rte_node_enqueue_x1(graph, node, 0, m);
	}
	return cnt;
}

static struct rte_node_register ip6_glean_node = {
	.name = "ip6-glean",
	.process = ip6_glean_process,
	.init = node_ctx_errors_init,
	.nb_edges = 1,
	.next_nodes = {"error-drop"},
};

RTE_NODE_REGISTER(ip6_glean_node);

RTE_INIT(ip6_glean_errors)
{
	err_register("ip6-glean", ip6_glean_error_strings, RTE_DIM(ip6_glean_error_strings));
}
