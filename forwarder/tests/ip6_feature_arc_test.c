/* SPDX-License-Identifier: BSD-3-Clause
 * The ip6-unicast feature arc: ip6-input -> the port's enabled features ->
 * ip6-lookup, as ip4-unicast runs ip4-input -> features -> ip4-lookup. The
 * example plugin's `example-ip6` feature (drops ICMPv6 but neighbour discovery)
 * is enabled and disabled at run time on port0; frames are built here, not by
 * vfwd. The plugin comes from VFWD_EXAMPLE_PLUGIN (or argv[1]).
 */
#include <unistd.h>

#include "pkt_util.h"

/* pkt_util.h helpers this test does not use */
static void __attribute__((unused)) unused_helpers(void)
{
	(void)pkt_make;
	(void)cli_output;
	(void)arp_reply;
	(void)dropped_under;
}

static const uint8_t host6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};	  /* 2001:db8::2 */
static const uint8_t far6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 9}; /* 2001:db8:1::9 */

/* Ether(host -> port0) / IPv6(2001:db8::2 -> 2001:db8:1::9, hop limit 64) / next header nh
 * with 16 payload bytes, the first being `type` (ICMPv6's type). */
static struct rte_mbuf *
pkt6(uint8_t nh, uint8_t type)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	uint8_t *f = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 16);

	eth_ip6(f, &vfwd.ports[0].mac, &host_mac, 16, nh, 64, host6, far6);
	f[54] = type;
	m->port = vfwd.ports[0].port_id;
	return m;
}

/* Sends m; true when it leaves port1 with its hop limit one lower. */
static int
routed(struct rte_mbuf *m)
{
	struct rte_mbuf *out = forwarded(m, 1);
	int ok = 1;

	CHECK(out != NULL, "not routed out of port1");
	if (out == NULL)
		return 0;
	CHECK(rte_pktmbuf_mtod(out, uint8_t *)[21] == 63, "hop limit %u, want 63",
	      rte_pktmbuf_mtod(out, uint8_t *)[21]);
	rte_pktmbuf_free(out);
	return ok;
}

/* Sends m; true when nothing leaves and example-ip6 counted one drop. */
static int
dropped_by_example6(struct rte_mbuf *m)
{
	uint64_t before = err_get("example-ip6", "icmp6 packets dropped");
	unsigned n;
	int ok = 1;

	inject(m);
	walk();
	n = drain_free();
	CHECK(n == 0, "%u packets left the box", n);
	CHECK(err_get("example-ip6", "icmp6 packets dropped") == before + 1,
	      "example-ip6 counted %lu, want %lu",
	      (unsigned long)err_get("example-ip6", "icmp6 packets dropped"),
	      (unsigned long)before + 1);
	return ok;
}

static int
the_plugin_registers_a_feature_on_each_arc(void)
{
	struct feature_arc *a4 = NULL, *a6 = NULL;
	int ok = 1;

	CHECK(feature_find("example", &a4) >= 0 && a4 == &ip4_unicast_arc,
	      "example is not on ip4-unicast");
	CHECK(feature_find("example-ip6", &a6) >= 0 && a6 == &ip6_unicast_arc,
	      "example-ip6 is not on ip6-unicast");
	return ok;
}

static int
with_no_feature_enabled_ipv6_goes_straight_to_ip6_lookup(void)
{
	int ok = 1;

	ok &= routed(pkt6(17, 0));
	ok &= routed(pkt6(58, 128)); /* ICMPv6 echo request, passing through */
	return ok;
}

static int
example_ip6_drops_icmpv6_and_passes_udp(void)
{
	int ok = 1;

	CHECK(env_cli("set interface feature port0 example-ip6 arc ip6-unicast") == 0, "enable");
	ok &= dropped_by_example6(pkt6(58, 128)); /* echo request */
	ok &= dropped_by_example6(pkt6(58, 1));	  /* destination unreachable */
	ok &= routed(pkt6(17, 0));
	ok &= routed(pkt6(6, 0));
	return ok;
}

static int
example_ip6_passes_neighbour_discovery(void)
{
	uint64_t before = err_get("example-ip6", "icmp6 packets dropped");
	int ok = 1;

	/* a neighbour advertisement to a routed address: not the feature's to drop */
	ok &= routed(pkt6(58, 136));
	CHECK(err_get("example-ip6", "icmp6 packets dropped") == before,
	      "example-ip6 counted neighbour discovery");
	return ok;
}

static int
the_ip4_arc_feature_does_not_see_ipv6(void)
{
	uint64_t before = err_get("example", "icmp packets dropped");
	int ok = 1;

	CHECK(env_cli("set interface feature port0 example-ip6 arc ip6-unicast disable") == 0,
	      "disable example-ip6");
	CHECK(env_cli("set interface feature port0 example arc ip4-unicast") == 0,
	      "enable example");
	ok &= routed(pkt6(58, 128));
	CHECK(err_get("example", "icmp packets dropped") == before, "example counted IPv6");
	CHECK(env_cli("set interface feature port0 example arc ip4-unicast disable") == 0,
	      "disable example");
	return ok;
}

static int
a_feature_is_enabled_on_its_own_arc_only(void)
{
	int ok = 1;

	CHECK(env_cli("set interface feature port0 example-ip6 arc ip4-unicast") != 0,
	      "example-ip6 accepted on ip4-unicast");
	CHECK(env_cli("set interface feature port0 example arc ip6-unicast") != 0,
	      "example accepted on ip6-unicast");
	CHECK(env_cli("set interface feature port0 example-ip6 arc ip7-unicast") != 0,
	      "an unknown arc accepted");
	ok &= routed(pkt6(58, 128)); /* nothing was enabled by the refused commands */
	return ok;
}

static int
disabled_again_icmpv6_is_routed(void)
{
	int ok = 1;

	CHECK(env_cli("set interface feature port0 example-ip6 arc ip6-unicast") == 0, "enable");
	ok &= dropped_by_example6(pkt6(58, 128));
	CHECK(env_cli("set interface feature port0 example-ip6 arc ip6-unicast disable") == 0,
	      "disable");
	ok &= routed(pkt6(58, 128));
	return ok;
}

static const char *const cfg[] = {
	"set interface ip address port0 2001:db8::1/64",
	"set interface ip address port1 2001:db8:ff::1/64",
	"set ip neighbor port0 2001:db8::2 02:00:00:00:00:02",
	"set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02",
	"ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(the_plugin_registers_a_feature_on_each_arc),
	GRAPH_TEST(with_no_feature_enabled_ipv6_goes_straight_to_ip6_lookup),
	GRAPH_TEST(example_ip6_drops_icmpv6_and_passes_udp),
	GRAPH_TEST(example_ip6_passes_neighbour_discovery),
	GRAPH_TEST(the_ip4_arc_feature_does_not_see_ipv6),
	GRAPH_TEST(a_feature_is_enabled_on_its_own_arc_only),
	GRAPH_TEST(disabled_again_icmpv6_is_routed),
};

int
main(int argc, char **argv)
{
	const char *plugin = argc > 1 ? argv[1] : getenv("VFWD_EXAMPLE_PLUGIN");
	const struct graph_env_conf conf = {.name = "ip6-arc-test",
					    .n_mbufs = 4096,
					    .n_workers = 1,
					    .plugin = plugin,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	/* the plugin is a build of this suite (make -C forwarder: plugins/example_plugin.so) */
	if (plugin == NULL || plugin[0] == '\0' || access(plugin, R_OK) != 0) {
		printf("not ok 1 - ip6 feature arc needs the example plugin: %s (make -C forwarder "
		       "builds build/vfwd/VARIANT/plugins/example_plugin.so; give its path as "
		       "argument 1 or VFWD_EXAMPLE_PLUGIN)\n1..1\n",
		       plugin == NULL || plugin[0] == '\0' ? "no path given" : plugin);
		return 1;
	}
	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
