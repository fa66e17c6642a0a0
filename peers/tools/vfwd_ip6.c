/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6 through vfwd (see vfwd_traffic.c for the files written):
 *   vfwd-ip6 DIR PORT0_MAC PORT1_MAC   good UDP of several sizes (expect1.pcap, byte exact),
 *                                       one reason per bad class (counts.txt), an NS for
 *                                       port0's address, an echo request from a static
 *                                       neighbour
 *   check-nd6 PCAP PORT0_MAC            the pcap holds vfwd's NA for 2001:db8::1 and the
 *                                       echo reply to 2001:db8::3
 */
#include "pkt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static const uint8_t SRC_MAC[6] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t HOST3_MAC[6] = { 0x02, 0, 0, 0, 0, 0x03 };
static const uint8_t NBR1_MAC[6] = { 0x02, 0, 0, 0, 0x01, 0x02 };

static void
addr6(const char *s, uint8_t a[16])
{
	if (inet_pton(AF_INET6, s, a) != 1)
		memset(a, 0, 16);
}

/* The checksum over the IPv6 pseudo-header and the payload (RFC 8200 8.1). */
static uint16_t
l4_csum6(const uint8_t *ip)
{
	unsigned int plen = get16(ip + 4);
	uint32_t sum = plen + ip[6];
	size_t i;

	for (i = 8; i < 40; i += 2)
		sum += get16(ip + i);
	return inet_csum(ip + 40, plen, sum);
}

/* An IPv6 packet of next header nh around b's bytes, with its L4 checksum at payload
 * offset csum_off (or none when negative). */
static void
ip6(struct buf *out, const char *src, const char *dst, int nh, int hlim, const struct buf *l4,
    int csum_off)
{
	uint8_t a[16];

	out->n = 0;
	buf_u32(out, 6u << 28);
	buf_u16(out, (unsigned int)l4->n);
	buf_u8(out, (unsigned int)nh);
	buf_u8(out, (unsigned int)hlim);
	addr6(src, a);
	buf_put(out, a, 16);
	addr6(dst, a);
	buf_put(out, a, 16);
	buf_put(out, l4->d, l4->n);
	if (csum_off >= 0) {
		put16(out->d + 40 + csum_off, 0);
		put16(out->d + 40 + csum_off, l4_csum6(out->d));
	}
}

static void
udp6(struct buf *out, const char *src, const char *dst, size_t size, int hlim)
{
	struct buf u = { .n = 0 };
	size_t i;

	buf_u16(&u, 1025);
	buf_u16(&u, 12);
	buf_u16(&u, (unsigned int)(8 + size));
	buf_u16(&u, 0);
	for (i = 0; i < size; i++)
		buf_u8(&u, (unsigned int)((i * 3) & 0xff));
	ip6(out, src, dst, 17, hlim, &u, 6);
}

static void
eth6(struct buf *f, const uint8_t dst[6], const uint8_t src[6], const struct buf *ip)
{
	f->n = 0;
	buf_put(f, dst, 6);
	buf_put(f, src, 6);
	buf_u16(f, 0x86dd);
	buf_put(f, ip->d, ip->n);
	buf_pad(f, 60);
}

enum { S_GOOD, S_HLIM, S_VERSION, S_LENGTH, S_MCAST, S_MSRC, S_MDST, S_N };
static const char *const ip6_keys[S_N] = { "good", "hlim", "version", "length",
					   "mcast", "msrc", "mdst" };

static int
ip6_frame(int i, const uint8_t port0_mac[6], struct buf *f)
{
	static const size_t sizes[6] = { 18, 82, 210, 466, 978, 1400 };
	const char *src = "2001:db8::2";
	char dst[64];
	struct buf ip;
	int k;

	snprintf(dst, sizeof(dst), "2001:db8:1::%x", i + 1);
	switch (i % 12) {
	case 3:
		udp6(&ip, src, dst, 30, 1);
		k = S_HLIM;
		break;
	case 5:
		udp6(&ip, src, dst, 30, 64);
		ip.d[0] = 0x45;
		k = S_VERSION;
		break;
	case 7:
		udp6(&ip, src, dst, 30, 64);
		put16(ip.d + 4, 1400);
		k = S_LENGTH;
		break;
	case 9:
		udp6(&ip, src, "ff0e::1234", 30, 64);
		k = S_MCAST;
		break;
	case 10:
		udp6(&ip, "::1", dst, 30, 64);
		k = S_MSRC;
		break;
	case 11:
		udp6(&ip, src, "fe80::99", 30, 64);
		k = S_MDST;
		break;
	default:
		udp6(&ip, src, dst, sizes[i % 6], 64);
		k = S_GOOD;
	}
	eth6(f, port0_mac, SRC_MAC, &ip);
	return k;
}

/* The neighbour solicitation for 2001:db8::1 from 2001:db8::2, to its solicited-node
 * multicast address. */
static void
ns6(struct buf *f)
{
	struct buf body = { .n = 0 }, ip;
	uint8_t t[16], mac[6] = { 0x33, 0x33, 0xff };
	char snm[64];

	addr6("2001:db8::1", t);
	snprintf(snm, sizeof(snm), "ff02::1:ff%02x:%02x%02x", t[13], t[14], t[15]);
	buf_u8(&body, 135);
	buf_u8(&body, 0);
	buf_u16(&body, 0);
	buf_u32(&body, 0);
	buf_put(&body, t, 16);
	buf_u8(&body, 1);
	buf_u8(&body, 1);
	buf_put(&body, SRC_MAC, 6);
	ip6(&ip, "2001:db8::2", snm, 58, 255, &body, 2);
	memcpy(mac + 3, t + 13, 3);
	eth6(f, mac, SRC_MAC, &ip);
}

static void
echo6(struct buf *f, const uint8_t port0_mac[6])
{
	struct buf body = { .n = 0 }, ip;

	buf_u8(&body, 128);
	buf_u8(&body, 0);
	buf_u16(&body, 0);
	buf_u16(&body, 77);
	buf_u16(&body, 5);
	buf_put(&body, "vfwd-echo6-test!", 16);
	ip6(&ip, "2001:db8::3", "2001:db8::1", 58, 64, &body, 2);
	eth6(f, port0_mac, HOST3_MAC, &ip);
}

static int
write_file(const char *dir, const char *name, const struct buf *frames, size_t n, int keep)
{
	char path[4096];
	struct pcap_out o;
	struct stat st;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (keep && stat(path, &st) == 0)
		return 0;
	if (pcap_out_open(&o, path) < 0)
		return -EIO;
	for (i = 0; i < n; i++)
		pcap_out_add(&o, frames[i].d, frames[i].n);
	return pcap_out_close(&o);
}

int
cmd_vfwd_ip6(int argc, char **argv)
{
	static struct buf in[242], out1[240];
	uint8_t port0_mac[6], port1_mac[6];
	long counts[S_N] = { 0 };
	size_t n_out = 0, plen;
	char path[4096];
	FILE *f;
	int i, k, rc;

	if (argc < 4 || mac_parse(argv[2], port0_mac) < 0 || mac_parse(argv[3], port1_mac) < 0) {
		fprintf(stderr, "pcaptool: usage: vfwd-ip6 DIR PORT0_MAC PORT1_MAC\n");
		return -EINVAL;
	}
	for (i = 0; i < 240; i++) {
		k = ip6_frame(i, port0_mac, &in[i]);
		counts[k]++;
		if (k != S_GOOD)
			continue;
		plen = get16(in[i].d + 18);
		out1[n_out].n = 0;
		buf_put(&out1[n_out], NBR1_MAC, 6);
		buf_put(&out1[n_out], port1_mac, 6);
		buf_put(&out1[n_out], in[i].d + 12, 2 + 40 + plen);
		out1[n_out].d[14 + 7]--; /* hop limit */
		n_out++;
	}
	ns6(&in[240]);
	echo6(&in[241], port0_mac);
	rc = write_file(argv[1], "in.pcap", in, 242, 1);
	if (rc == 0)
		rc = write_file(argv[1], "expect1.pcap", out1, n_out, 0);
	if (rc == 0)
		rc = write_file(argv[1], "empty.pcap", NULL, 0, 0);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/counts.txt", argv[1]);
	f = fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	fprintf(f, "in 242\n");
	for (k = 0; k < S_N; k++)
		fprintf(f, "%s %ld\n", ip6_keys[k], counts[k]);
	return fclose(f) == 0 ? 0 : -EIO;
}

/* ---- check-nd6 ------------------------------------------------------------------------ */

static int
icmp6_type(const uint8_t *p, uint32_t len)
{
	if (len < 55 || get16(p + 12) != 0x86dd || p[14 + 6] != 58)
		return -1;
	return p[54];
}

static int
expect(int cond, const char *what)
{
	if (!cond)
		printf("# NA/echo check failed: %s\n", what);
	return cond ? 0 : 1;
}

static int
check_na(const uint8_t *p, uint32_t len, const uint8_t port0_mac[6])
{
	const uint8_t *ip = p + 14;
	uint8_t a1[16], a2[16];
	int bad = 0;

	addr6("2001:db8::1", a1);
	addr6("2001:db8::2", a2);
	if (len < 14 + 72)
		return expect(0, "NA length");
	bad += expect(!memcmp(p, SRC_MAC, 6), "eth dst is the soliciting host");
	bad += expect(!memcmp(p + 6, port0_mac, 6), "eth src is port0");
	bad += expect(ip[7] == 255, "hop limit 255");
	bad += expect(!memcmp(ip + 8, a1, 16), "ip src is the target");
	bad += expect(!memcmp(ip + 24, a2, 16), "ip dst is the solicitor");
	bad += expect(ip[44] == 0xe0, "flags R S O");
	bad += expect(!memcmp(ip + 48, a1, 16), "target");
	bad += expect(ip[64] == 2 && ip[65] == 1 && !memcmp(ip + 66, port0_mac, 6),
		      "target link-layer option");
	bad += expect(l4_csum6(ip) == 0, "checksum");
	return bad;
}

static int
check_echo_reply(const uint8_t *p, uint32_t len)
{
	const uint8_t *e = p + 14;
	uint8_t a3[16];
	int bad = 0;

	addr6("2001:db8::3", a3);
	if (len < 14 + 48 + 16)
		return expect(0, "echo reply length");
	bad += expect(!memcmp(e + 24, a3, 16), "echo reply to 2001:db8::3");
	bad += expect(get16(e + 44) == 77 && get16(e + 46) == 5 && len - 14 - 48 == 16 &&
			      !memcmp(e + 48, "vfwd-echo6-test!", 16),
		      "echo id, seq, data");
	bad += expect(l4_csum6(e) == 0, "echo checksum");
	bad += expect(!memcmp(p, HOST3_MAC, 6), "echo eth dst");
	return bad;
}

int
cmd_check_nd6(int argc, char **argv)
{
	uint8_t port0_mac[6];
	size_t i, n_na = 0, n_er = 0, na = 0, er = 0;
	struct pkts k;
	int bad;

	if (argc < 3 || mac_parse(argv[2], port0_mac) < 0) {
		fprintf(stderr, "pcaptool: usage: check-nd6 PCAP PORT0_MAC\n");
		return -EINVAL;
	}
	if (pcap_read(argv[1], &k) < 0)
		return -EINVAL;
	for (i = 0; i < k.n; i++) {
		int t = icmp6_type(k.p[i], k.len[i]);

		if (t == 136 && n_na++ == 0)
			na = i;
		if (t == 129 && n_er++ == 0)
			er = i;
	}
	if (n_na != 1) {
		printf("# %zu NAs\n", n_na);
		pkts_free(&k);
		return -EBADMSG;
	}
	bad = check_na(k.p[na], k.len[na], port0_mac);
	if (n_er != 1)
		bad += expect(0, "one echo reply");
	else
		bad += check_echo_reply(k.p[er], k.len[er]);
	pkts_free(&k);
	return bad ? -EBADMSG : 0;
}
