/* SPDX-License-Identifier: BSD-3-Clause */
/* Test packets: TRex-style UDP profiles, the payload signature, ARP. No DPDK here. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tgen.h"

static const uint16_t imix_sizes[TGEN_IMIX_PERIOD] = {64,  594, 64, 64,	 1518, 64,
						      594, 64,	64, 594, 64,   594};

int
tgen_profile_parse(const char *name, struct tgen_profile *p)
{
	if (strcmp(name, "udp") == 0)
		p->kind = TGEN_PROFILE_UDP;
	else if (strcmp(name, "imix") == 0)
		p->kind = TGEN_PROFILE_IMIX;
	else if (strcmp(name, "udp6") == 0)
		p->kind = TGEN_PROFILE_UDP6;
	else
		return -EINVAL;
	return 0;
}

const char *
tgen_profile_name(const struct tgen_profile *p)
{
	if (p->kind == TGEN_PROFILE_UDP6)
		return "udp6";
	return p->kind == TGEN_PROFILE_IMIX ? "imix" : "udp";
}

uint16_t
tgen_profile_frame_size(const struct tgen_profile *p, uint64_t seq)
{
	if (p->kind == TGEN_PROFILE_IMIX)
		return imix_sizes[seq % TGEN_IMIX_PERIOD];
	return p->frame_size;
}

double
tgen_profile_mean_frame(const struct tgen_profile *p)
{
	double sum = 0;
	int i;

	if (p->kind != TGEN_PROFILE_IMIX)
		return p->frame_size;
	for (i = 0; i < TGEN_IMIX_PERIOD; i++)
		sum += imix_sizes[i];
	return sum / TGEN_IMIX_PERIOD;
}

uint16_t
tgen_profile_max_frame(const struct tgen_profile *p)
{
	return p->kind == TGEN_PROFILE_IMIX ? 1518 : p->frame_size;
}

uint16_t
tgen_ip4_sum(const uint8_t *h)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static void
sig_put(uint8_t *buf, const struct tgen_stream *s, uint32_t seq, uint8_t trial, uint64_t tsc)
{
	struct tgen_sig sig = {
		.magic = htons(TGEN_SIG_MAGIC), .dir = s->dir, .trial = trial, .seq = seq, .tsc = tsc,
	};

	memcpy(buf + (s->ip6 ? TGEN_HDR6_LEN : TGEN_HDR_LEN), &sig, sizeof(sig));
}

/* One's complement sum of n bytes (n even) as big-endian 16-bit words, unfolded. */
static uint32_t
sum16(const uint8_t *p, uint32_t n)
{
	uint32_t sum = 0, i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t
fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The sum of n bytes of 'x' padding that starts at an even offset of the UDP segment. */
static uint32_t
pad_sum(uint32_t n)
{
	return (n / 2) * 0x7878u + (n & 1 ? 0x7800u : 0);
}

/* The flow (0..flows-1) packet seq uses. In turn: seq modulo flows, as TRex's "inc". At
 * random: a stateless 32-bit mix of seq and the direction (a bijection of seq, so the draws
 * are uniform and a rerun sends the same sequence), modulo flows; the bias of the modulo is
 * below flows / 2^32, under 0.4 % at 16 M flows. */
uint32_t
tgen_flow_of(const struct tgen_stream *s, uint32_t seq)
{
	uint32_t x;

	if (s->flows <= 1)
		return 0;
	if (!s->flow_rnd)
		return seq % s->flows;
	x = seq ^ (s->dir ? 0x9e3779b9u : 0x85ebca6bu);
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x % s->flows;
}

static uint32_t
addr_lo(const uint8_t a[16])
{
	return (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
}

/* udp6, TRex's udp_for_benchmarks shape over IPv6: Ether / IPv6 (hop limit 64, no extension
 * header) / UDP with its (mandatory) checksum / signature / 'x' padding. */
static void
pkt6_build(uint8_t *buf, const struct tgen_stream *s, uint16_t frame_size, uint32_t seq,
	   uint8_t trial, uint64_t tsc)
{
	uint16_t len = frame_size - TGEN_FCS_LEN, ulen = len - 54;
	uint8_t *ip = buf + 14, *udp = buf + 54;
	uint32_t off = tgen_flow_of(s, seq), sum;
	uint16_t ck;

	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	put16(buf + 12, 0x86dd);
	put32(ip, 0x60000000u); /* version 6, traffic class 0, flow label 0 */
	put16(ip + 4, ulen);
	ip[6] = 17;
	ip[7] = 64;
	memcpy(ip + 8, s->src6, 16);
	memcpy(ip + 24, s->dst6, 16);
	if (off)
		put32(s->vary_dst ? ip + 36 : ip + 20,
		      addr_lo(s->vary_dst ? s->dst6 : s->src6) + off);
	put16(udp, s->sport);
	put16(udp + 2, s->dport);
	put16(udp + 4, ulen);
	put16(udp + 6, 0);
	sig_put(buf, s, seq, trial, tsc);
	/* pseudo-header (addresses, length, next header), UDP header, signature, padding */
	sum = sum16(ip + 8, 32) + ulen + 17 + sum16(udp, 8 + sizeof(struct tgen_sig)) +
	      pad_sum(ulen - 8 - sizeof(struct tgen_sig));
	ck = (uint16_t)~fold(sum);
	put16(udp + 6, ck ? ck : 0xffff);
}

uint16_t
tgen_udp6_verify(const uint8_t *buf, uint32_t len)
{
	uint32_t ulen;

	if (len < TGEN_HDR6_LEN)
		return 1;
	ulen = (uint32_t)buf[18] << 8 | buf[19];
	if (ulen + 54 > len)
		return 1;
	return (uint16_t)~fold(sum16(buf + 22, 32) + ulen + 17 + sum16(buf + 54, ulen));
}

void
tgen_pkt_build(uint8_t *buf, const struct tgen_stream *s, uint16_t frame_size, uint32_t seq,
	       uint8_t trial, uint64_t tsc)
{
	uint16_t len = frame_size - TGEN_FCS_LEN;
	uint8_t *ip = buf + 14, *udp = buf + 34;
	uint16_t ck;

	if (s->ip6) {
		pkt6_build(buf, s, frame_size, seq, trial, tsc);
		return;
	}
	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	put16(buf + 12, 0x0800);
	ip[0] = 0x45;
	ip[1] = 0;
	put16(ip + 2, len - 14);
	put16(ip + 4, 1); /* scapy's default id */
	put16(ip + 6, 0);
	ip[8] = 64;
	ip[9] = 17;
	put16(ip + 10, 0);
	put32(ip + 12, s->src_ip + (!s->vary_dst ? tgen_flow_of(s, seq) : 0));
	put32(ip + 16, s->dst_ip + (s->vary_dst ? tgen_flow_of(s, seq) : 0));
	ck = (uint16_t)~tgen_ip4_sum(ip);
	put16(ip + 10, ck);
	put16(udp, s->sport);
	put16(udp + 2, s->dport);
	put16(udp + 4, len - 34);
	put16(udp + 6, 0); /* no UDP checksum: the payload changes per packet */
	sig_put(buf, s, seq, trial, tsc);
}

void
tgen_tmpl_init(struct tgen_tmpl *t, const struct tgen_stream *s, uint16_t frame_size)
{
	uint8_t buf[TGEN_HDR6_LEN + sizeof(struct tgen_sig)];
	const uint8_t *ip = buf + 14;
	uint32_t sum = 0, ulen;
	int i;

	tgen_pkt_build(buf, s, frame_size, 0, 0, 0);
	t->frame_size = frame_size;
	if (s->ip6) {
		/* the checksum but the signature and, with flows, the varying low 32 bits */
		ulen = frame_size - TGEN_FCS_LEN - 54;
		memcpy(t->hdr, buf, TGEN_HDR6_LEN);
		t->hdr_len = TGEN_HDR6_LEN;
		sum = sum16(ip + 8, 32) + ulen + 17 + sum16(buf + 54, 6) +
		      pad_sum(ulen - 8 - sizeof(struct tgen_sig));
		if (s->flows > 1)
			sum -= sum16(buf + (s->vary_dst ? 50 : 34), 4);
		t->ck_base = sum;
		return;
	}
	t->hdr_len = TGEN_HDR_LEN;
	memcpy(t->hdr, buf, TGEN_HDR_LEN);
	for (i = 0; i < 20; i += 2)
		if (i != 10 && (i < 12 || i > 18)) /* checksum, addresses */
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	t->ck_base = sum;
	t->frame_size = frame_size;
}

void
tgen_tmpl_build(uint8_t *buf, const struct tgen_tmpl *t, const struct tgen_stream *s, uint32_t seq,
		uint8_t trial, uint64_t tsc)
{
	uint32_t src = s->src_ip, dst = s->dst_ip, sum, a;

	if (s->ip6) {
		memcpy(buf, t->hdr, TGEN_HDR6_LEN);
		sum = t->ck_base;
		if (s->flows > 1) {
			a = addr_lo(s->vary_dst ? s->dst6 : s->src6) + tgen_flow_of(s, seq);
			put32(buf + (s->vary_dst ? 50 : 34), a);
			sum += (a >> 16) + (a & 0xffff);
		}
		sig_put(buf, s, seq, trial, tsc);
		sum = (uint16_t)~fold(sum + sum16(buf + TGEN_HDR6_LEN, sizeof(struct tgen_sig)));
		put16(buf + 60, sum ? (uint16_t)sum : 0xffff);
		return;
	}
	memcpy(buf, t->hdr, TGEN_HDR_LEN);
	if (s->flows > 1) {
		if (s->vary_dst)
			dst += tgen_flow_of(s, seq);
		else
			src += tgen_flow_of(s, seq);
		sum = t->ck_base + (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		put32(buf + 26, src);
		put32(buf + 30, dst);
		put16(buf + 24, (uint16_t)~sum);
	}
	sig_put(buf, s, seq, trial, tsc);
}

const struct tgen_sig *
tgen_pkt_parse(const uint8_t *buf, uint32_t len)
{
	const struct tgen_sig *sig;

	if (len < TGEN_HDR_LEN + sizeof(*sig))
		return NULL;
	if (buf[12] == 0x86 && buf[13] == 0xdd) {
		/* IPv6 without extension headers, next header UDP */
		if (len < TGEN_HDR6_LEN + sizeof(*sig) || buf[14] >> 4 != 6 || buf[20] != 17)
			return NULL;
		sig = (const struct tgen_sig *)(buf + TGEN_HDR6_LEN);
	} else if (buf[12] != 0x08 || buf[13] != 0x00 || buf[14] != 0x45 || buf[23] != 17) {
		return NULL;
	} else {
		sig = (const struct tgen_sig *)(buf + TGEN_HDR_LEN);
	}
	if (sig->magic != htons(TGEN_SIG_MAGIC) || sig->dir >= TGEN_NDIR)
		return NULL;
	return sig;
}

int
tgen_mac_parse(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &tail) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = b[i];
	}
	return 0;
}

int
tgen_ip_parse(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

uint32_t
tgen_arp_build(uint8_t *buf, int op, const uint8_t smac[6], uint32_t sip, const uint8_t tmac[6],
	       uint32_t tip)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint8_t *a = buf + 14;

	memcpy(buf, op == 1 ? bcast : tmac, 6);
	memcpy(buf + 6, smac, 6);
	put16(buf + 12, 0x0806);
	put16(a, 1);
	put16(a + 2, 0x0800);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, op);
	memcpy(a + 8, smac, 6);
	put32(a + 14, sip);
	if (op == 1)
		memset(a + 18, 0, 6);
	else
		memcpy(a + 18, tmac, 6);
	put32(a + 24, tip);
	memset(buf + 42, 0, 18);
	return 60;
}

int
tgen_ip6_parse(const char *s, uint8_t ip6[16])
{
	struct in6_addr a;

	if (inet_pton(AF_INET6, s, &a) != 1)
		return -EINVAL;
	memcpy(ip6, &a, 16);
	return 0;
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int
tgen_arp_parse(const uint8_t *buf, uint32_t len, uint8_t smac[6], uint32_t *sip, uint32_t *tip)
{
	const uint8_t *a = buf + 14;

	if (len < 42 || buf[12] != 0x08 || buf[13] != 0x06)
		return 0;
	if (a[0] != 0 || a[1] != 1 || a[2] != 0x08 || a[3] != 0 || a[4] != 6 || a[5] != 4)
		return 0;
	if (a[6] != 0 || (a[7] != 1 && a[7] != 2))
		return 0;
	memcpy(smac, a + 8, 6);
	*sip = get32(a + 14);
	*tip = get32(a + 24);
	return a[7];
}
