/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-local: packets for one of the router's own addresses. An ICMP echo
 * request with a valid checksum gets its echo reply (RFC 1812 4.3.3.6), built
 * in place and routed back through ip4-lookup; vfwd has no other local
 * service, so everything else is dropped and counted.
 */
#include <rte_icmp.h>
#include <rte_ip.h>

#include "error.h"
#include "node_util.h"

enum ip4_local_next {
	IP4_LOCAL_NEXT_DROP,
	IP4_LOCAL_NEXT_LOOKUP,
	IP4_LOCAL_N_NEXT,
};

#define foreach_ip4_local_error                                                                    \
	_(ECHO_REPLIES, "echo replies sent")                                                       \
	_(LOCAL, "ip4 local destination (not forwarded)")                                          \
	_(ICMP_OTHER, "ip4 local icmp other than echo request")                                    \
	_(ICMP_BAD, "ip4 local icmp truncated or bad checksum")

enum ip4_local_error {
#define _(sym, str) IP4_LOCAL_ERROR_##sym,
	foreach_ip4_local_error
#undef _
		IP4_LOCAL_N_ERROR,
};

static const char *const ip4_local_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_local_error
#undef _
};

static inline rte_edge_t
ip4_local_one(struct rte_mbuf *m, uint64_t *errors)
{
	struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	unsigned ihl = (ip->version_ihl & 0xf) * 4u, tot = rte_be_to_cpu_16(ip->total_length);
	struct rte_icmp_hdr *icmp = (struct rte_icmp_hdr *)((uint8_t *)ip + ihl);
	rte_be32_t a;
	uint32_t sum;

	if (ip->next_proto_id != IPPROTO_ICMP) {
		errors[IP4_LOCAL_ERROR_LOCAL]++;
		return IP4_LOCAL_NEXT_DROP;
	}
	if (tot < ihl + sizeof(*icmp) || m->nb_segs != 1 ||
	    rte_raw_cksum(icmp, tot - ihl) != 0xffff) {
		errors[IP4_LOCAL_ERROR_ICMP_BAD]++;
		return IP4_LOCAL_NEXT_DROP;
	}
	if (icmp->icmp_type != RTE_IP_ICMP_ECHO_REQUEST || icmp->icmp_code != 0 ||
	    (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))) {
		errors[IP4_LOCAL_ERROR_ICMP_OTHER]++;
		return IP4_LOCAL_NEXT_DROP;
	}
	icmp->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
	/* RFC 1624: the type word went from 0x0800 to 0x0000 */
	sum = (uint16_t)~rte_be_to_cpu_16(icmp->icmp_cksum) + 0xf7ffu;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	icmp->icmp_cksum = rte_cpu_to_be_16((uint16_t)~sum);
	a = ip->src_addr;
	ip->src_addr = ip->dst_addr;
	ip->dst_addr = a;
	ip->time_to_live = 64;
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	errors[IP4_LOCAL_ERROR_ECHO_REPLIES]++;
	return IP4_LOCAL_NEXT_LOOKUP;
}

NODE_REGISTER_EACH(ip4_local, "ip4-local", ip4_local_one, IP4_LOCAL_NEXT_LOOKUP,
		   ip4_local_error_strings, IP4_LOCAL_N_ERROR, IP4_LOCAL_N_NEXT,
		   [IP4_LOCAL_NEXT_DROP] = "error-drop", [IP4_LOCAL_NEXT_LOOKUP] = "ip4-lookup");
