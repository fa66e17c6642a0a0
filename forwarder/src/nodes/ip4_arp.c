/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-arp: packets whose next hop has no neighbour entry yet. The node sends
 * an ARP request for the next hop (the route's, or the destination itself on
 * a connected subnet: VPP's glean) out of the adjacency's interface, at most
 * once a second per target and within a per-worker token bucket, tells the
 * main lcore it asked (so the reply is learned as an answer to a request), and
 * holds the packet. ip4-arp-pending, a source node called every walk, sends
 * held packets back to ip4-lookup once their destination resolves and drops
 * them after a second; at most ARP_PENDING_MAX packets wait per worker.
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
#include "nbr.h"
#include "state.h"
#include "node_util.h"

#define ARP_PENDING_MAX 64
#define ARP_THROTTLE_SLOTS 256

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

static const char *const ip4_arp_pending_error_strings[] = {
	"held packets released after resolution",
	"held packets dropped: unresolved after 1 s",
	"ARP requests sent to probe aged neighbors",
};

/* edges 0 error-drop, 1 ip4-lookup; graph setup adds one per <port>-output (probes) */

struct arp_held {
	struct rte_mbuf *m;
	uint64_t since;
};

struct arp_throttle {
	uint32_t ip;
	uint16_t port_id;
	uint64_t last;
};

/* one per worker graph; both nodes' contexts point here */
struct arp_state {
	unsigned n_held;
	struct arp_held held[ARP_PENDING_MAX];
	struct arp_throttle throttle[ARP_THROTTLE_SLOTS];
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

static bool
arp_may_request(struct arp_state *st, uint16_t port_id, uint32_t ip, uint64_t now)
{
	struct arp_throttle *t = &st->throttle[(ip * 2654435761u >> 24) % ARP_THROTTLE_SLOTS];
	uint64_t hz = rte_get_tsc_hz();

	if (t->ip == ip && t->port_id == port_id && t->last != 0 && now - t->last < hz)
		return false;
	st->tokens += st->last ? (double)(now - st->last) * ARP_RATE / (double)hz : ARP_BURST;
	st->last = now;
	if (st->tokens > ARP_BURST)
		st->tokens = ARP_BURST;
	if (st->tokens < 1)
		return false;
	st->tokens -= 1;
	t->ip = ip;
	t->port_id = port_id;
	t->last = now;
	return true;
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

static void
ip4_arp_one(struct rte_graph *graph, struct rte_node *node, struct arp_ctx *ctx,
	    struct rte_mbuf *m, uint64_t now)
{
	const struct adj *adj = &adj_table[*mbuf_adj(m)];
	const struct port *p = port_by_ethdev(adj->port_id);
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t target = adj->type == ADJ_GLEAN ? rte_be_to_cpu_32(ip->dst_addr) : adj->nh;
	struct arp_state *st = ctx->st;
	uint64_t *errors = ctx->errors;

	if (p == NULL || p->ip4 == 0) {
		errors[IP4_ARP_ERROR_NO_ADDRESS]++;
		rte_node_enqueue_x1(graph, node, 0, m);
		return;
	}
	if (arp_may_request(st, p->port_id, target, now)) {
		struct rte_mbuf *r = arp_request_build(p, target);
		struct arp_learn_msg msg = {
			.ip = target, .port_id = p->port_id, .kind = ARP_MSG_REQUESTED};

		if (r == NULL) {
			errors[IP4_ARP_ERROR_NO_BUFFER]++;
		} else {
			rte_node_enqueue_x1(graph, node, ip4_arp_next[p->port_id], r);
			errors[IP4_ARP_ERROR_REQUESTS_SENT]++;
			rte_ring_mp_enqueue_elem(vfwd.punt_ring, &msg, sizeof(msg));
		}
	} else {
		errors[IP4_ARP_ERROR_THROTTLED]++;
	}
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
	uint64_t now = rte_rdtsc();

	for (uint16_t i = 0; i < cnt; i++)
		ip4_arp_one(graph, node, ctx, objs[i], now);
	return cnt;
}

/* ---- ip4-arp-pending ---- */

/* The held packet's destination now routes to a resolved adjacency (or to
 * something else altogether, which ip4-lookup will handle). */
static bool
held_resolved(struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	uint32_t dst = rte_be_to_cpu_32(ip->dst_addr), hop;
	uint64_t nh;

	rte_fib_lookup_bulk(fib_ip4, &dst, &nh, 1);
	hop = (uint32_t)nh;
	if (nh == FIB_MISS || adj_table[hop].type < ADJ_GLEAN)
		return true;
	return adj_table[hop].type == ADJ_REWRITE &&
	       __atomic_load_n(&adj_table[hop].valid, __ATOMIC_ACQUIRE);
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
		rte_node_enqueue_x1(graph, node, ip4_arp_pending_next[p->port_id], r);
		errors[2]++;
		n++;
	}
	return n;
}

static uint16_t
ip4_arp_pending_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct arp_ctx *ctx = (struct arp_ctx *)node->ctx;
	struct arp_state *st = ctx->st;
	uint64_t now, hz;
	uint16_t sent = 0;
	unsigned k = 0;

	RTE_SET_USED(objs);
	RTE_SET_USED(cnt);
	if (unlikely(vfwd.probe4_ring != NULL && rte_ring_count(vfwd.probe4_ring) != 0))
		sent = arp_probes_send(graph, node, ctx->errors);
	if (likely(st->n_held == 0))
		return sent;
	now = rte_rdtsc();
	hz = rte_get_tsc_hz();
	for (unsigned i = 0; i < st->n_held; i++) {
		struct arp_held *h = &st->held[i];

		if (held_resolved(h->m)) {
			ctx->errors[0]++;
			rte_node_enqueue_x1(graph, node, 1, h->m);
		} else if (now - h->since > hz) {
			ctx->errors[1]++;
			rte_node_enqueue_x1(graph, node, 0, h->m);
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
	.nb_edges = 2,
	.next_nodes = {"error-drop", "ip4-lookup"},
};

RTE_NODE_REGISTER(ip4_arp_node);
RTE_NODE_REGISTER(ip4_arp_pending_node);

RTE_INIT(ip4_arp_errors)
{
	err_register("ip4-arp", ip4_arp_error_strings, IP4_ARP_N_ERROR);
	err_register("ip4-arp-pending", ip4_arp_pending_error_strings,
		     RTE_DIM(ip4_arp_pending_error_strings));
}
