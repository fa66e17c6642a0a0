/* SPDX-License-Identifier: BSD-3-Clause
 * Graph set-up: per-port edges, one rte_graph per worker lcore, and the
 * worker loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "edge.h"
#include "feature.h"
#include "graph.h"
#include "rx_mode.h"
#include "state.h"

int
graph_nodes_setup(void)
{
	char out[RTE_NODE_NAMESIZE];
	int rc;

	rc = port_nodes_register_all();
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		struct port *p = &vfwd.ports[i];

		snprintf(out, sizeof(out), "%s-output", p->name);
		rc = edge_port_output(p->port_id, out);
		if (rc < 0)
			return rc;
	}
	return feature_arc_finalize();
}

/* Spreads the rx queues of all ports over the workers, round robin. */
static void
rxq_assign(void)
{
	unsigned k = 0;

	memset(rxq_worker, -1, sizeof(rxq_worker));
	for (unsigned i = 0; i < vfwd.n_ports; i++)
		for (unsigned q = 0; q < vfwd.ports[i].nb_rxq; q++)
			rxq_worker[i][q] = (int8_t)(k++ % vfwd.n_workers);
}

int
graphs_create(void)
{
	const char *patterns[MAX_PORTS * 2 + 2];
	char names[MAX_PORTS][RTE_NODE_NAMESIZE];
	struct rte_graph_param prm;
	char gname[RTE_GRAPH_NAMESIZE];

	rxq_assign();
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		uint16_t n = 0;

		for (unsigned i = 0; i < vfwd.n_ports; i++) {
			bool mine = false;

			for (unsigned q = 0; q < vfwd.ports[i].nb_rxq; q++)
				mine |= rxq_worker[i][q] == (int)w;
			if (!mine)
				continue;
			snprintf(names[n], sizeof(names[n]), "%s-rx", vfwd.ports[i].name);
			patterns[n] = names[n];
			n++;
		}
		vfwd.graph[w] = NULL;
		if (n > 0) {
			patterns[n++] = "ip4-arp-pending"; /* releases packets held for ARP */
			patterns[n++] = "ip6-nd-pending";  /* ... and for neighbour discovery */
		}
		if (n == 0) {
			RTE_LOG(WARNING, USER1, "worker %u (lcore %u) has no rx queue; idle\n", w,
				vfwd.worker_lcore[w]);
			continue;
		}
		memset(&prm, 0, sizeof(prm));
		prm.socket_id = (int)rte_lcore_to_socket_id(vfwd.worker_lcore[w]);
		prm.nb_node_patterns = n;
		prm.node_patterns = patterns;
		snprintf(gname, sizeof(gname), "vfwd_wk_%u", w);
		vfwd.cur_worker = (int)w;
		vfwd.graph_id[w] = rte_graph_create(gname, &prm);
		if (vfwd.graph_id[w] == RTE_GRAPH_ID_INVALID) {
			RTE_LOG(ERR, USER1, "rte_graph_create(%s): %s\n", gname,
				rte_strerror(rte_errno));
			return -rte_errno ? -rte_errno : -EINVAL;
		}
		vfwd.graph[w] = rte_graph_lookup(gname);
	}
	vfwd.cur_worker = 0;
	return 0;
}

static int
worker_main(void *arg)
{
	unsigned w = (unsigned)(uintptr_t)arg;
	struct rte_graph *g = vfwd.graph[w];
	uint64_t loops = 0;

	if (g == NULL)
		return 0;
	rx_mode_worker_start(w);
	while (!__atomic_load_n(&vfwd.quit, __ATOMIC_RELAXED)) {
		graph_walk(g);
		if ((++loops & 0x3ff) == 0)
			__atomic_store_n(&vfwd.loops[w], loops, __ATOMIC_RELAXED);
		rx_mode_after_walk(w);
	}
	return 0;
}

int
workers_launch(void)
{
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		int rc = rte_eal_remote_launch(worker_main, (void *)(uintptr_t)w,
					       vfwd.worker_lcore[w]);

		if (rc < 0)
			return rc;
	}
	return 0;
}

void
workers_stop(void)
{
	__atomic_store_n(&vfwd.quit, true, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
}
