/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP errors: the settings and their commands (icmp_error.c), read by ip4-icmp-error and ip6-icmp-error.
 */
#ifndef VFWD_ICMP_ERROR_H
#define VFWD_ICMP_ERROR_H

#include "state.h"

/* ---- ICMP errors (icmp_error.c; nodes/ip4_icmp_error.c, nodes/ip6_icmp_error.c) ---- */
struct icmp_error_conf {
	bool enabled;
	unsigned rate;	/* errors per second per worker */
	unsigned burst; /* bucket size */
};
extern struct icmp_error_conf icmp_error_conf;
void icmp_error_cli_register(void); /* icmp_error.c: the settings and their commands */

/* Records in m why ip4-icmp-error must answer it: type, code and, for
 * "fragmentation needed", the next-hop MTU (the adjacency is no longer needed). */
static inline void
icmp_error_mark(struct rte_mbuf *m, uint8_t type, uint8_t code, uint16_t mtu)
{
	*mbuf_adj(m) = (uint32_t)mtu << 16 | (uint32_t)type << 8 | code;
}

#endif /* VFWD_ICMP_ERROR_H */
