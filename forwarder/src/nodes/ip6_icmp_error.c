/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-icmp-error: turns a packet that could not be forwarded into the ICMPv6
 * error its sender should get (RFC 4443 3): destination unreachable (no
 * route, type 1 code 0; address unreachable, code 3, when neighbour discovery
 * failed, from ip6-nd-pending), packet too big (type 2, with the next-hop MTU) and
 * time exceeded (hop limit, type 3 code 0). The reason travels in the mbuf's
 * adjacency field (icmp_error_mark). The error quotes as much of the packet as
 * fits in the minimum IPv6 MTU (1280 bytes in all, RFC 4443 2.4 (c)), comes
 * from the input interface's IPv6 address, and goes to ip6-lookup to be routed
 * back. None is sent about an ICMPv6 error (or an unknown ICMPv6 type), a
 * packet to a multicast address (but packet too big, RFC 4443 2.4 (e.3)), from
 * an unspecified or multicast source, from an interface with no IPv6 address,
 * nor above the rate limit (a token bucket per worker thread, as IPv4's; same
 * switch: `set ip icmp-error enable|disable|rate N`).
 */
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_per_lcore.h>

#include "error.h"
#include "icmp_error.h"
#include "state.h"
#include "node_util.h"

enum ip6_icmp_error_next {
	IP6_ICMP_ERROR_NEXT_DROP,
	IP6_ICMP_ERROR_NEXT_LOOKUP,
	IP6_ICMP_ERROR_N_NEXT,
};

/* VPP's names (ip6-icmp-error) where it has them */
#define foreach_ip6_icmp_error_error                                                               \
	_(UNREACH_SENT, "destination unreachable response sent")                                   \
	_(ADDR_UNREACH_SENT, "address unreachable response sent")                                  \
	_(TOO_BIG_SENT, "packet too big response sent")                                            \
	_(HOP_LIMIT_SENT, "hop limit exceeded response sent")                                      \
	_(NOT_SENT, "error message dropped (about an icmp6 error or to a multicast address)")      \
	_(BAD_SOURCE, "error message dropped (unspecified or multicast source)")                   \
	_(NO_SOURCE, "error message dropped (input interface has no ip6 address)")                 \
	_(RATE_LIMITED, "error message dropped (rate limited)")                                    \
	_(NO_ROOM, "buffer headroom too small")

enum ip6_icmp_error_error {
#define _(sym, str) IP6_ICMP_ERROR_ERROR_##sym,
	foreach_ip6_icmp_error_error
#undef _
		IP6_ICMP_ERROR_N_ERROR,
};

static const char *const ip6_icmp_error_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_icmp_error_error
#undef _
};

#define IP6_MIN_MTU 1280
#define HDRS (40 + 8) /* the new IPv6 header and the ICMPv6 header */

static RTE_DEFINE_PER_LCORE(struct icmp_bucket, icmp6_bucket);

/* False for an ICMPv6 error message, or an ICMPv6 type we do not know to be
 * informational (RFC 4443 2.4 (e.1)); extension headers are walked within the
 * first segment, and a non-first fragment is never answered. */
static bool
icmp6_error_allowed(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	unsigned off = RTE_ETHER_HDR_LEN + sizeof(*ip);
	uint8_t nh = ip->proto;

	for (int i = 0; i < 8; i++) {
		const uint8_t *h = rte_pktmbuf_mtod_offset(m, const uint8_t *, off);

		if (nh != 0 && nh != 43 && nh != 44 && nh != 60)
			break;
		if (off + 8 > m->data_len)
			return false;
		if (nh == 44) { /* fragment: only the first one carries the upper header */
			if ((h[2] << 8 | h[3]) & 0xfff8)
				return false;
			off += 8;
		} else {
			off += 8u + h[1] * 8u;
		}
		nh = h[0];
	}
	if (nh != IPPROTO_ICMPV6)
		return true;
	if (off + 1 > m->data_len)
		return false;
	return *rte_pktmbuf_mtod_offset(m, const uint8_t *, off) >= 128; /* informational */
}

static inline rte_edge_t
ip6_icmp_error_one(struct rte_mbuf *m, uint64_t *errors)
{
	uint32_t why = *mbuf_adj(m);
	uint8_t type = (uint8_t)(why >> 8), code = (uint8_t)why;
	const struct port *in = port_by_ethdev(m->port);
	struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	uint8_t src[16], *h, *icmp;
	struct rte_ipv6_hdr *nip;
	unsigned quote;
	uint16_t plen;

	if ((ip->dst_addr[0] == 0xff && type != 2) || !icmp6_error_allowed(m, ip)) {
		errors[IP6_ICMP_ERROR_ERROR_NOT_SENT]++;
		return IP6_ICMP_ERROR_NEXT_DROP;
	}
	memcpy(src, ip->src_addr, 16);
	{
		static const uint8_t zero[16];

		if (src[0] == 0xff || memcmp(src, zero, 16) == 0) {
			errors[IP6_ICMP_ERROR_ERROR_BAD_SOURCE]++;
			return IP6_ICMP_ERROR_NEXT_DROP;
		}
	}
	if (in == NULL || !in->has_ip6) {
		errors[IP6_ICMP_ERROR_ERROR_NO_SOURCE]++;
		return IP6_ICMP_ERROR_NEXT_DROP;
	}
	if (!icmp_error_rate_ok(&RTE_PER_LCORE(icmp6_bucket))) {
		errors[IP6_ICMP_ERROR_ERROR_RATE_LIMITED]++;
		return IP6_ICMP_ERROR_NEXT_DROP;
	}
	/* quote as much as fits in 1280 bytes, from the first segment */
	quote = RTE_MIN(sizeof(*ip) + rte_be_to_cpu_16(ip->payload_len),
			(size_t)IP6_MIN_MTU - HDRS);
	quote = RTE_MIN(quote, (unsigned)m->data_len - RTE_ETHER_HDR_LEN);
	mbuf_trim_to(m, RTE_ETHER_HDR_LEN + quote);
	h = (uint8_t *)rte_pktmbuf_prepend(m, HDRS);
	if (h == NULL) {
		errors[IP6_ICMP_ERROR_ERROR_NO_ROOM]++;
		return IP6_ICMP_ERROR_NEXT_DROP;
	}
	((struct rte_ether_hdr *)h)->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	nip = (struct rte_ipv6_hdr *)(h + RTE_ETHER_HDR_LEN);
	plen = (uint16_t)(8 + quote);
	nip->vtc_flow = RTE_BE32(0x6u << 28);
	nip->payload_len = rte_cpu_to_be_16(plen);
	nip->proto = IPPROTO_ICMPV6;
	nip->hop_limits = 64;
	memcpy(nip->src_addr, in->ip6, 16);
	memcpy(nip->dst_addr, src, 16);
	icmp = (uint8_t *)(nip + 1);
	memset(icmp, 0, 8);
	icmp[0] = type;
	icmp[1] = code;
	if (type == 2) { /* packet too big: the MTU in the second word */
		uint32_t mtu = why >> 16;

		icmp[4] = (uint8_t)(mtu >> 24);
		icmp[5] = (uint8_t)(mtu >> 16);
		icmp[6] = (uint8_t)(mtu >> 8);
		icmp[7] = (uint8_t)mtu;
	}
	{
		uint32_t sum = rte_ipv6_phdr_cksum(nip, 0);

		sum += rte_raw_cksum(icmp, plen);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		uint16_t c = (uint16_t)~sum;

		memcpy(icmp + 2, &c, 2);
	}
	if (type == 1 && code == 3)
		errors[IP6_ICMP_ERROR_ERROR_ADDR_UNREACH_SENT]++;
	else if (type == 1)
		errors[IP6_ICMP_ERROR_ERROR_UNREACH_SENT]++;
	else if (type == 2)
		errors[IP6_ICMP_ERROR_ERROR_TOO_BIG_SENT]++;
	else
		errors[IP6_ICMP_ERROR_ERROR_HOP_LIMIT_SENT]++;
	return IP6_ICMP_ERROR_NEXT_LOOKUP;
}

NODE_REGISTER_EACH(ip6_icmp_error, "ip6-icmp-error", ip6_icmp_error_one, IP6_ICMP_ERROR_NEXT_LOOKUP,
		   ip6_icmp_error_error_strings, IP6_ICMP_ERROR_N_ERROR,
		   IP6_ICMP_ERROR_N_NEXT, [IP6_ICMP_ERROR_NEXT_DROP] = "error-drop",
		   [IP6_ICMP_ERROR_NEXT_LOOKUP] = "ip6-lookup");
