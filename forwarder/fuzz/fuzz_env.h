/* SPDX-License-Identifier: BSD-3-Clause
 * Shared set-up for the data-plane fuzzers: the test graph environment
 * (tests/graph_env.h) with the example plugin, a small config, and a walk that
 * leaves no frame behind.
 */
#ifndef VFWD_FUZZ_ENV_H
#define VFWD_FUZZ_ENV_H

#include "../tests/graph_env.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Runs a command and throws away what it printed. */
static inline void
fz_cli(const char *line)
{
	struct vfwd_cli_out out = {0};

	cli_execute(line, &out);
	cli_out_free(&out);
}

static void
fz_drain(void)
{
	struct rte_mbuf *m[64];
	unsigned n;

	for (int p = 0; p < 2; p++)
		while ((n = rte_ring_dequeue_burst(env_tx[p], (void **)m, 64, NULL)) > 0)
			rte_pktmbuf_free_bulk(m, n);
}

/* Walks until both rx rings are empty (an input may hold more frames than
 * one rx burst takes), then twice more for what the last burst left in flight.
 */
static void
fz_walk(void)
{
	for (int i = 0; i < 64 && rte_ring_count(env_rx[0]) + rte_ring_count(env_rx[1]) > 0; i++) {
		graph_walk(vfwd.graph[0]);
		fz_drain();
	}
	for (int i = 0; i < 2; i++)
		graph_walk(vfwd.graph[0]);
	fib_punt_poll();
	fib6_punt_poll();
	graph_walk(vfwd.graph[0]); /* ip4-arp-pending releases what resolved */
	fz_drain();
	/* the resolution timers: a second on, the requests are repeated; three, the packets
	 * still held are given up (ICMP errors, which may be held in turn) */
	nbr_clock_offset += rte_get_tsc_hz();
	graph_walk(vfwd.graph[0]);
	fz_drain();
	nbr_clock_offset += 2 * rte_get_tsc_hz();
	graph_walk(vfwd.graph[0]);
	ip4_arp_pending_flush(); /* and the rest go, so every mbuf is back */
	ip6_nd_pending_flush();
	fz_drain();
}

/* Routed port0 with the example features (ip4-unicast, ip6-unicast); frames
 * received on port1 take the l2-xconnect path back out of port0. */
static int
fz_setup(void)
{
	const struct graph_env_conf conf = {.name = "fuzz",
					    .n_mbufs = 4096,
					    .n_workers = 1,
					    .plugin = getenv("VFWD_EXAMPLE_PLUGIN")};
	static const char *const cfg[] = {
		"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
		/* unresolved: the ARP glean path and its held packets */
		"ip route add 0.0.0.0/0 via 10.0.1.9 port1",
		"set interface mtu 576 port1", /* ip4-frag and fragmentation needed */
		"set interface ip address port0 2001:db8::1/64",
		"set interface ip address port1 2001:db8:ff::1/64",
		"set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02",
		"ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1",
		"ip route add ::/0 via 2001:db8:ff::9 port1",
		"set interface feature port0 example arc ip4-unicast",
		"set interface feature port0 example-ip6 arc ip6-unicast",
		"set interface l2 xconnect port1 port0",
	};

	if (graph_env_setup(&conf) < 0)
		return -1;
	return env_cli_all(cfg, RTE_DIM(cfg));
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (fz_setup() < 0) {
		fflush(stdout);
		abort();
	}
	return 0;
}

#endif
