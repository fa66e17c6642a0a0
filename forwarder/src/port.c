/* SPDX-License-Identifier: BSD-3-Clause
 * Interfaces: DPDK ethdev ports with names from the startup file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include "cli.h"
#include "error.h"
#include "fib.h"
#include "fib6.h"
#include "port.h"
#include "rx_mode.h"
#include "state.h"

int
port_add_ethdev(const char *name, uint16_t port_id, uint16_t nb_rxq, uint16_t nb_rxd,
		uint16_t nb_txd)
{
	struct port *p;

	if (vfwd.n_ports >= MAX_PORTS || port_id >= RTE_MAX_ETHPORTS)
		return -ENOSPC;
	if (port_by_name(name) != NULL || vfwd.port_index[port_id] >= 0)
		return -EEXIST;
	p = &vfwd.ports[vfwd.n_ports];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->port_id = port_id;
	p->nb_rxq = nb_rxq ? nb_rxq : 1;
	p->nb_rxd = nb_rxd;
	p->nb_txd = nb_txd;
	p->xconnect = -1;
	p->rx_node = p->output_node = p->tx_node = RTE_NODE_ID_INVALID;
	for (unsigned q = 0; q < MAX_WORKERS; q++)
		rte_spinlock_init(&p->txq_lock[q]);
	vfwd.port_index[port_id] = (int)vfwd.n_ports;
	vfwd.n_ports++;
	return 0;
}

/* RSS where the PMD hashes flows to queues itself; elsewhere (virtio-user, vhost,
 * memif, net_ring, pcap, af_packet) the sender picks the queue (the vhost peer's tx
 * queue, the memif peer's ring, the kernel's fanout hash for af_packet), and asking
 * those PMDs for RSS fails (virtio: "RSS support requested but not supported"). */
static void
port_rss_conf(struct port *p, const struct rte_eth_dev_info *info, struct rte_eth_conf *conf)
{
	p->rss_hf = 0;
	if (p->nb_rxq < 2)
		return;
	p->rss_hf = (RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP) &
		    info->flow_type_rss_offloads;
	if (p->rss_hf == 0)
		return;
	conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf->rx_adv_conf.rss_conf.rss_key = NULL; /* the PMD's default key */
	conf->rx_adv_conf.rss_conf.rss_hf = p->rss_hf;
}

static int
port_start(struct port *p)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	unsigned nw = vfwd.n_workers ? vfwd.n_workers : 1;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc < 0)
		return rc;
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name);
	if (p->nb_rxq > info.max_rx_queues) {
		/* never fewer queues than asked for without a word (issue 19, class 6) */
		RTE_LOG(ERR, USER1,
			"%s (%s): num-rx-queues %u, but the port has at most %u rx queues "
			"(virtio-user: queues=N; pcap: one rx_pcap per queue; af_packet: "
			"qpairs=N)\n",
			p->name, p->driver, p->nb_rxq, info.max_rx_queues);
		return -EINVAL;
	}
	if (p->nb_rxq > MAX_RXQ)
		return -EINVAL;
	p->nb_txq = (uint16_t)RTE_MIN(nw, (unsigned)info.max_tx_queues);
	p->txq_shared = p->nb_txq < nw;
	port_rss_conf(p, &info, &conf);
	/* virtio-user in server mode takes a new vhost peer only from its link-state
	 * interrupt handler: without LSC, vfwd would never see a second tgen. */
	if (info.dev_flags != NULL && (*info.dev_flags & RTE_ETH_DEV_INTR_LSC))
		conf.intr_conf.lsc = 1;
	if (rx_mode_wants_intr())
		conf.intr_conf.rxq = 1; /* rx-mode interrupt (rx_mode.c) */
	rc = rte_eth_dev_configure(p->port_id, p->nb_rxq, p->nb_txq, &conf);
	if (rc < 0)
		return rc;
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &p->nb_rxd, &p->nb_txd);
	if (rc < 0)
		return rc;
	for (uint16_t q = 0; q < p->nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->port_id, q, p->nb_rxd,
					    (unsigned)rte_eth_dev_socket_id(p->port_id), NULL,
					    vfwd.pool);
		if (rc < 0)
			return rc;
	}
	for (uint16_t q = 0; q < p->nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->port_id, q, p->nb_txd,
					    (unsigned)rte_eth_dev_socket_id(p->port_id), NULL);
		if (rc < 0)
			return rc;
	}
	/* a router takes only frames for its own MAC (RFC 1812 5.3.4); ethernet-input
	 * checks it too, for the PMDs that cannot filter (pcap, ring, vhost) */
	rte_eth_promiscuous_disable(p->port_id);
	rte_eth_allmulticast_enable(p->port_id); /* IPv6 ND: solicited-node multicast */
	if (p->has_hw_addr) {
		/* PMDs that cannot take a MAC (net_pcap) keep theirs; vfwd still uses hw-addr
		 * as the port's address: ethernet-input filters in software, the rewrite
		 * writes it as the source */
		rc = rte_eth_dev_default_mac_addr_set(p->port_id, &p->hw_addr);
		if (rc < 0 && rc != -ENOTSUP)
			return rc;
		p->mac = p->hw_addr;
	} else {
		rc = rte_eth_macaddr_get(p->port_id, &p->mac);
		if (rc < 0)
			return rc;
	}
	memcpy(&port_mac48[p->port_id], &p->mac, 6);
	if (rte_eth_dev_get_mtu(p->port_id, &p->mtu) < 0 || p->mtu == 0)
		p->mtu = RTE_ETHER_MTU;
	return rte_eth_dev_start(p->port_id);
}

int
ports_start(void)
{
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		int rc = port_start(&vfwd.ports[i]);

		if (rc == 0 && rx_mode_wants_intr())
			rc = rx_mode_port_check(&vfwd.ports[i]);

		if (rc < 0) {
			RTE_LOG(ERR, USER1, "%s: cannot start port: %s\n", vfwd.ports[i].name,
				strerror(-rc));
			return rc;
		}
	}
	return 0;
}

void
ports_stop(void)
{
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		/* closing a virtio-user port whose vhost peer has gone makes DPDK 22.11's
		 * interrupt thread panic (epoll on a closed fd); the process is exiting,
		 * so leave those ports to the kernel */
		if (strcmp(vfwd.ports[i].driver, "net_virtio_user") == 0)
			continue;
		rte_eth_dev_stop(vfwd.ports[i].port_id);
		rte_eth_dev_close(vfwd.ports[i].port_id);
	}
}

/* ---- commands ---- */

static int
cmd_set_mtu(struct vfwd_cli_out *out, int argc, char **argv)
{
	unsigned long v;
	struct port *p;
	char *end;
	int i = 0;

	if (argc == 3 && strcmp(argv[0], "packet") == 0)
		i = 1;
	if (argc - i != 2)
		return cli_error(out, -EINVAL, "usage: set interface mtu [packet] BYTES IFACE");
	v = strtoul(argv[i], &end, 10);
	if (*end || end == argv[i] || v < 68 || v > 9216)
		return cli_error(out, -EINVAL, "mtu must be 68..9216, not '%s'", argv[i]);
	p = cli_arg_port(out, argv[i + 1]);
	if (p == NULL)
		return -ENODEV;
	rte_eth_dev_set_mtu(p->port_id, (uint16_t)v); /* PMDs without an MTU keep theirs */
	fib6_port_mtu_set((int)(p - vfwd.ports), (uint16_t)v);
	return fib_port_mtu_set((int)(p - vfwd.ports), (uint16_t)v);
}

static void
show_counter(struct vfwd_cli_out *out, bool first, const struct port *p, const char *ip,
	     const char *name, uint64_t v)
{
	if (first)
		vfwd_cli_printf(out, "%-16s%4u  %-6s%-20s%-20s%-16s%" PRIu64 "\n", p->name,
				p->port_id, "up", "", ip, name, v);
	else
		vfwd_cli_printf(out, "%-68s%-16s%" PRIu64 "\n", "", name, v);
}

static int
cmd_show_interfaces(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show interfaces");
	vfwd_cli_printf(out, "%-16s%4s  %-6s%-20s%-20s%-16s%s\n", "Name", "Idx", "State", "MAC",
			"Address", "Counter", "Count");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *p = &vfwd.ports[i];
		struct rte_eth_stats st;
		struct rte_eth_link link;
		char ip[32] = "", mac[RTE_ETHER_ADDR_FMT_SIZE], txq[RTE_NODE_NAMESIZE];
		uint64_t txfull;

		memset(&st, 0, sizeof(st));
		rte_eth_stats_get(p->port_id, &st);
		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(p->port_id, &link);
		rte_ether_format_addr(mac, sizeof(mac), &p->mac);
		if (p->ip4)
			snprintf(ip, sizeof(ip), "%u.%u.%u.%u/%u", p->ip4 >> 24,
				 (p->ip4 >> 16) & 255, (p->ip4 >> 8) & 255, p->ip4 & 255,
				 p->ip4_len);
		snprintf(txq, sizeof(txq), "%s-tx", p->name);
		txfull = err_get(txq, "tx queue full");
		vfwd_cli_printf(out, "%-16s%4u  %-6s%-20s%-20s%-16s%" PRIu64 "\n", p->name,
				p->port_id, link.link_status ? "up" : "down", mac, ip, "rx packets",
				st.ipackets);
		show_counter(out, false, p, ip, "rx bytes", st.ibytes);
		show_counter(out, false, p, ip, "tx packets", st.opackets);
		show_counter(out, false, p, ip, "tx bytes", st.obytes);
		show_counter(out, false, p, ip, "drops",
			     st.imissed + st.ierrors + st.rx_nombuf + st.oerrors + txfull);
		show_counter(out, false, p, ip, "rx-miss", st.imissed);
		show_counter(out, false, p, ip, "rx-no-buf", st.rx_nombuf);
		show_counter(out, false, p, ip, "tx-error", st.oerrors + txfull);
	}
	return 0;
}

static int
cmd_clear_interfaces(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear interfaces");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		rte_eth_stats_reset(vfwd.ports[i].port_id);
		rte_eth_xstats_reset(vfwd.ports[i].port_id);
	}
	return 0;
}

static int
cmd_show_hardware(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show hardware");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *p = &vfwd.ports[i];
		struct rte_eth_link link;
		char mac[RTE_ETHER_ADDR_FMT_SIZE], lk[RTE_ETH_LINK_MAX_STR_LEN];
		struct rte_eth_xstat_name *names = NULL;
		struct rte_eth_xstat *xs = NULL;
		int n;

		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(p->port_id, &link);
		rte_eth_link_to_str(lk, sizeof(lk), &link);
		rte_ether_format_addr(mac, sizeof(mac), &p->mac);
		vfwd_cli_printf(out, "%s (port %u)\n  driver %s, %s\n  mac %s\n", p->name,
				p->port_id, p->driver, lk, mac);
		vfwd_cli_printf(out, "  rx queues %u, rx descs %u, tx queues %u%s, tx descs %u\n",
				p->nb_rxq, p->nb_rxd, p->nb_txq, p->txq_shared ? " (shared)" : "",
				p->nb_txd);
		if (p->nb_rxq > 1)
			vfwd_cli_printf(out, "  rx queue spread: %s\n",
					p->rss_hf ? "rss (ip, udp, tcp hash)"
						  : "by the sender (no rss on this pmd)");
		n = rte_eth_xstats_get(p->port_id, NULL, 0);
		if (n <= 0)
			continue;
		names = calloc((size_t)n, sizeof(*names));
		xs = calloc((size_t)n, sizeof(*xs));
		if (names && xs && rte_eth_xstats_get_names(p->port_id, names, (unsigned)n) == n &&
		    rte_eth_xstats_get(p->port_id, xs, (unsigned)n) == n) {
			for (int k = 0; k < n; k++)
				if (xs[k].value)
					vfwd_cli_printf(out, "    %-40s%" PRIu64 "\n",
							names[xs[k].id].name, xs[k].value);
		}
		free(names);
		free(xs);
	}
	return 0;
}

void
port_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"set interface mtu", "[packet] BYTES IFACE", cmd_set_mtu},
		{"show interfaces", "", cmd_show_interfaces},
		{"clear interfaces", "", cmd_clear_interfaces},
		{"show hardware", "", cmd_show_hardware},
		{"show interface", "(= show interfaces)", cmd_show_interfaces},
		{"show hardware-interfaces", "(= show hardware)", cmd_show_hardware},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
