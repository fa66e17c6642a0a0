/* SPDX-License-Identifier: BSD-3-Clause
 * The IPv6 FIB, adjacencies and ND neighbours (fib6.c; commands in fib_cli.c).
 */
#ifndef VFWD_FIB6_H
#define VFWD_FIB6_H

#include "fib.h"

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
extern struct rte_fib6 *fib6_fib;
#define FIB6_MISS 0x7fffffffu /* rte_fib6's next hop for "no route" (4-byte next hops) */
extern uint32_t fib6_default_adj;
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
enum { ND_MSG_LEARN, ND_MSG_REQUESTED };
struct nd_learn_msg {
	uint8_t ip[16];
	uint16_t port_id;
	uint8_t mac[6];
	uint8_t kind; /* ND_MSG_LEARN: a neighbour to learn; ND_MSG_REQUESTED: ip6-glean asked */
	uint8_t pad[7];
};

#endif /* VFWD_FIB6_H */
