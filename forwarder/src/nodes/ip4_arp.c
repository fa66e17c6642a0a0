/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-arp: packets whose next hop has no neighbour entry yet. The node sends
 * an ARP request for the next hop (the route's, or the destination itself on
 * a connected subnet: VPP's glean) out of the adjacency's interface, at most
 * once a second per target and within a per-worker token bucket, tells the
 * main lcore it asked (so the reply is learned as an answer to a request), and
 * holds the packet. ip4-arp-pending, a source node called every walk, sends
 * held packets back to ip4-lookup once their destination resolves, repeats
 * the request once a second while packets wait (3 requests in all, RFC 1122
 * 2.3.2.1), and gives a packet up when the third has gone unanswered for a
 * second, or after 3 s held: it becomes an ICMP host unreachable (3/1) to its
 * source through ip4-icmp-error (RFC 1812 4.3.3.1, 5.2.7.1), or is dropped
 * when ICMP errors are off. At most ARP_PENDING_MAX packets wait per worker.
 */
#include <assert.h>
#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_fib.h>
#include <rte_ring.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "graph.h"
#include "icmp_error.h"
#include "nbr.h"
#include "state.h"
#include "node_util.h"

#define ARP_PENDING_MAX 64

/* edge 0 error-drop; graph setup adds one edge per <port>-output */

#define foreach_ip4_arp_error                                                                      \
	_(REQUESTS_SENT, "ARP requests sent")                                                      \
	_(THROTTLED, "ARP requests throttled")                                                     \
	_(HELD, "packets held for resolution")                                                     \
	_(PENDING_FULL, "packets dropped: pending queue full")                                     \
	_(NO_ADDRESS, "packets dropped: interface has no address")                                 \
	_(NO_BUFFER, "ARP request buffer allocation failure")

enum ip4_arp_error {
#define _(sym, str) IP4_ARP_ERROR_##sym,
	foreach_ip4_arp_error
#undef _
		IP4_ARP_N_ERROR,
};

static const char *const ip4_arp_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_arp_error
#undef _
};

#define foreach_ip4_arp_pending_error                                                              \
	_(RELEASED, "held packets released after resolution")                                      \
	_(GIVEN_UP, "held packets dropped: no ARP reply to 3 requests")                            \
	_(PROBES_SENT, "ARP requests sent to probe aged neighbors")                                \
	_(RETRANSMITTED, "ARP requests retransmitted")                                             \
	_(RETRANSMIT_NOT_SENT, "ARP retransmissions not sent (rate limit or no buffer)")

enum ip4_arp_pending_error {
#define _(sym, str) IP4_ARP_PENDING_ERROR_##sym,
	foreach_ip4_arp_pending_error
#undef _
		IP4_ARP_PENDING_N_ERROR,
};

static const char *const ip4_arp_pending_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_arp_pending_error
#undef _
};

/* edges 0 to 2 are fixed; graph setup adds one per <port>-output (requests, probes) */
enum ip4_arp_pending_next {
	IP4_ARP_PENDING_NEXT_DROP,
	IP4_ARP_PENDING_NEXT_LOOKUP,
	IP4_ARP_PENDING_NEXT_ICMP_ERROR,
	IP4_ARP_PENDING_N_NEXT,
};

struct arp_held {
	struct rte_mbuf *m;
	uint64_t since;
};

/* one per worker graph; both nodes' contexts point here */
struct arp_state {
	const uint16_t *arp_next;     /* ip4-arp's edges to the ports' outputs (edge.c) */
	const uint16_t *pending_next; /* ip4-arp-pending's */
	unsigned n_held;
	struct arp_held held[ARP_PENDING_MAX];
	struct nbr_resolve resolve[NBR_RESOLVE_SLOTS]; /* the targets asked for */
	double tokens;
	uint64_t last;
};

struct arp_ctx {
	uint64_t *errors;
	struct arp_state *st;
};

static struct arp_state arp_states[MAX_WORKERS];

#define ARP_RATE 1000 /* requests per second per worker */
#define ARP_BURST 100

/* Takes a token of the worker's request bucket; false when it is empty. */
static bool
arp_bucket_take(struct arp_state *st, uint64_t now)
{
	uint64_t hz = rte_get_tsc_hz();

	st->tokens += st->last ? (double)(now - st->last) * ARP_RATE / (double)hz : ARP_BURST;
	st->last = now;
	if (st->tokens > ARP_BURST)
		st->tokens = ARP_BURST;
	if (st->tokens < 1)
		return false;
	st->tokens -= 1;
	return true;
}

/* The target as a resolution key: IPv4 in the first 4 bytes, host order */
static void
arp_key(uint8_t key[16], uint32_t ip)
{
	memset(key, 0, 16);
	memcpy(key, &ip, 4);
}

static struct rte_mbuf *
arp_request_build(const struct port *p, uint32_t target)
{
	struct rte_mbuf *r = rte_pktmbuf_alloc(vfwd.pool);
	struct rte_ether_hdr *eth;
	struct rte_arp_hdr *arp;

	if (r == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(r, 60);
	if (eth == NULL) {
		rte_pktmbuf_free(r);
		return NULL;
	}
	memset(eth, 0, 60);
	memset(&eth->dst_addr, 0xff, sizeof(eth->dst_addr));
	eth->src_addr = p->mac;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	arp = (struct rte_arp_hdr *)(eth + 1);
	arp->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = 6;
	arp->arp_plen = 4;
	arp->arp_opcode = RTE_BE16(RTE_ARP_OP_REQUEST);
	arp->arp_data.arp_sha = p->mac;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(p->ip4);
	arp->arp_data.arp_tip = rte_cpu_to_be_32(target);
	r->port = p->port_id;
	return r;
}

/* Sends an ARP request for target (key) out of p on the node's edge, records it in the
 * worker's resolution slot r and tells the main lcore it asked; false when no buffer. */
static bool
arp_request_send(struct rte_graph *graph, struct rte_node *node, rte_edge_t edge,
		 const struct port *p, const uint8_t *key, struct nbr_resolve *r, uint64_t now)
{
	uint32_t target;
	struct rte_mbuf *req;
	struct arp_learn_msg msg = {.port_id = p->port_id, .kind = ARP_MSG_REQUESTED};

	memcpy(&target, key, 4);
	req = arp_request_build(p, target);
	if (req == NULL)
		return false;
	nbr_resolve_sent(r, key, p->port_id, now);
	rte_node_enqueue_x1(graph, node, edge, req);
	msg.ip = target;
	rte_ring_mp_enqueue_elem(vfwd.punt_ring, &msg, sizeof(msg));
	return true;
}

static void
ip4_arp_one(struct rte_graph *graph, struct rte_node *node, struct arp_ctx *ctx, struct rte_mbuf *m,
	    uint64_t now)
{
	const struct adj *adj = &adj_table[*mbuf_adj(m)];
	const struct port *p = port_by_ethdev(adj->port_id);
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t target = adj->type == ADJ_GLEAN ? rte_be_to_cpu_32(ip->dst_addr) : adj->nh;
	struct arp_state *st = ctx->st;
	uint64_t *errors = ctx->errors;
	struct nbr_resolve *r;
	uint8_t key[16];

	if (p == NULL || p->ip4 == 0) {
		errors[IP4_ARP_ERROR_NO_ADDRESS]++;
		rte_node_enqueue_x1(graph, node, 0, m);
		return;
	}
	arp_key(key, target);
	r = nbr_resolve_slot(st->resolve, key, p->port_id);
	if (!nbr_resolve_due(r, key, p->port_id, now) || !arp_bucket_take(st, now))
		errors[IP4_ARP_ERROR_THROTTLED]++;
	else if (arp_request_send(graph, node, st->arp_next[p->port_id], p, key, r, now))
		errors[IP4_ARP_ERROR_REQUESTS_SENT]++;
	else
		errors[IP4_ARP_ERROR_NO_BUFFER]++;
	if (st->n_held >= ARP_PENDING_MAX) {
		errors[IP4_ARP_ERROR_PENDING_FULL]++;
		rte_node_enqueue_x1(graph, node, 0, m);
		return;
	}
	st->held[st->n_held].m = m;
	st->held[st->n_held].since = now;
	st->n_held++;
	errors[IP4_ARP_ERROR_HELD]++;
}

static uint16_t
ip4_arp_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct arp_ctx *ctx = (struct arp_ctx *)node->ctx;
	uint64_t now = nbr_clock();

	for (uint16_t i = 0; i < cnt; i++)
		ip4_arp_one(graph, node, ctx, objs[i], now);
	return cnt;
}

/* ---- ip4-arp-pending ---- */

/* True when the held packet's destination now routes to a resolved adjacency (or to
 * something else altogether, which ip4-lookup will handle); else the next hop it
 * waits for, and its port. */
static bool
held_resolved(struct rte_mbuf *m, uint32_t *target, uint16_t *port_id)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr);
	const struct adj *a;
	uint64_t nh;

	rte_fib_lookup_bulk(fib_ip4, &dst, &nh, 1);
	if (nh == FIB_MISS || adj_table[(uint32_t)nh].type < ADJ_GLEAN)
		return true;
	a = &adj_table[(uint32_t)nh];
	if (a->type == ADJ_REWRITE && __atomic_load_n(&a->valid, __ATOMIC_ACQUIRE))
		return true;
	*target = a->type == ADJ_GLEAN ? dst : a->nh;
	*port_id = a->port_id;
	return false;
}

/* ARP requests for the aged neighbours the main lcore asked to probe */
static uint16_t
arp_probes_send(struct rte_graph *graph, struct rte_node *node, uint64_t *errors)
{
	struct nbr_probe_msg msg;
	uint16_t n = 0;

	while (n < 32 && rte_ring_mc_dequeue_elem(vfwd.probe4_ring, &msg, sizeof(msg)) == 0) {
		const struct port *p = port_by_ethdev(msg.port_id);
		struct rte_mbuf *r;
		uint32_t ip;

		memcpy(&ip, msg.ip, 4);
		if (p == NULL || p->ip4 == 0 || (r = arp_request_build(p, ip)) == NULL)
			continue;
		rte_node_enqueue_x1(graph, node,
				    ((struct arp_ctx *)node->ctx)->st->pending_next[p->port_id], r);
		errors[IP4_ARP_PENDING_ERROR_PROBES_SENT]++;
		n++;
	}
	return n;
}

/* The timer of a packet held for target: repeats the request when it is due (once a
 * second, NBR_MAX_SOLICIT in all; a repeat that cannot go still counts as the round's,
 * so the round ends on time) and says whether the resolution has failed. *sent counts
 * the requests enqueued. */
static bool
arp_held_failed(struct rte_graph *graph, struct rte_node *node, struct arp_ctx *ctx,
		uint32_t target, uint16_t port_id, uint64_t now, uint16_t *sent)
{
	const struct port *p = port_by_ethdev(port_id);
	struct nbr_resolve *r;
	uint8_t key[16];

	arp_key(key, target);
	r = nbr_resolve_slot(ctx->st->resolve, key, port_id);
	switch (nbr_resolve_check(r, key, port_id, now)) {
	case NBR_RESOLVE_FAILED:
		return true;
	case NBR_RESOLVE_RETRANSMIT:
		if (p != NULL && p->ip4 != 0 && arp_bucket_take(ctx->st, now) &&
		    arp_request_send(graph, node, ctx->st->pending_next[port_id], p, key, r, now)) {
			ctx->errors[IP4_ARP_PENDING_ERROR_RETRANSMITTED]++;
			(*sent)++;
		} else {
			nbr_resolve_sent(r, key, port_id, now);
			ctx->errors[IP4_ARP_PENDING_ERROR_RETRANSMIT_NOT_SENT]++;
		}
		return false;
	default:
		return false;
	}
}

/* Gives a held packet up: an ICMP host unreachable to its source (RFC 1812 4.3.3.1,
 * 5.2.7.1) made by ip4-icmp-error, which applies RFC 1812 4.3.2.7 and the rate limit;
 * a drop when ICMP errors are off. */
static void
arp_held_give_up(struct rte_graph *graph, struct rte_node *node, uint64_t *errors,
		 struct rte_mbuf *m)
{
	errors[IP4_ARP_PENDING_ERROR_GIVEN_UP]++;
	if (!__atomic_load_n(&icmp_error_conf.enabled, __ATOMIC_RELAXED)) {
		rte_node_enqueue_x1(graph, node, IP4_ARP_PENDING_NEXT_DROP, m);
		return;
	}
	icmp_error_mark(m, 3, 1, 0); /* destination unreachable: host */
	rte_node_enqueue_x1(graph, node, IP4_ARP_PENDING_NEXT_ICMP_ERROR, m);
}

static uint16_t
ip4_arp_pending_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct arp_ctx *ctx = (struct arp_ctx *)node->ctx;
	struct arp_state *st = ctx->st;
	uint64_t now, hold;
	uint16_t sent = 0;
	unsigned k = 0;

	RTE_SET_USED(objs);
	RTE_SET_USED(cnt);
	if (unlikely(vfwd.probe4_ring != NULL && rte_ring_count(vfwd.probe4_ring) != 0))
		sent = arp_probes_send(graph, node, ctx->errors);
	if (likely(st->n_held == 0))
		return sent;
	now = nbr_clock();
	hold = NBR_MAX_SOLICIT * nbr_retrans_tsc();
	for (unsigned i = 0; i < st->n_held; i++) {
		struct arp_held *h = &st->held[i];
		uint32_t target;
		uint16_t port_id;

		if (held_resolved(h->m, &target, &port_id)) {
			ctx->errors[IP4_ARP_PENDING_ERROR_RELEASED]++;
			rte_node_enqueue_x1(graph, node, IP4_ARP_PENDING_NEXT_LOOKUP, h->m);
		} else if (now - h->since >= hold ||
			   arp_held_failed(graph, node, ctx, target, port_id, now, &sent)) {
			arp_held_give_up(graph, node, ctx->errors, h->m);
		} else {
			st->held[k++] = *h;
		}
	}
	cnt = (uint16_t)(sent + st->n_held - k);
	st->n_held = k;
	return cnt;
}

/* Frees every held packet (tests and fuzzers that count mbufs). */
void
ip4_arp_pending_flush(void)
{
	for (unsigned w = 0; w < MAX_WORKERS; w++) {
		for (unsigned i = 0; i < arp_states[w].n_held; i++)
			rte_pktmbuf_free(arp_states[w].held[i].m);
		arp_states[w].n_held = 0;
	}
}

static int
ip4_arp_init(const struct rte_graph *graph, struct rte_node *node)
{
	struct arp_ctx *ctx = (struct arp_ctx *)node->ctx;

	RTE_SET_USED(graph);
	static_assert(sizeof(struct arp_ctx) <= RTE_NODE_CTX_SZ, "arp context too large");
	ctx->errors = err_block_for_node(node->name, (unsigned)vfwd.cur_worker);
	ctx->st = &arp_states[vfwd.cur_worker];
	ctx->st->arp_next = edge_table("ip4-arp");
	ctx->st->pending_next = edge_table("ip4-arp-pending");
	return 0;
}

static struct rte_node_register ip4_arp_node = {
	.name = "ip4-arp",
	.process = ip4_arp_process,
	.init = ip4_arp_init,
	.nb_edges = 1,
	.next_nodes = {"error-drop"},
};

static struct rte_node_register ip4_arp_pending_node = {
	.name = "ip4-arp-pending",
	.process = ip4_arp_pending_process,
	.init = ip4_arp_init,
	.flags = RTE_NODE_SOURCE_F,
	.nb_edges = IP4_ARP_PENDING_N_NEXT,
	.next_nodes =
		{
			[IP4_ARP_PENDING_NEXT_DROP] = "error-drop",
			[IP4_ARP_PENDING_NEXT_LOOKUP] = "ip4-lookup",
			[IP4_ARP_PENDING_NEXT_ICMP_ERROR] = "ip4-icmp-error",
		},
};

RTE_NODE_REGISTER(ip4_arp_node);
RTE_NODE_REGISTER(ip4_arp_pending_node);

RTE_INIT(ip4_arp_errors)
{
	err_register("ip4-arp", ip4_arp_error_strings, IP4_ARP_N_ERROR);
	err_register("ip4-arp-pending", ip4_arp_pending_error_strings, IP4_ARP_PENDING_N_ERROR);
}
