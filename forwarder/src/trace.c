/* SPDX-License-Identifier: BSD-3-Clause
 * Packet trace, as VPP's: `trace add <port>-rx N` marks the next N packets
 * each worker takes in on that input node; every node they pass records its
 * decision (the next node, the counters it bumped for the packet, the fields it
 * rewrote); `show trace [max N]` prints them per worker in VPP's layout and
 * `clear trace` ends the trace.
 *
 * When no trace is on, the data path is exactly the untraced one: `trace add`
 * swaps the process function of every node of the worker graphs for
 * trace_process(), which calls the node's own function, and `clear trace` puts
 * the originals back. No node carries a trace branch. While tracing, a vector
 * holding traced packets is cut so that each traced packet passes the node on
 * its own: its next node is found in the next nodes' streams, its reasons in
 * the node's counters, its rewrites by comparing the bytes before and after.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_graph_worker.h>
#include <rte_ip.h>
#include <rte_mbuf_dyn.h>
#include <rte_spinlock.h>

#include "cli.h"
#include "error.h"
#include "state.h"
#include "trace.h"

#define TRACE_MAX_PKTS 1024 /* per worker */
#define TRACE_MAX_RECS 24   /* nodes recorded per packet */
#define TRACE_SNAP 80	    /* bytes of the packet kept after each node */
#define TRACE_MAX_NODES 256
#define TRACE_MAX_ERRS 3
#define TRACE_MAX_REASONS 64

struct trace_rec {
	uint64_t tsc;
	rte_node_t node;
	rte_node_t next; /* RTE_NODE_ID_INVALID: the packet left the graph here */
	uint32_t pkt_len;
	uint16_t port; /* mbuf->port, the input port */
	uint16_t snap_len;
	uint16_t n_err;
	uint16_t err[TRACE_MAX_ERRS]; /* counter columns (error.c) bumped for this packet */
	uint8_t snap[TRACE_SNAP];     /* the packet as the node left it */
};

struct trace_pkt {
	uint16_t n_recs;
	struct trace_rec recs[TRACE_MAX_RECS];
};

struct trace_input {
	rte_node_t node;
	uint32_t left;
};

struct trace_worker {
	rte_spinlock_t lock;
	uint32_t n_pkts;
	unsigned n_inputs;
	struct trace_input inputs[MAX_PORTS];
	struct trace_pkt *pkts;
};

static struct trace_worker trace_workers[MAX_WORKERS];
static rte_node_process_t trace_orig[TRACE_MAX_NODES];
static bool trace_is_rx[TRACE_MAX_NODES];
static bool trace_installed;
static int trace_field_off = -1;
static uint64_t trace_flag;
static uint64_t trace_epoch;

RTE_INIT(trace_epoch_init)
{
	trace_epoch = rte_rdtsc();
}

static inline uint32_t *
trace_index(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, trace_field_off, uint32_t *);
}

static inline bool
traced(const struct rte_mbuf *m)
{
	return (m->ol_flags & trace_flag) != 0;
}

static struct trace_worker *
trace_worker_of(const struct rte_graph *g, unsigned *w)
{
	for (unsigned i = 0; i < vfwd.n_workers; i++)
		if (vfwd.graph[i] == g) {
			*w = i;
			return &trace_workers[i];
		}
	return NULL;
}

static void
rec_snap(struct trace_rec *r, struct rte_mbuf *m)
{
	r->pkt_len = m->pkt_len;
	r->port = m->port;
	r->snap_len = (uint16_t)RTE_MIN((unsigned)m->data_len, (unsigned)TRACE_SNAP);
	memcpy(r->snap, rte_pktmbuf_mtod(m, void *), r->snap_len);
}

static struct trace_rec *
rec_new(struct trace_worker *tw, struct rte_mbuf *m, const struct rte_node *node)
{
	uint32_t i = *trace_index(m);
	struct trace_pkt *p;
	struct trace_rec *r;

	if (i >= tw->n_pkts)
		return NULL;
	p = &tw->pkts[i];
	if (p->n_recs >= TRACE_MAX_RECS)
		return NULL;
	r = &p->recs[p->n_recs++];
	memset(r, 0, offsetof(struct trace_rec, snap));
	r->tsc = rte_rdtsc();
	r->node = node->id;
	r->next = RTE_NODE_ID_INVALID;
	rec_snap(r, m);
	return r;
}

/* The next node whose stream gained m since before[] was taken. */
static rte_node_t
next_of(const struct rte_node *node, const uint16_t *before, const struct rte_mbuf *m)
{
	for (rte_edge_t e = 0; e < node->nb_edges; e++) {
		const struct rte_node *n = node->nodes[e];

		for (uint16_t k = before[e]; k < n->idx; k++)
			if (n->objs[k] == m)
				return n->id;
	}
	return RTE_NODE_ID_INVALID;
}

/* Runs the node on m alone and records what it did with it. */
static void
trace_one(struct rte_graph *g, struct rte_node *node, struct trace_worker *tw, unsigned w,
	  struct rte_mbuf *m)
{
	uint16_t before[node->nb_edges + 1], base = 0, n = 0;
	uint64_t errs[TRACE_MAX_REASONS];
	struct trace_rec *r = rec_new(tw, m, node);

	if (err_node_range(node->name, &base, &n) < 0)
		n = 0;
	n = RTE_MIN(n, (uint16_t)TRACE_MAX_REASONS);
	for (uint16_t i = 0; i < n; i++)
		errs[i] = err_counters[w][base + i];
	for (rte_edge_t e = 0; e < node->nb_edges; e++)
		before[e] = node->nodes[e]->idx;
	node->objs[0] = m;
	node->idx = 1;
	trace_orig[node->id](g, node, node->objs, 1);
	if (r == NULL)
		return;
	r->next = next_of(node, before, m);
	if (r->next != RTE_NODE_ID_INVALID)
		rec_snap(r, m); /* still ours: the bytes as the node left them */
	for (uint16_t i = 0; i < n && r->n_err < TRACE_MAX_ERRS; i++)
		if (err_counters[w][base + i] != errs[i])
			r->err[r->n_err++] = (uint16_t)(base + i);
}

/* A source node: an input node marks what it took in; another (ip4-arp-pending)
 * records the traced packets it releases. */
static uint16_t
trace_source(struct rte_graph *g, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint16_t before[node->nb_edges + 1], rc;
	struct trace_input *in = NULL;
	struct trace_worker *tw;
	unsigned w;

	tw = trace_worker_of(g, &w);
	if (tw == NULL)
		return trace_orig[node->id](g, node, objs, cnt);
	for (rte_edge_t e = 0; e < node->nb_edges; e++)
		before[e] = node->nodes[e]->idx;
	rc = trace_orig[node->id](g, node, objs, cnt);
	rte_spinlock_lock(&tw->lock);
	for (unsigned i = 0; i < tw->n_inputs; i++)
		if (tw->inputs[i].node == node->id && tw->inputs[i].left > 0)
			in = &tw->inputs[i];
	for (rte_edge_t e = 0; e < node->nb_edges; e++) {
		struct rte_node *nx = node->nodes[e];

		for (uint16_t k = before[e]; k < nx->idx; k++) {
			struct rte_mbuf *m = nx->objs[k];
			struct trace_rec *r;

			if (trace_is_rx[node->id]) {
				m->ol_flags &= ~trace_flag;
				if (in == NULL || in->left == 0 || tw->n_pkts >= TRACE_MAX_PKTS)
					continue;
				in->left--;
				*trace_index(m) = tw->n_pkts;
				tw->pkts[tw->n_pkts++].n_recs = 0;
				m->ol_flags |= trace_flag;
			} else if (!traced(m)) {
				continue;
			}
			r = rec_new(tw, m, node);
			if (r != NULL)
				r->next = nx->id;
		}
	}
	rte_spinlock_unlock(&tw->lock);
	return rc;
}

static uint16_t
trace_process(struct rte_graph *g, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct trace_worker *tw;
	uint16_t i;
	unsigned w;

	if (cnt == 0 || trace_is_rx[node->id])
		return trace_source(g, node, objs, cnt);
	for (i = 0; i < cnt && !traced(objs[i]); i++)
		;
	tw = i < cnt ? trace_worker_of(g, &w) : NULL;
	if (tw == NULL)
		return trace_orig[node->id](g, node, objs, cnt);

	void *all[cnt];

	memcpy(all, objs, sizeof(void *) * cnt);
	rte_spinlock_lock(&tw->lock);
	for (i = 0; i < cnt;) {
		bool t = traced(all[i]);
		uint16_t j = (uint16_t)(i + 1);

		while (!t && j < cnt && !traced(all[j]))
			j++;
		if (node->size < j - i)
			__rte_node_stream_alloc_size(g, node, (uint16_t)(j - i));
		if (t) {
			trace_one(g, node, tw, w, all[i]);
		} else {
			memcpy(node->objs, &all[i], sizeof(void *) * (j - i));
			node->idx = (uint16_t)(j - i);
			trace_orig[node->id](g, node, node->objs, node->idx);
		}
		i = j;
	}
	rte_spinlock_unlock(&tw->lock);
	return cnt;
}

/* Puts trace_process in (on) or the nodes' own functions back (off) in every worker graph. */
static void
trace_swap(bool on)
{
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct rte_graph *g = vfwd.graph[w];
		rte_graph_off_t off;
		struct rte_node *node;
		rte_node_t count;

		if (g == NULL)
			continue;
		rte_graph_foreach_node(count, off, g, node)
		{
			rte_node_process_t p;

			if (node->id >= TRACE_MAX_NODES)
				continue;
			p = __atomic_load_n(&node->process, __ATOMIC_RELAXED);
			if (on && p != trace_process) {
				trace_orig[node->id] = p;
				__atomic_store_n(&node->process, trace_process, __ATOMIC_RELEASE);
			} else if (!on && p == trace_process) {
				__atomic_store_n(&node->process, trace_orig[node->id],
						 __ATOMIC_RELEASE);
			}
		}
	}
	trace_installed = on;
}

static int
trace_meta_init(void)
{
	static const struct rte_mbuf_dynfield field = {
		.name = "vfwd_trace_index",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};
	static const struct rte_mbuf_dynflag flag = {.name = "vfwd_trace"};
	int bit;

	if (trace_field_off < 0)
		trace_field_off = rte_mbuf_dynfield_register(&field);
	if (trace_field_off < 0)
		return -rte_errno;
	bit = rte_mbuf_dynflag_register(&flag);
	if (bit < 0)
		return -rte_errno;
	trace_flag = UINT64_C(1) << bit;
	return 0;
}

/* The worker graph holds node id (an rx node is in the graphs of the workers polling its queues) */
static bool
graph_has_node(const struct rte_graph *g, rte_node_t id)
{
	rte_graph_off_t off;
	struct rte_node *node;
	rte_node_t count;

	rte_graph_foreach_node(count, off, g, node)
	{
		if (node->id == id)
			return true;
	}
	return false;
}

static int
cmd_trace_add(struct vfwd_cli_out *out, int argc, char **argv)
{
	char names[MAX_PORTS * (NAME_LEN + 4)] = "";
	rte_node_t id = RTE_NODE_ID_INVALID;
	unsigned long n;
	char *end;
	int rc;

	if (argc != 2)
		return cli_error(out, -EINVAL, "usage: trace add INPUT-NODE COUNT");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		char rx[NAME_LEN + 4];

		snprintf(rx, sizeof(rx), "%s-rx", vfwd.ports[i].name);
		if (strcmp(rx, argv[0]) == 0)
			id = vfwd.ports[i].rx_node;
		strcat(names, " ");
		strcat(names, rx);
	}
	if (id == RTE_NODE_ID_INVALID || id >= TRACE_MAX_NODES)
		return cli_error(out, -EINVAL, "trace add: '%s' is not an input node (one of:%s)",
				 argv[0], names);
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || n == 0 || n > TRACE_MAX_PKTS)
		return cli_error(out, -EINVAL, "trace add: count '%s' must be 1..%d", argv[1],
				 TRACE_MAX_PKTS);
	rc = trace_meta_init();
	if (rc < 0)
		return cli_error(out, rc, "trace add: mbuf trace field: %s", strerror(-rc));
	for (unsigned i = 0; i < vfwd.n_ports; i++)
		if (vfwd.ports[i].rx_node < TRACE_MAX_NODES)
			trace_is_rx[vfwd.ports[i].rx_node] = true;
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct trace_worker *tw = &trace_workers[w];
		unsigned k;

		if (vfwd.graph[w] == NULL || !graph_has_node(vfwd.graph[w], id))
			continue;
		if (tw->pkts == NULL) {
			tw->pkts = calloc(TRACE_MAX_PKTS, sizeof(*tw->pkts));
			if (tw->pkts == NULL)
				return cli_error(out, -ENOMEM, "trace add: out of memory");
		}
		rte_spinlock_lock(&tw->lock);
		for (k = 0; k < tw->n_inputs && tw->inputs[k].node != id; k++)
			;
		if (k == tw->n_inputs && k < RTE_DIM(tw->inputs)) {
			tw->inputs[k].node = id;
			tw->inputs[k].left = 0;
			tw->n_inputs++;
		}
		if (k < tw->n_inputs)
			tw->inputs[k].left =
				(uint32_t)RTE_MIN((unsigned long)tw->inputs[k].left + n,
						  (unsigned long)TRACE_MAX_PKTS);
		rte_spinlock_unlock(&tw->lock);
	}
	trace_swap(true);
	return 0;
}

static int
cmd_clear_trace(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(argv);
	if (argc != 0)
		return cli_error(out, -EINVAL, "clear trace takes no arguments, not '%s'", argv[0]);
	trace_swap(false);
	for (unsigned w = 0; w < MAX_WORKERS; w++) {
		struct trace_worker *tw = &trace_workers[w];

		rte_spinlock_lock(&tw->lock);
		tw->n_pkts = 0;
		tw->n_inputs = 0;
		rte_spinlock_unlock(&tw->lock);
	}
	return 0;
}

/* ---- show trace ---- */

static void
mac_str(char *s, size_t n, const uint8_t *b)
{
	snprintf(s, n, "%02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3], b[4], b[5]);
}

static const char *
proto_name(uint8_t p)
{
	switch (p) {
	case IPPROTO_ICMP:
		return "ICMP";
	case IPPROTO_TCP:
		return "TCP";
	case IPPROTO_UDP:
		return "UDP";
	case IPPROTO_ICMPV6:
		return "ICMP6";
	default:
		return "IP";
	}
}

/* VPP's lines for a frame: "IP4: SRC-MAC -> DST-MAC", the L3 summary, fields */
static void
decode(struct vfwd_cli_out *out, const uint8_t *f, unsigned len)
{
	char s[24], d[24], a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	uint16_t et;

	if (len < 14) {
		vfwd_cli_printf(out, "  frame of %u bytes\n", len);
		return;
	}
	mac_str(d, sizeof(d), f);
	mac_str(s, sizeof(s), f + 6);
	et = (uint16_t)(f[12] << 8 | f[13]);
	if (et == RTE_ETHER_TYPE_IPV4 && len >= 34) {
		vfwd_cli_printf(out, "  IP4: %s -> %s\n", s, d);
		inet_ntop(AF_INET, f + 26, a, sizeof(a));
		inet_ntop(AF_INET, f + 30, b, sizeof(b));
		vfwd_cli_printf(out, "  %s: %s -> %s\n", proto_name(f[23]), a, b);
		vfwd_cli_printf(out, "    tos 0x%02x, ttl %u, length %u, checksum 0x%04x\n", f[15],
				f[22], f[16] << 8 | f[17], f[24] << 8 | f[25]);
		if (f[23] == IPPROTO_ICMP && len >= 36)
			vfwd_cli_printf(out, "  ICMP type %u code %u\n", f[34], f[35]);
	} else if (et == RTE_ETHER_TYPE_IPV6 && len >= 54) {
		vfwd_cli_printf(out, "  IP6: %s -> %s\n", s, d);
		inet_ntop(AF_INET6, f + 22, a, sizeof(a));
		inet_ntop(AF_INET6, f + 38, b, sizeof(b));
		vfwd_cli_printf(out, "  %s: %s -> %s\n", proto_name(f[20]), a, b);
		vfwd_cli_printf(
			out, "    tos 0x%02x, flow label 0x%x, hop limit %u, payload length %u\n",
			(f[14] & 0xf) << 4 | f[15] >> 4, (f[15] & 0xf) << 16 | f[16] << 8 | f[17],
			f[21], f[18] << 8 | f[19]);
		if (f[20] == IPPROTO_ICMPV6 && len >= 56)
			vfwd_cli_printf(out, "  ICMP6 type %u code %u\n", f[54], f[55]);
	} else if (et == RTE_ETHER_TYPE_ARP && len >= 42) {
		vfwd_cli_printf(out, "  ARP: %s -> %s\n", s, d);
		inet_ntop(AF_INET, f + 28, a, sizeof(a));
		inet_ntop(AF_INET, f + 38, b, sizeof(b));
		vfwd_cli_printf(out, "  %s, %s asks or tells about %s\n",
				f[21] == 1   ? "request"
				: f[21] == 2 ? "reply"
					     : "opcode ?",
				a, b);
	} else {
		vfwd_cli_printf(out, "  0x%04x: %s -> %s\n", et, s, d);
	}
}

/* The fields a node rewrote (MACs, TTL or hop limit, checksum); a new packet
 * (another ethertype or other addresses: an ICMP error) is decoded whole. */
static void
rewrites_show(struct vfwd_cli_out *out, const struct trace_rec *p, const struct trace_rec *r)
{
	const uint8_t *a = p->snap, *b = r->snap;
	char x[24], y[24];
	bool any = false;

	if (p->snap_len < 14 || r->snap_len < 14)
		return;
	if (memcmp(a + 12, b + 12, 2) != 0 ||
	    (b[12] == 0x08 && b[13] == 0 && r->snap_len >= 34 && p->snap_len >= 34 &&
	     (memcmp(a + 26, b + 26, 8) != 0 || a[23] != b[23])) ||
	    (b[12] == 0x86 && b[13] == 0xdd && r->snap_len >= 54 && p->snap_len >= 54 &&
	     (memcmp(a + 22, b + 22, 32) != 0 || a[20] != b[20]))) {
		vfwd_cli_printf(out, "  new packet (%u bytes):\n", r->pkt_len);
		decode(out, b, r->snap_len);
		return;
	}
	if (memcmp(a, b, 6) != 0) {
		mac_str(x, sizeof(x), a);
		mac_str(y, sizeof(y), b);
		vfwd_cli_printf(out, "  rewrite dst mac %s -> %s\n", x, y);
		any = true;
	}
	if (memcmp(a + 6, b + 6, 6) != 0) {
		mac_str(x, sizeof(x), a + 6);
		mac_str(y, sizeof(y), b + 6);
		vfwd_cli_printf(out, "  rewrite src mac %s -> %s\n", x, y);
		any = true;
	}
	if (b[12] == 0x08 && b[13] == 0 && r->snap_len >= 34 && p->snap_len >= 34) {
		if (a[22] != b[22])
			vfwd_cli_printf(out, "  rewrite ttl %u -> %u\n", a[22], b[22]);
		if (memcmp(a + 24, b + 24, 2) != 0)
			vfwd_cli_printf(out, "  rewrite checksum 0x%04x -> 0x%04x\n",
					a[24] << 8 | a[25], b[24] << 8 | b[25]);
		if (memcmp(a + 16, b + 16, 2) != 0)
			vfwd_cli_printf(out, "  rewrite length %u -> %u\n", a[16] << 8 | a[17],
					b[16] << 8 | b[17]);
		any |= memcmp(a + 14, b + 14, 20) != 0;
	}
	if (b[12] == 0x86 && b[13] == 0xdd && r->snap_len >= 54 && p->snap_len >= 54) {
		if (a[21] != b[21])
			vfwd_cli_printf(out, "  rewrite hop limit %u -> %u\n", a[21], b[21]);
		any |= a[21] != b[21];
	}
	if (!any && p->pkt_len != r->pkt_len)
		vfwd_cli_printf(out, "  length %u -> %u\n", p->pkt_len, r->pkt_len);
}

static void
reasons_show(struct vfwd_cli_out *out, const struct trace_rec *r, const char *word)
{
	for (uint16_t i = 0; i < r->n_err; i++) {
		const char *node = "", *reason = err_reason_name(r->err[i], &node);

		if (reason != NULL)
			vfwd_cli_printf(out, "  %s%s: %s\n", word, node, reason);
	}
}

static const char *
port_name_of(uint16_t port_id)
{
	const struct port *p = port_id < RTE_MAX_ETHPORTS ? port_by_ethdev(port_id) : NULL;

	return p ? p->name : "?";
}

static void
rec_show(struct vfwd_cli_out *out, const struct trace_pkt *pkt, unsigned i, uint64_t hz)
{
	const struct trace_rec *r = &pkt->recs[i], *prev = i > 0 ? &pkt->recs[i - 1] : NULL;
	double t = (double)(r->tsc - trace_epoch) / (double)hz;
	uint64_t us = (uint64_t)(t * 1e6);
	const char *name = rte_node_id_to_name(r->node);
	bool drop = name != NULL && strcmp(name, "error-drop") == 0;

	vfwd_cli_printf(out, "%02u:%02u:%02u:%06u: %s\n", (unsigned)(us / 3600000000u),
			(unsigned)(us / 60000000u % 60), (unsigned)(us / 1000000u % 60),
			(unsigned)(us % 1000000u), name ? name : "?");
	if (prev == NULL) {
		vfwd_cli_printf(out, "  %s: %u bytes\n", port_name_of(r->port), r->pkt_len);
		decode(out, r->snap, r->snap_len);
	} else if (drop) {
		vfwd_cli_printf(out, "  rx:%s\n", port_name_of(r->port));
		reasons_show(out, prev, "");
		return;
	} else {
		rewrites_show(out, prev, r);
		reasons_show(out, r,
			     r->next != RTE_NODE_ID_INVALID &&
					     strcmp(rte_node_id_to_name(r->next), "error-drop") == 0
				     ? "error "
				     : "counted ");
	}
	if (r->next != RTE_NODE_ID_INVALID)
		vfwd_cli_printf(out, "  next %s\n", rte_node_id_to_name(r->next));
	else
		vfwd_cli_printf(out, "  left the graph here (sent, held or freed)\n");
}

static int
cmd_show_trace(struct vfwd_cli_out *out, int argc, char **argv)
{
	unsigned long max = TRACE_MAX_PKTS;
	uint64_t hz = rte_get_tsc_hz();
	char *end;

	if (argc == 2 && strcmp(argv[0], "max") == 0) {
		errno = 0;
		max = strtoul(argv[1], &end, 10);
		if (errno || *end || end == argv[1])
			return cli_error(out, -EINVAL, "show trace: bad max '%s'", argv[1]);
	} else if (argc != 0) {
		return cli_error(out, -EINVAL, "usage: show trace [max N]");
	}
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct trace_worker *tw = &trace_workers[w];

		if (vfwd.graph[w] == NULL)
			continue;
		vfwd_cli_printf(out,
				"------------------- Start of thread %u vfwd_wk_%u "
				"-------------------\n",
				w + 1, w);
		rte_spinlock_lock(&tw->lock);
		if (tw->n_pkts == 0)
			vfwd_cli_printf(out, "No packets in trace buffer\n");
		for (uint32_t p = 0; p < tw->n_pkts && p < max; p++) {
			vfwd_cli_printf(out, "Packet %u\n\n", p + 1);
			for (unsigned i = 0; i < tw->pkts[p].n_recs; i++)
				rec_show(out, &tw->pkts[p], i, hz);
			vfwd_cli_printf(out, "\n");
		}
		rte_spinlock_unlock(&tw->lock);
	}
	return 0;
}

void
trace_cli_register(void)
{
	vfwd_cli_register("trace add", "INPUT-NODE COUNT (e.g. port0-rx 10)", cmd_trace_add);
	vfwd_cli_register("show trace", "[max N]", cmd_show_trace);
	vfwd_cli_register("clear trace", "", cmd_clear_trace);
}
