/* SPDX-License-Identifier: BSD-3-Clause
 * Node unit tests: crafted packets enter port0 (a net_ring ethdev), the
 * worker graph is walked on this thread, and what leaves port0/port1 and the
 * per-node counters are checked.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_arp.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "vfwd_int.h"
#include "graph_env.h"
#include "test_util.h"

static const struct rte_ether_addr nbr1_mac = {{0x02, 0, 0, 0, 0x01, 0x02}};

/* Ether(02:..:01 -> port0) / IPv4(16.0.0.1 -> dst, ttl) / UDP or ICMP, 64-byte frame */
static struct rte_mbuf *
pkt_ip4(uint32_t dst, uint8_t ttl, uint8_t proto)
{
	static const struct rte_ether_addr host = {{0x02, 0, 0, 0, 0, 0x02}};

	return env_ip4(&vfwd.ports[0].mac, &host, RTE_IPV4(16, 0, 0, 1), dst, ttl, proto, 7);
}

static struct rte_ipv4_hdr *
ip_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
}

/* The header checksum equals a full recomputation (not only "sums to 0xffff"). */
static int
cksum_exact(const struct rte_ipv4_hdr *ip)
{
	struct rte_ipv4_hdr copy = *ip;

	copy.hdr_checksum = 0;
	return rte_ipv4_cksum(&copy) == ip->hdr_checksum;
}

static void
inject(struct rte_mbuf *m)
{
	m->port = vfwd.ports[0].port_id; /* net_ring leaves mbuf->port to the sender */
	if (rte_ring_enqueue(env_rx[0], m) < 0)
		rte_pktmbuf_free(m);
}

static unsigned
drain(int port, struct rte_mbuf **out, unsigned max)
{
	return rte_ring_dequeue_burst(env_tx[port], (void **)out, max, NULL);
}

static void
free_all(struct rte_mbuf **m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

/* Sends m, expects nothing out and `reason` of `node` counted once. */
static int
dropped_under(struct rte_mbuf *m, const char *node, const char *reason)
{
	uint64_t before = err_get(node, reason);
	struct rte_mbuf *out[8];
	unsigned n0, n1;
	int ok = 1;

	CHECK(m != NULL, "no mbuf");
	inject(m);
	walk();
	n0 = drain(0, out, 8);
	free_all(out, n0);
	n1 = drain(1, out, 8);
	free_all(out, n1);
	CHECK(n0 + n1 == 0, "%u packets left the box", n0 + n1);
	CHECK(err_get(node, reason) == before + 1, "%s/%s counted %lu, want %lu", node, reason,
	      (unsigned long)err_get(node, reason), (unsigned long)before + 1);
	return ok;
}

static int
routed_packet_leaves_with_ttl_minus_one_valid_checksum_and_rewritten_macs(void)
{
	struct rte_mbuf *out[8];
	struct rte_ether_hdr *eth;
	unsigned n;
	int ok = 1;

	inject(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, IPPROTO_UDP));
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "got %u packets on port1", n);
	if (n != 1)
		return 0;
	eth = rte_pktmbuf_mtod(out[0], struct rte_ether_hdr *);
	CHECK(ip_of(out[0])->time_to_live == 63, "ttl %u", ip_of(out[0])->time_to_live);
	CHECK(cksum_exact(ip_of(out[0])), "checksum %04x wrong", ip_of(out[0])->hdr_checksum);
	CHECK(rte_is_same_ether_addr(&eth->dst_addr, &nbr1_mac), "dst mac not the neighbour's");
	CHECK(rte_is_same_ether_addr(&eth->src_addr, &vfwd.ports[1].mac), "src mac not port1's");
	CHECK(out[0]->pkt_len == 60, "length changed to %u", out[0]->pkt_len);
	free_all(out, n);
	return ok;
}

static int
checksum_stays_valid_for_every_ttl_and_id(void)
{
	struct rte_mbuf *out[8];
	int ok = 1;

	for (unsigned ttl = 2; ttl <= 255 && ok; ttl += 3) {
		for (unsigned id = 0; id < 65536 && ok; id += 4099) {
			struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 1, 2, 3), (uint8_t)ttl, 17);
			unsigned n;

			ip_of(m)->packet_id = rte_cpu_to_be_16((uint16_t)id);
			ip_of(m)->hdr_checksum = 0;
			ip_of(m)->hdr_checksum = rte_ipv4_cksum(ip_of(m));
			inject(m);
			walk();
			n = drain(1, out, 8);
			CHECK(n == 1, "ttl %u id %u: %u packets", ttl, id, n);
			if (n == 1)
				CHECK(cksum_exact(ip_of(out[0])), "ttl %u id %u: bad checksum", ttl,
				      id);
			free_all(out, n);
		}
	}
	return ok;
}

static int
ttl_one_is_dropped_and_counted(void)
{
	return dropped_under(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 1, 17), "ip4-rewrite", "ip4 ttl <= 1");
}

static int
ttl_zero_is_dropped_and_counted(void)
{
	return dropped_under(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 0, 17), "ip4-rewrite", "ip4 ttl <= 1");
}

static int
bad_checksum_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	ip_of(m)->hdr_checksum ^= 0x0101;
	return dropped_under(m, "ip4-input", "ip4 bad checksum");
}

static int
bad_ihl_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	ip_of(m)->version_ihl = 0x44;
	ip_of(m)->hdr_checksum = 0;
	return dropped_under(m, "ip4-input", "ip4 bad header length");
}

static int
ihl_past_the_frame_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	ip_of(m)->version_ihl = 0x4f; /* 60-byte header in a 60-byte frame */
	return dropped_under(m, "ip4-input", "ip4 bad header length");
}

static int
bad_version_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	ip_of(m)->version_ihl = 0x65;
	return dropped_under(m, "ip4-input", "ip4 version != 4");
}

static int
truncated_ip_header_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	rte_pktmbuf_trim(m, 60 - 24);
	return dropped_under(m, "ip4-input", "ip4 truncated header");
}

static int
ip_length_beyond_frame_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	ip_of(m)->total_length = RTE_BE16(1000);
	ip_of(m)->hdr_checksum = 0;
	ip_of(m)->hdr_checksum = rte_ipv4_cksum(ip_of(m));
	return dropped_under(m, "ip4-input", "ip4 length > l2 length");
}

static int
runt_frame_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	rte_pktmbuf_trim(m, 60 - 10);
	return dropped_under(m, "ethernet-input", "frame too short");
}

static int
unknown_ethertype_is_dropped_and_counted(void)
{
	struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, 17);

	rte_pktmbuf_mtod(m, struct rte_ether_hdr *)->ether_type = RTE_BE16(0x88b5);
	return dropped_under(m, "ethernet-input", "unknown ethertype");
}

static int
no_route_is_dropped_and_counted(void)
{
	return dropped_under(pkt_ip4(RTE_IPV4(99, 0, 0, 1), 64, 17), "ip4-lookup", "no route");
}

/* The packet waits in ip4-arp while an ARP request for its next hop goes out. */
static int
unresolved_neighbor_is_counted_and_arped_for(void)
{
	uint64_t before = err_get("ip4-rewrite", "unresolved neighbor");
	struct rte_mbuf *out[8];
	const struct rte_arp_hdr *arp;
	unsigned n;
	int ok = 1;

	inject(pkt_ip4(RTE_IPV4(77, 0, 0, 1), 64, 17));
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "%u packets on port1, want one ARP request", n);
	if (n == 1) {
		arp = rte_pktmbuf_mtod_offset(out[0], const struct rte_arp_hdr *, RTE_ETHER_HDR_LEN);
		CHECK(arp->arp_opcode == RTE_BE16(RTE_ARP_OP_REQUEST) &&
			      arp->arp_data.arp_tip == RTE_BE32(RTE_IPV4(10, 0, 1, 77)),
		      "not a request for the next hop");
	}
	free_all(out, n);
	CHECK(err_get("ip4-rewrite", "unresolved neighbor") == before + 1, "not counted");
	return ok;
}

static int
packet_to_interface_address_is_not_forwarded(void)
{
	return dropped_under(pkt_ip4(RTE_IPV4(10, 0, 0, 1), 64, 17), "ip4-local",
			     "ip4 local destination (not forwarded)");
}

static struct rte_mbuf *
pkt_arp(uint16_t op, uint32_t sip, uint32_t tip, const struct rte_ether_addr *sha)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

	return env_arp(op, &bcast, sha, sip, NULL, tip);
}

static int
arp_request_for_interface_address_is_answered(void)
{
	const struct rte_ether_addr sha = {{0x02, 0, 0, 0, 0, 0x09}};
	struct rte_mbuf *out[8];
	struct rte_arp_hdr *arp;
	unsigned n;
	int ok = 1;

	inject(pkt_arp(RTE_ARP_OP_REQUEST, RTE_IPV4(10, 0, 0, 9), RTE_IPV4(10, 0, 0, 1), &sha));
	walk();
	n = drain(0, out, 8);
	CHECK(n == 1, "%u replies on port0", n);
	if (n != 1)
		return 0;
	arp = rte_pktmbuf_mtod_offset(out[0], struct rte_arp_hdr *, RTE_ETHER_HDR_LEN);
	CHECK(arp->arp_opcode == RTE_BE16(RTE_ARP_OP_REPLY), "not a reply");
	CHECK(arp->arp_data.arp_sip == RTE_BE32(RTE_IPV4(10, 0, 0, 1)), "wrong sender ip");
	CHECK(rte_is_same_ether_addr(&arp->arp_data.arp_sha, &vfwd.ports[0].mac), "wrong sha");
	CHECK(rte_is_same_ether_addr(&arp->arp_data.arp_tha, &sha), "wrong tha");
	free_all(out, n);
	return ok;
}

static int
arp_reply_teaches_a_neighbor_and_resolves_the_route(void)
{
	const struct rte_ether_addr sha = {{0x02, 0, 0, 0, 0x07, 0x07}};
	struct rte_mbuf *out[8];
	unsigned n;
	int ok = 1;

	CHECK(env_cli("ip route add 66.0.0.0/8 via 10.0.0.7 port0") == 0, "route");
	inject(pkt_ip4(RTE_IPV4(66, 0, 0, 1), 64, 17)); /* held; an ARP request goes out */
	walk();
	n = drain(0, out, 8);
	CHECK(n == 1, "%u packets on port0 before learning, want the ARP request", n);
	free_all(out, n);
	inject(pkt_arp(RTE_ARP_OP_REPLY, RTE_IPV4(10, 0, 0, 7), RTE_IPV4(10, 0, 0, 1), &sha));
	walk();
	inject(pkt_ip4(RTE_IPV4(66, 0, 0, 1), 64, 17));
	walk();
	n = drain(0, out, 8);
	CHECK(n == 2, "%u packets on port0 after learning (the held one and the new one)", n);
	for (unsigned i = 0; i < n; i++)
		CHECK(rte_is_same_ether_addr(
			      &rte_pktmbuf_mtod(out[i], struct rte_ether_hdr *)->dst_addr, &sha),
		      "not rewritten to the learned mac");
	free_all(out, n);
	return ok;
}

static int
example_feature_drops_icmp_and_counts_it(void)
{
	struct rte_mbuf *out[8];
	unsigned n;
	int ok = 1;

	if (feature_find("example", NULL) < 0) {
		printf("# example plugin not loaded\n");
		return 0;
	}
	CHECK(env_cli("set interface feature port0 example arc ip4-unicast") == 0, "enable");
	ok &= dropped_under(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, IPPROTO_ICMP), "example",
			    "icmp packets dropped");
	inject(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, IPPROTO_UDP));
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "udp through example: %u packets", n);
	free_all(out, n);
	CHECK(env_cli("set interface feature port0 example arc ip4-unicast disable") == 0,
	      "disable");
	inject(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 64, IPPROTO_ICMP));
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "icmp with example disabled: %u packets", n);
	free_all(out, n);
	return ok;
}

static int
l2_xconnect_passes_frames_untouched(void)
{
	struct rte_mbuf *out[8], *m = pkt_ip4(RTE_IPV4(99, 9, 9, 9), 1, 17);
	uint8_t copy[60];
	unsigned n;
	int ok = 1;

	memcpy(copy, rte_pktmbuf_mtod(m, void *), 60);
	CHECK(env_cli("set interface l2 xconnect port0 port1") == 0, "xconnect");
	inject(m);
	walk();
	n = drain(1, out, 8);
	CHECK(n == 1, "%u frames", n);
	if (n == 1)
		CHECK(memcmp(copy, rte_pktmbuf_mtod(out[0], void *), 60) == 0, "frame changed");
	free_all(out, n);
	CHECK(env_cli("set interface l3 port0") == 0, "l3");
	return ok;
}

static int
mixed_vector_splits_by_next_node(void)
{
	struct rte_mbuf *out[300];
	uint64_t nr = err_get("ip4-lookup", "no route"), ttl = err_get("ip4-rewrite", "ip4 ttl <= 1");
	unsigned n;
	int ok = 1;

	for (int i = 0; i < 200; i++) {
		if (i % 10 == 3)
			inject(pkt_ip4(RTE_IPV4(99, 0, 0, 1), 64, 17));
		else if (i % 10 == 7)
			inject(pkt_ip4(RTE_IPV4(48, 0, 0, 1), 1, 17));
		else
			inject(pkt_ip4(RTE_IPV4(48, 0, 0, (uint8_t)i), 64, 17));
	}
	walk();
	n = drain(1, out, 300);
	CHECK(n == 160, "%u forwarded, want 160", n);
	for (unsigned i = 0; i + 1 < n; i++)
		CHECK(ip_of(out[i])->dst_addr != ip_of(out[i + 1])->dst_addr || true, "order");
	free_all(out, n);
	CHECK(err_get("ip4-lookup", "no route") == nr + 20, "no route");
	CHECK(err_get("ip4-rewrite", "ip4 ttl <= 1") == ttl + 20, "ttl");
	return ok;
}

static int
merged_vectors_larger_than_a_burst_are_forwarded(void)
{
	static struct rte_mbuf *out[600];
	unsigned n = 0, k;
	int ok = 1;

	for (int p = 0; p < 2; p++) {
		for (int i = 0; i < 256; i++) {
			struct rte_mbuf *m = pkt_ip4(RTE_IPV4(48, 0, 1, (uint8_t)i), 64, 17);

			m->port = vfwd.ports[p].port_id;
			if (rte_ring_enqueue(env_rx[p], m) < 0)
				rte_pktmbuf_free(m);
		}
	}
	walk();
	while ((k = drain(1, out + n, 600 - n)) > 0)
		n += k;
	CHECK(n == 512, "%u of 512 forwarded", n);
	free_all(out, n);
	return ok;
}

static int
random_frames_never_crash_and_are_accounted(void)
{
	struct rte_mbuf *out[300];
	unsigned n, sent = 0, left = 0;
	int ok = 1;

	srand(42);
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 64; i++) {
			struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
			uint16_t len = (uint16_t)(rand() % 200);
			uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, len);

			for (uint16_t k = 0; k < len; k++)
				d[k] = (uint8_t)rand();
			if (len > 14 && rand() % 2) {
				d[12] = 0x08;
				d[13] = (uint8_t)(rand() % 4 ? 0x00 : 0x06);
				if (len > 15)
					d[14] = (uint8_t)(0x40 | (rand() % 16));
			}
			inject(m);
			sent++;
		}
		walk();
		for (int p = 0; p < 2; p++) {
			n = drain(p, out, 300);
			left += n;
			free_all(out, n);
		}
	}
	CHECK(rte_mempool_avail_count(vfwd.pool) + rte_mempool_in_use_count(vfwd.pool) > 0, "pool");
	printf("# %u random frames, %u left the box\n", sent, left);
	return ok;
}

static int
show_runtime_has_vpp_layout(void)
{
	char *s = cli_output("show runtime");
	int ok = 1;

	CHECK(strstr(s, "Thread 1 vfwd_wk_0 (lcore ") != NULL, "thread line");
	CHECK(strstr(s, "Time ") != NULL && strstr(s, ", average vectors/node ") != NULL,
	      "time line");
	CHECK(strstr(s, "  vector rates in ") != NULL, "rates line");
	CHECK(strstr(s, "             Name                 State         Calls          Vectors"
			"        Suspends         Clocks       Vectors/Call  ") != NULL,
	      "header:\n%s", s);
	CHECK(strstr(s, "\nip4-lookup                       active    ") != NULL, "row");
	free(s);
	s = cli_output("show errors");
	CHECK(strstr(s, "   Count                    Node                  Reason\n") == s,
	      "errors header: %s", s);
	CHECK(strstr(s, "               ip4-rewrite              ip4 ttl <= 1\n") != NULL,
	      "errors row: %s", s);
	free(s);
	return ok;
}

static int
unknown_command_is_an_error_and_changes_nothing(void)
{
	char *before = cli_output("show ip fib"), *after;
	int ok = 1;

	CHECK(env_cli("ip route frobnicate 1.2.3.0/24") < 0, "accepted a bad command");
	CHECK(env_cli("ip route add 1.2.3.0/33 via 10.0.1.2 port1") < 0, "accepted /33");
	CHECK(env_cli("ip route add 1.2.3.0/24 via 10.0.1.2 port9") < 0, "accepted port9");
	CHECK(env_cli("set ip neighbor port1 10.0.1.3 zz:00:00:00:00:00") < 0, "accepted bad mac");
	after = cli_output("show ip fib");
	CHECK(strcmp(before, after) == 0, "fib changed:\n%s\n%s", before, after);
	free(before);
	free(after);
	return ok;
}

static int
setup(const char *plugin)
{
	const struct graph_env_conf conf = {
		.name = "nodes-test", .n_mbufs = 8192, .n_workers = 1, .plugin = plugin};
	static const char *const cfg[] = {
		"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
		"ip route add 77.0.0.0/8 via 10.0.1.77 port1",
		"set ip icmp-error disable", /* these tests count drops; icmp_test the errors */
	};

	if (graph_env_setup(&conf) < 0)
		return -1;
	return env_cli_all(cfg, RTE_DIM(cfg));
}

int
main(int argc, char **argv)
{
	const char *plugin = argc > 1 ? argv[1] : getenv("VFWD_EXAMPLE_PLUGIN");

	if (setup(plugin) < 0) {
		printf("not ok 1 - setup\n");
		return 1;
	}
	TEST(routed_packet_leaves_with_ttl_minus_one_valid_checksum_and_rewritten_macs);
	TEST(checksum_stays_valid_for_every_ttl_and_id);
	TEST(ttl_one_is_dropped_and_counted);
	TEST(ttl_zero_is_dropped_and_counted);
	TEST(bad_checksum_is_dropped_and_counted);
	TEST(bad_ihl_is_dropped_and_counted);
	TEST(ihl_past_the_frame_is_dropped_and_counted);
	TEST(bad_version_is_dropped_and_counted);
	TEST(truncated_ip_header_is_dropped_and_counted);
	TEST(ip_length_beyond_frame_is_dropped_and_counted);
	TEST(runt_frame_is_dropped_and_counted);
	TEST(unknown_ethertype_is_dropped_and_counted);
	TEST(no_route_is_dropped_and_counted);
	TEST(unresolved_neighbor_is_counted_and_arped_for);
	TEST(packet_to_interface_address_is_not_forwarded);
	TEST(arp_request_for_interface_address_is_answered);
	TEST(arp_reply_teaches_a_neighbor_and_resolves_the_route);
	TEST(example_feature_drops_icmp_and_counts_it);
	TEST(l2_xconnect_passes_frames_untouched);
	TEST(mixed_vector_splits_by_next_node);
	TEST(merged_vectors_larger_than_a_burst_are_forwarded);
	TEST(random_frames_never_crash_and_are_accounted);
	TEST(show_runtime_has_vpp_layout);
	TEST(unknown_command_is_an_error_and_changes_nothing);
	printf("1..%d\n", tap_n);
	rte_eal_cleanup();
	return tap_failed ? 1 : 0;
}
