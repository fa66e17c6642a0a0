/* SPDX-License-Identifier: BSD-3-Clause
 * Build-time check of the hand-written Rust FFI (src/ffi.rs) against the C headers it
 * mirrors. The Makefile turns every `pub const NAME: T = N;` of ffi.rs into
 * `#define RS_NAME N` (rs_layout.h) and compiles this file with -fsyntax-only: a field
 * that moved in DPDK or in vfwd/plugin.h fails the build here, not in the data path.
 */
#include <stddef.h>

#include "rs_layout.h"
#include "vfwd/plugin.h"

#define SAME(rs, c) _Static_assert((rs) == (c), #rs " in src/ffi.rs is not " #c)

SAME(RS_VFWD_PLUGIN_ABI_VERSION, VFWD_PLUGIN_ABI_VERSION);
SAME(RS_VFWD_FEATURE_NEXT_DROP, VFWD_FEATURE_NEXT_DROP);
SAME(RS_VFWD_PLUGIN_OFF_INIT, offsetof(struct vfwd_plugin, init));
SAME(RS_VFWD_PLUGIN_SIZE, sizeof(struct vfwd_plugin));
SAME(RS_VFWD_NODE_CTX_OFF_NEXT_BY_PORT, offsetof(struct vfwd_node_ctx, next_by_port));
SAME(RS_VFWD_FEATURE_REG_OFF_PROCESS, offsetof(struct vfwd_feature_reg, process));
SAME(RS_VFWD_FEATURE_REG_OFF_N_ERRORS, offsetof(struct vfwd_feature_reg, n_errors));
SAME(RS_VFWD_FEATURE_REG_OFF_ORDER, offsetof(struct vfwd_feature_reg, order));
SAME(RS_VFWD_FEATURE_REG_SIZE, sizeof(struct vfwd_feature_reg));

SAME(RS_RTE_GRAPH_OFF_CIR_MASK, offsetof(struct rte_graph, cir_mask));
SAME(RS_RTE_GRAPH_OFF_CIR_START, offsetof(struct rte_graph, cir_start));
SAME(RS_RTE_NODE_OFF_CTX, offsetof(struct rte_node, ctx));
SAME(RS_RTE_NODE_CTX_SZ, RTE_NODE_CTX_SZ);
SAME(RS_RTE_NODE_OFF_SIZE, offsetof(struct rte_node, size));
SAME(RS_RTE_NODE_OFF_IDX, offsetof(struct rte_node, idx));
SAME(RS_RTE_NODE_OFF_OFF, offsetof(struct rte_node, off));
SAME(RS_RTE_NODE_OFF_OBJS, offsetof(struct rte_node, objs));
SAME(RS_RTE_NODE_OFF_NODES, offsetof(struct rte_node, nodes));

SAME(RS_RTE_MBUF_OFF_DATA_OFF, offsetof(struct rte_mbuf, data_off));
SAME(RS_RTE_MBUF_OFF_PORT, offsetof(struct rte_mbuf, port));
SAME(RS_RTE_MBUF_OFF_DATA_LEN, offsetof(struct rte_mbuf, data_len));
SAME(RS_RTE_MAX_ETHPORTS, RTE_MAX_ETHPORTS);

/* the field widths the Rust side assumes */
SAME(sizeof(((struct rte_node *)0)->size), 2);
SAME(sizeof(((struct rte_node *)0)->idx), 2);
SAME(sizeof(((struct rte_node *)0)->off), 4);
SAME(sizeof(((struct rte_graph *)0)->tail), 4);
SAME(sizeof(((struct rte_mbuf *)0)->port), 2);
SAME(sizeof(((struct rte_mbuf *)0)->data_off), 2);
SAME(offsetof(struct rte_mbuf, buf_addr), 0);
SAME(offsetof(struct vfwd_plugin, abi_version), 0);
