/* SPDX-License-Identifier: BSD-3-Clause
 * Set-up shared by the C tests, the node benchmark and the data-plane fuzzers:
 * the EAL (--no-huge, lcore 0 only), the mbuf pool, two net_ring ports named
 * port0 and port1, and the worker graphs, which the caller walks on its own
 * thread. Frames enqueued on env_rx[p] arrive on port p; what port p sends
 * lands on env_tx[p]. Both ports are routed: port0 10.0.0.1/24, port1
 * 10.0.1.1/24 with the neighbor 10.0.1.2 (02:00:00:00:01:02) behind it; each
 * user adds its own routes and features (graph_env_conf.cfg, or env_cli_all()).
 * graph_test_main() is the main() of a C test on this set-up: one TAP line per test
 * function, the plan, and "not ok 1 - setup" when the set-up fails.
 */
#ifndef VFWD_GRAPH_ENV_H
#define VFWD_GRAPH_ENV_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_arp.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "vfwd_int.h"
#include "test_util.h"

struct graph_env_conf {
	const char *name;   /* argv[0] of the EAL and the stem of its file prefix */
	unsigned n_mbufs;   /* size of vfwd's mbuf pool */
	unsigned n_workers; /* graphs to build, all for this lcore */
	bool mp_tx;	    /* many producers on the env_tx rings (workers share a tx queue) */
	const char *plugin; /* a plugin to load before the graphs are built, or NULL */
	/* port0 from this vdev ("net_af_packet0,iface=veth0,qpairs=2") with port0_rxq rx
	 * queues instead of a net_ring port (env_rx[0] is then unused); NULL: net_ring */
	const char *port0_vdev;
	uint16_t port0_rxq;
	const char *mem_mb;	  /* EAL -m; NULL: 256 */
	void (*before_cfg)(void); /* called after the set-up, before cfg (or NULL) */
	const char *const *cfg;	  /* CLI lines run after the common addresses */
	unsigned n_cfg;
};

static struct rte_ring *env_rx[2], *env_tx[2];
static char env_runtime_dir[512];

/* EAL leaves /var/run/dpdk/<file-prefix> behind; the set-up removes ours at exit. */
static void
env_runtime_dir_remove(void)
{
	char cmd[600];

	if (strstr(env_runtime_dir, "/dpdk/vfwd-") != NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", env_runtime_dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", env_runtime_dir);
	}
}

/* Runs one CLI command; prints the command and its output when it fails. */
static inline int
env_cli(const char *line)
{
	struct vfwd_cli_out out = {0};
	int rc = cli_execute(line, &out);

	if (rc < 0 || out.error) {
		printf("# cli '%s': %.*s", line, (int)out.len, out.buf ? out.buf : "");
		rc = rc < 0 ? rc : -1;
	}
	cli_out_free(&out);
	return rc;
}

/* What a CLI command printed, NUL-terminated (the caller frees it). */
static inline char *
cli_output(const char *line)
{
	struct vfwd_cli_out out = {0};

	cli_execute(line, &out);
	vfwd_cli_printf(&out, "%c", '\0');
	return out.buf;
}

/* 1 when each of n CLI lines is refused (its output starts "error: "); each one that is not
 * is printed with what it answered. */
static inline int
cli_all_refused(const char *const *lines, unsigned n)
{
	int ok = 1;

	for (unsigned i = 0; i < n; i++) {
		char *o = cli_output(lines[i]);

		CHECK(strncmp(o, "error: ", 7) == 0, "'%s' answered: %s", lines[i], o);
		free(o);
	}
	return ok;
}

/* Four walks of worker 0's graph, then the control thread's punt queues (ARP, ND). */
static inline void
walk(void)
{
	for (int i = 0; i < 4; i++)
		graph_walk(vfwd.graph[0]);
	fib_punt_poll();
	fib6_punt_poll();
}

/* A 60-byte Ethernet/IPv4 frame from src to dst (MACs: NULL for zeros), ttl, proto and
 * the IP id given, 26 bytes of zero payload, its header checksum set. */
static inline struct rte_mbuf *
env_ip4(const struct rte_ether_addr *dst_mac, const struct rte_ether_addr *src_mac, uint32_t src,
	uint32_t dst, uint8_t ttl, uint8_t proto, uint16_t id)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;

	if (m == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 60);
	memset(eth, 0, 60);
	if (dst_mac != NULL)
		eth->dst_addr = *dst_mac;
	if (src_mac != NULL)
		eth->src_addr = *src_mac;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = 0x45;
	ip->total_length = RTE_BE16(46);
	ip->packet_id = rte_cpu_to_be_16(id);
	ip->time_to_live = ttl;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(src);
	ip->dst_addr = rte_cpu_to_be_32(dst);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return m;
}

/* A 60-byte ARP frame: op from sha/sip to dst, asking for or answering tip (tha: NULL for
 * zeros). */
static inline struct rte_mbuf *
env_arp(uint16_t op, const struct rte_ether_addr *dst, const struct rte_ether_addr *sha,
	uint32_t sip, const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(vfwd.pool);
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 60);
	struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);

	memset(eth, 0, 60);
	eth->dst_addr = *dst;
	eth->src_addr = *sha;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	arp->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	arp->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	arp->arp_hlen = 6;
	arp->arp_plen = 4;
	arp->arp_opcode = rte_cpu_to_be_16(op);
	arp->arp_data.arp_sha = *sha;
	arp->arp_data.arp_sip = rte_cpu_to_be_32(sip);
	if (tha != NULL)
		arp->arp_data.arp_tha = *tha;
	arp->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	return m;
}

/* Runs each of n CLI commands; stops at the first that fails. */
static inline int
env_cli_all(const char *const *lines, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (env_cli(lines[i]) < 0)
			return -1;
	return 0;
}

/* port0 from a vdev spec "NAME,ARGS" */
static inline int
env_port0_vdev_add(const char *spec, uint16_t nb_rxq)
{
	char name[64];
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);
	uint16_t id;

	if (n >= sizeof(name))
		return -1;
	memcpy(name, spec, n);
	name[n] = '\0';
	if (rte_vdev_init(name, comma ? comma + 1 : "") < 0 ||
	    rte_eth_dev_get_port_by_name(name, &id) < 0) {
		printf("# vdev %s failed\n", spec);
		return -1;
	}
	return port_add_ethdev("port0", id, nb_rxq, 1024, 1024);
}

static inline int
env_ports_add(bool mp_tx, const char *port0_vdev, uint16_t port0_rxq)
{
	for (int p = 0; p < 2; p++) {
		char name[32];
		int id;

		if (p == 0 && port0_vdev != NULL) {
			if (env_port0_vdev_add(port0_vdev, port0_rxq) < 0)
				return -1;
			continue;
		}

		snprintf(name, sizeof(name), "env_rx%d", p);
		env_rx[p] = rte_ring_create(name, 1024, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "env_tx%d", p);
		env_tx[p] =
			rte_ring_create(name, 1024, 0, mp_tx ? 0 : RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (env_rx[p] == NULL || env_tx[p] == NULL)
			return -1;
		snprintf(name, sizeof(name), "net_ring_env%d", p);
		id = rte_eth_from_rings(name, &env_rx[p], 1, &env_tx[p], 1, 0);
		snprintf(name, sizeof(name), "port%d", p);
		if (id < 0 || port_add_ethdev(name, (uint16_t)id, 1, 1024, 1024) < 0)
			return -1;
	}
	return 0;
}

/* Returns 0, or -1 after printing why on a "# " line. */
static inline int
graph_env_setup(const struct graph_env_conf *conf)
{
	static char prefix[64];
	char *eal[] = {(char *)conf->name,
		       "--no-huge",
		       "-m",
		       (char *)(conf->mem_mb ? conf->mem_mb : "256"),
		       "--no-pci",
		       "-l",
		       "0",
		       "--no-telemetry",
		       "--log-level=*:error",
		       "--file-prefix",
		       prefix,
		       NULL};
	static const char *const common[] = {
		"set interface ip address port0 10.0.0.1/24",
		"set interface ip address port1 10.0.1.1/24",
		"set ip neighbor port1 10.0.1.2 02:00:00:00:01:02",
	};
	char err[256];

	snprintf(prefix, sizeof(prefix), "vfwd-%s-%d", conf->name, getpid());
	if (rte_eal_init((int)RTE_DIM(eal) - 1, eal) < 0) {
		printf("# rte_eal_init failed\n");
		return -1;
	}
	snprintf(env_runtime_dir, sizeof(env_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(env_runtime_dir_remove);
	cli_builtin_register();
	if (mbuf_meta_init() < 0 || vfwd_pool_create(conf->n_mbufs) < 0 ||
	    env_ports_add(conf->mp_tx, conf->port0_vdev, conf->port0_rxq) < 0) {
		printf("# mbuf pool or net_ring ports failed\n");
		return -1;
	}
	vfwd.n_workers = conf->n_workers;
	port_rx_burst = PORT_RX_BURST_MAX; /* the tests walk once per 256 packets */
	for (unsigned w = 0; w < conf->n_workers; w++)
		vfwd.worker_lcore[w] = rte_lcore_id();
	if (conf->plugin != NULL && plugin_load_one(conf->plugin, err, sizeof(err)) < 0)
		printf("# %s\n", err);
	if (vfwd_dataplane_init(err, sizeof(err)) < 0) {
		printf("# %s\n", err);
		return -1;
	}
	if (env_cli_all(common, RTE_DIM(common)) < 0)
		return -1;
	if (conf->before_cfg != NULL)
		conf->before_cfg();
	return conf->cfg != NULL ? env_cli_all(conf->cfg, conf->n_cfg) : 0;
}

/* One test function of a C test: returns 1 when every CHECK held. */
struct graph_test {
	const char *name;
	int (*fn)(void);
};
/* clang-format off */
#define GRAPH_TEST(f) {#f, f}
/* clang-format on */

/* The main() of a C test: the set-up, each test as one TAP line, the plan; the exit
 * status. */
static inline int
graph_test_main(const struct graph_env_conf *conf, const struct graph_test *tests, unsigned n)
{
	if (graph_env_setup(conf) < 0) {
		printf("not ok 1 - setup\n1..1\n");
		return 1;
	}
	for (unsigned i = 0; i < n; i++)
		tap_result(tests[i].fn(), tests[i].name);
	printf("1..%d\n", tap_n);
	rte_eal_cleanup();
	return tap_failed ? 1 : 0;
}

#endif
