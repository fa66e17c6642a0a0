/* SPDX-License-Identifier: BSD-3-Clause
 * ethernet-input: dispatches frames by ethertype to ip4-input or arp-input;
 * short frames and unknown ethertypes are dropped and counted.
 */
#include <rte_ether.h>

#include "vfwd_int.h"
#include "node_util.h"

enum ethernet_input_next {
	ETHERNET_INPUT_NEXT_DROP,
	ETHERNET_INPUT_NEXT_IP4,
	ETHERNET_INPUT_NEXT_ARP,
	ETHERNET_INPUT_N_NEXT,
};

#define foreach_ethernet_input_error                                                               \
	_(TRUNCATED, "frame too short")                                                            \
	_(UNKNOWN_TYPE, "unknown ethertype")

enum ethernet_input_error {
#define _(sym, str) ETHERNET_INPUT_ERROR_##sym,
	foreach_ethernet_input_error
#undef _
		ETHERNET_INPUT_N_ERROR,
};

static const char *const ethernet_input_error_strings[] = {
#define _(sym, str) str,
	foreach_ethernet_input_error
#undef _
};

static inline rte_edge_t
ethernet_classify(struct rte_mbuf *m, uint64_t *errors)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	if (unlikely(m->data_len < sizeof(*eth))) {
		errors[ETHERNET_INPUT_ERROR_TRUNCATED]++;
		return ETHERNET_INPUT_NEXT_DROP;
	}
	if (likely(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		return ETHERNET_INPUT_NEXT_IP4;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP))
		return ETHERNET_INPUT_NEXT_ARP;
	errors[ETHERNET_INPUT_ERROR_UNKNOWN_TYPE]++;
	return ETHERNET_INPUT_NEXT_DROP;
}

static uint16_t
ethernet_input_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	return node_process_each(graph, node, objs, cnt, ETHERNET_INPUT_NEXT_IP4,
				 ethernet_classify);
}

static struct rte_node_register ethernet_input_node = {
	.name = "ethernet-input",
	.process = ethernet_input_process,
	.init = node_ctx_errors_init,
	.nb_edges = ETHERNET_INPUT_N_NEXT,
	.next_nodes =
		{
			[ETHERNET_INPUT_NEXT_DROP] = "error-drop",
			[ETHERNET_INPUT_NEXT_IP4] = "ip4-input",
			[ETHERNET_INPUT_NEXT_ARP] = "arp-input",
		},
};

RTE_NODE_REGISTER(ethernet_input_node);

RTE_INIT(ethernet_input_errors)
{
	err_register("ethernet-input", ethernet_input_error_strings, ETHERNET_INPUT_N_ERROR);
}
