/* SPDX-License-Identifier: BSD-3-Clause
 * fwdlab's example feature for VPP on the ip4-unicast arc: drops ICMP packets (counted as
 * "icmp packets dropped") and passes every other packet to the next feature. It behaves
 * as vfwd's forwarder/plugins/example does, and its node has the same name, so a VPP dump
 * and a vfwd dump of the same traffic read alike. Built out of tree against a VPP install
 * (peers/vpp/build --variant example); enabled per interface with
 *   set interface feature port0 example arc ip4-unicast
 */
#include <vlib/vlib.h>
#include <vnet/vnet.h>
#include <vnet/feature/feature.h>
#include <vnet/ip/ip4_packet.h>
#include <vnet/plugin/plugin.h>
#include <vpp/app/version.h>

typedef enum {
	EXAMPLE_NEXT_DROP,
	EXAMPLE_N_NEXT,
} example_next_t;

typedef struct {
	u8 protocol;
	u8 dropped;
	u16 next;
} example_trace_t;

#define foreach_example_error _(ICMP_DROPPED, "icmp packets dropped")

typedef enum {
#define _(sym, str) EXAMPLE_ERROR_##sym,
	foreach_example_error
#undef _
		EXAMPLE_N_ERROR,
} example_error_t;

static char *example_error_strings[] = {
#define _(sym, str) str,
	foreach_example_error
#undef _
};

static u8 *
format_example_trace(u8 *s, va_list *args)
{
	CLIB_UNUSED(vlib_main_t * vm) = va_arg(*args, vlib_main_t *);
	CLIB_UNUSED(vlib_node_t * node) = va_arg(*args, vlib_node_t *);
	example_trace_t *t = va_arg(*args, example_trace_t *);

	return format(s, "example: ip protocol %u, %s (next %u)", t->protocol,
		      t->dropped ? "dropped" : "passed", t->next);
}

extern vlib_node_registration_t example_node;

/* One packet: ICMP goes to error-drop with our counter as its reason (error-drop counts
 * it), anything else to the next feature of the arc. Returns 1 when dropped. */
static_always_inline u32
example_classify(vlib_node_runtime_t *node, vlib_buffer_t *b, u16 *next)
{
	ip4_header_t *ip = vlib_buffer_get_current(b);

	if (PREDICT_FALSE(ip->protocol == IP_PROTOCOL_ICMP)) {
		*next = EXAMPLE_NEXT_DROP;
		b->error = node->errors[EXAMPLE_ERROR_ICMP_DROPPED];
		return 1;
	}
	vnet_feature_next_u16(next, b);
	return 0;
}

VLIB_NODE_FN(example_node)(vlib_main_t *vm, vlib_node_runtime_t *node, vlib_frame_t *frame)
{
	vlib_buffer_t *bufs[VLIB_FRAME_SIZE], **b = bufs;
	u16 nexts[VLIB_FRAME_SIZE], *next = nexts;
	u32 *from = vlib_frame_vector_args(frame);
	u32 n_left = frame->n_vectors, i;

	vlib_get_buffers(vm, from, bufs, n_left);
	while (n_left >= 4) {
		if (PREDICT_TRUE(n_left >= 8)) {
			vlib_prefetch_buffer_header(b[4], LOAD);
			vlib_prefetch_buffer_header(b[5], LOAD);
			vlib_prefetch_buffer_header(b[6], LOAD);
			vlib_prefetch_buffer_header(b[7], LOAD);
			vlib_prefetch_buffer_data(b[4], LOAD);
			vlib_prefetch_buffer_data(b[5], LOAD);
			vlib_prefetch_buffer_data(b[6], LOAD);
			vlib_prefetch_buffer_data(b[7], LOAD);
		}
		example_classify(node, b[0], &next[0]);
		example_classify(node, b[1], &next[1]);
		example_classify(node, b[2], &next[2]);
		example_classify(node, b[3], &next[3]);
		b += 4;
		next += 4;
		n_left -= 4;
	}
	while (n_left > 0) {
		example_classify(node, b[0], &next[0]);
		b++;
		next++;
		n_left--;
	}

	if (PREDICT_FALSE(node->flags & VLIB_NODE_FLAG_TRACE)) {
		for (i = 0; i < frame->n_vectors; i++) {
			if (!(bufs[i]->flags & VLIB_BUFFER_IS_TRACED))
				continue;
			example_trace_t *t = vlib_add_trace(vm, node, bufs[i], sizeof(*t));
			ip4_header_t *ip = vlib_buffer_get_current(bufs[i]);
			t->protocol = ip->protocol;
			t->next = nexts[i];
			t->dropped = nexts[i] == EXAMPLE_NEXT_DROP;
		}
	}
	vlib_buffer_enqueue_to_next(vm, node, from, nexts, frame->n_vectors);
	return frame->n_vectors;
}

VLIB_REGISTER_NODE(example_node) = {
	.name = "example",
	.vector_size = sizeof(u32),
	.format_trace = format_example_trace,
	.type = VLIB_NODE_TYPE_INTERNAL,
	.n_errors = EXAMPLE_N_ERROR,
	.error_strings = example_error_strings,
	.n_next_nodes = EXAMPLE_N_NEXT,
	.next_nodes = {
		[EXAMPLE_NEXT_DROP] = "error-drop",
	},
};

VNET_FEATURE_INIT(example_feature, static) = {
	.arc_name = "ip4-unicast",
	.node_name = "example",
	.runs_before = VNET_FEATURES("ip4-lookup"),
};

VLIB_PLUGIN_REGISTER() = {
	.version = VPP_BUILD_VER,
	.description = "fwdlab example: drops ICMP on the ip4-unicast arc (C)",
};
