/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-glean: IPv6 packets whose next hop has no neighbour entry. The node
 * sends a neighbour solicitation for the next hop (the route's, or the
 * destination on a connected prefix) to its solicited-node multicast address
 * (RFC 4861 7.2.2), with our link-layer address, at most once a second per
 * target, tells the main lcore it asked (an incomplete entry), and holds the
 * packet, as ip4-arp does: ip6-nd-pending, a source node in each worker
 * graph, returns held packets to ip6-lookup once the next hop resolves,
 * retransmits the solicitation every RETRANS_TIMER (1 s) while packets wait,
 * MAX_MULTICAST_SOLICIT (3) in all, and when the third has gone unanswered for
 * a second (or a packet has waited 3 s) gives each packet up: an ICMPv6
 * destination unreachable, code 3 (address unreachable), to its source through
 * ip6-icmp-error (RFC 4861 7.2.2, RFC 4443 3.1), or a drop when ICMP errors are
 * off. At most 64 wait per worker. The advertisement is learned by ip6-nd.
 * ip6-nd-pending also sends the solicitations that probe aged neighbours
 * (fib6_neighbors_age).
 */
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_fib6.h>
#include <rte_ring.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "fib6.h"
#include "graph.h"
#include "icmp_error.h"
#include "nbr.h"
#include "state.h"
#include "node_util.h"

/* edge 0 error-drop; graph setup adds one edge per <port>-output */

#define foreach_ip6_glean_error                                                                    \
	_(NS_SENT, "ip6 neighbor solicitations sent")                                              \
	_(THROTTLED, "ip6 neighbor solicitations throttled")                                       \
	_(HELD, "ip6 packets held for resolution")                                                 \
	_(NO_ADDRESS, "ip6 interface has no address")                                              \
	_(PENDING_FULL, "ip6 packets dropped: pending queue full")                                 \
	_(NO_BUFFER, "ip6 neighbor solicitation buffer allocation failure")

enum ip6_glean_error {
#define _(sym, str) IP6_GLEAN_ERROR_##sym,
	foreach_ip6_glean_error
#undef _
		IP6_GLEAN_N_ERROR,
};

static const char *const ip6_glean_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_glean_error
#undef _
};

#define foreach_ip6_nd_pending_error                                                               \
	_(RELEASED, "held packets released after resolution")                                      \
	_(GIVEN_UP, "held packets dropped: no advertisement after 3 solicitations")                \
	_(PROBES_SENT, "neighbor solicitations sent to probe aged neighbors")                      \
	_(RETRANSMITTED, "neighbor solicitations retransmitted")                                   \
	_(RETRANSMIT_NOT_SENT, "neighbor solicitation retransmissions not sent (no buffer)")

enum ip6_nd_pending_error {
#define _(sym, str) IP6_ND_PENDING_ERROR_##sym,
	foreach_ip6_nd_pending_error
#undef _
		IP6_ND_PENDING_N_ERROR,
};

static const char *const ip6_nd_pending_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_nd_pending_error
#undef _
};

/* edges 0 to 2 are fixed; graph setup adds one per <port>-output (solicitations) */
enum ip6_nd_pending_next {
	IP6_ND_PENDING_NEXT_DROP,
	IP6_ND_PENDING_NEXT_LOOKUP,
	IP6_ND_PENDING_NEXT_ICMP_ERROR,
	IP6_ND_PENDING_N_NEXT,
};

#define ND_PENDING_MAX 64

struct nd_held {
	struct rte_mbuf *m;
	uint64_t since;
};
/* one per worker graph: its held packets and the targets it solicits */
struct nd_pending {
	const uint16_t *next; /* ip6-nd-pending's edges to the ports' outputs (edge.c) */
	unsigned n;
	struct nd_held held[ND_PENDING_MAX];
	struct nbr_resolve resolve[NBR_RESOLVE_SLOTS];
};
static struct nd_pending nd_pending[MAX_WORKERS];

/* ip6-nd-pending's context: its second pointer carries this worker's nd_pending */
static inline struct nd_pending *
nd_pending_of_node(const struct rte_node *node)
{
	return (struct nd_pending *)(uintptr_t)((const struct vfwd_node_ctx *)node->ctx)
		->next_by_port;
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

/* Sends a neighbour solicitation for target out of p on the node's edge, records it
 * in the worker's resolution slot r and tells the main lcore it asked; false when no
 * buffer. */
static bool
nd_solicit_send(struct rte_graph *graph, struct rte_node *node, rte_edge_t edge,
		const struct port *p, const uint8_t *target, struct nbr_resolve *r, uint64_t now)
{
	struct nd_learn_msg msg = {.port_id = p->port_id, .kind = ND_MSG_REQUESTED};
	struct rte_mbuf *ns = nd_solicit_build(p, target);

	if (ns == NULL)
		return false;
	nbr_resolve_sent(r, target, p->port_id, now);
	memcpy(msg.ip, target, 16);
	rte_ring_mp_enqueue_elem(vfwd.punt6_ring, &msg, sizeof(msg));
	rte_node_enqueue_x1(graph, node, edge, ns);
	return true;
}

static void
ip6_glean_one(struct rte_graph *graph, struct rte_node *node, struct nd_pending *pend,
	      struct rte_mbuf *m, uint64_t now)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	const struct adj6 *adj = &adj6_table[*mbuf_adj(m)];
	const struct port *p = port_by_ethdev(adj->port_id);
	const struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	const uint8_t *target = adj->type == ADJ_GLEAN ? ip->dst_addr : adj->nh;
	struct nbr_resolve *r;

	if (p == NULL || !p->has_ip6) {
		errors[IP6_GLEAN_ERROR_NO_ADDRESS]++;
		rte_node_enqueue_x1(graph, node, 0, m);
		return;
	}
	r = nbr_resolve_slot(pend->resolve, target, p->port_id);
	if (!nbr_resolve_due(r, target, p->port_id, now))
		errors[IP6_GLEAN_ERROR_THROTTLED]++;
	else if (nd_solicit_send(graph, node,
				 ((struct vfwd_node_ctx *)node->ctx)->next_by_port[p->port_id], p,
				 target, r, now))
		errors[IP6_GLEAN_ERROR_NS_SENT]++;
	else
		errors[IP6_GLEAN_ERROR_NO_BUFFER]++;
	if (pend->n >= ND_PENDING_MAX) {
		errors[IP6_GLEAN_ERROR_PENDING_FULL]++;
		rte_node_enqueue_x1(graph, node, 0, m);
		return;
	}
	pend->held[pend->n].m = m;
	pend->held[pend->n].since = now;
	pend->n++;
	errors[IP6_GLEAN_ERROR_HELD]++;
}

static uint16_t
ip6_glean_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct nd_pending *pend = nd_pending_of(graph);
	uint64_t now = nbr_clock();

	if (unlikely(pend == NULL)) { /* not a worker's graph: nowhere to hold */
		((struct vfwd_node_ctx *)node->ctx)->errors[IP6_GLEAN_ERROR_PENDING_FULL] += cnt;
		rte_node_enqueue(graph, node, 0, objs, cnt);
		return cnt;
	}
	for (uint16_t i = 0; i < cnt; i++)
		ip6_glean_one(graph, node, pend, objs[i], now);
	return cnt;
}

/* ---- ip6-nd-pending ---- */

/* True when the held packet's destination now routes to a resolved adjacency (or no
 * longer to a neighbour: ip6-lookup decides); else the next hop it waits for, and its
 * port. */
static bool
held6_resolved(struct rte_mbuf *m, uint8_t target[16], uint16_t *port_id)
{
	const struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t miss = __atomic_load_n(&fib6_default_adj, __ATOMIC_ACQUIRE), h;
	uint8_t dst[1][RTE_FIB6_IPV6_ADDR_SIZE];
	const struct adj6 *a;
	uint64_t nh;

	memcpy(dst[0], ip->dst_addr, sizeof(dst[0]));
	rte_fib6_lookup_bulk(fib6_fib, dst, &nh, 1);
	h = nh == FIB6_MISS ? miss : (uint32_t)nh;
	if (h == UINT32_MAX || adj6_table[h].type < ADJ_GLEAN)
		return true;
	a = &adj6_table[h];
	if (a->type == ADJ_REWRITE && __atomic_load_n(&a->valid, __ATOMIC_ACQUIRE))
		return true;
	memcpy(target, a->type == ADJ_GLEAN ? ip->dst_addr : a->nh, 16);
	*port_id = a->port_id;
	return false;
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
		rte_node_enqueue_x1(graph, node, nd_pending_of_node(node)->next[p->port_id], r);
		errors[IP6_ND_PENDING_ERROR_PROBES_SENT]++;
		n++;
	}
	return n;
}

/* The timer of a packet held for target, as ip4-arp-pending's: retransmits the
 * solicitation when due (RETRANS_TIMER apart, MAX_MULTICAST_SOLICIT in all) and says
 * whether resolution has failed (RFC 4861 7.2.2). *sent counts what was enqueued. */
static bool
nd_held_failed(struct rte_graph *graph, struct rte_node *node, struct nd_pending *pend,
	       const uint8_t *target, uint16_t port_id, uint64_t now, uint16_t *sent)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	struct nbr_resolve *r = nbr_resolve_slot(pend->resolve, target, port_id);
	const struct port *p = port_by_ethdev(port_id);

	switch (nbr_resolve_check(r, target, port_id, now)) {
	case NBR_RESOLVE_FAILED:
		return true;
	case NBR_RESOLVE_RETRANSMIT:
		if (p != NULL && p->has_ip6 &&
		    nd_solicit_send(graph, node, pend->next[port_id], p, target, r, now)) {
			errors[IP6_ND_PENDING_ERROR_RETRANSMITTED]++;
			(*sent)++;
		} else {
			nbr_resolve_sent(r, target, port_id, now);
			errors[IP6_ND_PENDING_ERROR_RETRANSMIT_NOT_SENT]++;
		}
		return false;
	default:
		return false;
	}
}

/* Gives a held packet up: an ICMPv6 address unreachable (1/3) to its source, made by
 * ip6-icmp-error with its RFC 4443 2.4 checks and rate limit; a drop when ICMP errors
 * are off. */
static void
nd_held_give_up(struct rte_graph *graph, struct rte_node *node, struct rte_mbuf *m)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;

	errors[IP6_ND_PENDING_ERROR_GIVEN_UP]++;
	if (!__atomic_load_n(&icmp_error_conf.enabled, __ATOMIC_RELAXED)) {
		rte_node_enqueue_x1(graph, node, IP6_ND_PENDING_NEXT_DROP, m);
		return;
	}
	icmp_error_mark(m, 1, 3, 0); /* destination unreachable: address unreachable */
	rte_node_enqueue_x1(graph, node, IP6_ND_PENDING_NEXT_ICMP_ERROR, m);
}

static uint16_t
ip6_nd_pending_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	struct nd_pending *pend =
		(struct nd_pending *)((struct vfwd_node_ctx *)node->ctx)->next_by_port;
	uint64_t now, hold;
	uint16_t sent = 0;
	unsigned k = 0;

	RTE_SET_USED(objs);
	RTE_SET_USED(cnt);
	if (unlikely(vfwd.probe6_ring != NULL && rte_ring_count(vfwd.probe6_ring) != 0))
		sent = nd_probes_send(graph, node, errors);
	if (likely(pend->n == 0))
		return sent;
	now = nbr_clock();
	hold = NBR_MAX_SOLICIT * nbr_retrans_tsc();
	for (unsigned i = 0; i < pend->n; i++) {
		struct nd_held *h = &pend->held[i];
		uint8_t target[16];
		uint16_t port_id;

		if (held6_resolved(h->m, target, &port_id)) {
			errors[IP6_ND_PENDING_ERROR_RELEASED]++;
			rte_node_enqueue_x1(graph, node, IP6_ND_PENDING_NEXT_LOOKUP, h->m);
		} else if (now - h->since >= hold ||
			   nd_held_failed(graph, node, pend, target, port_id, now, &sent)) {
			nd_held_give_up(graph, node, h->m);
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
	nd_pending[vfwd.cur_worker].next = edge_table(node->name);
	return 0;
}

static struct rte_node_register ip6_nd_pending_node = {
	.name = "ip6-nd-pending",
	.process = ip6_nd_pending_process,
	.init = ip6_nd_pending_init,
	.flags = RTE_NODE_SOURCE_F,
	.nb_edges = IP6_ND_PENDING_N_NEXT,
	.next_nodes =
		{
			[IP6_ND_PENDING_NEXT_DROP] = "error-drop",
			[IP6_ND_PENDING_NEXT_LOOKUP] = "ip6-lookup",
			[IP6_ND_PENDING_NEXT_ICMP_ERROR] = "ip6-icmp-error",
		},
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
	err_register("ip6-glean", ip6_glean_error_strings, IP6_GLEAN_N_ERROR);
	err_register("ip6-nd-pending", ip6_nd_pending_error_strings, IP6_ND_PENDING_N_ERROR);
}
