/* SPDX-License-Identifier: BSD-3-Clause
 * The ip4-unicast and ip6-unicast feature arcs (feature.c) and their commands.
 */
#ifndef VFWD_FEATURE_H
#define VFWD_FEATURE_H

#include "defs.h"

/* ---- feature arcs (feature.c) ---- */
#define ARC_IP4_UNICAST "ip4-unicast"
#define ARC_IP6_UNICAST "ip6-unicast"
struct feature {
	char name[RTE_NODE_NAMESIZE];
	rte_node_t node;
	int order;
	uint16_t n_errors;
};
struct feature_arc {
	const char *name;  /* "ip4-unicast" */
	const char *start; /* the node the arc starts at: ip4-input */
	const char *end;   /* where it goes after its last feature: ip4-lookup */
	unsigned n_features;
	struct feature features[MAX_FEATURES];
	uint32_t enabled[RTE_MAX_ETHPORTS]; /* bitmask of feature slots */
	/* next_edge[0] is used by the start node, next_edge[1 + slot] by features */
	uint16_t next_edge[MAX_FEATURES + 1][RTE_MAX_ETHPORTS];
	/* edge[from][to]: from = 0 start, 1+slot; to = slot, MAX_FEATURES = the end node */
	uint16_t edge[MAX_FEATURES + 1][MAX_FEATURES + 1];
};
/* ip4-input -> features -> ip4-lookup; ip6-input -> features -> ip6-lookup */
extern struct feature_arc ip4_unicast_arc, ip6_unicast_arc;
/* The edge a vector entering the arc's start node most likely takes: the arc's next edge
 * for the input port of its first packet (NODE_REGISTER_EACH's `spec`). */
#define ARC_START_EDGE(arc, objs) ((arc).next_edge[0][((const struct rte_mbuf *)(objs)[0])->port])
int feature_arc_finalize(void);
int feature_enable(const char *port, const char *feature, const char *arc, bool enable, char *err,
		   size_t len);
/* The slot of feature node `node` on its arc (-1: no such feature); *arc gets the arc. */
int feature_find(const char *node, struct feature_arc **arc);
void feature_cli_register(void);

#endif /* VFWD_FEATURE_H */
