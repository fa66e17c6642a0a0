/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-glean: IPv6 packets whose next hop has no neighbour entry. The node
 * sends a neighbour solicitation for the next hop (the route's, or the
 * destination on a connected prefix) to its solicited-node multicast address
 * (RFC 4861 7.2.2), with our link-layer address, at most once a second per
 * target, tells the main lcore it asked (an incomplete entry), and holds the
 * packet, as ip4-arp does: ip6-nd-pending, a source node in each worker
 * graph, returns held packets to ip6-lookup once the next hop resolves and
 * drops them after 1 s; at most 64 wait per worker. The advertisement is
 * learned by ip6-nd. ip6-nd-pending also sends the solicitations that probe
 * aged neighbours (fib6_neighbors_age).
 */
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_lpm6.h>
#include <rte_ring.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "fib6.h"
#include "graph.h"
#include "nbr.h"
#include "state.h"
#include "node_util.h"

#define ND_THROTTLE_SLOTS 256

/* edge 0 error-drop; graph setup adds one edge per <port>-output */

static const char *const ip6_glean_error_strings[] = {
	"ip6 neighbor solicitations sent",	   "ip6 neighbor solicitations throttled",
	"ip6 packets held for resolution",	   "ip6 interface has no address",
	"ip6 packets dropped: pending queue full",
};

static const char *const ip6_nd_pending_error_strings[] = {
	"held packets released after resolution",
	"held packets dropped: unresolved after 1 s",
	"neighbor solicitations sent to probe aged neighbors",
};

#define ND_PENDING_MAX 64

struct nd_held {
	struct rte_mbuf *m;
	uint64_t since;
};
struct nd_pending {
	unsigned n;
	struct nd_held held[ND_PENDING_MAX];
};
static struct nd_pending nd_pending[MAX_WORKERS];

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

/* the held packets of the worker whose graph this is */
static struct nd_pending *
nd_pending_of(const struct rte_graph *graph)
{
	for (unsigned w = 0; w < vfwd.n_workers; w++)
		if (vfwd.graph[w] == graph)
			return &nd_pending[w];
	return NULL;
}

static uint16_t
ip6_glean_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	uint64_t now = rte_rdtsc();

	struct nd_pending *pend = nd_pending_of(graph);
	for (uint16_t i = 0; i < cnt; i++) {
		struct rte_mbuf *m = objs[i];
		const struct adj6 *adj = &adj6_table[*mbuf_adj(m)];
		const struct port *p = port_by_ethdev(adj->port_id);
		const struct rte_ipv6_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
		const uint8_t *target = adj->type == ADJ_GLEAN ? ip->dst_addr : adj->nh;
		struct rte_mbuf *r;

		if (p == NULL || !p->has_ip6) {
			errors[3]++;
			rte_node_enqueue_x1(graph, node, 0, m);
			continue;
		}
		if (!nd_may_solicit(target, now)) {
			errors[1]++;
		} else if ((r = nd_solicit_build(p, target)) != NULL) {
			struct nd_learn_msg msg = {.port_id = p->port_id, .kind = ND_MSG_REQUESTED};

			memcpy(msg.ip, target, 16);
			rte_ring_mp_enqueue_elem(vfwd.punt6_ring, &msg, sizeof(msg));
			rte_node_enqueue_x1(graph, node, ip6_glean_next[p->port_id], r);
			errors[0]++;
		}
		if (pend == NULL || pend->n >= ND_PENDING_MAX) {
			errors[4]++;
			rte_node_enqueue_x1(graph, node, 0, m);
			continue;
		}
		pend->held[pend->n].m = m;
		pend->held[pend->n].since = now;
		pend->n++;
		errors[2]++;
	}
	return cnt;
}

/* ---- ip6-nd-pending ---- */

static bool
held6_resolved(struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t miss = __atomic_load_n(&fib6_default_adj, __ATOMIC_ACQUIRE), h;

	if (rte_lpm6_lookup(fib6_lpm, ip->dst_addr, &h) < 0)
		h = miss;
	if (h == UINT32_MAX || adj6_table[h].type < ADJ_GLEAN)
		return true; /* no longer routed here: ip6-lookup decides */
	return adj6_table[h].type == ADJ_REWRITE &&
	       __atomic_load_n(&adj6_table[h].valid, __ATOMIC_ACQUIRE);
}

static uint16_t
nd_probes_send(struct rte_graph *graph, struct rte_node *node, uint64_t *errors)
{
	struct nbr_probe_msg msg;
	uint16_t n = 0;

	while (n < 32 && rte_ring_mc_dequeue_elem(vfwd.probe6_ring, &msg, sizeof(msg)) == 0) {
		const struct port *p = port_by_ethdev(msg.port_id);
		struct rte_mbuf *r;

		if (p == NULL || !p->has_ip6 || (r = nd_solicit_build(p, msg.ip)) == NULL)
			continue;
		rte_node_enqueue_x1(graph, node, ip6_nd_pending_next[p->port_id], r);
		errors[2]++;
		n++;
	}
	return n;
}

static uint16_t
ip6_nd_pending_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	struct nd_pending *pend =
		(struct nd_pending *)((struct vfwd_node_ctx *)node->ctx)->next_by_port;
	uint64_t now, hz;
	uint16_t sent = 0;
	unsigned k = 0;

	RTE_SET_USED(objs);
	RTE_SET_USED(cnt);
	if (unlikely(vfwd.probe6_ring != NULL && rte_ring_count(vfwd.probe6_ring) != 0))
		sent = nd_probes_send(graph, node, errors);
	if (likely(pend->n == 0))
		return sent;
	now = rte_rdtsc();
	hz = rte_get_tsc_hz();
	for (unsigned i = 0; i < pend->n; i++) {
		struct nd_held *h = &pend->held[i];

		if (held6_resolved(h->m)) {
			errors[0]++;
			rte_node_enqueue_x1(graph, node, 1, h->m);
		} else if (now - h->since > hz) {
			errors[1]++;
			rte_node_enqueue_x1(graph, node, 0, h->m);
		} else {
			pend->held[k++] = *h;
		}
	}
	cnt = (uint16_t)(sent + pend->n - k);
	pend->n = k;
	return cnt;
}

/* Frees every held packet (tests and fuzzers that count mbufs). */
void
ip6_nd_pending_flush(void)
{
	for (unsigned w = 0; w < MAX_WORKERS; w++) {
		for (unsigned i = 0; i < nd_pending[w].n; i++)
			rte_pktmbuf_free(nd_pending[w].held[i].m);
		nd_pending[w].n = 0;
	}
}

static int
ip6_nd_pending_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct vfwd_node_ctx *ctx = (struct vfwd_node_ctx *)node->ctx;

	RTE_SET_USED(graph);
	ctx->errors = err_block_for_node(node->name, (unsigned)vfwd.cur_worker);
	/* the context's second pointer carries this worker's held packets */
	ctx->next_by_port = (const uint16_t *)(void *)&nd_pending[vfwd.cur_worker];
	return 0;
}

static struct rte_node_register ip6_nd_pending_node = {
	.name = "ip6-nd-pending",
	.process = ip6_nd_pending_process,
	.init = ip6_nd_pending_init,
	.flags = RTE_NODE_SOURCE_F,
	.nb_edges = 2,
	.next_nodes = {"error-drop", "ip6-lookup"},
};

RTE_NODE_REGISTER(ip6_nd_pending_node);

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
	err_register("ip6-nd-pending", ip6_nd_pending_error_strings,
		     RTE_DIM(ip6_nd_pending_error_strings));
}
