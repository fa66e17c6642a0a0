/* SPDX-License-Identifier: BSD-3-Clause
 * l2-xconnect: sends every frame of an input interface, untouched, to the
 * output of its cross-connected peer (`set interface l2 xconnect A B`).
 * A frame whose mbuf chain holds fewer bytes than its pkt_len is dropped.
 */
#include "edge.h"
#include "error.h"
#include "state.h"
#include "node_util.h"

/* edge 0 is error-drop; graph setup adds one edge per <port>-output */

static const char *const l2_xconnect_error_strings[] = {
	"mbuf chain shorter than packet length",
};

static uint16_t
l2_xconnect_process(struct rte_graph *graph, struct rte_node *node, void **objs, uint16_t cnt)
{
	struct rte_mbuf **pkts = (struct rte_mbuf **)objs;
	uint64_t *errors = ((struct vfwd_node_ctx *)node->ctx)->errors;
	const uint16_t *next_by_port = ((struct vfwd_node_ctx *)node->ctx)->next_by_port;
	rte_edge_t nexts[cnt]; /* a vector can exceed the burst size when streams merge */
	rte_edge_t spec = next_by_port[pkts[0]->port];
	uint16_t n_spec = 0;

	for (uint16_t i = 0; i < cnt; i++) {
		nexts[i] = next_by_port[pkts[i]->port];
		if (unlikely(pkts[i]->pkt_len != pkts[i]->data_len) && !mbuf_chain_ok(pkts[i])) {
			errors[0]++;
			nexts[i] = 0;
		}
		n_spec += nexts[i] == spec;
	}
	node_dispatch(graph, node, objs, cnt, nexts, spec, n_spec);
	return cnt;
}

NODE_REGISTER_COUNTED(l2_xconnect, "l2-xconnect", l2_xconnect_process, l2_xconnect_error_strings, 1,
		      1, "error-drop");
