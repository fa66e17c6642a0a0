/* SPDX-License-Identifier: BSD-3-Clause
 * What shim.c and the Rust node (src/lib.rs) share: the node's next edges and errors, and
 * the two functions that cross between them. layout_check.c asserts that src/vpp.rs has
 * the same numbers.
 */
#ifndef EXAMPLE_RS_H
#define EXAMPLE_RS_H

#include <vlib/vlib.h>

typedef enum {
	EXAMPLE_RS_NEXT_DROP,
	EXAMPLE_RS_N_NEXT,
} example_rs_next_t;

#define foreach_example_rs_error _(ICMP_DROPPED, "icmp packets dropped")

typedef enum {
#define _(sym, str) EXAMPLE_RS_ERROR_##sym,
	foreach_example_rs_error
#undef _
		EXAMPLE_RS_N_ERROR,
} example_rs_error_t;

/* src/lib.rs: the node function of `example-rs`. */
vlib_node_function_t example_rs_node_fn;

/* shim.c: a trace record for every traced buffer of a frame, called by the Rust node when
 * the node is traced (not exported: the Rust library is linked into the same .so). */
__attribute__((visibility("hidden"))) void example_rs_trace_frame(vlib_main_t *vm, vlib_node_runtime_t *node, const u32 *buffers,
			    const u16 *nexts, u32 n);

#endif
