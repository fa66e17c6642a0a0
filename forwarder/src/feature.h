/* SPDX-License-Identifier: BSD-3-Clause
 * The ip4-unicast feature arc (feature.c) and its commands.
 */
#ifndef VFWD_FEATURE_H
#define VFWD_FEATURE_H

#include "defs.h"

/* ---- feature arc (feature.c) ---- */
#define ARC_IP4_UNICAST "ip4-unicast"
struct feature {
	char name[RTE_NODE_NAMESIZE];
	rte_node_t node;
	int order;
	uint16_t n_errors;
};
struct feature_arc {
	unsigned n_features;
	struct feature features[MAX_FEATURES];
	uint32_t enabled[RTE_MAX_ETHPORTS]; /* bitmask of feature slots */
	/* next_edge[0] is used by ip4-input (the arc start), next_edge[1 + slot] by features */
	uint16_t next_edge[MAX_FEATURES + 1][RTE_MAX_ETHPORTS];
	/* edge[from][to]: from = 0 start, 1+slot; to = slot, MAX_FEATURES = ip4-lookup */
	uint16_t edge[MAX_FEATURES + 1][MAX_FEATURES + 1];
};
extern struct feature_arc ip4_unicast_arc;
int feature_arc_finalize(void);
int feature_enable(const char *port, const char *feature, bool enable, char *err, size_t len);
int feature_slot_by_node(const char *node);
void feature_cli_register(void);

#endif /* VFWD_FEATURE_H */
