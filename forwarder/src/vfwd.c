/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd start-up: startup file -> EAL -> ports -> plugins -> graphs -> workers,
 * then the main lcore serves the CLI until SIGINT/SIGTERM.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_ring.h>

#include "cli.h"
#include "conf.h"
#include "error.h"
#include "feature.h"
#include "fib.h"
#include "fib6.h"
#include "graph.h"
#include "icmp_error.h"
#include "nbr.h"
#include "plugins.h"
#include "port.h"
#include "runtime.h"
#include "startup.h"
#include "state.h"
#include "trace.h"

/* Every subsystem's commands, through vfwd_cli_register() as plugins add theirs. */
void
cli_builtin_register(void)
{
	fib_cli_register();
	feature_cli_register();
	xconnect_cli_register();
	port_cli_register();
	icmp_error_cli_register();
	runtime_cli_register();
	err_cli_register();
	plugin_cli_register();
	cli_help_register();
	trace_cli_register();
}

static void
on_signal(int sig)
{
	RTE_SET_USED(sig);
	__atomic_store_n(&vfwd.quit, true, __ATOMIC_RELAXED);
}

/* Builds the EAL argument vector from the startup file. */
static int
eal_args_build(const struct vfwd_conf *conf, char *store, size_t store_len, char **argv, int max)
{
	char *p = store, *end = store + store_len;
	int argc = 0;
	bool any_dev = false;

#define ARG(...)                                                                                   \
	do {                                                                                       \
		int n_ = snprintf(p, (size_t)(end - p), __VA_ARGS__);                              \
		if (n_ < 0 || p + n_ + 1 > end || argc + 1 >= max)                                 \
			return -E2BIG;                                                             \
		argv[argc++] = p;                                                                  \
		p += n_ + 1;                                                                       \
	} while (0)

	ARG("vfwd");
	{
		char lcores[512];
		int n = snprintf(lcores, sizeof(lcores), "%d", conf->main_core);

		for (unsigned i = 0; i < conf->n_workers && n > 0 && (size_t)n < sizeof(lcores);
		     i++)
			n += snprintf(lcores + n, sizeof(lcores) - (size_t)n, ",%u",
				      conf->workers[i]);
		ARG("-l");
		ARG("%s", lcores);
		ARG("--main-lcore");
		ARG("%d", conf->main_core);
	}
	for (unsigned i = 0; i < conf->n_ports; i++) {
		if (conf->ports[i].is_vdev) {
			ARG("--vdev");
		} else {
			ARG("-a");
			any_dev = true;
		}
		ARG("%s", conf->ports[i].devargs);
	}
	if (!any_dev)
		ARG("--no-pci");
	{
		char tmp[sizeof(conf->eal_args)], *save = NULL;

		snprintf(tmp, sizeof(tmp), "%s", conf->eal_args);
		for (char *w = strtok_r(tmp, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			ARG("%s", w);
	}
#undef ARG
	argv[argc] = NULL;
	return argc;
}

static int
ports_probe(const struct vfwd_conf *conf, char *err, size_t errlen)
{
	for (unsigned i = 0; i < conf->n_ports; i++) {
		const struct port_conf *pc = &conf->ports[i];
		char name[PATH_LEN], *comma;
		uint16_t id;
		int rc;

		snprintf(name, sizeof(name), "%s", pc->devargs);
		comma = strchr(name, ',');
		if (comma)
			*comma = '\0';
		if (rte_eth_dev_get_port_by_name(name, &id) != 0) {
			snprintf(err, errlen, "%s:%d: device '%s' did not probe as an ethdev",
				 conf->file, pc->line, name);
			return -ENODEV;
		}
		rc = port_add_ethdev(pc->name, id, pc->nb_rxq, pc->nb_rxd, pc->nb_txd);
		if (rc < 0) {
			snprintf(err, errlen, "%s:%d: cannot add port %s: %s", conf->file, pc->line,
				 pc->name, strerror(-rc));
			return rc;
		}
		if (pc->has_mac) {
			struct port *p = &vfwd.ports[vfwd.n_ports - 1];

			memcpy(p->hw_addr.addr_bytes, pc->mac, sizeof(pc->mac));
			p->has_hw_addr = true;
		}
	}
	return 0;
}

/* Everything after EAL init and port probing; shared with the tests. */
int
vfwd_dataplane_init(char *err, size_t errlen)
{
	int rc;

	vfwd.tsc_hz = rte_get_tsc_hz();
	rc = fib_init();
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the FIB: %s", strerror(-rc));
		return rc;
	}
	rc = fib6_init();
	if (rc < 0) {
		snprintf(err, errlen, "cannot create the ip6 FIB: %s", strerror(-rc));
		return rc;
	}
	vfwd.punt6_ring = rte_ring_create_elem("vfwd_punt6", sizeof(struct nd_learn_msg), 1024,
					       (int)rte_socket_id(), RING_F_SC_DEQ);
	if (vfwd.punt6_ring == NULL) {
		snprintf(err, errlen, "cannot create the ND punt ring");
		return -ENOMEM;
	}
	vfwd.punt_ring = rte_ring_create_elem("vfwd_punt", sizeof(struct arp_learn_msg), 4096,
					      (int)rte_socket_id(), RING_F_SC_DEQ);
	if (vfwd.punt_ring == NULL) {
		snprintf(err, errlen, "cannot create the punt ring");
		return -ENOMEM;
	}
	vfwd.probe4_ring = rte_ring_create_elem("vfwd_probe4", sizeof(struct nbr_probe_msg), 1024,
						(int)rte_socket_id(), RING_F_SP_ENQ);
	vfwd.probe6_ring = rte_ring_create_elem("vfwd_probe6", sizeof(struct nbr_probe_msg), 1024,
						(int)rte_socket_id(), RING_F_SP_ENQ);
	if (vfwd.probe4_ring == NULL || vfwd.probe6_ring == NULL) {
		snprintf(err, errlen, "cannot create the neighbour probe rings");
		return -ENOMEM;
	}
	rc = ports_start();
	if (rc < 0) {
		snprintf(err, errlen, "cannot start ports: %s", strerror(-rc));
		return rc;
	}
	rc = graph_nodes_setup();
	if (rc < 0) {
		snprintf(err, errlen, "cannot set up graph nodes: %s", strerror(-rc));
		return rc;
	}
	rc = graphs_create();
	if (rc < 0) {
		snprintf(err, errlen, "cannot create worker graphs: %s", strerror(-rc));
		return rc;
	}
	runtime_start();
	return 0;
}

/*
 * The mbuf pool. With hugepages it is rte_pktmbuf_pool_create()'s. Without them (EAL
 * --no-huge, as the host benchmarks and tests run) memory comes in 4 KiB pages, and a pool
 * whose objects must not cross a page puts one 2.3 KiB mbuf in each page: every mbuf then
 * starts at the same offset in its page, so the mbuf headers of a vector share one set of
 * the L1 cache (12 ways) and their packet data another, and each node's pass over a
 * vector misses L1 on every packet. When IOVAs are virtual addresses (what the EAL picks
 * without hugepages), memory that is contiguous to the CPU is contiguous to any device
 * too, so objects may cross pages: they are then packed at the mempool's own stride, an
 * odd number of cache lines, and spread over all sets.
 */
int
vfwd_pool_create(unsigned n)
{
	const unsigned cache = 256;
	const uint16_t data_room = RTE_MBUF_DEFAULT_BUF_SIZE;
	struct rte_pktmbuf_pool_private priv = {.mbuf_data_room_size = data_room};
	struct rte_mempool *mp;
	int rc;

	if (rte_eal_has_hugepages() || rte_eal_iova_mode() != RTE_IOVA_VA) {
		vfwd.pool = rte_pktmbuf_pool_create("vfwd_mbufs", n, cache, 0, data_room,
						    (int)rte_socket_id());
		return vfwd.pool ? 0 : -rte_errno;
	}
	mp = rte_mempool_create_empty("vfwd_mbufs", n, sizeof(struct rte_mbuf) + data_room, cache,
				      sizeof(priv), (int)rte_socket_id(),
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return -rte_errno;
	rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (rc == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		rc = rte_mempool_populate_default(mp);
		rc = rc < 0 ? rc : 0;
	}
	if (rc < 0) {
		rte_mempool_free(mp);
		return rc;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	vfwd.pool = mp;
	return 0;
}

static void
usage(void)
{
	fprintf(stderr, "usage: vfwd -c STARTUP-FILE\n"
			"       vfwd --check -c STARTUP-FILE   (parse the file and exit)\n"
			"       vfwd --version\n");
}

VFWD_API int
vfwd_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"config", required_argument, NULL, 'c'},
		{"check", no_argument, NULL, 'k'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct vfwd_conf *conf = &vfwd.conf;
	char err[512], store[4096], *eal_argv[128];
	const char *file = NULL;
	bool check = false;
	int c, n, rc;

	while ((c = getopt_long(argc, argv, "c:kVh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			file = optarg;
			break;
		case 'k':
			check = true;
			break;
		case 'V':
			printf("vfwd %s (%s)\n", VFWD_VERSION, vfwd_install_dir());
			return 0;
		default:
			usage();
			return c == 'h' ? 0 : 2;
		}
	}
	if (file == NULL) {
		usage();
		return 2;
	}
	conf_defaults(conf);
	if (conf_parse_file(file, conf, err, sizeof(err)) < 0 ||
	    conf_check_cores(conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (check)
		return 0;
	n = eal_args_build(conf, store, sizeof(store), eal_argv, RTE_DIM(eal_argv));
	if (n < 0) {
		fprintf(stderr, "%s: EAL arguments too long\n", file);
		return 1;
	}
	if (rte_eal_init(n, eal_argv) < 0) {
		fprintf(stderr, "%s: EAL init failed: %s\n", file, rte_strerror(rte_errno));
		return 1;
	}
	rc = 1;
	vfwd.n_workers = conf->n_workers;
	port_rx_burst = (uint16_t)conf->rx_burst;
	memcpy(vfwd.worker_lcore, conf->workers, sizeof(conf->workers));
	cli_builtin_register();
	if (mbuf_meta_init() < 0 || vfwd_pool_create(conf->num_mbufs) < 0) {
		fprintf(stderr, "cannot create %u mbufs: %s\n", conf->num_mbufs,
			rte_strerror(rte_errno));
		goto out_eal;
	}
	if (ports_probe(conf, err, sizeof(err)) < 0 || plugins_load(conf, err, sizeof(err)) < 0 ||
	    vfwd_dataplane_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		goto out_ports;
	}
	if (conf->cli_listen[0] && (c = cli_server_open(conf->cli_listen)) < 0) {
		fprintf(stderr, "cli-listen %s: %s\n", conf->cli_listen, strerror(-c));
		goto out_ports;
	}
	if (conf->exec[0] && cli_exec_file(conf->exec) < 0)
		goto out_cli;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (workers_launch() < 0) {
		fprintf(stderr, "cannot launch workers\n");
		goto out_workers;
	}
	printf("vfwd %s: %u ports, %u workers, cli %s\n", VFWD_VERSION, vfwd.n_ports,
	       vfwd.n_workers, conf->cli_listen);
	fflush(stdout);
	while (!__atomic_load_n(&vfwd.quit, __ATOMIC_RELAXED)) {
		cli_server_poll(50);
		fib_punt_poll();
		fib6_punt_poll();
		fib_neighbors_age(rte_rdtsc());
		fib6_neighbors_age(rte_rdtsc());
	}
	rc = 0;
out_workers:
	workers_stop();
out_cli:
	cli_server_close();
out_ports:
	ports_stop();
out_eal:
	rte_eal_cleanup();
	return rc;
}
