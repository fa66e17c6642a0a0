/* SPDX-License-Identifier: BSD-3-Clause
 * ICMPv6 errors (RFC 4443), from ip6-icmp-error: time exceeded (hop limit),
 * destination unreachable (no route) and packet too big (MTU, with the MTU),
 * each checked byte by byte against the packet sent (checksum over the
 * pseudo-header, quote of the original up to 1280 bytes in all, from the input
 * interface's address back to the sender); none about an ICMPv6 error, from an
 * unspecified source or to a multicast address; rate-limited; off with
 * `set ip icmp-error disable`. Frames are built here, not by vfwd.
 */
#include "pkt_util.h"

/* pkt_util.h helpers this test does not use */
static void __attribute__((unused)) unused_helpers(void)
{
	(void)forwarded;
	(void)pkt_make;
	(void)cli_output;
}

static const uint8_t host6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};	  /* 2001:db8::2 */
static const uint8_t port0_6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 1};	  /* 2001:db8::1 */
static const uint8_t far6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 9}; /* 2001:db8:1::9 */
static const uint8_t none6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0x99, [15] = 1};

/* An IPv6 frame into port0: src -> dst, next header nh, plen payload bytes (a
 * pattern; for ICMPv6 the type is `icmp_type`), hop limit hl. */
static struct rte_mbuf *
pkt6(const uint8_t *src, const uint8_t *dst, uint8_t nh, uint8_t icmp_type, unsigned plen,
     uint8_t hl)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(14 + 40 + plen));

	memset(f, 0, 14 + 40);
	memcpy(f, &vfwd.ports[0].mac, 6);
	memcpy(f + 6, &host_mac, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	f[14] = 0x60;
	f[18] = (uint8_t)(plen >> 8);
	f[19] = (uint8_t)plen;
	f[20] = nh;
	f[21] = hl;
	memcpy(f + 22, src, 16);
	memcpy(f + 38, dst, 16);
	for (unsigned i = 0; i < plen; i++)
		f[54 + i] = (uint8_t)(i * 13 + 5);
	if (nh == 58)
		f[54] = icmp_type;
	m->port = vfwd.ports[0].port_id;
	return m;
}

/* The RFC 4443 2.3 checksum over the pseudo-header and the ICMPv6 message: 0 when right */
static uint16_t
csum6(const uint8_t *ip6)
{
	static uint8_t buf[40 + 1500];
	unsigned plen = (unsigned)(ip6[4] << 8 | ip6[5]);

	memset(buf, 0, 40);
	memcpy(buf, ip6 + 8, 32);
	buf[34] = (uint8_t)(plen >> 8);
	buf[35] = (uint8_t)plen;
	buf[39] = 58;
	memcpy(buf + 40, ip6 + 40, plen);
	return ip_csum(buf, 40 + plen + (plen & 1));
}

/* Sends m and checks that one ICMPv6 error type/code leaves port0 for 2001:db8::2,
 * from 2001:db8::1, quoting the packet sent (up to 1232 bytes), with `word` (the
 * MTU for packet too big, else 0). */
static int
answered(struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t word)
{
	static uint8_t sent[2048];
	unsigned slen = m->pkt_len - 14, quote = RTE_MIN(slen, 1232u), n;
	struct rte_mbuf *out[4];
	int ok = 1;

	memcpy(sent, rte_pktmbuf_mtod_offset(m, void *, 14), slen);
	inject(m);
	walk();
	n = drain(0, out, 4);
	CHECK(n == 1, "%u packets out of port0, want the ICMPv6 error", n);
	CHECK(drain_free() == 0, "packets out of port1");
	if (n == 1) {
		const uint8_t *f = rte_pktmbuf_mtod(out[0], const uint8_t *), *ip = f + 14;
		const uint8_t *ic = ip + 40;

		CHECK(out[0]->pkt_len == 14 + 48 + quote, "length %u, want %u", out[0]->pkt_len,
		      14 + 48 + quote);
		CHECK(memcmp(f, &host_mac, 6) == 0 && memcmp(f + 6, &vfwd.ports[0].mac, 6) == 0 &&
			      f[12] == 0x86 && f[13] == 0xdd,
		      "ethernet header");
		CHECK(ip[0] >> 4 == 6 && (unsigned)(ip[4] << 8 | ip[5]) == 8 + quote &&
			      ip[6] == 58 && ip[7] == 63,
		      "ipv6 header: plen %u nh %u hl %u", ip[4] << 8 | ip[5], ip[6], ip[7]);
		CHECK(memcmp(ip + 8, port0_6, 16) == 0 && memcmp(ip + 24, host6, 16) == 0,
		      "not 2001:db8::1 -> 2001:db8::2");
		CHECK(ic[0] == type && ic[1] == code, "type %u code %u, want %u %u", ic[0], ic[1],
		      type, code);
		CHECK((uint32_t)(ic[4] << 24 | ic[5] << 16 | ic[6] << 8 | ic[7]) == word,
		      "second word %02x%02x%02x%02x, want %08x", ic[4], ic[5], ic[6], ic[7], word);
		CHECK(csum6(ip) == 0, "icmp6 checksum");
		CHECK(memcmp(ic + 8, sent, quote) == 0, "the quote is not the packet sent");
	}
	rte_pktmbuf_free_bulk(out, n);
	return ok;
}

/* ICMPv6 errors sent so far, of every type. */
static uint64_t
errors_sent(void)
{
	return err_get("ip6-icmp-error", "hop limit exceeded response sent") +
	       err_get("ip6-icmp-error", "destination unreachable response sent") +
	       err_get("ip6-icmp-error", "packet too big response sent");
}

/* Sends m; nothing may leave, and node/reason is counted once. */
static int
silent(struct rte_mbuf *m, const char *node, const char *reason)
{
	uint64_t sent = errors_sent();
	int ok = dropped_under(m, node, reason);

	CHECK(errors_sent() == sent, "an error was counted as sent");
	return ok;
}

/* answered(), and the error counted once more under reason. */
static int
answered_and_counted(struct rte_mbuf *m, uint8_t type, uint8_t code, uint32_t word,
		     const char *reason)
{
	uint64_t before = err_get("ip6-icmp-error", reason);
	int ok = answered(m, type, code, word);

	CHECK(err_get("ip6-icmp-error", reason) == before + 1, "not counted");
	return ok;
}

static int
hop_limit_1_gets_time_exceeded(void)
{
	return answered_and_counted(pkt6(host6, far6, 17, 0, 26, 1), 3, 0, 0,
				    "hop limit exceeded response sent");
}

static int
no_route_gets_destination_unreachable(void)
{
	return answered_and_counted(pkt6(host6, none6, 17, 0, 100, 64), 1, 0, 0,
				    "destination unreachable response sent");
}

static int
over_the_mtu_gets_packet_too_big_with_the_mtu_and_a_1280_byte_quote(void)
{
	return answered_and_counted(pkt6(host6, far6, 17, 0, 1400, 64), 2, 0, 1280,
				    "packet too big response sent");
}

static int
echo_request_with_hop_limit_1_is_answered_an_icmp6_error_is_not(void)
{
	int ok = answered(pkt6(host6, far6, 58, 128, 16, 1), 3, 0, 0);

	ok &= silent(pkt6(host6, far6, 58, 1, 48, 1), "ip6-icmp-error",
		     "error message dropped (about an icmp6 error or to a multicast address)");
	ok &= silent(pkt6(host6, far6, 58, 3, 48, 1), "ip6-icmp-error",
		     "error message dropped (about an icmp6 error or to a multicast address)");
	return ok;
}

static int
unspecified_source_and_multicast_destination_get_no_error(void)
{
	static const uint8_t zero[16], mcast[16] = {0xff, 0x0e, [15] = 1};
	int ok = 1;

	ok &= silent(pkt6(zero, far6, 17, 0, 26, 1), "ip6-input", "ip6 martian source address");
	ok &= silent(pkt6(host6, mcast, 17, 0, 26, 1), "ip6-input", "ip6 multicast not forwarded");
	return ok;
}

static int
errors_are_rate_limited(void)
{
	uint64_t sent0 = err_get("ip6-icmp-error", "hop limit exceeded response sent");
	uint64_t lim0 = err_get("ip6-icmp-error", "error message dropped (rate limited)");
	struct rte_mbuf *out[256];
	uint64_t sent, lim;
	unsigned n = 0, k;
	int ok = 1;

	/* the bucket holds 100 (a few spent above) and refills at 1/s here: of 300 sent
	 * at once about 100 are answered, whatever the speed of the machine */
	CHECK(env_cli("set ip icmp-error rate 1") == 0, "rate");
	for (int i = 0; i < 300; i++) {
		inject(pkt6(host6, far6, 17, 0, 26, 1));
		if (i % 100 == 99) {
			walk();
			while ((k = drain(0, out, 256)) > 0) {
				n += k;
				rte_pktmbuf_free_bulk(out, k);
			}
		}
	}
	drain_free();
	CHECK(env_cli("set ip icmp-error rate 1000") == 0, "rate");
	sent = err_get("ip6-icmp-error", "hop limit exceeded response sent") - sent0;
	lim = err_get("ip6-icmp-error", "error message dropped (rate limited)") - lim0;
	CHECK(sent == n, "%lu counted sent, %u left", (unsigned long)sent, n);
	CHECK(sent + lim == 300, "sent %lu + rate limited %lu != 300", (unsigned long)sent,
	      (unsigned long)lim);
	CHECK(sent >= 90 && sent <= 120 && lim >= 180, "sent %lu, rate limited %lu",
	      (unsigned long)sent, (unsigned long)lim);
	return ok;
}

static int
icmp_error_disable_turns_icmp6_errors_off(void)
{
	int ok = 1;

	CHECK(env_cli("set ip icmp-error disable") == 0, "disable");
	ok &= silent(pkt6(host6, far6, 17, 0, 26, 1), "ip6-rewrite", "ip6 hop limit <= 1");
	ok &= silent(pkt6(host6, none6, 17, 0, 26, 64), "ip6-lookup", "ip6 no route");
	CHECK(env_cli("set ip icmp-error enable") == 0, "enable");
	return ok;
}

static const char *const cfg[] = {
	"set interface ip address port0 2001:db8::1/64",
	"set interface ip address port1 2001:db8:ff::1/64",
	"set ip neighbor port0 2001:db8::2 02:00:00:00:00:02",
	"set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02",
	"ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1",
	"set interface mtu packet 1280 port1",
	"set ip icmp-error enable",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(hop_limit_1_gets_time_exceeded),
	GRAPH_TEST(no_route_gets_destination_unreachable),
	GRAPH_TEST(over_the_mtu_gets_packet_too_big_with_the_mtu_and_a_1280_byte_quote),
	GRAPH_TEST(echo_request_with_hop_limit_1_is_answered_an_icmp6_error_is_not),
	GRAPH_TEST(unspecified_source_and_multicast_destination_get_no_error),
	GRAPH_TEST(icmp_error_disable_turns_icmp6_errors_off),
	GRAPH_TEST(errors_are_rate_limited),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "icmp6-test",
					    .n_mbufs = 4096,
					    .n_workers = 1,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
