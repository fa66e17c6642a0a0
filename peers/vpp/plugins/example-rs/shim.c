/* SPDX-License-Identifier: BSD-3-Clause
 * The C half of fwdlab's Rust example plugin for VPP: what VPP's C macros declare and Rust
 * cannot say cleanly (constructors that link registrations into VPP's lists, the plugin
 * registration in its ELF section, a varargs trace formatter), and the trace path. The
 * node function, the per-packet work, is Rust: src/lib.rs. Linked with the Rust static
 * library into example_rs_plugin.so by ../build-plugin; enabled per interface with
 *   set interface feature port0 example-rs arc ip4-unicast
 */
#include <vlib/vlib.h>
#include <vnet/vnet.h>
#include <vnet/feature/feature.h>
#include <vnet/ip/ip4_packet.h>
#include <vnet/plugin/plugin.h>
#include <vpp/app/version.h>

#include "example_rs.h"

typedef struct {
	u8 protocol;
	u8 dropped;
	u16 next;
} example_rs_trace_t;

static char *example_rs_error_strings[] = {
#define _(sym, str) str,
	foreach_example_rs_error
#undef _
};

static u8 *
format_example_rs_trace(u8 *s, va_list *args)
{
	CLIB_UNUSED(vlib_main_t * vm) = va_arg(*args, vlib_main_t *);
	CLIB_UNUSED(vlib_node_t * node) = va_arg(*args, vlib_node_t *);
	example_rs_trace_t *t = va_arg(*args, example_rs_trace_t *);

	return format(s, "example-rs: ip protocol %u, %s (next %u)", t->protocol,
		      t->dropped ? "dropped" : "passed", t->next);
}

void
example_rs_trace_frame(vlib_main_t *vm, vlib_node_runtime_t *node, const u32 *buffers,
		       const u16 *nexts, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		vlib_buffer_t *b = vlib_get_buffer(vm, buffers[i]);

		if (!(b->flags & VLIB_BUFFER_IS_TRACED))
			continue;
		example_rs_trace_t *t = vlib_add_trace(vm, node, b, sizeof(*t));
		ip4_header_t *ip = vlib_buffer_get_current(b);
		t->protocol = ip->protocol;
		t->next = nexts[i];
		t->dropped = nexts[i] == EXAMPLE_RS_NEXT_DROP;
	}
}

VLIB_REGISTER_NODE(example_rs_node) = {
	.function = example_rs_node_fn,
	.name = "example-rs",
	.vector_size = sizeof(u32),
	.format_trace = format_example_rs_trace,
	.type = VLIB_NODE_TYPE_INTERNAL,
	.n_errors = EXAMPLE_RS_N_ERROR,
	.error_strings = example_rs_error_strings,
	.n_next_nodes = EXAMPLE_RS_N_NEXT,
	.next_nodes = {
		[EXAMPLE_RS_NEXT_DROP] = "error-drop",
	},
};

VNET_FEATURE_INIT(example_rs_feature, static) = {
	.arc_name = "ip4-unicast",
	.node_name = "example-rs",
	.runs_before = VNET_FEATURES("ip4-lookup"),
};

VLIB_PLUGIN_REGISTER() = {
	.version = VPP_BUILD_VER,
	.description = "fwdlab example: drops ICMP on the ip4-unicast arc (Rust)",
};
