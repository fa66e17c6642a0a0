/* SPDX-License-Identifier: BSD-3-Clause
 * What the IPv4 and IPv6 neighbour tables share (nbr.c): their configuration,
 * the Age column, the probe message.
 */
#ifndef VFWD_NBR_H
#define VFWD_NBR_H

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

#endif /* VFWD_NBR_H */
