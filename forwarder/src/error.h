/* SPDX-License-Identifier: BSD-3-Clause
 * Error counters per node and reason (error.c): `show errors`, and the .init of nodes whose context holds only them.
 */
#ifndef VFWD_ERROR_H
#define VFWD_ERROR_H

#include "defs.h"

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

/* the .init of a node whose context holds only its error counters (error.c) */
int node_ctx_errors_init(const struct rte_graph *graph, struct rte_node *node);
void err_cli_register(void);

#endif /* VFWD_ERROR_H */
