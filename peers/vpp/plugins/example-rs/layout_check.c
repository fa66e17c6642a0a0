/* SPDX-License-Identifier: BSD-3-Clause
 * Build-time check of the Rust node's view of VPP (src/vpp.rs) against the headers of the
 * VPP install the plugin is built for. build-plugin turns every `pub const NAME: T = N;` of
 * vpp.rs into `#define RS_NAME N` (rs_layout.h), refuses a constant that this file does not
 * name, and compiles this file with -fsyntax-only: a field that moved, changed its width or
 * its type in VPP fails the build here, not in the data path.
 */
#include <stddef.h>

#include <vlib/vlib.h>
#include <vnet/vnet.h>
#include <vnet/feature/feature.h>
#include <vnet/ip/ip4_packet.h>

#include "example_rs.h"
#include "rs_layout.h"

#define SAME(rs, c) _Static_assert((rs) == (c), #rs " in src/vpp.rs is not " #c)
#define FIELD_SIZE(t, f) sizeof(((t *)0)->f)
#define FIELD_TYPE_IS(t, f, type) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(((t *)0)->f), type), \
		       #t "." #f " is not " #type " (src/vpp.rs reads it as one)")

/* vlib_buffer_t */
SAME(RS_VLIB_BUFFER_OFF_CURRENT_DATA, offsetof(vlib_buffer_t, current_data));
FIELD_TYPE_IS(vlib_buffer_t, current_data, i16);
SAME(RS_VLIB_BUFFER_OFF_ERROR, offsetof(vlib_buffer_t, error));
FIELD_TYPE_IS(vlib_buffer_t, error, vlib_error_t);
_Static_assert(sizeof(vlib_error_t) == 2, "vlib_error_t is not 16 bits (src/vpp.rs)");
SAME(RS_VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX, offsetof(vlib_buffer_t, current_config_index));
FIELD_TYPE_IS(vlib_buffer_t, current_config_index, u32);
SAME(RS_VLIB_BUFFER_OFF_DATA, offsetof(vlib_buffer_t, data));
SAME(RS_CLIB_LOG2_CACHE_LINE_BYTES, CLIB_LOG2_CACHE_LINE_BYTES);

/* vlib_frame_t, vlib_node_runtime_t */
SAME(RS_VLIB_FRAME_SIZE, VLIB_FRAME_SIZE);
/* vlib_buffer_enqueue_to_next() may read nexts up to VLIB_BUFFER_ENQUEUE_MIN_SIZE(n), n
 * rounded up to 64 (not a constant expression: round_pow2 is a function); the Rust node's
 * array holds a whole frame */
_Static_assert((VLIB_FRAME_SIZE + 63) / 64 * 64 <= RS_VLIB_FRAME_SIZE,
	       "the Rust node's nexts array is shorter than vlib_buffer_enqueue_to_next reads");
SAME(RS_VLIB_FRAME_OFF_VECTOR_OFFSET, offsetof(vlib_frame_t, vector_offset));
FIELD_TYPE_IS(vlib_frame_t, vector_offset, u16);
SAME(RS_VLIB_FRAME_OFF_N_VECTORS, offsetof(vlib_frame_t, n_vectors));
FIELD_TYPE_IS(vlib_frame_t, n_vectors, u16);
SAME(RS_VLIB_NODE_RUNTIME_OFF_ERRORS, offsetof(vlib_node_runtime_t, errors));
FIELD_TYPE_IS(vlib_node_runtime_t, errors, vlib_error_t *);
SAME(RS_VLIB_NODE_RUNTIME_OFF_FLAGS, offsetof(vlib_node_runtime_t, flags));
FIELD_TYPE_IS(vlib_node_runtime_t, flags, u16);
SAME(RS_VLIB_NODE_FLAG_TRACE, VLIB_NODE_FLAG_TRACE);

/* vlib_get_buffers() */
SAME(RS_VLIB_MAIN_OFF_BUFFER_MAIN, offsetof(vlib_main_t, buffer_main));
FIELD_TYPE_IS(vlib_main_t, buffer_main, vlib_buffer_main_t *);
SAME(RS_VLIB_BUFFER_MAIN_OFF_BUFFER_MEM_START, offsetof(vlib_buffer_main_t, buffer_mem_start));
FIELD_TYPE_IS(vlib_buffer_main_t, buffer_mem_start, uword);

/* vlib_buffer_enqueue_to_next(): the function pointer and its type */
SAME(RS_VLIB_BUFFER_FUNC_MAIN_OFF_ENQUEUE_TO_NEXT_FN,
     offsetof(vlib_buffer_func_main_t, buffer_enqueue_to_next_fn));
FIELD_TYPE_IS(vlib_buffer_func_main_t, buffer_enqueue_to_next_fn,
	      void (*)(vlib_main_t *, vlib_node_runtime_t *, u32 *, u16 *, uword));

/* vnet_feature_next_u16(): the shared heap, and that it is what the function reads */
SAME(RS_VNET_FEATURE_MAIN_OFF_SHARED_FEATURE_CONFIG_HEAP,
     offsetof(vnet_feature_main_t, shared_feature_config_heap));
FIELD_TYPE_IS(vnet_feature_main_t, shared_feature_config_heap, u32 *);

/* ip4_header_t */
SAME(RS_IP4_HEADER_OFF_PROTOCOL, offsetof(ip4_header_t, protocol));
FIELD_TYPE_IS(ip4_header_t, protocol, u8);
SAME(RS_IP_PROTOCOL_ICMP, IP_PROTOCOL_ICMP);

/* shim.c's registration */
SAME(RS_EXAMPLE_RS_NEXT_DROP, EXAMPLE_RS_NEXT_DROP);
SAME(RS_EXAMPLE_RS_ERROR_ICMP_DROPPED, EXAMPLE_RS_ERROR_ICMP_DROPPED);

/* the node function's type: uword is the Rust side's usize */
_Static_assert(sizeof(uword) == sizeof(void *), "uword is not pointer-sized (usize in Rust)");
_Static_assert(__builtin_types_compatible_p(__typeof__(example_rs_node_fn), vlib_node_function_t),
	       "example_rs_node_fn is not a vlib_node_function_t");
