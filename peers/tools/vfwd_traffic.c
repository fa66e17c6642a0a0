/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarder tests' traffic: each command writes DIR/in.pcap (unless it exists),
 * DIR/expect1.pcap (what vfwd must send out of port1, byte for byte), DIR/empty.pcap and
 * DIR/counts.txt (`key count` per class of frame), and the checks on what came back.
 *
 *   vfwd-mixed DIR PORT1_MAC [--example]   600 frames: good UDP (some with IP options),
 *                                           ICMP, TTL 1, bad checksum, unknown ethertype,
 *                                           no route, runt, bad IHL, bad length, ARP
 *   vfwd-malformed DIR PORT1_MAC N         N frames, one broken class in every 12
 *   vfwd-ip6 DIR PORT0_MAC PORT1_MAC       240 IPv6 frames, an NS and an echo request
 *   check-nd6 PCAP PORT0_MAC                the NA and the echo reply vfwd sent
 *   cmp A.pcap B.pcap                       exit 0 when the frames' bytes are equal
 */
#include "pkt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const uint8_t PCAP0_MAC[6] = { 0x02, 0x70, 0x63, 0x61, 0x70, 0x00 }; /* net_pcap0 */
static const uint8_t SRC_MAC[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t NBR1_MAC[6] = { 0x02, 0, 0, 0, 0x01, 0x02 };

/* ---- IPv4 ---------------------------------------------------------------------------- */

static void
ip4(struct buf *b, const uint8_t src[4], const uint8_t dst[4], int proto,
    const struct buf *payload, int ttl, int ident, int ihl)
{
	buf_ip4_hdr(b, src, dst, proto, ttl, ident, ihl, (size_t)ihl * 4 + payload->n);
	buf_put(b, payload->d, payload->n);
}

static void
udp(struct buf *b, unsigned int sport, unsigned int dport, size_t size)
{
	size_t i;

	buf_u16(b, sport);
	buf_u16(b, dport);
	buf_u16(b, (unsigned int)(8 + size));
	buf_u16(b, 0);
	for (i = 0; i < size; i++)
		buf_u8(b, (unsigned int)(i & 0xff));
}

static void
eth(struct buf *f, const uint8_t dst[6], const uint8_t src[6], unsigned int type,
    const struct buf *payload)
{
	f->n = 0;
	buf_put(f, dst, 6);
	buf_put(f, src, 6);
	buf_u16(f, type);
	buf_put(f, payload->d, payload->n);
	buf_pad(f, 60);
}

/* An Ethernet/IPv4/UDP frame to PCAP0_MAC. */
static void
eth_udp4(struct buf *f, const uint8_t src[4], const uint8_t dst[4], unsigned int sport,
	 unsigned int dport, size_t size, int ttl, int ident, int ihl)
{
	struct buf u = { .n = 0 }, ip = { .n = 0 };

	udp(&u, sport, dport, size);
	ip4(&ip, src, dst, 17, &u, ttl, ident, ihl);
	eth(f, PCAP0_MAC, SRC_MAC, 0x0800, &ip);
}

/* What a router makes of a frame: padding past the IPv4 total length trimmed (RFC 1812
 * 5.2.2), new MACs, TTL-1, checksum recomputed. */
static void
routed(const struct buf *f, const uint8_t port1_mac[6], struct buf *out)
{
	size_t tot = get16(f->d + 16), ihl = (size_t)(f->d[14] & 15) * 4;
	uint8_t *ip;

	out->n = 0;
	buf_put(out, NBR1_MAC, 6);
	buf_put(out, port1_mac, 6);
	buf_put(out, f->d + 12, 2);
	ip = out->d + out->n;
	buf_put(out, f->d + 14, tot);
	ip[8]--;
	put16(ip + 10, 0);
	put16(ip + 10, inet_csum(ip, ihl, 0));
}

/* ---- the output files ----------------------------------------------------------------- */

struct traffic {
	const char *dir;
	struct pcap_out in, expect1;
	int write_in;
	long n_in;
};

static int
traffic_open(struct traffic *t, const char *dir)
{
	char path[4096];
	struct stat st;
	struct pcap_out empty;
	int rc;

	memset(t, 0, sizeof(*t));
	t->dir = dir;
	snprintf(path, sizeof(path), "%s/empty.pcap", dir);
	rc = pcap_out_open(&empty, strdup(path));
	if (rc < 0 || (rc = pcap_out_close(&empty)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/in.pcap", dir);
	t->write_in = stat(path, &st) != 0;
	if (t->write_in && (rc = pcap_out_open(&t->in, strdup(path))) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/expect1.pcap", dir);
	return pcap_out_open(&t->expect1, strdup(path));
}

static void
traffic_in(struct traffic *t, const struct buf *f)
{
	if (t->write_in)
		pcap_out_add(&t->in, f->d, f->n);
	t->n_in++;
}

/* Closes the pcaps and writes counts.txt: `in N`, the extra lines, then KEY COUNT pairs. */
static int
traffic_close(struct traffic *t, const char *extra, const char *const *keys,
	      const long *counts, int n_keys)
{
	char path[4096];
	FILE *f;
	int i, rc = 0;

	if (t->write_in && pcap_out_close(&t->in) < 0)
		rc = -EIO;
	if (pcap_out_close(&t->expect1) < 0)
		rc = -EIO;
	snprintf(path, sizeof(path), "%s/counts.txt", t->dir);
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	fprintf(f, "in %ld\n%s", t->n_in, extra);
	for (i = 0; i < n_keys; i++)
		fprintf(f, "%s %ld\n", keys[i], counts[i]);
	if (fclose(f) != 0)
		rc = -EIO;
	return rc;
}

static int
args_dir_mac(int argc, char **argv, int need, uint8_t mac[6])
{
	if (argc < need || mac_parse(argv[2], mac) < 0) {
		fprintf(stderr, "pcaptool: usage: see the header of peers/tools/vfwd_traffic.c "
				"(%s)\n",
			argv[0]);
		return -EINVAL;
	}
	return 0;
}

/* ---- vfwd-mixed ----------------------------------------------------------------------- */

enum { M_TTL, M_CKSUM, M_ETHERTYPE, M_NOROUTE, M_ICMP, M_SHORT, M_IHL, M_LENGTH, M_N };
static const char *const mixed_keys[M_N] = { "ttl",     "cksum", "ethertype", "noroute",
					     "icmp",    "short", "ihl",       "length" };

static void
icmp_echo(struct buf *b, unsigned int ident, unsigned int seq)
{
	size_t h0 = b->n;

	buf_u8(b, 8);
	buf_u8(b, 0);
	buf_u16(b, 0);
	buf_u16(b, ident);
	buf_u16(b, seq);
	buf_put(b, "vfwd-test-icmp!!", 16);
	put16(b->d + h0 + 2, inet_csum(b->d + h0, b->n - h0, 0));
}

static void
arp_request(struct buf *f)
{
	static const uint8_t sip[4] = { 10, 0, 0, 2 }, tip[4] = { 10, 0, 0, 1 }, zero[6] = { 0 };
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct buf a = { .n = 0 };

	buf_u16(&a, 1);
	buf_u16(&a, 0x0800);
	buf_u8(&a, 6);
	buf_u8(&a, 4);
	buf_u16(&a, 1);
	buf_put(&a, SRC_MAC, 6);
	buf_put(&a, sip, 4);
	buf_put(&a, zero, 6);
	buf_put(&a, tip, 4);
	eth(f, bcast, SRC_MAC, 0x0806, &a);
}

/* Frame i of vfwd-mixed; returns the class it counts in, or -1 (forwarded), -2 (ARP). */
static int
mixed_frame(int i, struct buf *f)
{
	static const size_t sizes[6] = { 18, 82, 210, 466, 978, 1454 };
	uint8_t src[4] = { 16, 0, (uint8_t)(i / 256 % 256), (uint8_t)(i % 256) };
	uint8_t dst[4] = { 48, 0, 0, (uint8_t)(1 + i % 200) }, nodst[4] = { 99, 1, 2, 3 };
	struct buf p = { .n = 0 }, ip = { .n = 0 };

	switch (i % 20) {
	case 3:
		icmp_echo(&p, 7, (unsigned int)i);
		ip4(&ip, src, dst, 1, &p, 64, 1, 5);
		eth(f, PCAP0_MAC, SRC_MAC, 0x0800, &ip);
		return M_ICMP;
	case 5:
		eth_udp4(f, src, dst, 1025, 12, 18, 1, 1, 5);
		return M_TTL;
	case 7:
		eth_udp4(f, src, dst, 1025, 12, 18, 64, 1, 5);
		f->d[24] ^= 0x5a;
		return M_CKSUM;
	case 9:
		buf_pad(&p, 40);
		eth(f, PCAP0_MAC, SRC_MAC, 0x88b5, &p); /* IEEE local experimental */
		return M_ETHERTYPE;
	case 11:
		eth_udp4(f, src, nodst, 1, 2, 18, 64, 1, 5);
		return M_NOROUTE;
	case 13:
		eth_udp4(f, src, dst, 1, 2, 18, 64, 1, 5);
		f->n = 30;
		return M_SHORT;
	case 15:
		eth_udp4(f, src, dst, 1, 2, 18, 64, 1, 5);
		f->d[14] = 0x44;
		return M_IHL;
	case 17:
		eth_udp4(f, src, dst, 1, 2, 18, 64, 1, 5);
		put16(f->d + 16, 1400);
		return M_LENGTH;
	case 19:
		if (i < 100) {
			arp_request(f); /* the reply's MACs are checked by the caller */
			return -2;
		}
		/* fall through */
	default:
		eth_udp4(f, src, dst, 1025, 12, sizes[i % 6], 64, i, i % 7 ? 5 : 6);
		return -1;
	}
}

int
cmd_vfwd_mixed(int argc, char **argv)
{
	uint8_t port1_mac[6];
	long counts[M_N] = { 0 }, arp = 0;
	int i, k, example = argc > 3 && !strcmp(argv[3], "--example");
	struct traffic t;
	struct buf f, out;
	char extra[128];

	if (args_dir_mac(argc, argv, 3, port1_mac) < 0 || traffic_open(&t, argv[1]) < 0)
		return -EINVAL;
	for (i = 0; i < 600; i++) {
		k = mixed_frame(i, &f);
		if (k == -1 || (k == M_ICMP && !example)) {
			routed(&f, port1_mac, &out);
			pcap_out_add(&t.expect1, out.d, out.n);
		}
		if (k >= 0)
			counts[k]++;
		else if (k == -2)
			arp++;
		traffic_in(&t, &f);
	}
	snprintf(extra, sizeof(extra), "out1 %u\narp %ld\n", t.expect1.n, arp);
	return traffic_close(&t, extra, mixed_keys, counts, M_N);
}

/* ---- vfwd-malformed ------------------------------------------------------------------- */

enum { B_GOOD, B_ETH_SHORT, B_ETHERTYPE, B_IP_SHORT, B_VERSION, B_IHL, B_LENGTH, B_CKSUM,
       B_TTL, B_N };
static const char *const malformed_keys[B_N] = { "good",    "eth_short", "ethertype",
						 "ip_short", "version",  "ihl",
						 "length",  "cksum",     "ttl" };

/* A small fixed generator, so that every run writes the same file. */
static uint64_t rng_state = 9;
static unsigned int
rng(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)((rng_state >> 33) % n);
}

static int
malformed_frame(int i, struct buf *f)
{
	static const unsigned int types[6] = { 0x88b5, 0x8100, 0x88cc, 0x0000, 0xffff, 0x1234 };
	static const unsigned int versions[4] = { 0, 1, 6, 15 }, lens[3] = { 1501, 9000, 65535 };
	uint8_t src[4] = { 16, 1, (uint8_t)(i / 256 % 256), (uint8_t)(i % 256) };
	uint8_t dst[4] = { 48, 0, 1, (uint8_t)(1 + i % 250) };
	struct buf p = { .n = 0 };
	size_t n, j;

	eth_udp4(f, src, dst, 1025, 12, (size_t)(18 + i % 1400), 64, 1, 5);
	switch (i % 12) {
	case 0: /* truncated below an Ethernet header */
		f->n = rng(14);
		return B_ETH_SHORT;
	case 1: /* random bytes behind a random non-IPv4/ARP ethertype */
		j = types[rng(6)];
		for (n = rng(1500); p.n < n;)
			buf_u8(&p, rng(256));
		eth(f, PCAP0_MAC, SRC_MAC, (unsigned int)j, &p);
		return B_ETHERTYPE;
	case 2: /* IPv4 ethertype, header cut short (a runt on the wire) */
		f->n = 14 + rng(20);
		return B_IP_SHORT;
	case 3: /* random bytes as an IPv4 packet with a version other than 4 */
		for (n = 20 + rng(1380); p.n < n;)
			buf_u8(&p, rng(256));
		p.d[0] = (uint8_t)(versions[rng(4)] << 4 | (p.d[0] & 15));
		eth(f, PCAP0_MAC, SRC_MAC, 0x0800, &p);
		return B_VERSION;
	case 4: /* IHL below 5 */
		f->d[14] = (uint8_t)(0x40 | rng(5));
		return B_IHL;
	case 5: /* a total length larger than the frame */
		put16(f->d + 16, lens[rng(3)]);
		return B_LENGTH;
	case 6: /* a bad header checksum */
		f->d[24] ^= 0xa5;
		return B_CKSUM;
	case 7: /* TTL 0 or 1 */
		eth_udp4(f, src, dst, 1, 2, 30, i % 2, 1, 5);
		return B_TTL;
	default:
		return B_GOOD;
	}
}

int
cmd_vfwd_malformed(int argc, char **argv)
{
	uint8_t port1_mac[6];
	long counts[B_N] = { 0 }, n;
	struct traffic t;
	struct buf f, out;
	int i, k;

	if (args_dir_mac(argc, argv, 4, port1_mac) < 0)
		return -EINVAL;
	n = strtol(argv[3], NULL, 10);
	if (n <= 0 || traffic_open(&t, argv[1]) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		k = malformed_frame(i, &f);
		if (k == B_GOOD) {
			routed(&f, port1_mac, &out);
			pcap_out_add(&t.expect1, out.d, out.n);
		}
		counts[k]++;
		traffic_in(&t, &f);
	}
	return traffic_close(&t, "", malformed_keys, counts, B_N);
}

/* ---- cmp ------------------------------------------------------------------------------ */

static void
hex(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

int
cmd_cmp(int argc, char **argv)
{
	struct pkts a, b;
	size_t i;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, "pcaptool: usage: cmp A.pcap B.pcap\n");
		return -EINVAL;
	}
	if (pcap_read(argv[1], &a) < 0)
		return -EINVAL;
	if (pcap_read(argv[2], &b) < 0) {
		pkts_free(&a);
		return -EINVAL;
	}
	if (a.n != b.n) {
		printf("# %s has %zu packets, %s has %zu\n", argv[1], a.n, argv[2], b.n);
		rc = -EBADMSG;
	}
	for (i = 0; rc == 0 && i < a.n; i++) {
		if (a.len[i] == b.len[i] && !memcmp(a.p[i], b.p[i], a.len[i]))
			continue;
		printf("# packet %zu differs:\n#  got  ", i);
		hex(a.p[i], a.len[i]);
		printf("\n#  want ");
		hex(b.p[i], b.len[i]);
		printf("\n");
		rc = -EBADMSG;
	}
	pkts_free(&a);
	pkts_free(&b);
	return rc;
}
