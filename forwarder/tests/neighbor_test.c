/* SPDX-License-Identifier: BSD-3-Clause
 * Neighbour states and ageing, IPv4 (ARP) and IPv6 (ND): static entries are
 * never aged nor overwritten; with `set ip neighbor-config ip4|ip6 age S` a
 * dynamic entry older than S is probed (an ARP request or a neighbour
 * solicitation leaves the port) while it keeps forwarding, a reply refreshes
 * it, three unanswered probes remove it and the next packet resolves it
 * afresh; age 0 (VPP's default) never ages. IPv6 packets wait (64 at most per
 * worker) while their next hop is solicited and leave once it answers.
 * `show ip neighbors` / `show ip6 neighbors` give the state and the age.
 * Time is passed to the ageing function, so no test waits for a clock.
 */
#include <rte_cycles.h>

#include "pkt_util.h"

static void __attribute__((unused)) unused_helpers(void)
{
	(void)dropped_under;
}

static const uint8_t nh6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0xff, [15] = 7}; /* 2001:db8:ff::7 */
static const uint8_t nh6_mac[6] = {0x02, 0, 0, 0, 0x77, 0x77};
static const uint8_t dst6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 7, [15] = 1};

static uint64_t
secs(double s)
{
	return (uint64_t)(s * (double)rte_get_tsc_hz());
}

/* The line of `show CMD` naming ip, or "" */
static char *
nbr_line(const char *cmd, const char *ip)
{
	char *all = cli_output(cmd), *p, *e, *line;
	char key[64];

	snprintf(key, sizeof(key), " %s ", ip);
	p = strstr(all, key);
	if (p == NULL) {
		free(all);
		return strdup("");
	}
	while (p > all && p[-1] != '\n')
		p--;
	e = strchr(p, '\n');
	line = strndup(p, e ? (size_t)(e - p) : strlen(p));
	free(all);
	return line;
}

/* How many ARP requests for target leave port1, freed; everything else is freed too. */
static unsigned
arp_requests_out(uint32_t target)
{
	struct rte_mbuf *out[32];
	unsigned n = drain(1, out, 32), k = 0;

	for (unsigned i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);
		uint32_t tip = (uint32_t)f[38] << 24 | (uint32_t)f[39] << 16 |
			       (uint32_t)f[40] << 8 | f[41];

		k += f[12] == 0x08 && f[13] == 0x06 && f[21] == 1 && tip == target &&
		     memcmp(f + 6, &vfwd.ports[1].mac, 6) == 0;
	}
	rte_pktmbuf_free_bulk(out, n);
	drain_free();
	return k;
}

static int
ip4_dynamic_entry_is_probed_refreshed_aged_out_and_resolved_again(void)
{
	const uint32_t ip = RTE_IPV4(10, 0, 1, 20);
	const struct rte_ether_addr mac = {{0x02, 0, 0, 0, 0x20, 0x20}};
	struct pkt_spec s = {.src = HOST0, .dst = ip, .payload = 26};
	uint64_t t;
	char *l;
	int ok = 1;

	CHECK(env_cli("set ip neighbor-config ip4 age 30") == 0, "age 30");
	inject(arp_reply(1, ip, &mac));
	walk();
	drain_free();
	t = rte_rdtsc();
	l = nbr_line("show ip neighbors", "10.0.1.20");
	CHECK(strstr(l, "02:00:00:00:20:20") && strstr(l, " 0s ") && l[strlen(l) - 1] == 'D',
	      "not dynamic, age 0s: '%s'", l);
	free(l);
	fib_neighbors_age(t + secs(10));
	walk();
	CHECK(arp_requests_out(ip) == 0, "probed before its age");
	fib_neighbors_age(t + secs(31));
	walk();
	CHECK(arp_requests_out(ip) == 1, "no probe once aged");
	l = nbr_line("show ip neighbors", "10.0.1.20");
	CHECK(strstr(l, "probe1") != NULL, "state not shown: '%s'", l);
	free(l);
	/* still forwarding while probed */
	{
		struct rte_mbuf *o = forwarded(pkt_make(&s), 1);

		CHECK(o != NULL && memcmp(rte_pktmbuf_mtod(o, void *), &mac, 6) == 0,
		      "not forwarded while probing");
		rte_pktmbuf_free(o);
	}
	inject(arp_reply(1, ip, &mac)); /* the answer refreshes it */
	walk();
	drain_free();
	l = nbr_line("show ip neighbors", "10.0.1.20");
	CHECK(strstr(l, "probe") == NULL && strstr(l, " 0s ") != NULL, "not refreshed: '%s'", l);
	free(l);
	t = rte_rdtsc();
	for (int i = 0; i < 3; i++) { /* three probes, a second apart, unanswered */
		fib_neighbors_age(t + secs(31 + 1.1 * i));
		walk();
		CHECK(arp_requests_out(ip) == 1, "probe %d not sent", i + 1);
	}
	CHECK(fib_neighbors_age(t + secs(31 + 3.3)) == 1, "not removed after 3 probes");
	l = nbr_line("show ip neighbors", "10.0.1.20");
	CHECK(l[0] == '\0', "still there: '%s'", l);
	free(l);
	CHECK(err_get("arp-learn", "ARP neighbor aged out (3 probes unanswered)") == 1, "count");
	/* the next packet resolves it afresh (glean: incomplete, then learned) */
	inject(pkt_make(&s));
	walk();
	CHECK(arp_requests_out(ip) == 1, "no request for the aged-out neighbour");
	l = nbr_line("show ip neighbors", "10.0.1.20");
	CHECK(l[0] && l[strlen(l) - 1] == 'I', "not incomplete: '%s'", l);
	free(l);
	inject(arp_reply(1, ip, &mac));
	walk();
	walk();
	{
		struct rte_mbuf *out[4];
		unsigned n = drain(1, out, 4);

		CHECK(n == 1, "%u held packets left after the reply, want 1", n);
		rte_pktmbuf_free_bulk(out, n);
	}
	CHECK(env_cli("set ip neighbor-config ip4 age 0") == 0, "age 0");
	return ok;
}

static int
static_entries_never_age_and_age_0_never_ages(void)
{
	const uint32_t ip = RTE_IPV4(10, 0, 1, 21);
	const struct rte_ether_addr mac = {{0x02, 0, 0, 0, 0x21, 0x21}};
	const struct rte_ether_addr evil = {{0x02, 0xee, 0, 0, 0, 2}};
	char *l, *c;
	int ok = 1;

	c = cli_output("show ip neighbor-config");
	CHECK(strstr(c, "ip4:\n  limit:1024, age:0") != NULL, "default not age 0:\n%s", c);
	free(c);
	inject(arp_reply(1, ip, &mac));
	inject(arp_reply(1, RTE_IPV4(10, 0, 1, 2), &evil));
	walk();
	drain_free();
	fib_neighbors_age(rte_rdtsc() + secs(100000)); /* age 0: nothing ages */
	walk();
	CHECK(arp_requests_out(ip) == 0, "probed with age 0");
	l = nbr_line("show ip neighbors", "10.0.1.21");
	CHECK(l[0] != '\0', "dynamic entry gone with age 0");
	free(l);
	CHECK(env_cli("set ip neighbor-config ip4 age 1") == 0, "age 1");
	for (int i = 1; i <= 5; i++)
		fib_neighbors_age(rte_rdtsc() + secs(10 * i));
	walk();
	drain_free();
	l = nbr_line("show ip neighbors", "10.0.1.2");
	CHECK(strstr(l, "02:00:00:00:01:02") && strstr(l, " - ") && l[strlen(l) - 1] == 'S',
	      "static entry aged or overwritten: '%s'", l);
	free(l);
	l = nbr_line("show ip neighbors", "10.0.1.21");
	CHECK(l[0] == '\0', "dynamic entry not aged out with age 1: '%s'", l);
	free(l);
	CHECK(env_cli("set ip neighbor-config ip4 age 0") == 0, "age 0");
	return ok;
}

/* An IPv6 UDP frame into port0, 2001:db8::2 -> dst6, hop limit 64, 16 bytes of payload */
static struct rte_mbuf *
pkt6(void)
{
	return pkt6_to(dst6);
}

/* The neighbour advertisement of 2001:db8:ff::7 (solicited, override, target link-layer option) */
static struct rte_mbuf *
na6(void)
{
	return na6_from(nh6, nh6_mac);
}

/* Neighbour solicitations for 2001:db8:ff::7 that left port1 (the rest is freed) */
static unsigned
ns_out(unsigned *others)
{
	struct rte_mbuf *out[80];
	unsigned n = drain(1, out, 80), k = 0;

	*others = 0;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *f = rte_pktmbuf_mtod(out[i], const uint8_t *);
		bool ns = f[12] == 0x86 && f[13] == 0xdd && f[20] == 58 && f[54] == 135 &&
			  memcmp(f + 62, nh6, 16) == 0;

		k += ns;
		if (!ns)
			(*others)++;
	}
	rte_pktmbuf_free_bulk(out, n);
	drain_free();
	return k;
}

static int
ip6_packets_wait_for_their_next_hop_64_at_most(void)
{
	uint64_t full = err_get("ip6-glean", "ip6 packets dropped: pending queue full");
	struct rte_mbuf *out[80];
	unsigned others, n;
	char *l;
	int ok = 1;

	for (int i = 0; i < 70; i++)
		inject(pkt6());
	walk();
	CHECK(ns_out(&others) == 1 && others == 0, "want one NS and nothing else (others %u)",
	      others);
	CHECK(err_get("ip6-glean", "ip6 packets dropped: pending queue full") == full + 6,
	      "pending full counted %lu, want 6",
	      (unsigned long)(err_get("ip6-glean", "ip6 packets dropped: pending queue full") -
			      full));
	l = nbr_line("show ip6 neighbors", "2001:db8:ff::7");
	CHECK(l[0] && l[strlen(l) - 1] == 'I', "not incomplete: '%s'", l);
	free(l);
	inject(na6());
	walk();
	walk();
	n = drain(1, out, 80);
	CHECK(n == 64, "%u held packets left after the NA, want 64", n);
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *g = rte_pktmbuf_mtod(out[i], const uint8_t *);

		CHECK(memcmp(g, nh6_mac, 6) == 0 && g[21] == 63, "packet %u not rewritten", i);
	}
	rte_pktmbuf_free_bulk(out, n);
	l = nbr_line("show ip6 neighbors", "2001:db8:ff::7");
	CHECK(strstr(l, "02:00:00:00:77:77") && l[strlen(l) - 1] == 'D', "not learned: '%s'", l);
	free(l);
	return ok;
}

static int
ip6_dynamic_entry_is_probed_and_aged_out(void)
{
	unsigned others;
	uint64_t t;
	char *l;
	int ok = 1;

	CHECK(env_cli("set ip neighbor-config ip6 age 20") == 0, "age");
	inject(na6());
	walk();
	drain_free();
	t = rte_rdtsc();
	fib6_neighbors_age(t + secs(21));
	walk();
	CHECK(ns_out(&others) == 1, "no probe once aged");
	l = nbr_line("show ip6 neighbors", "2001:db8:ff::7");
	CHECK(strstr(l, "probe1") != NULL, "state: '%s'", l);
	free(l);
	inject(na6()); /* answered: refreshed */
	walk();
	drain_free();
	l = nbr_line("show ip6 neighbors", "2001:db8:ff::7");
	CHECK(strstr(l, "probe") == NULL, "not refreshed: '%s'", l);
	free(l);
	t = rte_rdtsc();
	for (int i = 0; i < 3; i++) {
		fib6_neighbors_age(t + secs(21 + 1.1 * i));
		walk();
		CHECK(ns_out(&others) == 1, "probe %d", i + 1);
	}
	CHECK(fib6_neighbors_age(t + secs(21 + 3.3)) == 1, "not removed");
	l = nbr_line("show ip6 neighbors", "2001:db8:ff::7");
	CHECK(l[0] == '\0', "still there: '%s'", l);
	free(l);
	CHECK(env_cli("set ip neighbor-config ip6 age 0") == 0, "age 0");
	return ok;
}

static int
bad_neighbor_config_is_refused(void)
{
	static const char *const bad[] = {
		"set ip neighbor-config ip5 age 3",	 "set ip neighbor-config ip4 age",
		"set ip neighbor-config ip4 age -1",	 "set ip neighbor-config ip4 limit 0",
		"set ip neighbor-config ip4 limit 5000", "set ip neighbor-config ip4 colour 3",
	};
	int ok = cli_all_refused(bad, RTE_DIM(bad));

	{
		char *c = cli_output("show ip neighbor-config");

		CHECK(strstr(c, "ip4:\n  limit:1024, age:0") != NULL, "changed:\n%s", c);
		free(c);
	}
	return ok;
}

static const char *const cfg[] = {
	"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
	"set interface ip address port0 2001:db8::1/64",
	"set interface ip address port1 2001:db8:ff::1/64",
	"ip route add 2001:db8:7::/48 via 2001:db8:ff::7 port1",
	"set ip icmp-error disable",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(bad_neighbor_config_is_refused),
	GRAPH_TEST(ip4_dynamic_entry_is_probed_refreshed_aged_out_and_resolved_again),
	GRAPH_TEST(static_entries_never_age_and_age_0_never_ages),
	GRAPH_TEST(ip6_packets_wait_for_their_next_hop_64_at_most),
	GRAPH_TEST(ip6_dynamic_entry_is_probed_and_aged_out),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "neighbor-test",
					    .n_mbufs = 8192,
					    .n_workers = 1,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
