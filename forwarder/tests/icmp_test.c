/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP (RFC 792, RFC 1812 4.3): time exceeded, destination unreachable and
 * fragmentation needed are sent to the source, quoting its packet, from the
 * input interface's address, rate limited, never about an ICMP error or a
 * non-first fragment, and switched off by `set ip icmp-error disable`; echo
 * requests to the router's addresses are answered. Every packet is built and
 * every reply checked byte by byte here, independently of vfwd.
 */
#include <rte_arp.h>

#include "pkt_util.h"

#define HOST0_MAC {0x02, 0, 0, 0, 0, 0x02}

/* The one packet out of port0; checks the IPv4 and ICMP headers of an ICMP
 * message from `src` to HOST0 and returns a pointer to its ICMP header. */
static const uint8_t *
icmp_reply(struct rte_mbuf *m, uint32_t src, int *ok_out)
{
	static const uint8_t host_mac_b[6] = HOST0_MAC;
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *), *ip = f + 14;
	unsigned tot = (unsigned)(ip[2] << 8 | ip[3]);
	int ok = 1;

	CHECK(memcmp(f, host_mac_b, 6) == 0, "dst mac not the host's");
	CHECK(memcmp(f + 6, &vfwd.ports[0].mac, 6) == 0, "src mac not port0's");
	CHECK(f[12] == 0x08 && f[13] == 0, "ethertype %02x%02x", f[12], f[13]);
	CHECK(ip[0] == 0x45 && ip[9] == 1, "not ICMP/IPv4: %02x %u", ip[0], ip[9]);
	CHECK(ip_csum(ip, 20) == 0, "ip checksum");
	CHECK(m->pkt_len == 14 + tot, "length %u vs total %u", m->pkt_len, tot);
	CHECK(((uint32_t)ip[12] << 24 | (uint32_t)ip[13] << 16 | (uint32_t)ip[14] << 8 | ip[15]) == src, "source");
	CHECK(((uint32_t)ip[16] << 24 | (uint32_t)ip[17] << 16 | (uint32_t)ip[18] << 8 | ip[19]) == HOST0, "dest");
	CHECK(ip_csum(ip + 20, tot - 20) == 0, "icmp checksum");
	*ok_out &= ok;
	return ip + 20;
}

/* Sends the packet of s; expects one ICMP error of type/code whose quote is the
 * start of the packet as sent. Returns the reply's ICMP header in hdr[8]. */
static int
error_for(const struct pkt_spec *s, uint8_t type, uint8_t code, uint8_t hdr[8])
{
	static uint8_t sent[16384];
	unsigned len = frame_build(s, sent);
	struct rte_mbuf *m = forwarded(pkt_make(s), 0);
	const uint8_t *icmp;
	unsigned quote;
	int ok = 1;

	CHECK(m != NULL, "no ICMP error out of port0");
	if (m == NULL)
		return 0;
	icmp = icmp_reply(m, RTE_IPV4(10, 0, 0, 1), &ok);
	CHECK(icmp[0] == type && icmp[1] == code, "type %u code %u, want %u/%u", icmp[0], icmp[1],
	      type, code);
	quote = m->pkt_len - 14 - 28;
	CHECK(quote == RTE_MIN(len - 14, 548u), "quotes %u bytes of %u", quote, len - 14);
	CHECK(memcmp(icmp + 8, sent + 14, quote) == 0, "quote differs from the packet sent");
	memcpy(hdr, icmp, 8);
	rte_pktmbuf_free(m);
	return ok;
}

static int
icmp_errors_are_on_by_default(void)
{
	char *s = cli_output("show ip icmp-error");
	int ok = 1;

	CHECK(strncmp(s, "icmp errors enabled", 19) == 0, "%s", s);
	free(s);
	return ok;
}

static int
ttl_expired_packet_gets_time_exceeded_quoting_it(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .ttl = 1, .payload = 100};
	uint8_t h[8];

	return error_for(&s, 11, 0, h);
}

static int
long_packet_is_quoted_up_to_576_bytes(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .ttl = 1, .payload = 1200};
	uint8_t h[8];

	return error_for(&s, 11, 0, h);
}

static int
no_route_gets_net_unreachable(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = RTE_IPV4(99, 1, 2, 3), .payload = 40};
	uint8_t h[8];

	return error_for(&s, 3, 0, h);
}

static int
df_packet_over_the_mtu_gets_fragmentation_needed_with_the_mtu(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .frag = RTE_IPV4_HDR_DF_FLAG,
			     .payload = 1700};
	uint8_t h[8];
	int ok = 1;

	CHECK(env_cli("set interface mtu 1400 port1") == 0, "mtu");
	ok &= error_for(&s, 3, 4, h);
	CHECK(h[6] == (1400 >> 8) && h[7] == (1400 & 255), "next-hop MTU %u", h[6] << 8 | h[7]);
	CHECK(env_cli("set interface mtu 1500 port1") == 0, "mtu");
	return ok;
}

static int
no_icmp_error_about_an_icmp_error_or_a_later_fragment(void)
{
	static const uint8_t unreach[8] = {3, 1, 0xfc, 0xfe, 0, 0, 0, 0};
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .ttl = 1, .proto = 1, .l4 = unreach,
			     .payload = 8};
	int ok = 1;

	ok &= dropped_under(pkt_make(&s), "ip4-icmp-error",
			    "error message dropped (about an icmp error or a fragment)");
	s.proto = 17;
	s.l4 = NULL;
	s.frag = 100; /* offset 800 */
	ok &= dropped_under(pkt_make(&s), "ip4-icmp-error",
			    "error message dropped (about an icmp error or a fragment)");
	return ok;
}

static int
icmp_errors_are_rate_limited(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .ttl = 1, .payload = 26};
	uint64_t lim = err_get("ip4-icmp-error", "error message dropped (rate limited)");
	unsigned out = 0;
	int ok = 1;

	CHECK(env_cli("set ip icmp-error rate 1") == 0, "rate");
	for (int i = 0; i < 300; i++) {
		inject(pkt_make(&s));
		if (i % 50 == 49) {
			walk();
			out += drain_free();
		}
	}
	walk();
	out += drain_free();
	lim = err_get("ip4-icmp-error", "error message dropped (rate limited)") - lim;
	printf("# 300 TTL-expired packets at 1/s, burst 100: %u errors sent, %lu limited\n", out,
	       (unsigned long)lim);
	CHECK(out >= 90 && out <= 110, "%u errors sent", out);
	CHECK(out + lim == 300, "%u + %lu != 300", out, (unsigned long)lim);
	CHECK(env_cli("set ip icmp-error rate 1000") == 0, "rate");
	return ok;
}

static int
cli_switch_turns_icmp_errors_off_and_on(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .ttl = 1, .payload = 26};
	uint8_t h[8];
	int ok = 1;

	CHECK(env_cli("set ip icmp-error disable") == 0, "disable");
	ok &= dropped_under(pkt_make(&s), "ip4-rewrite", "ip4 ttl <= 1");
	CHECK(env_cli("set ip icmp-error enable") == 0, "enable");
	rte_delay_ms(200); /* the bucket refills after the rate-limit test */
	ok &= error_for(&s, 11, 0, h);
	return ok;
}

static int
echo_request_to_each_router_address_gets_an_echo_reply(void)
{
	static const uint32_t dst[] = {RTE_IPV4(10, 0, 0, 1), RTE_IPV4(10, 0, 1, 1)};
	uint8_t echo[64] = {8, 0, 0, 0, 0x12, 0x34, 0, 7};
	int ok = 1;

	for (unsigned k = 8; k < sizeof(echo); k++)
		echo[k] = (uint8_t)(k * 13);
	{
		uint16_t c = ip_csum(echo, sizeof(echo));

		echo[2] = (uint8_t)(c >> 8);
		echo[3] = (uint8_t)c;
	}
	for (unsigned i = 0; i < RTE_DIM(dst); i++) {
		struct pkt_spec s = {.src = HOST0, .dst = dst[i], .proto = 1, .l4 = echo,
				     .payload = sizeof(echo)};
		struct rte_mbuf *m = forwarded(pkt_make(&s), 0);
		const uint8_t *icmp;

		CHECK(m != NULL, "no echo reply from %08x", dst[i]);
		if (m == NULL)
			continue;
		icmp = icmp_reply(m, dst[i], &ok);
		CHECK(icmp[0] == 0 && icmp[1] == 0, "type %u code %u", icmp[0], icmp[1]);
		CHECK(memcmp(icmp + 4, echo + 4, sizeof(echo) - 4) == 0, "id, seq or data differ");
		rte_pktmbuf_free(m);
	}
	echo[10] ^= 0xff; /* checksum now wrong */
	{
		struct pkt_spec s = {.src = HOST0, .dst = dst[0], .proto = 1, .l4 = echo,
				     .payload = sizeof(echo)};

		ok &= dropped_under(pkt_make(&s), "ip4-local",
				    "ip4 local icmp truncated or bad checksum");
	}
	return ok;
}

static const char *const cfg[] = {
	"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
	"set ip neighbor port0 10.0.0.2 02:00:00:00:00:02",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(icmp_errors_are_on_by_default),
	GRAPH_TEST(ttl_expired_packet_gets_time_exceeded_quoting_it),
	GRAPH_TEST(long_packet_is_quoted_up_to_576_bytes),
	GRAPH_TEST(no_route_gets_net_unreachable),
	GRAPH_TEST(df_packet_over_the_mtu_gets_fragmentation_needed_with_the_mtu),
	GRAPH_TEST(no_icmp_error_about_an_icmp_error_or_a_later_fragment),
	GRAPH_TEST(icmp_errors_are_rate_limited),
	GRAPH_TEST(cli_switch_turns_icmp_errors_off_and_on),
	GRAPH_TEST(echo_request_to_each_router_address_gets_an_echo_reply),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "icmp-test",
					    .n_mbufs = 8192,
					    .n_workers = 1,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
