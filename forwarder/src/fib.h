/* SPDX-License-Identifier: BSD-3-Clause
 * The IPv4 FIB, adjacencies and ARP neighbours (fib.c; commands in fib_cli.c).
 */
#ifndef VFWD_FIB_H
#define VFWD_FIB_H

#include "state.h"
#include "nbr.h"

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

/* the interface addresses, as ip4-input reads them to refuse our own as a source; `filter`
 * has bit ip4_own_hash(a) set for each of them (all bits while they change), so a source
 * whose bit is clear is not ours without a look at the list */
struct ip4_own_set {
	uint64_t filter;
	unsigned n;
	rte_be32_t addr[MAX_PORTS];
};
static inline unsigned
ip4_own_hash(rte_be32_t a)
{
	return (uint32_t)(a * 0x9e3779b1u) >> 26;
}
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

#endif /* VFWD_FIB_H */
