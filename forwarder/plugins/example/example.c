/* SPDX-License-Identifier: BSD-3-Clause
 * Example feature on the ip4-unicast arc: drops ICMP packets (counted as
 * "icmp packets dropped") and passes every other packet to the next feature.
 */
#include <rte_ether.h>
#include <rte_ip.h>

#include "vfwd/plugin.h"

#define foreach_example_error _(ICMP_DROPPED, "icmp packets dropped")

enum example_error {
#define _(sym, str) EXAMPLE_ERROR_##sym,
	foreach_example_error
#undef _
		EXAMPLE_N_ERROR,
};

static const char *const example_error_strings[] = {
#define _(sym, str) str,
	foreach_example_error
#undef _
};

static inline uint8_t
example_proto(const struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN)
		->next_proto_id;
}

static uint16_t
example_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	const uint16_t port = pkts[0]->port;
	uint16_t i = 0, n_icmp = 0;
	unsigned odd = 0;

	/* fast path: no ICMP and one input interface, so the stream moves whole */
	for (; i + 4 <= cnt; i += 4)
		odd |= (example_proto(pkts[i]) == IPPROTO_ICMP) |
		       (example_proto(pkts[i + 1]) == IPPROTO_ICMP) |
		       (example_proto(pkts[i + 2]) == IPPROTO_ICMP) |
		       (example_proto(pkts[i + 3]) == IPPROTO_ICMP) | (pkts[i]->port != port) |
		       (pkts[i + 1]->port != port) | (pkts[i + 2]->port != port) |
		       (pkts[i + 3]->port != port);
	for (; i < cnt; i++)
		odd |= (example_proto(pkts[i]) == IPPROTO_ICMP) | (pkts[i]->port != port);
	if (likely(!odd)) {
		rte_node_next_stream_move(graph, node, vfwd_feature_next(node, pkts[0]));
		return cnt;
	}
	for (i = 0; i < cnt; i++) {
		if (example_proto(pkts[i]) == IPPROTO_ICMP) {
			n_icmp++;
			rte_node_enqueue_x1(graph, node, VFWD_FEATURE_NEXT_DROP, pkts[i]);
		} else {
			rte_node_enqueue_x1(graph, node, vfwd_feature_next(node, pkts[i]), pkts[i]);
		}
	}
	vfwd_error_add(node, EXAMPLE_ERROR_ICMP_DROPPED, n_icmp);
	return cnt;
}

static int
example_init(void)
{
	static const struct vfwd_feature_reg reg = {
		.arc = "ip4-unicast",
		.name = "example",
		.process = example_process,
		.errors = example_error_strings,
		.n_errors = EXAMPLE_N_ERROR,
		.order = 100,
	};

	return vfwd_feature_register(&reg);
}

VFWD_PLUGIN_REGISTER(.name = "example", .version = "1.0",
		     .description = "drops ICMP on the ip4-unicast arc (C)", .init = example_init);
