/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-input: validates IPv4 headers (version, header length, total length
 * against the frame, header checksum, options) and addresses (RFC 1812
 * 5.3.7: no martian source or destination, no source that is one of ours),
 * trims bytes after the total length, and hands good packets to the
 * ip4-unicast feature arc of their input interface (or ip4-lookup when the
 * interface has no feature enabled). Each failure has its own counter. The
 * TTL is checked by ip4-rewrite, once it is known the packet is forwarded
 * (a packet for the router itself is not TTL-checked).
 */
#include <string.h>

#include <rte_ip.h>

#include "error.h"
#include "feature.h"
#include "fib.h"
#include "state.h"
#include "node_util.h"

/* edges 0 and 1 are fixed; the arc adds one edge per feature after them */
enum ip4_input_next {
	IP4_INPUT_NEXT_DROP,
	IP4_INPUT_NEXT_LOOKUP,
	IP4_INPUT_N_NEXT,
};

#define foreach_ip4_input_error                                                                    \
	_(TRUNCATED, "ip4 truncated header")                                                       \
	_(VERSION, "ip4 version != 4")                                                             \
	_(BAD_IHL, "ip4 bad header length")                                                        \
	_(BAD_LENGTH, "ip4 length > l2 length")                                                    \
	_(BAD_CHECKSUM, "ip4 bad checksum")                                                        \
	_(BAD_OPTIONS, "ip4 bad options")                                                          \
	_(MARTIAN_SRC, "ip4 martian source address")                                               \
	_(MARTIAN_DST, "ip4 martian destination address")                                          \
	_(LOCAL_SRC, "ip4 source is a local address")

enum ip4_input_error {
#define _(sym, str) IP4_INPUT_ERROR_##sym,
	foreach_ip4_input_error
#undef _
		IP4_INPUT_N_ERROR,
};

static const char *const ip4_input_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_input_error
#undef _
};

/* One's complement sum of a 20-byte header, folded; 0xffff when it is valid.
 * The header sits 14 bytes into the frame, so it is only 2-byte aligned: copy
 * it into words (the compiler turns this into plain unaligned loads on x86)
 * rather than dereference a misaligned uint32_t pointer (UB, found by UBSan).
 */
static inline uint16_t
ip4_header_sum20(const void *hdr)
{
	const uint8_t *h = hdr;
	uint32_t w0, w1, w2, w3, w4;
	uint64_t s;

	/* five separate loads: an array would be spilled to the stack and read back */
	memcpy(&w0, h, 4);
	memcpy(&w1, h + 4, 4);
	memcpy(&w2, h + 8, 4);
	memcpy(&w3, h + 12, 4);
	memcpy(&w4, h + 16, 4);
	s = (uint64_t)w0 + w1 + w2 + w3 + w4;

	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* True when a 20-byte header's checksum is good. Its ones' complement sum folds to 0xffff
 * exactly when the plain sum of its five 32-bit words (never 0: the first byte is 0x45) is a
 * multiple of 0xffff, as 2^16 = 1 (mod 0xffff); the compiler tests divisibility by a
 * constant with one multiplication and one compare, where folding takes a dozen steps. */
static inline bool
ip4_header_ok20(const void *hdr)
{
	const uint8_t *h = hdr;
	uint32_t w0, w1, w2, w3, w4;

	memcpy(&w0, h, 4);
	memcpy(&w1, h + 4, 4);
	memcpy(&w2, h + 8, 4);
	memcpy(&w3, h + 12, 4);
	memcpy(&w4, h + 16, 4);
	return ((uint64_t)w0 + w1 + w2 + w3 + w4) % 0xffff == 0;
}

static inline uint16_t
ip4_header_sum(const struct rte_ipv4_hdr *ip, unsigned ihl)
{
	if (likely(ihl == sizeof(*ip)))
		return ip4_header_sum20(ip);
	return (uint16_t)rte_raw_cksum(ip, ihl);
}

/* First octets no packet may carry as a source or be forwarded to: 0/8 ("this
 * network"), 127/8 (loopback), 224/4 (multicast: vfwd routes no multicast)
 * and 240/4 (reserved, with 255.255.255.255). */
static const uint8_t ip4_martian_octet[256] = {
	[0] = 1,
	[127] = 1,
	[224 ... 255] = 1,
};

/* RFC 791 options: each option's length fits the header; record route, source
 * routes and timestamps have a pointer past their own header. */
static __rte_noinline bool
ip4_options_ok(const uint8_t *h, unsigned ihl)
{
	unsigned i = sizeof(struct rte_ipv4_hdr);

	while (i < ihl) {
		uint8_t type = h[i], len;

		if (type == 0) /* end of option list */
			return true;
		if (type == 1) { /* no operation */
			i++;
			continue;
		}
		if (i + 1 >= ihl)
			return false;
		len = h[i + 1];
		if (len < 2 || i + len > ihl)
			return false;
		if ((type == 7 || type == 131 || type == 137) && (len < 3 || h[i + 2] < 4))
			return false;
		if (type == 68 && (len < 4 || h[i + 2] < 5))
			return false;
		i += len;
	}
	return true;
}

static __rte_noinline rte_edge_t
ip4_input_addr_slow(const struct rte_ipv4_hdr *ip, uint64_t *errors)
{
	const uint8_t *src = (const uint8_t *)&ip->src_addr, *dst = (const uint8_t *)&ip->dst_addr;

	if (ip4_martian_octet[src[0]]) {
		errors[IP4_INPUT_ERROR_MARTIAN_SRC]++;
		return IP4_INPUT_NEXT_DROP;
	}
	if (ip4_martian_octet[dst[0]]) {
		errors[IP4_INPUT_ERROR_MARTIAN_DST]++;
		return IP4_INPUT_NEXT_DROP;
	}
	errors[IP4_INPUT_ERROR_LOCAL_SRC]++;
	return IP4_INPUT_NEXT_DROP;
}

static __rte_noinline bool
ip4_is_own_list(rte_be32_t a)
{
	unsigned n = __atomic_load_n(&ip4_own.n, __ATOMIC_RELAXED);

	for (unsigned i = 0; i < n; i++)
		if (ip4_own.addr[i] == a)
			return true;
	return false;
}

/* one of the interface addresses: the filter clears most sources without the list */
static inline bool
ip4_is_own(rte_be32_t a)
{
	if (likely(!((__atomic_load_n(&ip4_own.filter, __ATOMIC_RELAXED) >> ip4_own_hash(a)) & 1)))
		return false;
	return ip4_is_own_list(a);
}

/* Every check, in order, counting the first that fails: the packets the fast
 * filter below does not pass come here. */
static __rte_noinline rte_edge_t
ip4_input_full(struct rte_mbuf *m, uint64_t *errors)
{
	const struct rte_ipv4_hdr *ip;
	unsigned ihl, tot;

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip))) {
		errors[IP4_INPUT_ERROR_TRUNCATED]++;
		return IP4_INPUT_NEXT_DROP;
	}
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	if (likely(ip->version_ihl == 0x45)) {
		ihl = sizeof(*ip);
	} else {
		if (unlikely((ip->version_ihl >> 4) != 4)) {
			errors[IP4_INPUT_ERROR_VERSION]++;
			return IP4_INPUT_NEXT_DROP;
		}
		ihl = (ip->version_ihl & 0xf) * 4u;
		if (unlikely(ihl < sizeof(*ip) || RTE_ETHER_HDR_LEN + ihl > m->data_len)) {
			errors[IP4_INPUT_ERROR_BAD_IHL]++;
			return IP4_INPUT_NEXT_DROP;
		}
	}
	tot = rte_be_to_cpu_16(ip->total_length);
	if (unlikely(tot < ihl || RTE_ETHER_HDR_LEN + tot > m->pkt_len)) {
		errors[IP4_INPUT_ERROR_BAD_LENGTH]++;
		return IP4_INPUT_NEXT_DROP;
	}
	if (unlikely(ip4_header_sum(ip, ihl) != 0xffff)) {
		errors[IP4_INPUT_ERROR_BAD_CHECKSUM]++;
		return IP4_INPUT_NEXT_DROP;
	}
	if (unlikely(ip4_martian_octet[((const uint8_t *)&ip->src_addr)[0]] |
		     ip4_martian_octet[((const uint8_t *)&ip->dst_addr)[0]]) ||
	    unlikely(ip4_is_own(ip->src_addr)))
		return ip4_input_addr_slow(ip, errors);
	if (unlikely(ihl > sizeof(*ip)) && !ip4_options_ok((const uint8_t *)ip, ihl)) {
		errors[IP4_INPUT_ERROR_BAD_OPTIONS]++;
		return IP4_INPUT_NEXT_DROP;
	}
	/* Ethernet padding and any other bytes past the IP packet are not forwarded */
	if (unlikely(RTE_ETHER_HDR_LEN + tot != m->pkt_len))
		mbuf_trim_to(m, RTE_ETHER_HDR_LEN + tot);
	return ip4_unicast_arc.next_edge[0][m->port];
}

/* The fast filter: a 20-byte header, a total length that is exactly what the
 * frame holds, a good checksum, no martian or own source, no martian
 * destination. It passes only packets ip4_input_full() would pass unchanged,
 * and keeps the per-packet step small enough to need no saved registers.
 * (total length >= 20 follows: it is pkt_len - 14, and pkt_len >= data_len >= 34, since
 * ethernet-input passes only chains whose segments hold pkt_len bytes.) */
static inline __attribute__((always_inline)) rte_edge_t
ip4_input_check(struct rte_mbuf *m, uint64_t *errors)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	if (likely(m->data_len >= RTE_ETHER_HDR_LEN + sizeof(*ip) && ip->version_ihl == 0x45 &&
		   RTE_ETHER_HDR_LEN + (uint32_t)rte_be_to_cpu_16(ip->total_length) == m->pkt_len &&
		   ip4_header_ok20(ip) &&
		   !(ip4_martian_octet[((const uint8_t *)&ip->src_addr)[0]] |
		     ip4_martian_octet[((const uint8_t *)&ip->dst_addr)[0]]) &&
		   !ip4_is_own(ip->src_addr)))
		return ip4_unicast_arc.next_edge[0][m->port];
	return ip4_input_full(m, errors);
}

NODE_REGISTER_EACH(ip4_input, "ip4-input", ip4_input_check, ARC_START_EDGE(ip4_unicast_arc, objs),
		   ip4_input_error_strings, IP4_INPUT_N_ERROR, IP4_INPUT_N_NEXT,
		   [IP4_INPUT_NEXT_DROP] = "error-drop", [IP4_INPUT_NEXT_LOOKUP] = "ip4-lookup");
