/* SPDX-License-Identifier: BSD-3-Clause
 * ip4-frag: splits a rewritten packet larger than its output MTU into
 * fragments (RFC 791 3.2; RFC 1812 5.2.6): each gets the Ethernet header, the
 * IP header (every option in the first fragment, only the options with the
 * copy bit in the others), a multiple of 8 data bytes, its offset and MF flag,
 * and a new checksum. The fragments are fresh single-segment mbufs; the
 * original, which may be a chain, is freed.
 */
#include <rte_ip.h>

#include "edge.h"
#include "error.h"
#include "fib.h"
#include "state.h"
#include "node_util.h"

/* edge 0 is error-drop; graph setup adds one edge per <port>-output */

#define foreach_ip4_frag_error                                                                     \
	_(FRAGMENTED, "packets fragmented")                                                        \
	_(FRAGMENTS, "fragments sent")                                                             \
	_(NO_BUFFER, "fragment buffer allocation failure")                                         \
	_(MALFORMED, "cannot fragment: MTU below header size")

enum ip4_frag_error {
#define _(sym, str) IP4_FRAG_ERROR_##sym,
	foreach_ip4_frag_error
#undef _
		IP4_FRAG_N_ERROR,
};

static const char *const ip4_frag_error_strings[] = {
#define _(sym, str) str,
	foreach_ip4_frag_error
#undef _
};

/* Copies the options of a header that go into every fragment; returns their
 * length padded to 4 bytes. */
static unsigned
ip4_copied_options(const uint8_t *h, unsigned ihl, uint8_t *out)
{
	unsigned i = sizeof(struct rte_ipv4_hdr), n = 0;

	while (i < ihl && h[i] != 0) {
		unsigned len = h[i] == 1 ? 1 : h[i + 1];

		if (h[i] & 0x80) {
			memcpy(out + n, h + i, len);
			n += len;
		}
		i += len;
	}
	while (n & 3)
		out[n++] = 0;
	return n;
}

static int
ip4_frag_one(struct rte_graph *graph, struct rte_node *node, struct rte_mbuf *m, uint64_t *errors)
{
	const struct adj *adj = &adj_table[*mbuf_adj(m)];
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	unsigned ihl = (ip->version_ihl & 0xf) * 4u, tot = rte_be_to_cpu_16(ip->total_length);
	unsigned room = rte_pktmbuf_data_room_size(vfwd.pool) - RTE_PKTMBUF_HEADROOM;
	unsigned mtu = RTE_MIN((unsigned)adj->mtu, room - RTE_ETHER_HDR_LEN);
	uint16_t fo = rte_be_to_cpu_16(ip->fragment_offset);
	unsigned base = (fo & RTE_IPV4_HDR_OFFSET_MASK) * 8u, payload = tot - ihl, off = 0;
	uint8_t copied[40];
	unsigned ncopied = ip4_copied_options((const uint8_t *)ip, ihl, copied);

	if (mtu < ihl + 8 || mtu < sizeof(*ip) + ncopied + 8) {
		errors[IP4_FRAG_ERROR_MALFORMED]++;
		return -1;
	}
	while (off < payload) {
		unsigned hl = off == 0 ? ihl : sizeof(*ip) + ncopied;
		unsigned len = RTE_MIN((mtu - hl) & ~7u, payload - off);
		bool more = off + len < payload || (fo & RTE_IPV4_HDR_MF_FLAG);
		struct rte_mbuf *f = rte_pktmbuf_alloc(vfwd.pool);
		struct rte_ipv4_hdr *fip;
		uint8_t *d;
		const void *src;

		if (f == NULL || (d = (uint8_t *)rte_pktmbuf_append(
					  f, (uint16_t)(RTE_ETHER_HDR_LEN + hl + len))) == NULL) {
			rte_pktmbuf_free(f);
			errors[IP4_FRAG_ERROR_NO_BUFFER]++;
			return -1;
		}
		memcpy(d, eth, RTE_ETHER_HDR_LEN);
		fip = (struct rte_ipv4_hdr *)(d + RTE_ETHER_HDR_LEN);
		if (off == 0) {
			memcpy(fip, ip, ihl);
		} else {
			memcpy(fip, ip, sizeof(*ip));
			memcpy(fip + 1, copied, ncopied);
		}
		src = rte_pktmbuf_read(m, RTE_ETHER_HDR_LEN + ihl + off, len,
				       d + RTE_ETHER_HDR_LEN + hl);
		if (src != d + RTE_ETHER_HDR_LEN + hl)
			memcpy(d + RTE_ETHER_HDR_LEN + hl, src, len);
		fip->version_ihl = (uint8_t)(0x40 | hl / 4);
		fip->total_length = rte_cpu_to_be_16((uint16_t)(hl + len));
		fip->fragment_offset = rte_cpu_to_be_16(
			(uint16_t)((base + off) / 8 | (more ? RTE_IPV4_HDR_MF_FLAG : 0)));
		fip->hdr_checksum = 0;
		fip->hdr_checksum = rte_ipv4_cksum(fip);
		f->port = m->port;
		*mbuf_adj(f) = *mbuf_adj(m);
		rte_node_enqueue_x1(graph, node,
				    ((struct vfwd_node_ctx *)node->ctx)->next_by_port[adj->port_id],
				    f);
		errors[IP4_FRAG_ERROR_FRAGMENTS]++;
		off += len;
	}
	errors[IP4_FRAG_ERROR_FRAGMENTED]++;
	return 0;
}

static uint16_t
ip4_frag_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;

	for (uint16_t i = 0; i < cnt; i++) {
		struct rte_mbuf *m = objs[i];

		/* a fragment that failed leaves the ones already sent: the receiver's
		 * reassembly times out, as on any lossy path */
		ip4_frag_one(graph, node, m, errors);
		rte_pktmbuf_free(m);
	}
	return cnt;
}

NODE_REGISTER_COUNTED(ip4_frag, "ip4-frag", ip4_frag_process, ip4_frag_error_strings,
		      IP4_FRAG_N_ERROR, 1, "error-drop");
