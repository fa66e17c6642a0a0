/* SPDX-License-Identifier: BSD-3-Clause
 * Next hops that never answer (RFC 1812 4.3.3.1 and 5.2.7.1, RFC 1122 2.3.2.1,
 * RFC 4861 7.2.2, RFC 4443 3.1): the ARP request or neighbour solicitation for
 * an unresolved next hop is sent 3 times, 1 s apart (MAX_MULTICAST_SOLICIT,
 * RETRANS_TIMER); one second after the third, each packet that waited for it
 * becomes one ICMP host unreachable (3/1) or ICMPv6 address unreachable (1/3)
 * to its source, from the router's address on the interface toward that
 * source, quoting the packet as it was sent, checksums valid; never about an
 * ICMP error or a non-first fragment; within the ICMP rate limit, which counts
 * what it suppresses. An answer to a repeated request still releases the
 * packets. The timers run on nbr_clock(), which the test moves forward
 * (nbr_clock_offset), so no test waits for a real clock.
 */
#include <rte_cycles.h>

#include "pkt_util.h"

static void __attribute__((unused)) unused_helpers(void)
{
	(void)dropped_under;
	(void)forwarded;
	(void)ip_csum;
}

#define NODE4 "ip4-arp-pending"
#define GIVEN_UP4 "held packets dropped: no ARP reply to 3 requests"
#define NODE6 "ip6-nd-pending"
#define GIVEN_UP6 "held packets dropped: no advertisement after 3 solicitations"
#define NOT_SENT4 "error message dropped (about an icmp error or a fragment)"
#define NOT_SENT6 "error message dropped (about an icmp6 error or to a multicast address)"
#define LIMITED "error message dropped (rate limited)"

static const uint8_t host6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};	    /* 2001:db8::2 */
static const uint8_t port0_6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};	    /* 2001:db8::1 */
static const uint8_t nh6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0xff, [15] = 7}; /* 2001:db8:ff::7 */
static const uint8_t nh6_mac[6] = {0x02, 0, 0, 0, 0x77, 0x77};

static uint64_t
secs(double s)
{
	return (uint64_t)(s * (double)rte_get_tsc_hz());
}

/* Moves the resolution timers' clock s seconds on, then walks the graph. */
static void
advance_and_walk(double s)
{
	nbr_clock_offset += secs(s);
	walk();
}

static double
now_s(void)
{
	return (double)nbr_clock() / (double)rte_get_tsc_hz();
}

/* The RFC 1071 checksum of len bytes (an odd last byte padded with zero): 0 when right */
static uint16_t
csum(const uint8_t *b, unsigned len)
{
	uint32_t s = 0;

	for (unsigned i = 0; i < len; i += 2)
		s += (uint32_t)(b[i] << 8 | (i + 1 < len ? b[i + 1] : 0));
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* The ARP request in f: broadcast, from port1's MAC and address, for target. */
static bool
is_arp_request_for(const uint8_t *f, uint32_t target)
{
	static const uint8_t head[8] = {0, 1, 8, 0, 6, 4, 0, 1};
	const uint8_t *a = f + 14;
	const struct port *p = &vfwd.ports[1];
	uint32_t sip = (uint32_t)a[14] << 24 | (uint32_t)a[15] << 16 | (uint32_t)a[16] << 8 | a[17];
	uint32_t tip = (uint32_t)a[24] << 24 | (uint32_t)a[25] << 16 | (uint32_t)a[26] << 8 | a[27];

	return memcmp(f, "\xff\xff\xff\xff\xff\xff", 6) == 0 && memcmp(f + 6, &p->mac, 6) == 0 &&
	       f[12] == 0x08 && f[13] == 0x06 && memcmp(a, head, 8) == 0 &&
	       memcmp(a + 8, &p->mac, 6) == 0 && sip == p->ip4 && tip == target;
}

/* The RFC 4443 2.3 checksum of the ICMPv6 message of the IPv6 packet at ip6: 0 when right */
static uint16_t
icmp6_sum(const uint8_t *ip6)
{
	static uint8_t buf[40 + 1500];
	unsigned plen = (unsigned)(ip6[4] << 8 | ip6[5]);

	memset(buf, 0, sizeof(buf));
	memcpy(buf, ip6 + 8, 32);
	buf[34] = (uint8_t)(plen >> 8);
	buf[35] = (uint8_t)plen;
	buf[39] = 58;
	memcpy(buf + 40, ip6 + 40, plen);
	return csum(buf, 40 + plen);
}

/* The neighbour solicitation in f: port1 asks for target at its solicited-node address. */
static bool
is_ns_for(const uint8_t *f, const uint8_t *target)
{
	const uint8_t *ip = f + 14;
	const uint8_t snm[16] = {0xff, 2, [11] = 1, 0xff, target[13], target[14], target[15]};

	return f[0] == 0x33 && f[1] == 0x33 && f[2] == 0xff && memcmp(f + 3, target + 13, 3) == 0 &&
	       f[12] == 0x86 && f[13] == 0xdd && ip[6] == 58 && ip[7] == 255 &&
	       memcmp(ip + 8, vfwd.ports[1].ip6, 16) == 0 && memcmp(ip + 24, snm, 16) == 0 &&
	       ip[40] == 135 && memcmp(ip + 48, target, 16) == 0 && ip[64] == 1 && ip[65] == 1 &&
	       memcmp(ip + 66, &vfwd.ports[1].mac, 6) == 0 && icmp6_sum(ip) == 0;
}

/* What left the ports: out0 of port0 (kept), and of port1 the requests for target
 * (ARP when v4 is not NULL, else neighbour solicitations for v6) and the rest, freed. */
struct seen {
	struct rte_mbuf *out0[80];
	unsigned n0, requests, others;
};

static void
seen_collect(struct seen *s, uint32_t v4, const uint8_t *v6)
{
	struct rte_mbuf *out[80];
	unsigned n = drain(1, out, 80);

	s->requests = s->others = 0;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);
		bool req = v6 != NULL ? is_ns_for(f, v6) : is_arp_request_for(f, v4);

		s->requests += req;
		s->others += !req;
	}
	rte_pktmbuf_free_bulk(out, n);
	s->n0 = drain(0, s->out0, 80);
}

static void
seen_free(struct seen *s)
{
	rte_pktmbuf_free_bulk(s->out0, s->n0);
	s->n0 = 0;
}

/* The ICMP error m: from 10.0.0.1 (port0, toward the source) to 10.0.0.2, type/code,
 * quoting the IP packet `sent` (len bytes) whole, both checksums valid. */
static int
icmp4_error_ok(struct rte_mbuf *m, uint8_t type, uint8_t code, const uint8_t *sent, unsigned len)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *), *ip = f + 14, *ic = ip + 20;
	unsigned tot = (unsigned)(ip[2] << 8 | ip[3]);
	int ok = 1;

	CHECK(memcmp(f, &host_mac, 6) == 0 && memcmp(f + 6, &vfwd.ports[0].mac, 6) == 0 &&
		      f[12] == 0x08 && f[13] == 0,
	      "ethernet header");
	CHECK(ip[0] == 0x45 && ip[1] == 0xc0 && ip[9] == 1 && csum(ip, 20) == 0,
	      "ip header: %02x tos %02x proto %u", ip[0], ip[1], ip[9]);
	CHECK(memcmp(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8) == 0,
	      "not 10.0.0.1 -> 10.0.0.2: %u.%u.%u.%u -> %u.%u.%u.%u", ip[12], ip[13], ip[14],
	      ip[15], ip[16], ip[17], ip[18], ip[19]);
	CHECK(tot == 28 + len && m->pkt_len == 14 + tot, "total %u, frame %u, quote of %u", tot,
	      m->pkt_len, len);
	CHECK(ic[0] == type && ic[1] == code && memcmp(ic + 4, "\0\0\0\0", 4) == 0,
	      "icmp %u/%u, want %u/%u", ic[0], ic[1], type, code);
	CHECK(tot >= 28 && csum(ic, tot - 20) == 0, "icmp checksum (%u bytes)", tot - 20);
	CHECK(tot == 28 + len && memcmp(ic + 8, sent, len) == 0, "quote is not the packet sent");
	return ok;
}

/* The ICMPv6 error m: from 2001:db8::1 (port0) to 2001:db8::2, type/code, quoting the
 * IPv6 packet `sent` (len bytes) whole, checksum over the pseudo-header valid. */
static int
icmp6_error_ok(struct rte_mbuf *m, uint8_t type, uint8_t code, const uint8_t *sent, unsigned len)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *), *ip = f + 14, *ic = ip + 40;
	unsigned plen = (unsigned)(ip[4] << 8 | ip[5]);
	int ok = 1;

	CHECK(memcmp(f, &host_mac, 6) == 0 && memcmp(f + 6, &vfwd.ports[0].mac, 6) == 0 &&
		      f[12] == 0x86 && f[13] == 0xdd,
	      "ethernet header");
	CHECK(ip[0] >> 4 == 6 && ip[6] == 58 && ip[7] == 63, "ipv6 header: nh %u hl %u", ip[6],
	      ip[7]);
	CHECK(memcmp(ip + 8, port0_6, 16) == 0 && memcmp(ip + 24, host6, 16) == 0,
	      "not 2001:db8::1 -> 2001:db8::2");
	CHECK(plen == 8 + len && m->pkt_len == 14 + 40 + plen, "payload %u, frame %u", plen,
	      m->pkt_len);
	CHECK(ic[0] == type && ic[1] == code && memcmp(ic + 4, "\0\0\0\0", 4) == 0,
	      "icmp6 %u/%u, want %u/%u", ic[0], ic[1], type, code);
	CHECK(plen == 8 + len && icmp6_sum(ip) == 0, "icmp6 checksum");
	CHECK(plen == 8 + len && memcmp(ic + 8, sent, len) == 0, "quote is not the packet sent");
	return ok;
}

/* Packets waiting for a next hop, as sent (from the IP header on) */
struct held_pkts {
	unsigned n;
	uint8_t ip[8][128];
	unsigned len[8];
};

static void
held_add(struct held_pkts *h, struct rte_mbuf *m)
{
	h->len[h->n] = m->pkt_len - 14;
	memcpy(h->ip[h->n], rte_pktmbuf_mtod_offset(m, void *, 14), h->len[h->n]);
	h->n++;
	inject(m);
}

/* The UDP packet i from 10.0.0.2 to dst (26 + i bytes of payload, so each quote differs) */
static struct rte_mbuf *
udp4(uint32_t dst, unsigned i)
{
	struct pkt_spec s = {.src = HOST0, .dst = dst, .payload = 26 + i};

	return pkt_make(&s);
}

/* An IPv6 frame into port0 from 2001:db8::2 to dst: next header nh (ICMPv6: first byte
 * icmp_type), plen bytes of payload */
static struct rte_mbuf *
ip6_pkt(const uint8_t *dst, uint8_t nh, uint8_t icmp_type, unsigned plen)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(14 + 40 + plen));

	eth_ip6(f, &vfwd.ports[0].mac, &host_mac, (uint8_t)plen, nh, 64, host6, dst);
	for (unsigned i = 0; i < plen; i++)
		f[54 + i] = (uint8_t)(i * 11 + plen);
	if (nh == 58)
		f[54] = icmp_type;
	m->port = vfwd.ports[0].port_id;
	return m;
}

/* The resolution of the held packets' next hop (target: v4, or v6 when not NULL), left
 * unanswered: one request at once, one more after 1 s and after 2 s (none half a second
 * after the last, each 1 s after it), nothing else leaves until 3 s; then the errors leave port0
 * and nothing leaves port1. Returns the errors in s (the caller checks and frees them). */
static int
requests_go_unanswered(struct seen *s, uint32_t v4, const uint8_t *v6)
{
	double t[3];
	int ok = 1;

	walk();
	t[0] = now_s();
	seen_collect(s, v4, v6);
	CHECK(s->requests == 1 && s->others == 0 && s->n0 == 0,
	      "first walk: %u requests, %u other frames on port1, %u on port0", s->requests,
	      s->others, s->n0);
	seen_free(s);
	for (int k = 1; k <= 3; k++) {
		advance_and_walk(0.5);
		seen_collect(s, v4, v6);
		CHECK(s->requests == 0 && s->others == 0 && s->n0 == 0,
		      "%d.5 s: %u requests, %u others, %u on port0 (want nothing yet)", k - 1,
		      s->requests, s->others, s->n0);
		seen_free(s);
		advance_and_walk(0.5);
		seen_collect(s, v4, v6);
		if (k == 3)
			break;
		t[k] = now_s();
		CHECK(s->requests == 1 && s->others == 0 && s->n0 == 0,
		      "%d s: %u requests (want the repeat), %u others, %u on port0", k, s->requests,
		      s->others, s->n0);
		/* the clock moved 1 s; what a loaded machine adds in real time between two
		 * looks is allowed for above 1 s */
		CHECK(t[k] - t[k - 1] >= 1.0 && t[k] - t[k - 1] < 1.5, "repeat %d after %.3f s", k,
		      t[k] - t[k - 1]);
		printf("#   request %d at %.3f s\n", k + 1, t[k] - t[0]);
		seen_free(s);
	}
	CHECK(s->requests == 0 && s->others == 0, "3 s: %u requests (want no 4th), %u others",
	      s->requests, s->others);
	return ok;
}

/* Counters of the IPv4 path: [0] requests sent by ip4-arp, [1] repeated, [2] packets given
 * up, [3] host unreachable sent, [4] not sent (icmp error, fragment), [5] rate limited */
static void
count4(uint64_t c[6])
{
	c[0] = err_get("ip4-arp", "ARP requests sent");
	c[1] = err_get(NODE4, "ARP requests retransmitted");
	c[2] = err_get(NODE4, GIVEN_UP4);
	c[3] = err_get("ip4-icmp-error", "host unreachable response sent");
	c[4] = err_get("ip4-icmp-error", NOT_SENT4);
	c[5] = err_get("ip4-icmp-error", LIMITED);
}

/* The same for IPv6: ip6-glean, ip6-nd-pending, ip6-icmp-error */
static void
count6(uint64_t c[6])
{
	c[0] = err_get("ip6-glean", "ip6 neighbor solicitations sent");
	c[1] = err_get(NODE6, "neighbor solicitations retransmitted");
	c[2] = err_get(NODE6, GIVEN_UP6);
	c[3] = err_get("ip6-icmp-error", "address unreachable response sent");
	c[4] = err_get("ip6-icmp-error", NOT_SENT6);
	c[5] = err_get("ip6-icmp-error", LIMITED);
}

/* Each counter moved by want[i] since before[] (now[]) */
static int
counted(const uint64_t before[6], const uint64_t now[6], const uint64_t want[6])
{
	static const char *const what[] = {"requests sent", "repeated", "given up",
					   "errors sent",   "not sent", "rate limited"};
	int ok = 1;

	for (int i = 0; i < 6; i++)
		CHECK(now[i] - before[i] == want[i], "%s: counted %lu, want %lu", what[i],
		      (unsigned long)(now[i] - before[i]), (unsigned long)want[i]);
	return ok;
}

/* Three packets for target, never answered: 3 requests, then one ICMP 3/1 each. */
static int
ip4_unanswered(uint32_t dst, uint32_t target)
{
	struct held_pkts h = {0};
	struct seen s = {0};
	uint64_t c0[6], c1[6];
	int ok = 1;

	count4(c0);
	for (unsigned i = 0; i < 3; i++)
		held_add(&h, udp4(dst, i));
	ok &= requests_go_unanswered(&s, target, NULL);
	CHECK(s.n0 == 3, "%u frames out of port0 at 3 s, want 3 host unreachable", s.n0);
	for (unsigned i = 0; i < s.n0 && i < h.n; i++)
		ok &= icmp4_error_ok(s.out0[i], 3, 1, h.ip[i], h.len[i]);
	seen_free(&s);
	count4(c1);
	ok &= counted(c0, c1, (const uint64_t[6]){1, 2, 3, 3, 0, 0});
	return ok;
}

static int
unanswered_arp_for_a_connected_host_is_sent_3_times_1s_apart_then_each_packet_gets_3_1(void)
{
	uint32_t host = RTE_IPV4(10, 0, 1, 77);
	struct seen s = {0};
	int ok = ip4_unanswered(host, host);

	/* the next packet starts a new round at once */
	inject(udp4(host, 0));
	walk();
	seen_collect(&s, host, NULL);
	CHECK(s.requests == 1 && s.n0 == 0, "new packet after the failure: %u requests",
	      s.requests);
	seen_free(&s);
	advance_and_walk(3.0);
	seen_collect(&s, host, NULL);
	CHECK(s.n0 == 1, "%u errors for the new packet", s.n0);
	seen_free(&s);
	return ok;
}

static int
unanswered_arp_for_a_routes_next_hop_gives_host_unreachable_too(void)
{
	return ip4_unanswered(RTE_IPV4(50, 1, 2, 3), RTE_IPV4(10, 0, 1, 50));
}

static int
no_host_unreachable_about_an_icmp_error_or_a_non_first_fragment(void)
{
	static const uint8_t unreach[8] = {3, 1, 0xfc, 0xfe, 0, 0, 0, 0};
	static const uint8_t echo[8] = {8, 0, 0xf7, 0xff, 0, 0, 0, 0};
	const uint32_t host = RTE_IPV4(10, 0, 1, 82);
	struct pkt_spec err = {.src = HOST0, .dst = host, .proto = 1, .l4 = unreach, .payload = 8};
	struct pkt_spec ping = {.src = HOST0, .dst = host, .proto = 1, .l4 = echo, .payload = 8};
	struct pkt_spec frag = {.src = HOST0, .dst = host, .frag = 100, .payload = 26};
	struct held_pkts h = {0};
	struct seen s = {0};
	uint64_t c0[6], c1[6];
	int ok = 1;

	count4(c0);
	held_add(&h, pkt_make(&ping)); /* informational: answered */
	held_add(&h, pkt_make(&err));
	held_add(&h, pkt_make(&frag));
	held_add(&h, udp4(host, 5));
	advance_and_walk(0); /* the request */
	advance_and_walk(3.0);
	seen_collect(&s, host, NULL);
	CHECK(s.n0 == 2, "%u errors out of port0, want 2 (echo request, udp)", s.n0);
	if (s.n0 == 2) {
		ok &= icmp4_error_ok(s.out0[0], 3, 1, h.ip[0], h.len[0]);
		ok &= icmp4_error_ok(s.out0[1], 3, 1, h.ip[3], h.len[3]);
	}
	seen_free(&s);
	count4(c1);
	ok &= counted(c0, c1, (const uint64_t[6]){1, 0, 4, 2, 2, 0});
	return ok;
}

static int
arp_reply_to_a_repeated_request_releases_the_held_packets(void)
{
	const uint32_t host = RTE_IPV4(10, 0, 1, 79);
	const struct rte_ether_addr mac = {{0x02, 0, 0, 0, 0x79, 0x79}};
	uint64_t rel = err_get(NODE4, "held packets released after resolution");
	struct rte_mbuf *out[8];
	struct seen s = {0};
	unsigned n;
	int ok = 1;

	inject(udp4(host, 0));
	inject(udp4(host, 1));
	advance_and_walk(0);
	drain_free(); /* the first request */
	advance_and_walk(1.0);
	seen_collect(&s, host, NULL);
	CHECK(s.requests == 1 && s.n0 == 0, "want the repeated request: %u", s.requests);
	seen_free(&s);
	inject(arp_reply(1, host, &mac));
	walk();
	walk();
	n = drain(1, out, 8);
	CHECK(n == 2, "%u packets forwarded after the reply, want 2", n);
	for (unsigned i = 0; i < n; i++)
		CHECK(memcmp(rte_pktmbuf_mtod(out[i], void *), &mac, 6) == 0, "not rewritten");
	rte_pktmbuf_free_bulk(out, n);
	CHECK(err_get(NODE4, "held packets released after resolution") == rel + 2, "released");
	advance_and_walk(3.0);
	CHECK(drain_free() == 0, "frames after the release (no more requests, no error)");
	return ok;
}

/* Three IPv6 packets for the route via 2001:db8:ff::7, never answered */
static int
unanswered_ns_is_sent_3_times_1s_apart_then_each_queued_packet_gets_1_3(void)
{
	static const uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 1};
	struct held_pkts h = {0};
	struct seen s = {0};
	uint64_t c0[6], c1[6];
	int ok = 1;

	count6(c0);
	for (unsigned i = 0; i < 3; i++)
		held_add(&h, ip6_pkt(dst, 17, 0, 16 + i));
	ok &= requests_go_unanswered(&s, 0, nh6);
	CHECK(s.n0 == 3, "%u frames out of port0 at 3 s, want 3 address unreachable", s.n0);
	for (unsigned i = 0; i < s.n0 && i < h.n; i++)
		ok &= icmp6_error_ok(s.out0[i], 1, 3, h.ip[i], h.len[i]);
	seen_free(&s);
	count6(c1);
	ok &= counted(c0, c1, (const uint64_t[6]){1, 2, 3, 3, 0, 0});
	return ok;
}

static int
unanswered_ns_for_an_on_link_destination_gives_address_unreachable_too(void)
{
	static const uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0xff, [15] = 0x99};
	struct held_pkts h = {0};
	struct seen s = {0};
	int ok = 1;

	held_add(&h, ip6_pkt(dst, 17, 0, 20));
	ok &= requests_go_unanswered(&s, 0, dst);
	CHECK(s.n0 == 1, "%u frames out of port0, want 1", s.n0);
	if (s.n0 == 1)
		ok &= icmp6_error_ok(s.out0[0], 1, 3, h.ip[0], h.len[0]);
	seen_free(&s);
	return ok;
}

static int
no_address_unreachable_about_an_icmp6_error(void)
{
	static const uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 5};
	struct held_pkts h = {0};
	struct seen s = {0};
	uint64_t c0[6], c1[6];
	int ok = 1;

	count6(c0);
	held_add(&h, ip6_pkt(dst, 58, 128, 16)); /* echo request: answered */
	held_add(&h, ip6_pkt(dst, 58, 1, 48));	 /* destination unreachable: not */
	held_add(&h, ip6_pkt(dst, 17, 0, 16));
	advance_and_walk(0);
	advance_and_walk(3.0);
	seen_collect(&s, 0, nh6);
	CHECK(s.n0 == 2, "%u errors out of port0, want 2", s.n0);
	if (s.n0 == 2) {
		ok &= icmp6_error_ok(s.out0[0], 1, 3, h.ip[0], h.len[0]);
		ok &= icmp6_error_ok(s.out0[1], 1, 3, h.ip[2], h.len[2]);
	}
	seen_free(&s);
	count6(c1);
	ok &= counted(c0, c1, (const uint64_t[6]){1, 0, 3, 2, 1, 0});
	return ok;
}

static int
na_after_a_retransmitted_ns_releases_the_queued_packets(void)
{
	static const uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 9};
	struct rte_mbuf *out[8];
	struct seen s = {0};
	unsigned n;
	int ok = 1;

	inject(ip6_pkt(dst, 17, 0, 16));
	advance_and_walk(0);
	advance_and_walk(1.0);
	drain_free(); /* the first two solicitations */
	advance_and_walk(1.0);
	seen_collect(&s, 0, nh6);
	CHECK(s.requests == 1, "want the third solicitation: %u", s.requests);
	seen_free(&s);
	inject(na6_from(nh6, nh6_mac));
	walk();
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "%u packets forwarded after the advertisement, want 1", n);
	for (unsigned i = 0; i < n; i++)
		CHECK(memcmp(rte_pktmbuf_mtod(out[i], void *), nh6_mac, 6) == 0, "not rewritten");
	rte_pktmbuf_free_bulk(out, n);
	advance_and_walk(3.0);
	CHECK(drain_free() == 0, "frames after the release");
	return ok;
}

/* rate 1/s, burst 5: of 12 IPv4 and 8 IPv6 packets given up at once, 5 of each family
 * are answered and the rest counted as rate limited (the buckets were full: the tests
 * above spent a few of their 100 tokens, which refill at 1000/s) */
static int
errors_for_given_up_packets_are_rate_limited_and_counted(void)
{
	static const uint8_t dst6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 0x11};
	const uint32_t host = RTE_IPV4(10, 0, 1, 81);
	uint64_t a0[6], a1[6], b0[6], b1[6];
	struct seen s = {0};
	int ok = 1;

	rte_delay_ms(150);
	CHECK(env_cli("set ip icmp-error rate 1") == 0 && env_cli("set ip icmp-error burst 5") == 0,
	      "rate 1 burst 5");
	count4(a0);
	count6(b0);
	for (unsigned i = 0; i < 12; i++)
		inject(udp4(host, i));
	for (unsigned i = 0; i < 8; i++)
		inject(ip6_pkt(dst6, 17, 0, 16 + i));
	advance_and_walk(0);
	drain_free();
	advance_and_walk(3.0); /* all past their hold time: given up at once */
	seen_collect(&s, host, NULL);
	CHECK(s.n0 == 10, "%u errors out of port0, want 5 + 5", s.n0);
	seen_free(&s);
	count4(a1);
	count6(b1);
	ok &= counted(a0, a1, (const uint64_t[6]){1, 0, 12, 5, 0, 7});
	ok &= counted(b0, b1, (const uint64_t[6]){1, 0, 8, 5, 0, 3});
	CHECK(env_cli("set ip icmp-error rate 1000") == 0 &&
		      env_cli("set ip icmp-error burst 100") == 0,
	      "defaults back");
	return ok;
}

static int
icmp_error_burst_is_configurable_and_bad_settings_are_refused(void)
{
	static const char *const bad[] = {
		"set ip icmp-error burst 0",	    "set ip icmp-error burst 1000001",
		"set ip icmp-error burst",	    "set ip icmp-error burst x",
		"set ip icmp-error burst -5",	    "set ip icmp-error rate 0",
		"set ip icmp-error rate 5 burst 5",
	};
	int ok = cli_all_refused(bad, RTE_DIM(bad));
	char *o;

	CHECK(env_cli("set ip icmp-error burst 20") == 0, "burst 20");
	o = cli_output("show ip icmp-error");
	CHECK(strstr(o, "rate 1000 per second per worker, burst 20") != NULL, "%s", o);
	free(o);
	CHECK(env_cli("set ip icmp-error burst 100") == 0, "burst 100");
	return ok;
}

static const char *const cfg[] = {
	"set ip neighbor port0 10.0.0.2 02:00:00:00:00:02",
	"ip route add 50.0.0.0/8 via 10.0.1.50 port1",
	"set interface ip address port0 2001:db8::1/64",
	"set interface ip address port1 2001:db8:ff::1/64",
	"set ip neighbor port0 2001:db8::2 02:00:00:00:00:02",
	"ip route add 2001:db8:7::/48 via 2001:db8:ff::7 port1",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(
		unanswered_arp_for_a_connected_host_is_sent_3_times_1s_apart_then_each_packet_gets_3_1),
	GRAPH_TEST(unanswered_arp_for_a_routes_next_hop_gives_host_unreachable_too),
	GRAPH_TEST(no_host_unreachable_about_an_icmp_error_or_a_non_first_fragment),
	GRAPH_TEST(arp_reply_to_a_repeated_request_releases_the_held_packets),
	GRAPH_TEST(unanswered_ns_is_sent_3_times_1s_apart_then_each_queued_packet_gets_1_3),
	GRAPH_TEST(unanswered_ns_for_an_on_link_destination_gives_address_unreachable_too),
	GRAPH_TEST(no_address_unreachable_about_an_icmp6_error),
	GRAPH_TEST(errors_for_given_up_packets_are_rate_limited_and_counted),
	GRAPH_TEST(na_after_a_retransmitted_ns_releases_the_queued_packets),
	GRAPH_TEST(icmp_error_burst_is_configurable_and_bad_settings_are_refused),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "resolution-test",
					    .n_mbufs = 8192,
					    .n_workers = 1,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
