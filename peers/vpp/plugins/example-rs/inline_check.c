/* SPDX-License-Identifier: BSD-3-Clause
 * Build-time check that the static inline functions of VPP which the Rust node does by hand
 * (src/lib.rs) still compute what it computes. layout_check.c proves the offsets; this proves
 * the arithmetic, by running VPP's own inlines on stand-in structures:
 *   vlib_frame_vector_args()   frame + vector_offset
 *   vlib_get_buffer()          buffer_mem_start + (index << CLIB_LOG2_CACHE_LINE_BYTES)
 *   vlib_buffer_get_current()  buffer + data offset + current_data
 *   vnet_feature_next_u16()    next = heap[current_config_index], the index moves past it
 * build-plugin compiles it against the install's headers and runs it; it needs no VPP library
 * (feature_main, libvnet's, is defined here).
 */
#include <stdio.h>

#include <vlib/vlib.h>
#include <vnet/feature/feature.h>

#include "rs_layout.h"

vnet_feature_main_t feature_main;

static int failed;

#define EXPECT(cond, what)                                                        \
	do {                                                                      \
		if (!(cond)) {                                                    \
			fprintf(stderr, "inline_check: %s: src/lib.rs computes it " \
					"differently\n",                          \
				what);                                            \
			failed = 1;                                               \
		}                                                                 \
	} while (0)

int
main(void)
{
	static u8 pool[8 << RS_CLIB_LOG2_CACHE_LINE_BYTES] __attribute__((aligned(64)));
	static u8 frame_mem[64] __attribute__((aligned(16)));
	static u32 heap[16];
	static vlib_buffer_main_t bm;
	static vlib_main_t vm;
	vlib_frame_t *f = (vlib_frame_t *)frame_mem;
	vlib_buffer_t *b;
	u16 next = 0;

	f->vector_offset = 16;
	EXPECT((u8 *)vlib_frame_vector_args(f) == frame_mem + 16, "vlib_frame_vector_args()");

	bm.buffer_mem_start = pointer_to_uword(pool);
	vm.buffer_main = &bm;
	b = vlib_get_buffer(&vm, 4);
	EXPECT((u8 *)b == pool + (4 << RS_CLIB_LOG2_CACHE_LINE_BYTES), "vlib_get_buffer()");

	b = (vlib_buffer_t *)pool;
	b->current_data = -14;
	EXPECT((u8 *)vlib_buffer_get_current(b) == pool + RS_VLIB_BUFFER_OFF_DATA - 14,
	       "vlib_buffer_get_current()");

	heap[7] = 3;
	heap[8] = 5;
	feature_main.shared_feature_config_heap = heap;
	b->current_config_index = 7;
	vnet_feature_next_u16(&next, b);
	EXPECT(next == 3 && b->current_config_index == 8, "vnet_feature_next_u16()");
	vnet_feature_next_u16(&next, b);
	EXPECT(next == 5 && b->current_config_index == 9, "vnet_feature_next_u16() twice");

	return failed;
}
