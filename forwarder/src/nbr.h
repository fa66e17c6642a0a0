/* SPDX-License-Identifier: BSD-3-Clause
 * What the IPv4 and IPv6 neighbour tables share (nbr.c): their configuration,
 * the Age column, the probe message, and the resolution record of the workers.
 */
#ifndef VFWD_NBR_H
#define VFWD_NBR_H

#include <rte_cycles.h>

#include "defs.h"

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

/* ---- resolution of a next hop by the worker that holds its packets (nbr.c) ---- */
/* RFC 4861 10: MAX_MULTICAST_SOLICIT solicitations, RETRANS_TIMER apart; the same for ARP
 * (RFC 1122 2.3.2.1: retry, at most once a second per destination). A packet waits for
 * its next hop NBR_MAX_SOLICIT x NBR_RETRANS_MS at most. */
#define NBR_MAX_SOLICIT 3
#define NBR_RETRANS_MS 1000
#define NBR_RESOLVE_SLOTS 256

/* one target being asked for: its requests of the current round, the last one's time */
struct nbr_resolve {
	uint8_t ip[16]; /* IPv4: the first 4 bytes, host order */
	uint16_t port_id;
	uint8_t sent; /* requests of this round, 1..NBR_MAX_SOLICIT */
	uint64_t last;
};

/* what a held packet's target is doing (nbr_resolve_check) */
enum nbr_resolve_state { NBR_RESOLVE_WAIT, NBR_RESOLVE_RETRANSMIT, NBR_RESOLVE_FAILED };

struct nbr_resolve *nbr_resolve_slot(struct nbr_resolve *tab, const uint8_t *ip, uint16_t port_id);
bool nbr_resolve_due(const struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id,
		     uint64_t now);
void nbr_resolve_sent(struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id, uint64_t now);
enum nbr_resolve_state nbr_resolve_check(const struct nbr_resolve *r, const uint8_t *ip,
					 uint16_t port_id, uint64_t now);

/* The clock of the resolution timers (the nodes' hold time, retransmissions): the TSC plus
 * nbr_clock_offset, which only the tests move, to run seconds of timers without waiting. */
extern uint64_t nbr_clock_offset;
static inline uint64_t
nbr_clock(void)
{
	return rte_rdtsc() + nbr_clock_offset;
}

/* NBR_RETRANS_MS in TSC cycles */
static inline uint64_t
nbr_retrans_tsc(void)
{
	return rte_get_tsc_hz() / 1000 * NBR_RETRANS_MS;
}

#endif /* VFWD_NBR_H */
