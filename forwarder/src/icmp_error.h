/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP errors: the settings and their commands (icmp_error.c), read by ip4-icmp-error
 * and ip6-icmp-error, and the rate limit both nodes apply.
 */
#ifndef VFWD_ICMP_ERROR_H
#define VFWD_ICMP_ERROR_H

#include <rte_cycles.h>

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

/* The rate limit: a token bucket per worker and per node, refilled at
 * icmp_error_conf.rate tokens per second up to its burst. */
struct icmp_bucket {
	uint64_t last;
	double tokens;
};

/* Takes one token from b; false when there is none (the error is not sent). */
static inline bool
icmp_error_rate_ok(struct icmp_bucket *b)
{
	uint64_t now = rte_rdtsc();
	unsigned rate = __atomic_load_n(&icmp_error_conf.rate, __ATOMIC_RELAXED);
	unsigned burst = __atomic_load_n(&icmp_error_conf.burst, __ATOMIC_RELAXED);

	if (b->last == 0)
		b->tokens = burst;
	else
		b->tokens += (double)(now - b->last) * rate / (double)rte_get_tsc_hz();
	b->last = now;
	if (b->tokens > burst)
		b->tokens = burst;
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

#endif /* VFWD_ICMP_ERROR_H */
