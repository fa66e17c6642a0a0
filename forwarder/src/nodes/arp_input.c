/* SPDX-License-Identifier: BSD-3-Clause
 * arp-input: answers ARP requests for the input interface's address and
 * passes the sender of every reply, and of every request for us, to the main
 * lcore, which decides whether to learn it (the data path never writes the
 * neighbour table). Senders claiming our own address or a group MAC are
 * dropped here.
 */
#include <rte_arp.h>
#include <rte_ring.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "node_util.h"
#include "state.h"

/* edge 0 error-drop; graph setup adds one edge per <port>-output */

#define foreach_arp_input_error                                                                    \
	_(REPLIES_SENT, "ARP replies sent")                                                        \
	_(REPLIES_RECEIVED, "ARP replies received")                                                \
	_(LEARN_QUEUED, "ARP senders queued for learning")                                         \
	_(TRUNCATED, "ARP truncated")                                                              \
	_(NOT_FOR_US, "ARP request not for an interface address")                                  \
	_(UNSUPPORTED, "ARP unsupported hardware or protocol")                                     \
	_(OPCODE, "ARP opcode not request or reply")                                               \
	_(SRC_IS_LOCAL, "IP4 source address matches local interface")                              \
	_(SHA_GROUP, "ARP sender hardware address is multicast or zero")                           \
	_(NOT_IP_ENABLED, "Interface is not IP enabled")                                           \
	_(PUNT_FULL, "ARP learn queue full")

enum arp_input_error {
#define _(sym, str) ARP_INPUT_ERROR_##sym,
	foreach_arp_input_error
#undef _
		ARP_INPUT_N_ERROR,
};

static const char *const arp_input_error_strings[] = {
#define _(sym, str) str,
	foreach_arp_input_error
#undef _
};

static void
arp_learn_queue(const struct rte_arp_hdr *arp, uint16_t port_id, uint64_t *errors)
{
	struct arp_learn_msg msg = {
		.ip = rte_be_to_cpu_32(arp->arp_data.arp_sip),
		.port_id = port_id,
	};

	memcpy(msg.mac, &arp->arp_data.arp_sha, 6);
	if (rte_ring_mp_enqueue_elem(vfwd.punt_ring, &msg, sizeof(msg)) < 0)
		errors[ARP_INPUT_ERROR_PUNT_FULL]++;
	else
		errors[ARP_INPUT_ERROR_LEARN_QUEUED]++;
}

static rte_edge_t
arp_input_one(struct rte_mbuf *m, uint64_t *errors, const uint16_t *next_by_port)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);
	const struct port *p = port_by_ethdev(m->port);
	uint32_t tip, sip;

	if (m->data_len < sizeof(*eth) + sizeof(*arp)) {
		errors[ARP_INPUT_ERROR_TRUNCATED]++;
		return 0;
	}
	if (arp->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
	    arp->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) || arp->arp_hlen != 6 ||
	    arp->arp_plen != 4 || p == NULL) {
		errors[ARP_INPUT_ERROR_UNSUPPORTED]++;
		return 0;
	}
	if (p->ip4 == 0) {
		errors[ARP_INPUT_ERROR_NOT_IP_ENABLED]++;
		return 0;
	}
	tip = rte_be_to_cpu_32(arp->arp_data.arp_tip);
	sip = rte_be_to_cpu_32(arp->arp_data.arp_sip);
	if (arp->arp_opcode != RTE_BE16(RTE_ARP_OP_REQUEST) &&
	    arp->arp_opcode != RTE_BE16(RTE_ARP_OP_REPLY)) {
		errors[ARP_INPUT_ERROR_OPCODE]++;
		return 0;
	}
	if (sip == p->ip4) {
		errors[ARP_INPUT_ERROR_SRC_IS_LOCAL]++;
		return 0;
	}
	if (rte_is_multicast_ether_addr(&arp->arp_data.arp_sha) ||
	    rte_is_zero_ether_addr(&arp->arp_data.arp_sha)) {
		errors[ARP_INPUT_ERROR_SHA_GROUP]++;
		return 0;
	}
	if (arp->arp_opcode == RTE_BE16(RTE_ARP_OP_REPLY)) {
		errors[ARP_INPUT_ERROR_REPLIES_RECEIVED]++;
		arp_learn_queue(arp, m->port, errors);
		return 0; /* consumed: error-drop frees it */
	}
	if (tip != p->ip4) {
		errors[ARP_INPUT_ERROR_NOT_FOR_US]++;
		return 0;
	}
	if (sip != 0) /* not a probe (RFC 5227): the asker is a neighbour */
		arp_learn_queue(arp, m->port, errors);
	arp->arp_opcode = RTE_BE16(RTE_ARP_OP_REPLY);
	arp->arp_data.arp_tha = arp->arp_data.arp_sha;
	arp->arp_data.arp_tip = arp->arp_data.arp_sip;
	arp->arp_data.arp_sha = p->mac;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(p->ip4);
	eth->dst_addr = eth->src_addr;
	eth->src_addr = p->mac;
	errors[ARP_INPUT_ERROR_REPLIES_SENT]++;
	return next_by_port[m->port];
}

static uint16_t
arp_input_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	const struct vfwd_node_ctx *ctx = (const struct vfwd_node_ctx *)node->ctx;

	for (uint16_t i = 0; i < cnt; i++)
		rte_node_enqueue_x1(graph, node,
				    arp_input_one(objs[i], ctx->errors, ctx->next_by_port),
				    objs[i]);
	return cnt;
}

NODE_REGISTER_COUNTED(arp_input, "arp-input", arp_input_process, arp_input_error_strings,
		      ARP_INPUT_N_ERROR, 1, "error-drop");
