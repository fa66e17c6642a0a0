/* SPDX-License-Identifier: BSD-3-Clause
 * The process's state (state.c): the ports, the workers and their graphs, the rings between the main lcore and the workers, and the mbuf field the nodes pass an adjacency or an ICMP reason in.
 */
#ifndef VFWD_STATE_H
#define VFWD_STATE_H

#include "conf.h"

/* ---- a port (port.c sets it up) ---- */
struct port {
	char name[NAME_LEN];
	uint16_t port_id;
	uint16_t nb_rxq, nb_txq;
	uint16_t nb_rxd, nb_txd;
	struct rte_ether_addr mac;
	struct rte_ether_addr hw_addr; /* dev ... { hw-addr MAC } (has_hw_addr) */
	bool has_hw_addr;
	uint32_t ip4; /* host order, 0 when unset */
	uint8_t ip4_len;
	uint16_t mtu; /* largest IP packet sent, bytes (VPP's "packet" mtu) */
	bool has_ip6;
	uint8_t ip6[16];
	uint8_t ip6_len;
	int xconnect; /* peer port index, -1 when l3 */
	rte_node_t rx_node, output_node, tx_node;
	bool txq_shared;
	uint64_t rss_hf; /* RSS hash types configured; 0: the sender picks the rx queue */
	rte_spinlock_t txq_lock[MAX_WORKERS];
	char driver[NAME_LEN];
	char devargs[PATH_LEN];
};

/* ---- global state (state.c) ---- */
struct vfwd_main {
	struct vfwd_conf conf;
	unsigned n_ports;
	struct port ports[MAX_PORTS];
	int port_index[RTE_MAX_ETHPORTS]; /* ethdev port id -> index, -1 */
	struct rte_mempool *pool;
	unsigned n_workers;
	unsigned worker_lcore[MAX_WORKERS];
	struct rte_graph *graph[MAX_WORKERS];
	rte_graph_t graph_id[MAX_WORKERS];
	uint64_t loops[MAX_WORKERS];
	volatile bool quit;
	struct rte_ring *punt_ring;  /* ARP senders for the main lcore to learn */
	struct rte_ring *punt6_ring; /* ND neighbours for the main lcore to learn */
	struct rte_ring *probe4_ring; /* aged IPv4 neighbours to probe (ip4-arp-pending sends) */
	struct rte_ring *probe6_ring; /* aged IPv6 neighbours to probe (ip6-nd-pending sends) */
	uint64_t tsc_hz;
	int cur_worker; /* worker whose graph is being created */
};

extern struct vfwd_main vfwd;

static inline struct port *
port_by_ethdev(uint16_t port_id)
{
	int i = vfwd.port_index[port_id];

	return i < 0 ? NULL : &vfwd.ports[i];
}

struct port *port_by_name(const char *name); /* state.c */

/* ---- mbuf metadata ---- */
extern int mbuf_adj_offset;
static inline uint32_t *
mbuf_adj(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, mbuf_adj_offset, uint32_t *);
}
int mbuf_meta_init(void);

#endif /* VFWD_STATE_H */
