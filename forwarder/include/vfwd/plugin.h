/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd plugin API: a plugin is a shared object that exports `vfwd_plugin`
 * (see VFWD_PLUGIN_REGISTER) and, from its init function, registers feature
 * nodes on an arc and CLI commands. Feature nodes are ordinary rte_graph nodes:
 * they receive the packets of the interfaces where the feature is enabled and
 * pass each packet to vfwd_feature_next() or drop it on VFWD_FEATURE_NEXT_DROP.
 */
#ifndef VFWD_PLUGIN_H
#define VFWD_PLUGIN_H

#include <stdint.h>
#include <rte_graph.h>
#include <rte_graph_worker.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a structure or function below changes incompatibly. */
#define VFWD_PLUGIN_ABI_VERSION 1

#define VFWD_API __attribute__((visibility("default")))

struct vfwd_plugin {
	uint32_t abi_version; /* VFWD_PLUGIN_ABI_VERSION the plugin was built with */
	const char *name;
	const char *version;
	const char *description;
	int (*init)(void); /* registers features and commands; 0 or -errno */
};

/* Define the plugin descriptor; vfwd looks up the symbol `vfwd_plugin`. */
#define VFWD_PLUGIN_REGISTER(...)                                                                  \
	VFWD_API const struct vfwd_plugin vfwd_plugin = {.abi_version = VFWD_PLUGIN_ABI_VERSION,   \
							 __VA_ARGS__}

/* Context vfwd places in node->ctx of every feature node (16 bytes). */
struct vfwd_node_ctx {
	uint64_t *errors;	      /* this worker's counters, one per reason */
	const uint16_t *next_by_port; /* next edge, indexed by mbuf->port */
};

/* Edge 0 of every feature node leads to error-drop. */
#define VFWD_FEATURE_NEXT_DROP 0

struct vfwd_feature_reg {
	const char *arc;	    /* "ip4-unicast" or "ip6-unicast" */
	const char *name;	    /* feature and node name, e.g. "example" */
	rte_node_process_t process; /* the node's process function */
	const char *const *errors;  /* counter names ("icmp packets dropped") */
	uint16_t n_errors;
	int order; /* features run in ascending order */
};

/* Register a feature node; call from the plugin's init. 0 or -errno. */
VFWD_API int vfwd_feature_register(const struct vfwd_feature_reg *reg);

/* CLI: a command is a path of words ("show example"); the handler gets the
 * words after the path. Output goes through vfwd_cli_printf. A handler
 * returns 0, or -errno after printing "error: ..." */
struct vfwd_cli_out;
typedef int (*vfwd_cli_fn)(struct vfwd_cli_out *out, int argc, char **argv);
VFWD_API int vfwd_cli_register(const char *path, const char *help, vfwd_cli_fn fn);
VFWD_API int vfwd_cli_printf(struct vfwd_cli_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The next edge for packet m after this feature on its input interface. */
static inline uint16_t
vfwd_feature_next(const struct rte_node *node, const struct rte_mbuf *m)
{
	const struct vfwd_node_ctx *ctx = (const struct vfwd_node_ctx *)node->ctx;

	return ctx->next_by_port[m->port];
}

/* Count n packets under reason `reason` of this node. */
static inline void
vfwd_error_add(struct rte_node *node, uint16_t reason, uint64_t n)
{
	struct vfwd_node_ctx *ctx = (struct vfwd_node_ctx *)node->ctx;

	ctx->errors[reason] += n;
}

#ifdef __cplusplus
}
#endif
#endif /* VFWD_PLUGIN_H */
