/* SPDX-License-Identifier: BSD-3-Clause
 * Packet helpers of the C conformance tests (router_test, icmp_test): frames
 * are written byte by byte from a pkt_spec, independently of vfwd's code, sent
 * into the graph_env ports, and what leaves is collected.
 */
#ifndef VFWD_PKT_UTIL_H
#define VFWD_PKT_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <rte_arp.h>
#include <rte_ip.h>
#include <rte_ring.h>

#include "vfwd_int.h"
#include "graph_env.h"
#include "test_util.h"

static const struct rte_ether_addr nbr1_mac = {{0x02, 0, 0, 0, 0x01, 0x02}};
static const struct rte_ether_addr host_mac = {{0x02, 0, 0, 0, 0, 0x02}};

/* Ethernet (dst, src) and IPv6 headers (payload length plen, next header nh, hop limit
 * hlim) at f, the plen bytes after them zeroed. */
static inline void
eth_ip6(uint8_t *f, const void *dst_mac, const void *src_mac, uint8_t plen, uint8_t nh,
	uint8_t hlim, const uint8_t *src, const uint8_t *dst)
{
	memset(f, 0, 14 + 40 + plen);
	memcpy(f, dst_mac, 6);
	memcpy(f + 6, src_mac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	f[14] = 0x60;
	f[19] = plen;
	f[20] = nh;
	f[21] = hlim;
	memcpy(f + 22, src, 16);
	memcpy(f + 38, dst, 16);
}

/* Ether(host -> port0) / IPv6(2001:db8::2 -> dst, hop limit 64) / 16 bytes of UDP. */
static inline struct rte_mbuf *
pkt6_to(const uint8_t *dst)
{
	static const uint8_t src[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 16);

	eth_ip6(f, &vfwd.ports[0].mac, &host_mac, 16, 17, 64, src, dst);
	m->port = vfwd.ports[0].port_id;
	return m;
}

static uint16_t
ip_csum(const void *h, unsigned len)
{
	const uint8_t *b = h;
	uint32_t s = 0;

	for (unsigned i = 0; i + 1 < len; i += 2)
		s += (uint32_t)(b[i] << 8 | b[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* The neighbour advertisement of nh from nh_mac into port1, for port1's address (solicited,
 * override, target link-layer option), its ICMPv6 checksum over the pseudo-header
 * (RFC 4443 2.3). */
static inline struct rte_mbuf *
na6_from(const uint8_t *nh, const uint8_t *nh_mac)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 32), buf[40 + 32];
	uint16_t c;

	eth_ip6(f, &vfwd.ports[1].mac, nh_mac, 32, 58, 255, nh, vfwd.ports[1].ip6);
	f[54] = 136;
	f[58] = 0x60;
	memcpy(f + 62, nh, 16);
	f[78] = 2;
	f[79] = 1;
	memcpy(f + 80, nh_mac, 6);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, f + 22, 32);
	buf[35] = 32;
	buf[39] = 58;
	memcpy(buf + 40, f + 54, 32);
	c = ip_csum(buf, sizeof(buf));
	f[56] = (uint8_t)(c >> 8);
	f[57] = (uint8_t)c;
	m->port = vfwd.ports[1].port_id;
	return m;
}

struct pkt_spec {
	int port;		    /* input port */
	uint8_t proto;		    /* 0 means UDP */
	const uint8_t *l4;	    /* the bytes after the IP header, payload of them; NULL: a pattern */
	const uint8_t *dst_mac;	    /* NULL: the input port's */
	uint32_t src, dst;	    /* host order */
	uint8_t ttl;		    /* 0 means 64 */
	uint16_t frag;		    /* flags and offset, host order */
	const uint8_t *opts;	    /* IP options, opt_len bytes (a multiple of 4) */
	unsigned opt_len;
	unsigned payload;	    /* bytes after the IP header */
	unsigned frame;		    /* frame length when larger than the packet (padding) */
};

/* Writes the frame of spec into buf; returns its length. */
static unsigned
frame_build(const struct pkt_spec *s, uint8_t *buf)
{
	unsigned ihl = 20 + s->opt_len, tot = ihl + s->payload;
	unsigned len = RTE_MAX(14 + tot, s->frame);
	uint8_t *ip = buf + 14;
	uint16_t c;

	memset(buf, 0, len);
	if (s->dst_mac)
		memcpy(buf, s->dst_mac, 6);
	else
		memcpy(buf, &vfwd.ports[s->port].mac, 6);
	memcpy(buf + 6, &host_mac, 6);
	buf[12] = 0x08;
	ip[0] = (uint8_t)(0x40 | ihl / 4);
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	ip[4] = 0x12;
	ip[5] = 0x34;
	ip[6] = (uint8_t)(s->frag >> 8);
	ip[7] = (uint8_t)s->frag;
	ip[8] = s->ttl ? s->ttl : 64;
	ip[9] = s->proto ? s->proto : 17;
	for (int i = 0; i < 4; i++) {
		ip[12 + i] = (uint8_t)(s->src >> (24 - 8 * i));
		ip[16 + i] = (uint8_t)(s->dst >> (24 - 8 * i));
	}
	if (s->opt_len)
		memcpy(ip + 20, s->opts, s->opt_len);
	c = ip_csum(ip, ihl);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	for (unsigned i = 0; i < s->payload; i++)
		ip[ihl + i] = s->l4 ? s->l4[i] : (uint8_t)(i * 7 + 3);
	return len;
}

/* An mbuf (a chain of 2000-byte segments when needed) holding the frame. */
static struct rte_mbuf *
pkt_make(const struct pkt_spec *s)
{
	static uint8_t buf[16384];
	unsigned len = frame_build(s, buf), off = 0;
	struct rte_mbuf *head = NULL;

	while (off < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
		unsigned n = RTE_MIN(2000u, len - off);

		memcpy(rte_pktmbuf_append(m, (uint16_t)n), buf + off, n);
		if (head == NULL)
			head = m;
		else
			rte_pktmbuf_chain(head, m);
		off += n;
	}
	head->port = vfwd.ports[s->port].port_id;
	return head;
}

static void
inject(struct rte_mbuf *m)
{
	int p = vfwd.port_index[m->port];

	if (rte_ring_enqueue(env_rx[p], m) < 0)
		rte_pktmbuf_free(m);
}

static unsigned
drain(int port, struct rte_mbuf **out, unsigned max)
{
	return rte_ring_dequeue_burst(env_tx[port], (void **)out, max, NULL);
}

static unsigned
drain_free(void)
{
	struct rte_mbuf *out[64];
	unsigned n, total = 0;

	for (int p = 0; p < 2; p++)
		while ((n = drain(p, out, 64)) > 0) {
			rte_pktmbuf_free_bulk(out, n);
			total += n;
		}
	return total;
}

/* Sends m; expects nothing out and `reason` of `node` counted once. */
static int
dropped_under(struct rte_mbuf *m, const char *node, const char *reason)
{
	uint64_t before = err_get(node, reason);
	unsigned n;
	int ok = 1;

	inject(m);
	walk();
	n = drain_free();
	CHECK(n == 0, "%u packets left the box (want a drop under %s/%s)", n, node, reason);
	CHECK(err_get(node, reason) == before + 1, "%s/%s counted %lu, want %lu", node, reason,
	      (unsigned long)err_get(node, reason), (unsigned long)before + 1);
	return ok;
}

/* Sends m; expects one packet out of port `port`, returned to the caller. */
static struct rte_mbuf *
forwarded(struct rte_mbuf *m, int port)
{
	struct rte_mbuf *out[8];
	unsigned n;

	inject(m);
	walk();
	n = drain(port, out, 8);
	if (n != 1) {
		printf("#   %u packets out of port%d, want 1\n", n, port);
		rte_pktmbuf_free_bulk(out, n);
		drain_free();
		return NULL;
	}
	return out[0];
}

#define NET48 RTE_IPV4(48, 0, 0, 1)
#define HOST0 ((uint32_t)RTE_IPV4(10, 0, 0, 2))

/* An ARP reply from sip/sha to port's address. */
static inline struct rte_mbuf *
arp_reply(int port, uint32_t sip, const struct rte_ether_addr *sha)
{
	const struct port *p = &vfwd.ports[port];
	struct rte_mbuf *m = env_arp(RTE_ARP_OP_REPLY, &p->mac, sha, sip, &p->mac, p->ip4);

	m->port = p->port_id;
	return m;
}

#endif
