/* SPDX-License-Identifier: BSD-3-Clause
 * RFC 1812 conformance of the IPv4 path, one test per class of the issue:
 * frames for other hosts, ARP learning rules, martian addresses, MTU,
 * inconsistent mbuf chains, IP options, trailing bytes, host-bound TTL, and
 * interface address rules. Packets are built here byte by byte (not by vfwd),
 * enter port0 or port1 (net_ring ethdevs), the graph is walked on this thread,
 * and what leaves and the per-reason counters are checked.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_arp.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "vfwd_int.h"
#include "graph_env.h"
#include "test_util.h"

#include "pkt_util.h"

/* ---- class 1: frames for other hosts ---- */

static int
frame_for_another_hosts_mac_is_dropped_as_l3_mac_mismatch(void)
{
	static const uint8_t other[6] = {0x02, 0, 0, 0, 0x99, 0x99};
	struct pkt_spec s = {.dst_mac = other, .src = HOST0, .dst = NET48, .payload = 26};

	return dropped_under(pkt_make(&s), "ethernet-input", "l3 mac mismatch");
}

static int
broadcast_and_multicast_frames_with_unicast_ip_are_not_routed(void)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x05};
	struct pkt_spec s = {.dst_mac = bcast, .src = HOST0, .dst = NET48, .payload = 26};
	int ok = 1;

	ok &= dropped_under(pkt_make(&s), "ethernet-input", "ip4 in l2 broadcast/multicast frame");
	s.dst_mac = mcast;
	ok &= dropped_under(pkt_make(&s), "ethernet-input", "ip4 in l2 broadcast/multicast frame");
	return ok;
}

static int
ports_are_not_promiscuous(void)
{
	int ok = 1;

	for (unsigned i = 0; i < vfwd.n_ports; i++)
		CHECK(rte_eth_promiscuous_get(vfwd.ports[i].port_id) == 0, "%s is promiscuous",
		      vfwd.ports[i].name);
	return ok;
}

/* ---- class 2: ARP learning ---- */

static int
unsolicited_arp_reply_never_overwrites_a_static_neighbor(void)
{
	const struct rte_ether_addr evil = {{0x02, 0xee, 0xee, 0xee, 0xee, 0xee}};
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .payload = 26};
	struct rte_mbuf *m;
	int ok = 1;

	inject(arp_reply(1, RTE_IPV4(10, 0, 1, 2), &evil));
	walk();
	drain_free();
	CHECK(err_get("arp-learn", "ARP would overwrite a static neighbor (ignored)") == 1,
	      "not counted");
	m = forwarded(pkt_make(&s), 1);
	CHECK(m != NULL, "not forwarded");
	if (m == NULL)
		return 0;
	CHECK(rte_is_same_ether_addr(&rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->dst_addr,
				     &nbr1_mac),
	      "traffic now goes to the attacker's MAC");
	rte_pktmbuf_free(m);
	return ok;
}

static int
arp_reply_claiming_the_subnet_broadcast_is_not_learned(void)
{
	const struct rte_ether_addr evil = {{0x02, 0xee, 0, 0, 0, 0x01}};
	struct pkt_spec s = {.src = HOST0, .dst = RTE_IPV4(10, 0, 1, 255), .payload = 26};
	char *nb;
	int ok = 1;

	inject(arp_reply(1, RTE_IPV4(10, 0, 1, 255), &evil));
	walk();
	drain_free();
	nb = cli_output("show ip neighbors");
	CHECK(strstr(nb, "10.0.1.255") == NULL, "learned the broadcast address:\n%s", nb);
	free(nb);
	/* and a directed broadcast to it is not forwarded as unicast */
	ok &= dropped_under(pkt_make(&s), "ip4-lookup", "ip4 directed broadcast (not forwarded)");
	return ok;
}

static int
arp_flood_never_locks_out_configuration(void)
{
	unsigned dyn = 0;
	char *nb;
	int ok = 1;

	CHECK(env_cli("set interface ip address port0 10.2.0.1/16") == 0, "/16");
	for (unsigned i = 0; i < 5000; i++) {
		struct rte_ether_addr mac = {{0x02, 0xaa, 0, 0, (uint8_t)(i >> 8), (uint8_t)i}};

		inject(arp_reply(0, RTE_IPV4(10, 2, 0, 0) + 2 + i, &mac));
		if (i % 200 == 199) {
			walk();
			drain_free();
		}
	}
	walk();
	drain_free();
	nb = cli_output("show ip neighbors");
	for (char *p = nb; (p = strstr(p, " D\n")) != NULL; p++)
		dyn++;
	free(nb);
	printf("# %u dynamic neighbours after 5000 replies\n", dyn);
	CHECK(dyn > 0 && dyn <= 1024, "%u dynamic entries", dyn);
	CHECK(env_cli("set ip neighbor port1 10.0.1.9 02:00:00:00:01:09") == 0,
	      "static neighbour refused after the flood");
	CHECK(env_cli("ip route add 55.0.0.0/8 via 10.0.1.10 port1") == 0,
	      "route via a new next hop refused after the flood");
	CHECK(env_cli("ip route del 55.0.0.0/8") == 0, "del");
	CHECK(env_cli("set ip neighbor port1 10.0.1.9 02:00:00:00:01:09 del") == 0, "del nbr");
	CHECK(env_cli("set interface ip address port0 10.0.0.1/24") == 0, "/24");
	return ok;
}

/* ---- class 3: special addresses ---- */

static int
martian_destinations_are_not_forwarded_even_under_a_covering_route(void)
{
	static const uint32_t dst[] = {RTE_IPV4(255, 255, 255, 255), RTE_IPV4(224, 0, 0, 5),
				       RTE_IPV4(239, 1, 1, 1), RTE_IPV4(127, 0, 0, 1),
				       RTE_IPV4(0, 1, 2, 3), RTE_IPV4(240, 0, 0, 1)};
	int ok = 1;

	CHECK(env_cli("ip route add 0.0.0.0/1 via 10.0.1.2 port1") == 0, "0/1");
	CHECK(env_cli("ip route add 128.0.0.0/1 via 10.0.1.2 port1") == 0, "128/1");
	for (unsigned i = 0; i < RTE_DIM(dst); i++) {
		struct pkt_spec s = {.src = HOST0, .dst = dst[i], .payload = 26};

		ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 martian destination address");
	}
	CHECK(env_cli("ip route del 0.0.0.0/1") == 0 && env_cli("ip route del 128.0.0.0/1") == 0,
	      "del");
	return ok;
}

static int
martian_and_own_sources_are_not_forwarded(void)
{
	static const uint32_t src[] = {RTE_IPV4(0, 0, 0, 0), RTE_IPV4(127, 0, 0, 1),
				       RTE_IPV4(224, 0, 0, 1), RTE_IPV4(255, 255, 255, 255),
				       RTE_IPV4(240, 1, 1, 1)};
	struct pkt_spec s = {.dst = NET48, .payload = 26};
	int ok = 1;

	for (unsigned i = 0; i < RTE_DIM(src); i++) {
		s.src = src[i];
		ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 martian source address");
	}
	s.src = RTE_IPV4(10, 0, 1, 1); /* port1's address, arriving on port0 */
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 source is a local address");
	s.src = RTE_IPV4(10, 0, 0, 1);
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 source is a local address");
	return ok;
}

/* ---- class 4: MTU ---- */

static int
df_packet_over_the_mtu_is_dropped_and_counted(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .frag = RTE_IPV4_HDR_DF_FLAG,
			     .payload = 1481}; /* 1501-byte packet */
	int ok = 1;

	CHECK(env_cli("set interface mtu packet 1500 port1") == 0, "mtu");
	ok &= dropped_under(pkt_make(&s), "ip4-rewrite", "ip4 MTU exceeded and DF set");
	s.payload = 1480; /* exactly the MTU: forwarded whole */
	{
		struct rte_mbuf *m = forwarded(pkt_make(&s), 1);

		CHECK(m != NULL && m->pkt_len == 1514, "1500-byte packet not forwarded whole");
		rte_pktmbuf_free(m);
	}
	return ok;
}

/* A 9000-byte packet with a copied option and a non-copied one, in a mbuf
 * chain, leaves a 1500-MTU port as RFC 791 fragments that reassemble to it. */
static int
packet_over_the_mtu_without_df_is_fragmented_per_rfc791(void)
{
	/* security (copied, type 130, len 4 here as a stand-in) + record route (not copied) */
	static const uint8_t opts[12] = {0x82, 4, 0, 0, 7, 7, 4, 0, 0, 0, 0, 1};
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .opts = opts, .opt_len = 12,
			     .payload = 9000};
	static uint8_t orig[16384], got[16384];
	struct rte_mbuf *out[16];
	unsigned n, flen = frame_build(&s, orig), covered = 0;
	int ok = 1;

	CHECK(env_cli("set interface mtu 1500 port1") == 0, "mtu");
	inject(pkt_make(&s));
	walk();
	n = drain(1, out, 16);
	CHECK(n == 7, "%u fragments, want 7 (1464 + 6 x 1472 + 704... )", n);
	memset(got, 0, sizeof(got));
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);
		const uint8_t *ip = f + 14;
		unsigned ihl = (ip[0] & 15) * 4u, tot = (unsigned)(ip[2] << 8 | ip[3]);
		unsigned fo = (unsigned)((ip[6] & 0x1f) << 8 | ip[7]) * 8, mf = ip[6] & 0x20;

		CHECK(out[i]->nb_segs == 1 && out[i]->pkt_len == 14 + tot, "fragment %u length", i);
		CHECK(tot <= 1500, "fragment %u is %u bytes", i, tot);
		CHECK(ip_csum(ip, ihl) == 0, "fragment %u checksum", i);
		CHECK(ip[8] == 63, "fragment %u ttl %u", i, ip[8]);
		CHECK(i == 0 ? ihl == 32 : ihl == 24, "fragment %u ihl %u", i, ihl);
		CHECK(i == 0 || (ip[20] == 0x82 && ip[21] == 4), "copied option missing in %u", i);
		CHECK((i + 1 < n) == (mf != 0), "fragment %u MF %u", i, mf);
		CHECK(i + 1 == n || (tot - ihl) % 8 == 0, "fragment %u data not a multiple of 8", i);
		CHECK(memcmp(f, &nbr1_mac, 6) == 0, "fragment %u dst mac", i);
		memcpy(got + fo, ip + ihl, tot - ihl);
		covered += tot - ihl;
	}
	CHECK(covered == 9000, "fragments carry %u bytes, want 9000", covered);
	CHECK(memcmp(got, orig + 14 + 32, 9000) == 0, "reassembled payload differs");
	CHECK(flen == 14 + 32 + 9000, "frame %u", flen);
	rte_pktmbuf_free_bulk(out, n);
	CHECK(err_get("ip4-frag", "packets fragmented") >= 1, "not counted");
	return ok;
}

/* ---- class 5: pkt_len larger than the mbuf chain ---- */

static int
pkt_len_beyond_the_mbuf_chain_is_dropped_not_sent(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .payload = 3000};
	struct rte_mbuf *m = pkt_make(&s);
	int ok = 1;

	m->pkt_len = 70000; /* what DPDK 22.11's net_pcap reports for a 70000-byte frame */
	ok &= dropped_under(m, "ethernet-input", "mbuf chain shorter than packet length");
	s.payload = 26;
	m = pkt_make(&s);
	m->pkt_len = 4464 + 65536;
	ok &= dropped_under(m, "ethernet-input", "mbuf chain shorter than packet length");
	CHECK(env_cli("set interface l2 xconnect port0 port1") == 0, "xconnect");
	m = pkt_make(&s);
	m->pkt_len = 70000;
	ok &= dropped_under(m, "l2-xconnect", "mbuf chain shorter than packet length");
	CHECK(env_cli("set interface l3 port0") == 0, "l3");
	return ok;
}

/* ---- class 7: options, trailing bytes, host-bound TTL ---- */

static int
malformed_ip_options_are_dropped_and_counted(void)
{
	static const uint8_t past_header[4] = {0x44, 12, 5, 0}; /* timestamp, length 12 > 4 */
	static const uint8_t len_one[4] = {0x07, 1, 0, 0};	 /* record route, length 1 */
	static const uint8_t bad_ptr[8] = {0x07, 7, 2, 0, 0, 0, 0, 0}; /* pointer 2 < 4 */
	static const uint8_t nops[4] = {1, 1, 1, 0};
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .opts = past_header, .opt_len = 4,
			     .payload = 26};
	struct rte_mbuf *m;
	int ok = 1;

	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 bad options");
	s.opts = len_one;
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 bad options");
	s.opts = bad_ptr;
	s.opt_len = 8;
	ok &= dropped_under(pkt_make(&s), "ip4-input", "ip4 bad options");
	s.opts = nops;
	s.opt_len = 4;
	m = forwarded(pkt_make(&s), 1);
	CHECK(m != NULL, "well-formed options not forwarded");
	rte_pktmbuf_free(m);
	return ok;
}

static int
bytes_after_the_ip_total_length_are_trimmed(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = NET48, .payload = 10, .frame = 60};
	struct rte_mbuf *m = forwarded(pkt_make(&s), 1);
	int ok = 1;

	CHECK(m != NULL, "not forwarded");
	if (m == NULL)
		return 0;
	CHECK(m->pkt_len == 14 + 30 && m->data_len == 44, "left the box with %u bytes, want 44",
	      m->pkt_len);
	rte_pktmbuf_free(m);
	s.payload = 1400; /* a chained packet with 600 bytes of trailer */
	s.frame = 14 + 1420 + 600;
	m = forwarded(pkt_make(&s), 1);
	CHECK(m != NULL && m->pkt_len == 1434 && m->nb_segs == 1, "chained trailer not trimmed");
	rte_pktmbuf_free(m);
	return ok;
}

static int
ttl_one_packet_for_the_router_is_not_counted_as_ttl_expired(void)
{
	struct pkt_spec s = {.src = HOST0, .dst = RTE_IPV4(10, 0, 0, 1), .ttl = 1, .payload = 26};
	uint64_t ttl = err_get("ip4-rewrite", "ip4 ttl <= 1");
	int ok = 1;

	ok &= dropped_under(pkt_make(&s), "ip4-local", "ip4 local destination (not forwarded)");
	CHECK(err_get("ip4-rewrite", "ip4 ttl <= 1") == ttl, "counted as ttl expired");
	s.dst = NET48; /* forwarded TTL 1: expired */
	ok &= dropped_under(pkt_make(&s), "ip4-rewrite", "ip4 ttl <= 1");
	return ok;
}

/* ---- class 8: interface addresses ---- */

static int
another_interfaces_address_is_refused_and_its_routes_stay(void)
{
	char *before = cli_output("show ip fib"), *after;
	int ok = 1;

	CHECK(env_cli("set interface ip address port1 10.0.0.1/24") < 0, "port0's address taken");
	CHECK(env_cli("set interface ip address port1 10.0.0.9/16") < 0, "overlap accepted");
	CHECK(env_cli("set interface ip address port1 10.0.0.1/24 del") < 0,
	      "deleted an address port1 does not have");
	after = cli_output("show ip fib");
	CHECK(strcmp(before, after) == 0, "fib changed:\n%s\n---\n%s", before, after);
	CHECK(strstr(after, "10.0.0.1/32") != NULL && strstr(after, "local port0") != NULL,
	      "port0's local route gone:\n%s", after);
	free(before);
	free(after);
	return ok;
}

static int
special_addresses_are_refused_as_interface_addresses(void)
{
	static const char *const bad[] = {"0.0.0.0/8", "0.1.2.3/24", "127.0.0.1/8",
					  "224.0.0.1/24", "240.0.0.1/8", "255.255.255.255/32",
					  "10.9.9.0/24", "10.9.9.255/24"};
	char cmd[96];
	int ok = 1;

	for (unsigned i = 0; i < RTE_DIM(bad); i++) {
		snprintf(cmd, sizeof(cmd), "set interface ip address port1 %s", bad[i]);
		CHECK(env_cli(cmd) < 0, "accepted %s", bad[i]);
	}
	CHECK(vfwd.ports[1].ip4 == RTE_IPV4(10, 0, 1, 1), "port1's address changed");
	return ok;
}

static int
setup(void)
{
	const struct graph_env_conf conf = {.name = "router-test", .n_mbufs = 8192, .n_workers = 1};
	static const char *const cfg[] = {
		"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
		"set ip icmp-error disable", /* icmp_test covers the errors */
	};

	if (graph_env_setup(&conf) < 0)
		return -1;
	return env_cli_all(cfg, RTE_DIM(cfg));
}

int
main(void)
{
	unsigned avail;

	if (setup() < 0) {
		printf("not ok 1 - setup\n1..1\n");
		return 1;
	}
	avail = rte_mempool_avail_count(vfwd.pool);
	TEST(frame_for_another_hosts_mac_is_dropped_as_l3_mac_mismatch);
	TEST(broadcast_and_multicast_frames_with_unicast_ip_are_not_routed);
	TEST(ports_are_not_promiscuous);
	TEST(unsolicited_arp_reply_never_overwrites_a_static_neighbor);
	TEST(arp_reply_claiming_the_subnet_broadcast_is_not_learned);
	TEST(arp_flood_never_locks_out_configuration);
	TEST(martian_destinations_are_not_forwarded_even_under_a_covering_route);
	TEST(martian_and_own_sources_are_not_forwarded);
	TEST(df_packet_over_the_mtu_is_dropped_and_counted);
	TEST(packet_over_the_mtu_without_df_is_fragmented_per_rfc791);
	TEST(pkt_len_beyond_the_mbuf_chain_is_dropped_not_sent);
	TEST(malformed_ip_options_are_dropped_and_counted);
	TEST(bytes_after_the_ip_total_length_are_trimmed);
	TEST(ttl_one_packet_for_the_router_is_not_counted_as_ttl_expired);
	TEST(another_interfaces_address_is_refused_and_its_routes_stay);
	TEST(special_addresses_are_refused_as_interface_addresses);
	{
		int ok = 1;

		drain_free();
		/* the mbufs given pkt_len 70000 were freed with it: their count is intact */
		CHECK(rte_mempool_avail_count(vfwd.pool) == avail, "%u mbufs leaked",
		      avail - rte_mempool_avail_count(vfwd.pool));
		tap_result(ok, "no_mbuf_leaks");
	}
	printf("1..%d\n", tap_n);
	rte_eal_cleanup();
	return tap_failed ? 1 : 0;
}
