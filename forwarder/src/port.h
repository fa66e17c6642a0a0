/* SPDX-License-Identifier: BSD-3-Clause
 * Ports (port.c): ethdev set-up and the interface commands; the l2 cross-connect's commands (xconnect.c).
 */
#ifndef VFWD_PORT_H
#define VFWD_PORT_H

#include "state.h"

/* ---- ports (port.c) ---- */
int port_add_ethdev(const char *name, uint16_t port_id, uint16_t nb_rxq, uint16_t nb_rxd,
		    uint16_t nb_txd);
int ports_start(void);
void ports_stop(void);
void port_cli_register(void);
void xconnect_cli_register(void);

/* per ethdev port: its MAC as the low 48 bits of a little-endian load of 8 bytes */
extern uint64_t port_mac48[RTE_MAX_ETHPORTS];
/* nodes/port_io.c: dpdk { rx-burst N } */
extern uint16_t port_rx_burst;
void xconnect_cli_register(void); /* xconnect.c: set interface l2 xconnect | l3 */

#endif /* VFWD_PORT_H */
