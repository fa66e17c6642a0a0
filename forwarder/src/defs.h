/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd's limits and the includes every header of libvfwd starts from.
 */
#ifndef VFWD_DEFS_H
#define VFWD_DEFS_H

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

#endif /* VFWD_DEFS_H */
