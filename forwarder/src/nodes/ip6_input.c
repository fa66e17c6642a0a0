/* SPDX-License-Identifier: BSD-3-Clause
 * ip6-input: validates IPv6 headers (version, payload length against the
 * frame) and addresses (RFC 4291: no multicast, loopback or unspecified
 * source; no loopback, unspecified or link-local destination forwarded),
 * trims bytes past the payload, sends multicast ICMPv6 (neighbour discovery)
 * to ip6-nd and drops other multicast (vfwd routes no multicast). Good packets
 * enter the ip6-unicast feature arc (its features, then ip6-lookup; feature.c);
 * the hop limit is checked by ip6-rewrite.
 */
#include <rte_ip.h>

#include "error.h"
#include "feature.h"
#include "node_util.h"

enum ip6_input_next {
	IP6_INPUT_NEXT_DROP,
	IP6_INPUT_NEXT_LOOKUP,
	IP6_INPUT_NEXT_ND,
	IP6_INPUT_N_NEXT,
};

#define foreach_ip6_input_error                                                                    \
	_(TRUNCATED, "ip6 truncated header")                                                       \
	_(VERSION, "ip6 version != 6")                                                             \
	_(BAD_LENGTH, "ip6 length > l2 length")                                                    \
	_(MARTIAN_SRC, "ip6 martian source address")                                               \
	_(MARTIAN_DST, "ip6 martian destination address")                                          \
	_(MULTICAST, "ip6 multicast not forwarded")

enum ip6_input_error {
#define _(sym, str) IP6_INPUT_ERROR_##sym,
	foreach_ip6_input_error
#undef _
		IP6_INPUT_N_ERROR,
};

static const char *const ip6_input_error_strings[] = {
#define _(sym, str) str,
	foreach_ip6_input_error
#undef _
};

static inline bool
ip6_is_unspecified_or_loopback(const uint8_t *a)
{
	uint64_t hi, lo;

	memcpy(&hi, a, 8);
	memcpy(&lo, a + 8, 8);
	return hi == 0 && (lo == 0 || lo == rte_cpu_to_be_64(1));
}

static __rte_noinline rte_edge_t
ip6_input_addr_slow(const struct rte_ipv6_hdr *ip, uint64_t *errors)
{
	if (ip->dst_addr[0] == 0xff) {
		if (ip->proto == IPPROTO_ICMPV6 && ip->src_addr[0] != 0xff)
			return IP6_INPUT_NEXT_ND;
		errors[IP6_INPUT_ERROR_MULTICAST]++;
		return IP6_INPUT_NEXT_DROP;
	}
	if (ip->src_addr[0] == 0xff || ip6_is_unspecified_or_loopback(ip->src_addr)) {
		errors[IP6_INPUT_ERROR_MARTIAN_SRC]++;
		return IP6_INPUT_NEXT_DROP;
	}
	errors[IP6_INPUT_ERROR_MARTIAN_DST]++;
	return IP6_INPUT_NEXT_DROP;
}

/* The full address test: multicast, unspecified or loopback, link-local destination. */
static __rte_noinline bool
ip6_input_addr_bad(const struct rte_ipv6_hdr *ip)
{
	return ip->dst_addr[0] == 0xff || ip->src_addr[0] == 0xff ||
	       ip6_is_unspecified_or_loopback(ip->src_addr) ||
	       ip6_is_unspecified_or_loopback(ip->dst_addr) ||
	       (ip->dst_addr[0] == 0xfe && (ip->dst_addr[1] & 0xc0) == 0x80);
}

/* First bytes of the addresses the full test may refuse (0x00: ::, ::1; 0xff: multicast;
 * 0xfe: a link-local destination): any other pair passes without it. */
static const uint8_t ip6_src_suspect[256] = {[0x00] = 1, [0xff] = 1};
static const uint8_t ip6_dst_suspect[256] = {[0x00] = 1, [0xfe] = 1, [0xff] = 1};

/* always inlined: GCC called it out of line, 12 calls a loop, at some 8 instructions a packet */
static inline __attribute__((always_inline)) rte_edge_t
ip6_input_check(struct rte_mbuf *m, uint64_t *errors)
{
	const struct rte_ipv6_hdr *ip;
	unsigned plen;

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip))) {
		errors[IP6_INPUT_ERROR_TRUNCATED]++;
		return IP6_INPUT_NEXT_DROP;
	}
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv6_hdr *, RTE_ETHER_HDR_LEN);
	if (unlikely((((const uint8_t *)ip)[0] >> 4) != 6)) {
		errors[IP6_INPUT_ERROR_VERSION]++;
		return IP6_INPUT_NEXT_DROP;
	}
	plen = rte_be_to_cpu_16(ip->payload_len);
	if (unlikely(RTE_ETHER_HDR_LEN + sizeof(*ip) + plen > m->pkt_len)) {
		errors[IP6_INPUT_ERROR_BAD_LENGTH]++;
		return IP6_INPUT_NEXT_DROP;
	}
	if (unlikely(ip6_src_suspect[ip->src_addr[0]] | ip6_dst_suspect[ip->dst_addr[0]]) &&
	    ip6_input_addr_bad(ip))
		return ip6_input_addr_slow(ip, errors);
	if (unlikely(RTE_ETHER_HDR_LEN + sizeof(*ip) + plen != m->pkt_len))
		mbuf_trim_to(m, (uint32_t)(RTE_ETHER_HDR_LEN + sizeof(*ip) + plen));
	/* the arc's first enabled feature on this input port, else ip6-lookup (edge 1) */
	return ip6_unicast_arc.next_edge[0][m->port];
}

NODE_REGISTER_EACH(ip6_input, "ip6-input", ip6_input_check, ARC_START_EDGE(ip6_unicast_arc, objs),
		   ip6_input_error_strings, IP6_INPUT_N_ERROR,
		   IP6_INPUT_N_NEXT, [IP6_INPUT_NEXT_DROP] = "error-drop",
		   [IP6_INPUT_NEXT_LOOKUP] = "ip6-lookup", [IP6_INPUT_NEXT_ND] = "ip6-nd");
