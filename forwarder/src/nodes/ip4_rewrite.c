/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-rewrite: decrements the TTL with an incremental checksum update
 * (RFC 1624, eqn. 3), writes the neighbour's and the interface's MAC
 * addresses, and sends the packet to <port>-output. Packets whose next hop
 * has no neighbour entry yet are dropped and counted.
 */
#include <rte_ip.h>

#include "vfwd_int.h"
#include "node_util.h"

/* edge 0 is fixed; graph setup adds one edge per <port>-output after it */
enum ip4_rewrite_next {
	IP4_REWRITE_NEXT_DROP,
	IP4_REWRITE_N_NEXT,
};

#define foreach_ip4_rewrite_error _(UNRESOLVED, "unresolved neighbor")

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

static inline rte_edge_t
ip4_rewrite_one(struct rte_mbuf *m, uint64_t *errors)
{
	const struct adj *adj = &adj_table[*mbuf_adj(m)];
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint32_t sum;

	if (unlikely(!adj->valid)) {
		errors[IP4_REWRITE_ERROR_UNRESOLVED]++;
		return IP4_REWRITE_NEXT_DROP;
	}
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	/* HC' = ~(~HC + ~m + m'); for TTL-1, ~m + m' is 0xfeff */
	sum = (uint16_t)~rte_be_to_cpu_16(ip->hdr_checksum) + 0xfeffu;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ip->hdr_checksum = rte_cpu_to_be_16((uint16_t)~sum);
	ip->time_to_live--;
	memcpy(eth, adj->rewrite, 8);
	memcpy((uint8_t *)eth + 8, adj->rewrite + 8, 4);
	return adj->tx_edge;
}

static uint16_t
ip4_rewrite_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	rte_edge_t nexts[cnt]; /* a vector can exceed the burst size when streams merge */
	rte_edge_t spec = adj_table[*mbuf_adj(pkts[0])].tx_edge;
	uint16_t i = 0, n_spec = 0;

	for (; i + 8 <= cnt; i += 4) {
		node_prefetch_data(pkts[i + 4]);
		node_prefetch_data(pkts[i + 5]);
		node_prefetch_data(pkts[i + 6]);
		node_prefetch_data(pkts[i + 7]);
		nexts[i] = ip4_rewrite_one(pkts[i], errors);
		nexts[i + 1] = ip4_rewrite_one(pkts[i + 1], errors);
		nexts[i + 2] = ip4_rewrite_one(pkts[i + 2], errors);
		nexts[i + 3] = ip4_rewrite_one(pkts[i + 3], errors);
		n_spec += (nexts[i] == spec) + (nexts[i + 1] == spec) + (nexts[i + 2] == spec) +
			  (nexts[i + 3] == spec);
	}
	for (; i < cnt; i++) {
		nexts[i] = ip4_rewrite_one(pkts[i], errors);
		n_spec += nexts[i] == spec;
	}
	node_dispatch(graph, node, objs, cnt, nexts, spec, n_spec);
	return cnt;
}

static int
ip4_rewrite_init(const struct rte_graph *graph, struct rte_node *node)
{
	RTE_SET_USED(graph);
	return node_ctx_errors_init(node);
}

static struct rte_node_register ip4_rewrite_node = {
	.name = "ip4-rewrite",
	.process = ip4_rewrite_process,
	.init = ip4_rewrite_init,
	.nb_edges = IP4_REWRITE_N_NEXT,
	.next_nodes =
		{
			[IP4_REWRITE_NEXT_DROP] = "error-drop",
		},
};

RTE_NODE_REGISTER(ip4_rewrite_node);

RTE_INIT(ip4_rewrite_errors)
{
	err_register("ip4-rewrite", ip4_rewrite_error_strings, IP4_REWRITE_N_ERROR);
}
