/* SPDX-License-Identifier: BSD-3-Clause
 * Example features: `example` on the ip4-unicast arc drops ICMP packets (counted
 * as "icmp packets dropped") and passes every other packet to the next feature;
 * `example-ip6` does the same on the ip6-unicast arc for ICMPv6 ("icmp6 packets
 * dropped"), except neighbour discovery (types 133-137), without which IPv6
 * stops working on the port.
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

static const char *const example6_error_strings[] = {"icmp6 packets dropped"};

/* ICMPv6 other than neighbour discovery; an ICMPv6 header cut short counts as ICMPv6 */
static inline bool
example6_drops(const struct rte_mbuf *m)
{
	const struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint8_t type;

	if (ip->proto != IPPROTO_ICMPV6)
		return false;
	if (m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip) + 1)
		return true;
	type = *rte_pktmbuf_mtod_offset(m, const uint8_t *, RTE_ETHER_HDR_LEN + sizeof(*ip));
	return type < 133 || type > 137;
}

static uint16_t
example6_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint16_t n_drop = 0;

	for (uint16_t i = 0; i < cnt; i++) {
		if (example6_drops(pkts[i])) {
			n_drop++;
			rte_node_enqueue_x1(graph, node, VFWD_FEATURE_NEXT_DROP, pkts[i]);
		} else {
			rte_node_enqueue_x1(graph, node, vfwd_feature_next(node, pkts[i]), pkts[i]);
		}
	}
	vfwd_error_add(node, 0, n_drop);
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
	static const struct vfwd_feature_reg reg6 = {
		.arc = "ip6-unicast",
		.name = "example-ip6",
		.process = example6_process,
		.errors = example6_error_strings,
		.n_errors = 1,
		.order = 100,
	};
	int rc = vfwd_feature_register(&reg);

	return rc < 0 ? rc : vfwd_feature_register(&reg6);
}

VFWD_PLUGIN_REGISTER(.name = "example", .version = "1.0",
		     .description =
			     "drops ICMP on the ip4-unicast arc, ICMPv6 but ND on ip6-unicast (C)",
		     .init = example_init);
