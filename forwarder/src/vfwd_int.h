/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd internals shared by the files of libvfwd (not installed).
 */
#ifndef VFWD_INT_H
#define VFWD_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <rte_ether.h>
#include <rte_graph.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_spinlock.h>

#include "vfwd/plugin.h"

#define VFWD_VERSION "0.1.0"
#define MAX_PORTS 16
#define MAX_WORKERS 16
#define MAX_FEATURES 16
#define MAX_ERRORS 512
#define MAX_RXQ MAX_WORKERS /* rx queues of one port polled by one worker: all of them */
#define NAME_LEN 32
#define PATH_LEN 256

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

struct vfwd_conf {
	char file[PATH_LEN];
	char cli_listen[PATH_LEN];
	char exec[PATH_LEN];
	char eal_args[1024];
	int main_core;
	int rx_mode;	    /* enum rx_mode (rx_mode.h): cpu { rx-mode poll|adaptive|interrupt } */
	int main_core_line; /* 0 when main-core is the default */
	int workers_line;
	unsigned n_workers;
	unsigned workers[MAX_WORKERS];
	unsigned num_mbufs;
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

/* ---- ports (port.c) ---- */
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

/* ---- global state ---- */
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

struct port *port_by_name(const char *name);
int port_add_ethdev(const char *name, uint16_t port_id, uint16_t nb_rxq, uint16_t nb_rxd,
		    uint16_t nb_txd);
int ports_start(void);
void ports_stop(void);
void port_cli_register(void);
void xconnect_cli_register(void);

/* per ethdev port: its MAC as the low 48 bits of a little-endian load of 8 bytes */
extern uint64_t port_mac48[RTE_MAX_ETHPORTS];

/* ---- error counters (error.c) ---- */
/* row MAX_WORKERS belongs to the main lcore (control-plane reasons, e.g. ARP learning) */
#define ERR_MAIN_ROW MAX_WORKERS
extern uint64_t err_counters[MAX_WORKERS + 1][MAX_ERRORS];
int err_register(const char *node, const char *const *reasons, uint16_t n);
uint64_t *err_block_for_node(const char *node, unsigned worker);
void err_show(struct vfwd_cli_out *out);
void err_clear(void);
uint64_t err_get(const char *node, const char *reason);
int err_node_range(const char *node, uint16_t *base, uint16_t *n);
const char *err_reason_name(uint16_t idx, const char **node);

/* ---- packet trace (trace.c) ---- */
void trace_cli_register(void);

/* the .init of a node whose context holds only its error counters (error.c) */
int node_ctx_errors_init(const struct rte_graph *graph, struct rte_node *node);
void err_cli_register(void);

/* ---- graph edges and the per-port edge tables (edge.c) ---- */
uint16_t edge_index(rte_node_t from, const char *to);
uint16_t edge_add(const char *from, const char *to);
void edge_port_xconnect(uint16_t port_id, uint16_t edge);
void edge_port_l3(uint16_t port_id);

/* ---- graph and nodes (graph.c) ---- */
int graph_nodes_setup(void);
int graphs_create(void);
int workers_launch(void);
void workers_stop(void);

/* per-port nodes (nodes/port_io.c) and port-indexed next edges */
int port_nodes_register_all(void);
extern uint8_t port_rx_next[RTE_MAX_ETHPORTS];
extern int8_t rxq_worker[MAX_PORTS][MAX_WORKERS];
extern uint16_t l2_xconnect_next[RTE_MAX_ETHPORTS];
extern uint16_t arp_input_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_rewrite_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_frag_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_arp_next[RTE_MAX_ETHPORTS];
extern uint16_t ip4_arp_pending_next[RTE_MAX_ETHPORTS];
void ip4_arp_pending_flush(void);

/* ---- feature arc (feature.c) ---- */
#define ARC_IP4_UNICAST "ip4-unicast"
struct feature {
	char name[RTE_NODE_NAMESIZE];
	rte_node_t node;
	int order;
	uint16_t n_errors;
};
struct feature_arc {
	unsigned n_features;
	struct feature features[MAX_FEATURES];
	uint32_t enabled[RTE_MAX_ETHPORTS]; /* bitmask of feature slots */
	/* next_edge[0] is used by ip4-input (the arc start), next_edge[1 + slot] by features */
	uint16_t next_edge[MAX_FEATURES + 1][RTE_MAX_ETHPORTS];
	/* edge[from][to]: from = 0 start, 1+slot; to = slot, MAX_FEATURES = ip4-lookup */
	uint16_t edge[MAX_FEATURES + 1][MAX_FEATURES + 1];
};
extern struct feature_arc ip4_unicast_arc;
int feature_arc_finalize(void);
int feature_enable(const char *port, const char *feature, bool enable, char *err, size_t len);
int feature_slot_by_node(const char *node);
void feature_cli_register(void);

/* ---- FIB, adjacencies and neighbours (fib.c) ---- */
/* ip4-lookup forwards the types from ADJ_GLEAN on */
enum adj_type { ADJ_DROP, ADJ_LOCAL, ADJ_BCAST, ADJ_GLEAN, ADJ_REWRITE };
struct adj {
	uint8_t type;
	uint8_t valid;	  /* rewrite ready */
	uint16_t port_id; /* ethdev port */
	uint16_t tx_edge; /* edge from ip4-rewrite to <port>-output */
	uint16_t refs;
	uint16_t mtu;	     /* the output interface's */
	uint32_t nh;	     /* next hop, host order */
	uint8_t rewrite[12]; /* dst mac, src mac */
};
#define MAX_ADJ 4096
extern struct adj adj_table[MAX_ADJ];

/* the interface addresses, as ip4-input reads them to refuse our own as a source */
struct ip4_own_set {
	unsigned n;
	rte_be32_t addr[MAX_PORTS];
};
extern struct ip4_own_set ip4_own;
extern struct rte_fib *fib_ip4;
#define FIB_MISS 0x7fffffffu /* rte_fib's next hop for "no route" (4-byte next hops keep bit 31)   \
			      */
int fib_init(void);
int fib_route_add(uint32_t prefix, uint8_t len, uint32_t nh, int port_index, enum adj_type t,
		  char *err, size_t errlen);
int fib_route_del(uint32_t prefix, uint8_t len, char *err, size_t errlen);
int fib_neighbor_set(int port_index, uint32_t ip, const struct rte_ether_addr *mac, bool del);
int fib_interface_address_set(int port_index, uint32_t ip, uint8_t len, bool del, char *err,
			      size_t errlen);
int fib_show(struct vfwd_cli_out *out, bool filter, uint32_t ip, int len);
void fib_neighbors_show(struct vfwd_cli_out *out);
int fib_punt_poll(void);
int fib_port_mtu_set(int port_index, uint16_t mtu);
int fib_neighbor_incomplete(int port_index, uint32_t ip);
int fib_neighbors_age(uint64_t now);
void fib_cli_register(void);

/* ---- what the IPv4 and IPv6 neighbours share (nbr.c) ---- */
#define NBR4_MAX_DYNAMIC 1024 /* dynamic + incomplete: the rest is for configuration */
void nbr_age_format(char *buf, size_t len, bool is_static, uint64_t updated, unsigned probes);

/* `set ip neighbor-config ip4|ip6 [age S] [limit N]`; [0] ip4, [1] ip6 */
struct nbr_config {
	unsigned age_s; /* 0: dynamic entries never age (VPP's default) */
	unsigned limit; /* dynamic + incomplete entries at most */
};
extern struct nbr_config nbr_config[2];
/* an aged neighbour to probe, from the main lcore to a worker (32 bytes, a ring element) */
struct nbr_probe_msg {
	uint8_t ip[16]; /* IPv4: the first 4 bytes, host order */
	uint16_t port_id;
	uint8_t af; /* 4 or 6 */
	uint8_t pad[13];
};

/* what arp-input passes to the main lcore: a sender to learn (16 bytes, a ring element) */
enum { ARP_MSG_LEARN, ARP_MSG_REQUESTED };
struct arp_learn_msg {
	uint32_t ip; /* host order */
	uint16_t port_id;
	uint8_t mac[6];
	uint8_t kind; /* ARP_MSG_LEARN: a sender to learn; ARP_MSG_REQUESTED: ip4-arp asked for ip
		       */
	uint8_t pad[3];
};
uint16_t rewrite_edge_for_port(uint16_t port_id);

/* ---- IPv6 FIB, adjacencies and ND neighbours (fib6.c) ---- */
struct adj6 {
	uint8_t type;
	uint8_t valid;
	uint16_t port_id;
	uint16_t tx_edge; /* edge from ip6-rewrite to <port>-output */
	uint16_t refs;
	uint16_t mtu;
	uint8_t rewrite[12];
	uint8_t nh[16];
};
#define MAX_ADJ6 1024
extern struct adj6 adj6_table[MAX_ADJ6];
extern struct rte_lpm6 *fib6_lpm;
extern uint32_t fib6_default_adj;
extern uint16_t ip6_rewrite_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_nd_next[RTE_MAX_ETHPORTS];
extern uint16_t ip6_glean_next[RTE_MAX_ETHPORTS];
int fib6_init(void);
int fib6_route_add(const uint8_t *prefix, uint8_t len, const uint8_t *nh, int port_index,
		   enum adj_type t, char *err, size_t errlen);
int fib6_route_del(const uint8_t *prefix, uint8_t len, char *err, size_t errlen);
int fib6_interface_address_set(int port_index, const uint8_t *ip, uint8_t len, bool del, char *err,
			       size_t errlen);
int fib6_neighbor_set(int port_index, const uint8_t *ip, const struct rte_ether_addr *mac, bool del,
		      bool is_static);
void fib6_show(struct vfwd_cli_out *out);
void fib6_port_mtu_set(int port_index, uint16_t mtu);
void fib6_neighbors_show(struct vfwd_cli_out *out);
int fib6_punt_poll(void);
int fib6_neighbors_age(uint64_t now);
int fib6_neighbor_incomplete(int port_index, const uint8_t *ip);
extern uint16_t ip6_nd_pending_next[RTE_MAX_ETHPORTS];
void ip6_nd_pending_flush(void);
enum { ND_MSG_LEARN, ND_MSG_REQUESTED };
struct nd_learn_msg {
	uint8_t ip[16];
	uint16_t port_id;
	uint8_t mac[6];
	uint8_t kind; /* ND_MSG_LEARN: a neighbour to learn; ND_MSG_REQUESTED: ip6-glean asked */
	uint8_t pad[7];
};

/* ---- CLI (cli.c, cli_server.c, runtime.c) ---- */
struct vfwd_cli_out {
	char *buf;
	size_t len, cap;
	bool error;
};
int cli_execute(const char *line, struct vfwd_cli_out *out);
int cli_exec_file(const char *path);
void cli_out_free(struct vfwd_cli_out *out);
int cli_server_open(const char *path);
int cli_server_poll(int timeout_ms);
void cli_server_close(void);
void cli_builtin_register(void); /* vfwd.c: every subsystem's commands */
void cli_help_register(void);
int runtime_show(struct vfwd_cli_out *out, bool json);
void runtime_clear(void);
void runtime_start(void);
void runtime_cli_register(void);
int cli_parse_ip4(const char *s, uint32_t *ip);
int cli_parse_prefix(const char *s, uint32_t *ip, uint8_t *len);
int cli_parse_prefix6(const char *s, uint8_t *ip, uint8_t *len);
bool cli_is_ip6_arg(const char *s);
struct port *cli_arg_port(struct vfwd_cli_out *out, const char *name);
/* For commands that take no arguments: an error naming the first extra word. */
#define NO_ARGS(out, argc, argv, name)                                                             \
	do {                                                                                       \
		if ((argc) > 0)                                                                    \
			return cli_error(out, -EINVAL, "%s takes no arguments, not '%s'", name,    \
					 (argv)[0]);                                               \
	} while (0)
void cli_center(struct vfwd_cli_out *out, int width, const char *s);
int cli_error(struct vfwd_cli_out *out, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- plugins (plugin.c) ---- */
int plugins_load(const struct vfwd_conf *conf, char *err, size_t errlen);
int plugin_load_one(const char *path, char *err, size_t errlen);
void plugins_show(struct vfwd_cli_out *out);
const char *vfwd_install_dir(void);
void plugin_cli_register(void);

/* ---- startup (vfwd.c) ---- */
VFWD_API int vfwd_main(int argc, char **argv);
int vfwd_dataplane_init(char *err, size_t errlen);
int vfwd_pool_create(unsigned n);

/* ---- ICMP errors (icmp_error.c; nodes/ip4_icmp_error.c, nodes/ip6_icmp_error.c) ---- */
struct icmp_error_conf {
	bool enabled;
	unsigned rate;	/* errors per second per worker */
	unsigned burst; /* bucket size */
};
extern struct icmp_error_conf icmp_error_conf;
void icmp_error_cli_register(void); /* icmp_error.c: the settings and their commands */

/* ---- mbuf metadata ---- */
extern int mbuf_adj_offset;
static inline uint32_t *
mbuf_adj(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, mbuf_adj_offset, uint32_t *);
}
int mbuf_meta_init(void);

/* Records in m why ip4-icmp-error must answer it: type, code and, for
 * "fragmentation needed", the next-hop MTU (the adjacency is no longer needed). */
static inline void
icmp_error_mark(struct rte_mbuf *m, uint8_t type, uint8_t code, uint16_t mtu)
{
	*mbuf_adj(m) = (uint32_t)mtu << 16 | (uint32_t)type << 8 | code;
}

#endif /* VFWD_INT_H */
