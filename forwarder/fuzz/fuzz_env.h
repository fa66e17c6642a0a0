/* SPDX-License-Identifier: BSD-3-Clause
 * Shared set-up for the data-plane fuzzers: EAL with --no-huge, two net_ring
 * ports, the worker graph walked on the fuzzer's thread, a small config.
 */
#ifndef VFWD_FUZZ_ENV_H
#define VFWD_FUZZ_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "vfwd_int.h"

static struct rte_ring *fz_rx[2], *fz_tx[2];
static char fz_runtime_dir[512];

static void
fz_runtime_dir_remove(void)
{
	char cmd[600];

	if (strstr(fz_runtime_dir, "/dpdk/vfwd-fuzz-") != NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", fz_runtime_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", fz_runtime_dir);
	}
}

static void
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
		while ((n = rte_ring_dequeue_burst(fz_tx[p], (void **)m, 64, NULL)) > 0)
			rte_pktmbuf_free_bulk(m, n);
}

/* Walks until both rx rings are empty (an input may hold more frames than
 * one rx burst takes), then twice more for what the last burst left in flight.
 */
static void
fz_walk(void)
{
	for (int i = 0; i < 64 && rte_ring_count(fz_rx[0]) + rte_ring_count(fz_rx[1]) > 0; i++) {
		rte_graph_walk(vfwd.graph[0]);
		fz_drain();
	}
	for (int i = 0; i < 2; i++)
		rte_graph_walk(vfwd.graph[0]);
	fib_punt_poll();
	fz_drain();
}

static int
fz_setup(void)
{
	static char prefix[64];
	char *eal[] = {"fuzz",
		       "--no-huge",
		       "-m",
		       "256",
		       "--no-pci",
		       "-l",
		       "0",
		       "--no-telemetry",
		       "--log-level=*:error",
		       "--file-prefix",
		       prefix,
		       NULL};
	char err[256];
	const char *plugin = getenv("VFWD_EXAMPLE_PLUGIN");

	snprintf(prefix, sizeof(prefix), "vfwd-fuzz-%d", getpid());
	if (rte_eal_init(11, eal) < 0)
		return -1;
	snprintf(fz_runtime_dir, sizeof(fz_runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(fz_runtime_dir_remove);
	cli_builtin_register();
	if (mbuf_meta_init() < 0 || vfwd_pool_create(4096) < 0)
		return -1;
	for (int p = 0; p < 2; p++) {
		char name[32];
		int id;

		snprintf(name, sizeof(name), "frx%d", p);
		fz_rx[p] = rte_ring_create(name, 1024, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "ftx%d", p);
		fz_tx[p] = rte_ring_create(name, 1024, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "net_ring_f%d", p);
		id = rte_eth_from_rings(name, &fz_rx[p], 1, &fz_tx[p], 1, 0);
		snprintf(name, sizeof(name), "port%d", p);
		if (id < 0 || port_add_ethdev(name, (uint16_t)id, 1, 1024, 1024) < 0)
			return -1;
	}
	vfwd.n_workers = 1;
	vfwd.worker_lcore[0] = rte_lcore_id();
	if (plugin && plugin_load_one(plugin, err, sizeof(err)) < 0)
		fprintf(stderr, "%s\n", err);
	if (vfwd_dataplane_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	fz_cli("set interface ip address port0 10.0.0.1/24");
	fz_cli("set interface ip address port1 10.0.1.1/24");
	fz_cli("set ip neighbor port1 10.0.1.2 02:00:00:00:01:02");
	fz_cli("ip route add 48.0.0.0/8 via 10.0.1.2 port1");
	fz_cli("ip route add 0.0.0.0/0 via 10.0.1.3 port1");
	fz_cli("set interface feature port0 example arc ip4-unicast");
	/* frames received on port1 take the l2-xconnect path back out of port0 */
	fz_cli("set interface l2 xconnect port1 port0");
	return 0;
}

#endif
