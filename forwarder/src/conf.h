/* SPDX-License-Identifier: BSD-3-Clause
 * The startup file, parsed (config.c).
 */
#ifndef VFWD_CONF_H
#define VFWD_CONF_H

#include "defs.h"

/* ---- startup configuration (config.c) ---- */
struct port_conf {
	char name[NAME_LEN];
	char devargs[PATH_LEN];
	bool is_vdev;
	uint16_t nb_rxd, nb_txd, nb_rxq;
	bool has_mac; /* dev ... { hw-addr MAC }: the port's MAC instead of the PMD's */
	uint8_t mac[6];
	int line;
};

struct plugin_conf {
	char name[NAME_LEN * 2];
	bool disable;
};

/* Packets read per rte_eth_rx_burst() call, and so the largest vector a walk starts with.
 * 64 keeps a vector's mbuf headers and first data lines (64 x 2 x 64 B = 8 KiB) in the
 * L1 cache from one node to the next, where 256 (RTE_GRAPH_BURST_SIZE, the maximum:
 * dpdk { rx-burst 256 }) spills it: forwarder/README.md, "Performance". */
#define PORT_RX_BURST_DEFAULT 64
#define PORT_RX_BURST_MAX 256

struct vfwd_conf {
	char file[PATH_LEN];
	char cli_listen[PATH_LEN];
	char exec[PATH_LEN];
	char eal_args[1024];
	int main_core;
	int rx_mode;	    /* enum rx_mode (rx_mode.h): cpu { rx-mode poll|adaptive|interrupt } */
	int main_core_line; /* 0 when main-core is the default */
	/* cpu { adaptive-max-sleep-us N }: the longest sleep of an adaptive worker */
	unsigned adaptive_max_sleep_us;
	int workers_line;
	unsigned n_workers;
	unsigned workers[MAX_WORKERS];
	unsigned num_mbufs;
	unsigned rx_burst; /* dpdk { rx-burst N }: packets per rte_eth_rx_burst, 1-256 */
	unsigned n_ports;
	struct port_conf ports[MAX_PORTS];
	unsigned ip4_max_routes; /* fib { ip4-max-routes N  ip4-tbl8s N } */
	unsigned ip4_tbl8s;
	char plugin_path[PATH_LEN];
	unsigned n_plugins;
	struct plugin_conf plugins[32];
};

int conf_parse_file(const char *path, struct vfwd_conf *conf, char *err, size_t errlen);
int conf_parse_string(const char *name, const char *text, struct vfwd_conf *conf, char *err,
		      size_t errlen);
void conf_defaults(struct vfwd_conf *conf);
int conf_check_cores(const struct vfwd_conf *conf, char *err, size_t errlen);

#endif /* VFWD_CONF_H */
