/* SPDX-License-Identifier: BSD-3-Clause
 * Micro-benchmark (run by `make bench`, not a test): vectors of BURST (default 256) 64-byte
 * IPv4/UDP packets walk the real graph from a net_ring port, through vfwd's own walk
 * (graph_walk(), as its workers do); for each node, and for the whole walk ("walk"), the
 * clocks/packet of every walk are recorded and the median and minimum over the walks
 * printed. The minimum filters out preemption on a shared machine.
 *   nodes_bench [example_plugin.so] [walks] [ip4|ip6|ip4-2m] [BURST]
 * BURST 64 is vfwd's default rx-burst (`dpdk { rx-burst N }`).
 * ip4 (the default): 198.18.0.1 -> 198.18.1.x over 2 routes (one connected);
 * ip6: 2001:db8::2 -> 2001:db8:1::x through ip6-input, ip6-lookup, ip6-rewrite;
 * ip4-2m: CSIT's ip4scale2m (2,000,000 /32 routes from 20.0.0.0 via one next
 * hop), each packet to a random one of them (compare ip4-lookup with ip4's).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "vfwd_int.h"
#include "graph_env.h"

#define BURST_MAX 256
#define MAX_TRACKED 32
#define N_2M 2000000u
#define N_RANDOM (1u << 20)

enum bench_mode { MODE_IP4, MODE_IP6, MODE_IP4_2M };
static enum bench_mode mode;
static uint32_t *random_dst; /* ip4-2m: destinations, host order */
static unsigned random_next;

static void
fill6(struct rte_mbuf *m, unsigned i)
{
	static const uint8_t src[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 2};
	struct rte_ether_hdr *eth;
	struct rte_ipv6_hdr *ip;

	rte_pktmbuf_reset(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 62);
	memset(eth, 0, 62);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip = (struct rte_ipv6_hdr *)(eth + 1);
	ip->vtc_flow = RTE_BE32(0x60000000);
	ip->payload_len = RTE_BE16(8);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, src, 16);
	ip->dst_addr[5] = 1; /* 2001:db8:1::x */
	ip->dst_addr[15] = (uint8_t)(1 + i % 250);
	m->port = vfwd.ports[0].port_id;
}

static void
fill(struct rte_mbuf *m, unsigned i)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;

	if (mode == MODE_IP6) {
		fill6(m, i);
		return;
	}
	rte_pktmbuf_reset(m);
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(m, 60);
	memset(eth, 0, 60);
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = 0x45;
	ip->total_length = RTE_BE16(46);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = RTE_BE32(RTE_IPV4(198, 18, 0, 1));
	if (mode == MODE_IP4_2M)
		ip->dst_addr = rte_cpu_to_be_32(random_dst[random_next++ % N_RANDOM]);
	else
		ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(198, 18, 1, 1 + i % 250));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	m->port = vfwd.ports[0].port_id;
}

/* one walk of the graph, as a worker does it (a function of its own, so that callgrind
 * counts the walk's instructions: the walk itself is inlined) */
static __rte_noinline void
bench_walk(struct rte_graph *g)
{
	graph_walk(g);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* CSIT's ip4scale2m through the CLI, and a table of random destinations among them */
static int
routes_2m_add(void)
{
	char line[96];
	uint64_t t0 = rte_rdtsc();

	for (uint32_t i = 0; i < N_2M; i++) {
		uint32_t a = RTE_IPV4(20, 0, 0, 0) + i;

		snprintf(line, sizeof(line), "ip route add %u.%u.%u.%u/32 via 10.0.1.2 port1",
			 a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
		if (env_cli(line) < 0)
			return -1;
	}
	printf("# ip4scale2m: %u routes added in %.2f s\n", N_2M,
	       (double)(rte_rdtsc() - t0) / (double)rte_get_tsc_hz());
	random_dst = malloc(N_RANDOM * sizeof(*random_dst));
	if (random_dst == NULL)
		return -1;
	srand(19);
	for (unsigned i = 0; i < N_RANDOM; i++)
		random_dst[i] = RTE_IPV4(20, 0, 0, 0) +
				(uint32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % N_2M);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *plugin = argc > 1 && argv[1][0] ? argv[1] : NULL;
	const char *mode_name = argc > 3 ? argv[3] : "ip4";
	const struct graph_env_conf conf = {.name = "nodes-bench",
					    .n_mbufs = 4096,
					    .n_workers = 1,
					    .plugin = plugin,
					    .mem_mb = strcmp(mode_name, "ip4-2m") ? NULL : "1536"};
	static const char *const cfg[] = {
		"ip route add 198.18.1.0/24 via 10.0.1.2 port1",
		"set interface ip address port0 2001:db8::1/64",
		"set interface ip address port1 2001:db8:ff::1/64",
		"set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02",
		"ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1",
	};
	unsigned walks = argc > 2 ? (unsigned)atoi(argv[2]) : 3000;
	static struct rte_mbuf *pkts[BURST_MAX];
	unsigned burst = argc > 4 ? (unsigned)atoi(argv[4]) : BURST_MAX;
	double *walk_samples;
	struct rte_node *tracked[MAX_TRACKED];
	double *samples[MAX_TRACKED];
	unsigned n_tracked = 0;
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	if (strcmp(mode_name, "ip6") == 0) {
		mode = MODE_IP6;
	} else if (strcmp(mode_name, "ip4-2m") == 0) {
		mode = MODE_IP4_2M;
		vfwd.conf.ip4_max_routes = 2100000;
		vfwd.conf.ip4_tbl8s = 16384;
	} else if (strcmp(mode_name, "ip4") != 0) {
		fprintf(stderr, "nodes_bench: mode ip4, ip6 or ip4-2m, not '%s'\n", mode_name);
		return 2;
	}
	if (burst < 1 || burst > BURST_MAX) {
		fprintf(stderr, "nodes_bench: BURST 1-%u, not %u\n", BURST_MAX, burst);
		return 2;
	}
	if (graph_env_setup(&conf) < 0 || env_cli_all(cfg, RTE_DIM(cfg)) < 0)
		return 1;
	port_rx_burst = (uint16_t)burst;
	if (mode == MODE_IP4_2M && routes_2m_add() < 0)
		return 1;
	printf("# mode %s\n", mode_name);
	if (plugin != NULL && env_cli("set interface feature port0 example arc ip4-unicast") < 0)
		return 1;
	rte_graph_foreach_node(count, off, vfwd.graph[0], node)
	{
		if (n_tracked < MAX_TRACKED && strcmp(node->name, "port1-rx") != 0) {
			tracked[n_tracked] = node;
			samples[n_tracked++] = calloc(walks, sizeof(double));
		}
	}
	walk_samples = calloc(walks, sizeof(double));
	if (walk_samples == NULL || rte_pktmbuf_alloc_bulk(vfwd.pool, pkts, burst) < 0)
		return 1;
	for (unsigned w = 0; w < walks; w++) {
		uint64_t c0[MAX_TRACKED], o0[MAX_TRACKED], t0;
		unsigned n;

		for (unsigned i = 0; i < burst; i++)
			fill(pkts[i], i);
		rte_ring_enqueue_bulk(env_rx[0], (void **)pkts, burst, NULL);
		for (unsigned k = 0; k < n_tracked; k++) {
			c0[k] = tracked[k]->total_cycles;
			o0[k] = tracked[k]->total_objs;
		}
		t0 = rte_rdtsc();
		bench_walk(vfwd.graph[0]);
		walk_samples[w] = (double)(rte_rdtsc() - t0) / burst;
		for (unsigned k = 0; k < n_tracked; k++) {
			uint64_t o = tracked[k]->total_objs - o0[k];

			samples[k][w] =
				o ? (double)(tracked[k]->total_cycles - c0[k]) / (double)o : -1;
		}
		n = rte_ring_dequeue_burst(env_tx[1], (void **)pkts, burst, NULL);
		if (n != burst) {
			fprintf(stderr, "walk %u: %u of %u packets forwarded\n", w, n, burst);
			return 1;
		}
	}
	printf("%-20s %10s %10s   (clocks/packet over %u walks of %u packets)\n", "node", "median",
	       "min", walks, burst);
	qsort(walk_samples, walks, sizeof(double), cmp_double);
	printf("%-20s %10.1f %10.1f\n", "walk", walk_samples[walks / 2], walk_samples[0]);
	for (unsigned k = 0; k < n_tracked; k++) {
		double *s = samples[k];
		unsigned m = 0;

		for (unsigned w = 0; w < walks; w++)
			if (s[w] >= 0)
				s[m++] = s[w];
		if (m == 0)
			continue;
		qsort(s, m, sizeof(double), cmp_double);
		printf("%-20s %10.1f %10.1f\n", tracked[k]->name, s[m / 2], s[0]);
	}
	return 0;
}
