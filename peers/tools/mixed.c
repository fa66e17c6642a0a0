/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The example-rs tests' traffic and readers:
 *   mixed FILE [--reverse] [--count N]   N (700) frames: IPv4 UDP/TCP/ICMP/GRE, TTL 1, ARP,
 *                                        IPv6, unknown; the first 3/7 UDP and TCP only
 *   dump FILE                            the file header, then one line per frame: length
 *                                        on the wire, captured length, bytes (no timestamp)
 *   summary FILE                         frame counts by kind, one `key value` a line
 */
#include "pkt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t SRC_MAC[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t DST_MAC[6] = { 0x02, 0x70, 0x63, 0x61, 0x70, 0x00 }; /* net_pcap0 */

static uint64_t lcg;
static unsigned int
rnd(unsigned int n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)((lcg >> 33) % n);
}

static void
ether(struct buf *f, const uint8_t dst[6], unsigned int type)
{
	f->n = 0;
	buf_put(f, dst, 6);
	buf_put(f, SRC_MAC, 6);
	buf_u16(f, type);
}

/* Ethernet + IPv4 + the l4 header, padded with a byte pattern to size bytes. */
static void
ip4(struct buf *f, const uint8_t src[4], const uint8_t dst[4], int proto, int ttl,
    const struct buf *l4, size_t size)
{
	size_t total = (size > 34 + l4->n ? size : 34 + l4->n) - 14;

	ether(f, DST_MAC, 0x0800);
	buf_ip4_hdr(f, src, dst, proto, ttl, 1, 5, total);
	buf_put(f, l4->d, l4->n);
	while (f->n < 14 + total)
		buf_u8(f, (unsigned int)(f->n & 0xff));
}

static void
l4_udp(struct buf *u, unsigned int sport, unsigned int dport, size_t size)
{
	u->n = 0;
	buf_u16(u, sport);
	buf_u16(u, dport);
	buf_u16(u, (unsigned int)((size > 42 ? size : 42) - 34));
	buf_u16(u, 0); /* no checksum, allowed in IPv4 */
}

static void
l4_tcp(struct buf *t, unsigned int sport, unsigned int dport)
{
	static const uint8_t rest[16] = { 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0x20 };

	t->n = 0;
	buf_u16(t, sport);
	buf_u16(t, dport);
	buf_put(t, rest, sizeof(rest));
}

static void
l4_icmp_echo(struct buf *i, unsigned int id, unsigned int seq)
{
	i->n = 0;
	buf_u8(i, 8);
	buf_u8(i, 0);
	buf_u16(i, 0);
	buf_u16(i, id);
	buf_u16(i, seq & 0xffff);
	put16(i->d + 2, inet_csum(i->d, i->n, 0));
}

static void
arp_request(struct buf *f, const uint8_t sender[4], const uint8_t target[4])
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, zero[6] = { 0 };
	static const uint8_t hdr[8] = { 0, 1, 8, 0, 6, 4, 0, 1 };

	ether(f, bcast, 0x0806);
	buf_put(f, hdr, 8);
	buf_put(f, SRC_MAC, 6);
	buf_put(f, sender, 4);
	buf_put(f, zero, 6);
	buf_put(f, target, 4);
	buf_pad(f, 60);
}

static void
other(struct buf *f, unsigned int type, size_t size)
{
	ether(f, DST_MAC, type);
	while (f->n < size)
		buf_u8(f, (unsigned int)((f->n * 7) & 0xff));
}

static void
addr(uint8_t a[4], uint8_t base)
{
	a[0] = base;
	a[1] = (uint8_t)rnd(4);
	a[2] = (uint8_t)rnd(8);
	a[3] = (uint8_t)(1 + rnd(250));
}

static void
mixed_frame(unsigned int i, unsigned int count, int reverse, struct buf *f)
{
	static const uint8_t fwd_me[4] = { 10, 0, 0, 1 }, fwd_peer[4] = { 10, 0, 0, 2 };
	static const uint8_t rev_me[4] = { 10, 0, 1, 1 }, rev_peer[4] = { 10, 0, 1, 2 };
	static const uint8_t gre[4] = { 0, 0, 0x08, 0 };
	uint8_t src[4], dst[4];
	struct buf l4 = { .n = 0 };
	unsigned int kind, sport;
	size_t size;

	addr(src, reverse ? 48 : 16);
	addr(dst, reverse ? 16 : 48);
	size = 64 + rnd(1500 - 64 + 1);
	kind = i < count * 3 / 7 ? rnd(6) : rnd(13);
	sport = 1024 + rnd(4000);
	if (kind <= 3 || kind == 9) {
		l4_udp(&l4, sport, 53, size);
		ip4(f, src, dst, 17, kind == 9 ? 1 : 64, &l4, size); /* 9: the TTL expires */
	} else if (kind <= 5) {
		l4_tcp(&l4, sport, 80);
		ip4(f, src, dst, 6, 64, &l4, size);
	} else if (kind <= 7) {
		l4_icmp_echo(&l4, sport, i);
		ip4(f, src, dst, 1, 64, &l4, size);
	} else if (kind == 8) {
		buf_put(&l4, gre, 4);
		ip4(f, src, dst, 47, 64, &l4, size);
	} else if (kind == 10) {
		arp_request(f, reverse ? rev_peer : fwd_peer, reverse ? rev_me : fwd_me);
	} else {
		other(f, kind == 11 ? 0x86dd : 0x88b5, size);
	}
	/* Reverse traffic enters port1, whose net_pcap MAC ends in 01 (DPDK numbers pcap
	 * ports' MACs in creation order). */
	if (reverse && !memcmp(f->d, DST_MAC, 6))
		f->d[5] = 0x01;
}

int
cmd_mixed(int argc, char **argv)
{
	unsigned int count = 700, i;
	struct pcap_out o;
	int reverse = 0, a;
	struct buf f;

	if (argc < 2) {
		fprintf(stderr, "pcaptool: usage: mixed FILE [--reverse] [--count N]\n");
		return -EINVAL;
	}
	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "--reverse")) {
			reverse = 1;
		} else if (!strcmp(argv[a], "--count") && a + 1 < argc) {
			count = (unsigned int)strtoul(argv[++a], NULL, 10);
		} else {
			fprintf(stderr, "pcaptool: mixed: unknown option %s\n", argv[a]);
			return -EINVAL;
		}
	}
	lcg = reverse ? 2 : 1;
	if (pcap_out_open(&o, argv[1]) < 0)
		return -EIO;
	for (i = 0; i < count; i++) {
		mixed_frame(i, count, reverse, &f);
		pcap_out_add(&o, f.d, f.n);
	}
	return pcap_out_close(&o);
}

int
cmd_dump(int argc, char **argv)
{
	struct pkts k;
	size_t i, j;

	if (argc < 2 || pcap_read(argv[1], &k) < 0)
		return -EINVAL;
	printf("header ");
	for (j = 0; j < 24; j++)
		printf("%02x", k.header[j]);
	printf("\n");
	for (i = 0; i < k.n; i++) {
		printf("%u %u ", k.origlen[i], k.len[i]);
		for (j = 0; j < k.len[i]; j++)
			printf("%02x", k.p[i][j]);
		printf("\n");
	}
	pkts_free(&k);
	return 0;
}

enum { K_PACKETS, K_UDP, K_TCP, K_ICMP, K_IP4_OTHER, K_ARP, K_TTL, K_NON_IP, K_IP4, K_N };

int
cmd_summary(int argc, char **argv)
{
	static const char *const names[K_N] = { "packets", "udp",          "tcp",
						"icmp",    "ip4-other",    "arp",
						"ttl-expiring", "non-ip", "ip4" };
	size_t n[K_N] = { 0 }, i;
	struct pkts k;

	if (argc < 2 || pcap_read(argv[1], &k) < 0)
		return -EINVAL;
	for (i = 0; i < k.n; i++) {
		const uint8_t *p = k.p[i];
		unsigned int type = k.len[i] >= 14 ? get16(p + 12) : 0;

		n[K_PACKETS]++;
		if (type == 0x0800)
			n[K_IP4]++;
		if (type == 0x0800 && k.len[i] >= 34)
			n[p[22] <= 1	     ? K_TTL
			  : p[23] == 17 ? K_UDP
			  : p[23] == 6  ? K_TCP
			  : p[23] == 1  ? K_ICMP
					: K_IP4_OTHER]++;
		else if (type == 0x0806)
			n[K_ARP]++;
		else
			n[K_NON_IP]++;
	}
	for (i = 0; i < K_N; i++)
		printf("%s %zu\n", names[i], n[i]);
	pkts_free(&k);
	return 0;
}
