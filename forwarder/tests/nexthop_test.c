/* SPDX-License-Identifier: BSD-3-Clause
 * Next-hop resolution and the default route: a packet whose next hop has no
 * neighbour makes vfwd ARP for it (once per second per target), waits, and is
 * forwarded when the reply arrives; on a connected subnet the destination
 * itself is asked for (glean); at most 64 packets wait per worker and none
 * longer than 3 s (3 requests, 1 s apart); a reply from outside the subnet is learned only when
 * it answers our request; `ip route add 0.0.0.0/0` is a default route that
 * still never forwards martians; an unresolved IPv6 next hop is solicited (RFC
 * 4861 7.2.2) and learned from its advertisement. Frames are built and checked here byte by
 * byte (RFC 826 layout), independently of vfwd.
 */
#include <rte_arp.h>

#include "pkt_util.h"

#define GIVEN_UP "held packets dropped: no ARP reply to 3 requests"

/* The ARP request in m: broadcast, from port's MAC and address, for target. */
static int
is_arp_request(struct rte_mbuf *m, int port, uint32_t target)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *), *a = f + 14;
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	const struct port *p = &vfwd.ports[port];
	uint32_t sip = ((uint32_t)a[14] << 24 | (uint32_t)a[15] << 16 | (uint32_t)a[16] << 8 | a[17]);
	uint32_t tip = ((uint32_t)a[24] << 24 | (uint32_t)a[25] << 16 | (uint32_t)a[26] << 8 | a[27]);
	int ok = 1;

	CHECK(memcmp(f, bcast, 6) == 0 && memcmp(f + 6, &p->mac, 6) == 0, "ethernet addresses");
	CHECK(f[12] == 0x08 && f[13] == 0x06, "not ARP");
	CHECK(a[0] == 0 && a[1] == 1 && a[2] == 8 && a[3] == 0 && a[4] == 6 && a[5] == 4 &&
		      a[6] == 0 && a[7] == 1,
	      "not an Ethernet/IPv4 request");
	CHECK(memcmp(a + 8, &p->mac, 6) == 0 && sip == p->ip4, "sender is not the interface");
	CHECK(tip == target, "asks for %08x, want %08x", tip, target);
	return ok;
}

static int
resolves(uint32_t dst, uint32_t nh, const uint8_t mac[6], unsigned n_pkts)
{
	const struct rte_ether_addr sha = {{mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]}};
	struct pkt_spec s = {.src = HOST0, .dst = dst, .payload = 26};
	struct rte_mbuf *out[80];
	unsigned n;
	int ok = 1;

	for (unsigned i = 0; i < n_pkts; i++)
		inject(pkt_make(&s));
	walk();
	n = drain(1, out, 80);
	CHECK(n == 1, "%u frames out of port1, want one ARP request for %u packets", n, n_pkts);
	if (n >= 1)
		ok &= is_arp_request(out[0], 1, nh);
	rte_pktmbuf_free_bulk(out, n);
	CHECK(drain_free() == 0, "frames elsewhere");
	inject(arp_reply(1, nh, &sha));
	walk(); /* arp-input queues the sender; the main lcore (fib_punt_poll) learns it */
	walk(); /* ip4-arp-pending sees the resolved next hop and releases */
	n = drain(1, out, 80);
	CHECK(n == n_pkts, "%u of %u held packets forwarded after the reply", n, n_pkts);
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);

		CHECK(memcmp(f, mac, 6) == 0 && f[14 + 8] == 63, "packet %u not rewritten", i);
	}
	rte_pktmbuf_free_bulk(out, n);
	return ok;
}

static int
unresolved_next_hop_gets_one_arp_request_and_its_packets_wait(void)
{
	static const uint8_t mac[6] = {0x02, 0, 0, 0, 0x50, 0x50};
	int ok = 1;

	CHECK(env_cli("ip route add 50.0.0.0/8 via 10.0.1.50 port1") == 0, "route");
	ok &= resolves(RTE_IPV4(50, 1, 2, 3), RTE_IPV4(10, 0, 1, 50), mac, 5);
	{
		char *nb = cli_output("show ip neighbors");

		CHECK(strstr(nb, "10.0.1.50") != NULL && strstr(nb, "02:00:00:00:50:50") != NULL,
		      "not learned:\n%s", nb);
		free(nb);
	}
	return ok;
}

static int
destination_on_a_connected_subnet_is_gleaned(void)
{
	static const uint8_t mac[6] = {0x02, 0, 0, 0, 0x60, 0x60};

	return resolves(RTE_IPV4(10, 0, 1, 60), RTE_IPV4(10, 0, 1, 60), mac, 3);
}

static int
requested_next_hop_outside_the_subnet_is_learned_unsolicited_one_is_not(void)
{
	static const uint8_t mac[6] = {0x02, 0, 0, 0, 0x55, 0x55};
	const struct rte_ether_addr other = {{0x02, 0, 0, 0, 0x66, 0x66}};
	uint64_t nl = err_get("arp-learn", "ARP sender not on subnet and not requested (ignored)");
	char *nb;
	int ok = 1;

	CHECK(env_cli("ip route add 57.0.0.0/8 via 192.168.5.5 port1") == 0, "route");
	ok &= resolves(RTE_IPV4(57, 0, 0, 1), UINT32_C(0xc0a80505) /* 192.168.5.5 */, mac, 2);
	inject(arp_reply(1, UINT32_C(0xc0a80606) /* 192.168.6.6 */, &other));
	walk();
	drain_free();
	nb = cli_output("show ip neighbors");
	CHECK(strstr(nb, "192.168.6.6") == NULL, "unsolicited off-subnet reply learned:\n%s", nb);
	free(nb);
	CHECK(err_get("arp-learn", "ARP sender not on subnet and not requested (ignored)") ==
		      nl + 1,
	      "not counted");
	return ok;
}

/* ICMP errors are off here: packets given up are dropped (resolution_test has the errors) */
static int
at_most_64_packets_wait_and_none_longer_than_3_seconds(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = RTE_IPV4(10, 0, 1, 70), .payload = 26};
	uint64_t full = err_get("ip4-arp", "packets dropped: pending queue full");
	uint64_t old = err_get("ip4-arp-pending", GIVEN_UP);
	unsigned n = 0;
	int ok = 1;

	for (int i = 0; i < 100; i++)
		inject(pkt_make(&s));
	walk();
	n = drain_free();
	CHECK(n == 1, "%u frames out, want one ARP request", n);
	CHECK(err_get("ip4-arp", "packets dropped: pending queue full") == full + 36,
	      "%lu over the limit, want 36",
	      (unsigned long)(err_get("ip4-arp", "packets dropped: pending queue full") - full));
	nbr_clock_offset += (uint64_t)(2.9 * (double)rte_get_tsc_hz());
	walk();
	CHECK(err_get("ip4-arp-pending", GIVEN_UP) == old, "given up before 3 s");
	drain_free();
	nbr_clock_offset += (uint64_t)(0.1 * (double)rte_get_tsc_hz());
	walk();
	CHECK(drain_free() == 0, "frames out after the timeout");
	CHECK(err_get("ip4-arp-pending", GIVEN_UP) == old + 64, "%lu timed out, want 64",
	      (unsigned long)(err_get("ip4-arp-pending", GIVEN_UP) - old));
	return ok;
}

static int
default_route_forwards_unmatched_destinations_but_no_martians(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = RTE_IPV4(99, 1, 2, 3), .payload = 26};
	struct rte_mbuf *m;
	char *fib;
	int ok = 1;

	ok &= dropped_under(pkt_make(&s), "ip4-lookup", "no route");
	CHECK(env_cli("ip route add 0.0.0.0/0 via 10.0.1.2 port1") == 0, "default route");
	fib = cli_output("show ip fib");
	CHECK(strstr(fib, "0.0.0.0/0") != NULL, "not in the fib:\n%s", fib);
	free(fib);
	m = forwarded(pkt_make(&s), 1);
	CHECK(m != NULL, "99.1.2.3 not forwarded by the default route");
	rte_pktmbuf_free(m);
	s.dst = UINT32_MAX /* 255.255.255.255 */;
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 martian destination address");
	s.dst = RTE_IPV4(127, 0, 0, 1);
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 martian destination address");
	CHECK(env_cli("ip route del 0.0.0.0/0") == 0, "del");
	s.dst = RTE_IPV4(99, 1, 2, 3);
	ok &= dropped_under(pkt_make(&s), "ip4-lookup", "no route");
	return ok;
}

/* An IPv6 frame from port0: UDP, 2001:db8::2 -> dst, hop limit 64. */
static struct rte_mbuf *
pkt6(const uint8_t *dst)
{
	return pkt6_to(dst);
}

static uint16_t
csum6(const uint8_t *ip6)
{
	uint8_t buf[40 + 64];
	unsigned plen = (unsigned)(ip6[4] << 8 | ip6[5]);

	memset(buf, 0, sizeof(buf));
	memcpy(buf, ip6 + 8, 32);
	buf[34] = (uint8_t)(plen >> 8);
	buf[35] = (uint8_t)plen;
	buf[39] = ip6[6];
	memcpy(buf + 40, ip6 + 40, plen);
	return ip_csum(buf, 40 + plen);
}

/* RFC 4861: an unresolved IPv6 next hop is solicited at its solicited-node
 * address; its advertisement is learned and the next packet is forwarded. */
static int
unresolved_ip6_next_hop_is_solicited_and_learned_from_its_advertisement(void)
{
	static const uint8_t dst[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 1};
	static const uint8_t nh[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0xff, [15] = 7};
	static const uint8_t nh_mac[6] = {0x02, 0, 0, 0, 0x77, 0x77};
	struct rte_mbuf *out[8], *na;
	unsigned n;
	int ok = 1;

	CHECK(env_cli("set interface ip address port0 2001:db8::1/64") == 0, "ip6 port0");
	CHECK(env_cli("set interface ip address port1 2001:db8:ff::1/64") == 0, "ip6 port1");
	CHECK(env_cli("ip route add 2001:db8:7::/48 via 2001:db8:ff::7 port1") == 0, "route");
	inject(pkt6(dst));
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "%u frames out of port1, want one NS", n);
	if (n == 1) {
		const uint8_t *g = rte_pktmbuf_mtod(out[0], const uint8_t *), *ip = g + 14;
		static const uint8_t snm[16] = {0xff, 2, [11] = 1, 0xff, 0, 0, 7};

		CHECK(g[0] == 0x33 && g[1] == 0x33 && g[2] == 0xff && g[5] == 7, "eth dst");
		CHECK(memcmp(ip + 24, snm, 16) == 0, "not to the solicited-node address");
		CHECK(ip[6] == 58 && ip[7] == 255 && ip[40] == 135, "not an NS with hop limit 255");
		CHECK(memcmp(ip + 48, nh, 16) == 0, "target");
		CHECK(ip[64] == 1 && ip[65] == 1 && memcmp(ip + 66, &vfwd.ports[1].mac, 6) == 0,
		      "source link-layer option");
		CHECK(csum6(ip) == 0, "icmp6 checksum");
	}
	rte_pktmbuf_free_bulk(out, n);
	drain_free();
	/* the advertisement: 2001:db8:ff::7 -> 2001:db8:ff::1, S+O, target link-layer option */
	na = na6_from(nh, nh_mac);
	inject(na);
	walk();
	walk();
	inject(pkt6(dst));
	walk();
	n = drain(1, out, 8);
	/* the first packet waited for the advertisement (ip6-nd-pending), the second did not */
	CHECK(n == 2, "%u packets out of port1 after the NA, want the held one and the new one", n);
	if (n != 2) {
		char *e = cli_output("show errors");

		printf("%s", e);
		free(e);
	}
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *g = rte_pktmbuf_mtod(out[i], const uint8_t *);

		CHECK(memcmp(g, nh_mac, 6) == 0 && g[14 + 7] == 63, "not rewritten to the NA's MAC");
	}
	rte_pktmbuf_free_bulk(out, n);
	return ok;
}

static const char *const cfg[] = {
	"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
	"set ip icmp-error disable",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(unresolved_next_hop_gets_one_arp_request_and_its_packets_wait),
	GRAPH_TEST(destination_on_a_connected_subnet_is_gleaned),
	GRAPH_TEST(requested_next_hop_outside_the_subnet_is_learned_unsolicited_one_is_not),
	GRAPH_TEST(at_most_64_packets_wait_and_none_longer_than_3_seconds),
	GRAPH_TEST(default_route_forwards_unmatched_destinations_but_no_martians),
	GRAPH_TEST(unresolved_ip6_next_hop_is_solicited_and_learned_from_its_advertisement),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "nexthop-test",
					    .n_mbufs = 8192,
					    .n_workers = 1,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
