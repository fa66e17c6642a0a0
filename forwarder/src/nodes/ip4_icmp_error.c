/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-icmp-error: turns a packet that could not be forwarded into the ICMP
 * error its sender should get (RFC 792, RFC 1812 4.3.2): time exceeded,
 * destination unreachable (net: no route; host: the next hop never answered
 * ARP, from ip4-arp-pending), fragmentation needed (with the next-hop MTU,
 * RFC 1191). The reason travels in the mbuf's adjacency field (see
 * icmp_error_mark). The error quotes the original packet up to 576 bytes in
 * all, comes from the input interface's address, and goes to ip4-lookup to be
 * routed back. None is sent about an ICMP error, a non-first fragment, or a
 * packet from an interface with no address (RFC 1812 4.3.2.7), nor above the
 * rate limit (a token bucket per worker thread).
 */
#include <rte_cycles.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_per_lcore.h>

#include "error.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

enum ip4_icmp_error_next {
	IP4_ICMP_ERROR_NEXT_DROP,
	IP4_ICMP_ERROR_NEXT_LOOKUP,
	IP4_ICMP_ERROR_N_NEXT,
};

#define foreach_ip4_icmp_error_error                                                               \
	_(TTL_SENT, "time exceeded response sent")                                                 \
	_(UNREACH_SENT, "destination unreachable response sent")                                   \
	_(HOST_UNREACH_SENT, "host unreachable response sent")                                     \
	_(FRAG_SENT, "fragmentation needed response sent")                                         \
	_(NOT_SENT, "error message dropped (about an icmp error or a fragment)")                   \
	_(NO_SOURCE, "error message dropped (input interface has no address)")                     \
	_(RATE_LIMITED, "error message dropped (rate limited)")                                    \
	_(NO_ROOM, "buffer headroom too small")

enum ip4_icmp_error_error {
#define _(sym, str) IP4_ICMP_ERROR_ERROR_##sym,
	foreach_ip4_icmp_error_error
#undef _
		IP4_ICMP_ERROR_N_ERROR,
};

static const char *const ip4_icmp_error_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_icmp_error_error
#undef _
};

static RTE_DEFINE_PER_LCORE(struct icmp_bucket, icmp_bucket);

/* RFC 1812 4.3.2.7: never about an ICMP error (or an unknown ICMP type), nor
 * about a fragment other than the first */
static bool
icmp_error_allowed(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, unsigned ihl)
{
	const uint8_t *l4 = (const uint8_t *)ip + ihl;

	if (ip->fragment_offset & RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK))
		return false;
	if (ip->next_proto_id != IPPROTO_ICMP)
		return true;
	if (RTE_ETHER_HDR_LEN + ihl + 1 > m->data_len)
		return false;
	switch (l4[0]) {
	case RTE_IP_ICMP_ECHO_REPLY:
	case RTE_IP_ICMP_ECHO_REQUEST:
	case 13: /* timestamp */
	case 14:
	case 15: /* information */
	case 16:
	case 17: /* address mask */
	case 18:
		return true;
	default:
		return false;
	}
}

static inline rte_edge_t
ip4_icmp_error_one(struct rte_mbuf *m, uint64_t *errors)
{
	uint32_t why = *mbuf_adj(m);
	uint8_t type = (uint8_t)(why >> 8), code = (uint8_t)why;
	const struct port *in = port_by_ethdev(m->port);
	struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	unsigned ihl = (ip->version_ihl & 0xf) * 4u, quote;
	struct rte_ipv4_hdr *nip;
	struct rte_icmp_hdr *icmp;
	rte_be32_t dst = ip->src_addr;
	uint8_t *h;

	if (!icmp_error_allowed(m, ip, ihl)) {
		errors[IP4_ICMP_ERROR_ERROR_NOT_SENT]++;
		return IP4_ICMP_ERROR_NEXT_DROP;
	}
	if (in == NULL || in->ip4 == 0) {
		errors[IP4_ICMP_ERROR_ERROR_NO_SOURCE]++;
		return IP4_ICMP_ERROR_NEXT_DROP;
	}
	if (!icmp_error_rate_ok(&RTE_PER_LCORE(icmp_bucket))) {
		errors[IP4_ICMP_ERROR_ERROR_RATE_LIMITED]++;
		return IP4_ICMP_ERROR_NEXT_DROP;
	}
	/* quote as much as fits in 576 bytes (RFC 1812 4.3.2.3), from the first segment */
	quote = RTE_MIN((unsigned)rte_be_to_cpu_16(ip->total_length), 576u - 28u);
	quote = RTE_MIN(quote, (unsigned)m->data_len - RTE_ETHER_HDR_LEN);
	mbuf_trim_to(m, RTE_ETHER_HDR_LEN + quote);
	h = (uint8_t *)rte_pktmbuf_prepend(m, 28);
	if (h == NULL) {
		errors[IP4_ICMP_ERROR_ERROR_NO_ROOM]++;
		return IP4_ICMP_ERROR_NEXT_DROP;
	}
	((struct rte_ether_hdr *)h)->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	nip = (struct rte_ipv4_hdr *)(h + RTE_ETHER_HDR_LEN);
	memset(nip, 0, sizeof(*nip) + sizeof(*icmp));
	nip->version_ihl = 0x45;
	nip->type_of_service = 0xc0; /* internetwork control (RFC 1812 4.3.2.5) */
	nip->total_length = rte_cpu_to_be_16((uint16_t)(28 + quote));
	nip->time_to_live = 64;
	nip->next_proto_id = IPPROTO_ICMP;
	nip->src_addr = rte_cpu_to_be_32(in->ip4);
	nip->dst_addr = dst;
	nip->hdr_checksum = rte_ipv4_cksum(nip);
	icmp = (struct rte_icmp_hdr *)(nip + 1);
	icmp->icmp_type = type;
	icmp->icmp_code = code;
	if (type == 3 && code == 4) /* next-hop MTU in the low half of the second word */
		icmp->icmp_seq_nb = rte_cpu_to_be_16((uint16_t)(why >> 16));
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, 8 + quote);
	if (type == 11)
		errors[IP4_ICMP_ERROR_ERROR_TTL_SENT]++;
	else if (code == 4)
		errors[IP4_ICMP_ERROR_ERROR_FRAG_SENT]++;
	else if (code == 1)
		errors[IP4_ICMP_ERROR_ERROR_HOST_UNREACH_SENT]++;
	else
		errors[IP4_ICMP_ERROR_ERROR_UNREACH_SENT]++;
	return IP4_ICMP_ERROR_NEXT_LOOKUP;
}

NODE_REGISTER_EACH(ip4_icmp_error, "ip4-icmp-error", ip4_icmp_error_one, IP4_ICMP_ERROR_NEXT_LOOKUP,
		   ip4_icmp_error_error_strings, IP4_ICMP_ERROR_N_ERROR,
		   IP4_ICMP_ERROR_N_NEXT, [IP4_ICMP_ERROR_NEXT_DROP] = "error-drop",
		   [IP4_ICMP_ERROR_NEXT_LOOKUP] = "ip4-lookup");
