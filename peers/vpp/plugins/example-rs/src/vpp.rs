// SPDX-License-Identifier: BSD-3-Clause
//! The parts of VPP 26.06 the node touches, as byte offsets into its C structures, and the
//! two exported VPP globals it reads once per frame.
//!
//! Every `pub const` below is a number copied from VPP's headers. build-plugin turns each
//! into `#define RS_NAME N` (rs_layout.h) and compiles layout_check.c against the VPP
//! install the plugin is built for: an offset, size or value that differs there stops the
//! build, as does a constant that layout_check.c does not assert. Field widths and types
//! are asserted there too. Nothing here is a `#[repr(C)]` mirror of a VPP structure: the
//! node reads and writes fields at these offsets only.

use core::ptr;

// ---- vlib/buffer.h: vlib_buffer_t (the first cache line and the packet data) ----
/// `i16 current_data`: where the packet starts, relative to `data`.
pub const VLIB_BUFFER_OFF_CURRENT_DATA: usize = 0;
/// `vlib_error_t error` (u16): the drop reason error-drop counts.
pub const VLIB_BUFFER_OFF_ERROR: usize = 14;
/// `u32 current_config_index`: the buffer's position on its feature arc.
pub const VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX: usize = 20;
/// `u8 data[]`: the packet data (after the metadata and the pre-data headroom).
pub const VLIB_BUFFER_OFF_DATA: usize = 256;
/// `CLIB_LOG2_CACHE_LINE_BYTES`: a buffer index is its offset from `buffer_mem_start` in
/// cache lines (`vlib_get_buffers`).
pub const CLIB_LOG2_CACHE_LINE_BYTES: usize = 6;

// ---- vlib/node.h ----
/// `VLIB_FRAME_SIZE`: the most buffers a frame holds.
pub const VLIB_FRAME_SIZE: usize = 256;
/// `vlib_frame_t.vector_offset` (u16): `vlib_frame_vector_args()` is `frame + vector_offset`.
pub const VLIB_FRAME_OFF_VECTOR_OFFSET: usize = 6;
/// `vlib_frame_t.n_vectors` (u16).
pub const VLIB_FRAME_OFF_N_VECTORS: usize = 10;
/// `vlib_node_runtime_t.errors` (`vlib_error_t *`): the node's error codes by its index.
pub const VLIB_NODE_RUNTIME_OFF_ERRORS: usize = 8;
/// `vlib_node_runtime_t.flags` (u16).
pub const VLIB_NODE_RUNTIME_OFF_FLAGS: usize = 60;
/// `VLIB_NODE_FLAG_TRACE`.
pub const VLIB_NODE_FLAG_TRACE: u16 = 32;

// ---- vlib/main.h, vlib/buffer.h: vlib_get_buffers() ----
/// `vlib_main_t.buffer_main` (`vlib_buffer_main_t *`).
pub const VLIB_MAIN_OFF_BUFFER_MAIN: usize = 296;
/// `vlib_buffer_main_t.buffer_mem_start` (uword).
pub const VLIB_BUFFER_MAIN_OFF_BUFFER_MEM_START: usize = 0;

// ---- vlib/buffer_funcs.h: vlib_buffer_enqueue_to_next() ----
/// `vlib_buffer_func_main_t.buffer_enqueue_to_next_fn`.
pub const VLIB_BUFFER_FUNC_MAIN_OFF_ENQUEUE_TO_NEXT_FN: usize = 0;

// ---- vnet/feature/feature.h: vnet_feature_next_u16() ----
/// `vnet_feature_main_t.shared_feature_config_heap` (`u32 *`).
pub const VNET_FEATURE_MAIN_OFF_SHARED_FEATURE_CONFIG_HEAP: usize = 64;

// ---- vnet/ip/ip4_packet.h, vnet/ip/ip_packet.h ----
/// `ip4_header_t.protocol` (u8).
pub const IP4_HEADER_OFF_PROTOCOL: usize = 9;
/// `IP_PROTOCOL_ICMP`.
pub const IP_PROTOCOL_ICMP: u8 = 1;

// ---- shim.c: the node's registration ----
/// `EXAMPLE_RS_NEXT_DROP`: the node's next edge 0, error-drop.
pub const EXAMPLE_RS_NEXT_DROP: u16 = 0;
/// `EXAMPLE_RS_ERROR_ICMP_DROPPED`: the node's error 0, "icmp packets dropped".
pub const EXAMPLE_RS_ERROR_ICMP_DROPPED: usize = 0;

/// `vlib_main_t`, `vlib_node_runtime_t`, `vlib_frame_t`: opaque here.
#[repr(C)]
pub struct VlibMain {
    _opaque: [u8; 0],
}
#[repr(C)]
pub struct VlibNodeRuntime {
    _opaque: [u8; 0],
}
#[repr(C)]
pub struct VlibFrame {
    _opaque: [u8; 0],
}

/// `vlib_buffer_enqueue_to_next_fn_t` (layout_check.c asserts the C type).
pub type EnqueueToNextFn = unsafe extern "C" fn(
    vm: *mut VlibMain,
    node: *mut VlibNodeRuntime,
    buffers: *mut u32,
    nexts: *mut u16,
    count: usize,
);

extern "C" {
    /// libvnet: the feature arcs' state (`vnet_feature_main_t`).
    static feature_main: u8;
    /// libvlib: the buffer functions VPP chose for this CPU (`vlib_buffer_func_main_t`).
    static vlib_buffer_func_main: u8;
    /// shim.c: adds a trace record to every traced buffer of the frame (only when the
    /// node is traced).
    pub fn example_rs_trace_frame(
        vm: *mut VlibMain,
        node: *mut VlibNodeRuntime,
        buffers: *const u32,
        nexts: *const u16,
        n: u32,
    );
}

/// The value of type `T` at byte offset `off` of `base`.
#[inline(always)]
pub unsafe fn read_at<T: Copy>(base: *const u8, off: usize) -> T {
    ptr::read_unaligned(base.add(off) as *const T)
}

/// Stores `v` at byte offset `off` of `base`.
#[inline(always)]
pub unsafe fn write_at<T>(base: *mut u8, off: usize, v: T) {
    ptr::write_unaligned(base.add(off) as *mut T, v)
}

/// `frame->n_vectors`.
#[inline(always)]
pub unsafe fn frame_n_vectors(frame: *const VlibFrame) -> usize {
    read_at::<u16>(frame as *const u8, VLIB_FRAME_OFF_N_VECTORS) as usize
}

/// `vlib_frame_vector_args()`: the frame's buffer indices.
#[inline(always)]
pub unsafe fn frame_buffers(frame: *mut VlibFrame) -> *mut u32 {
    let off = read_at::<u16>(frame as *const u8, VLIB_FRAME_OFF_VECTOR_OFFSET);

    (frame as *mut u8).add(off as usize) as *mut u32
}

/// `vm->buffer_main->buffer_mem_start`: buffer index i is at `start + (i << 6)`.
#[inline(always)]
pub unsafe fn buffer_mem_start(vm: *const VlibMain) -> *mut u8 {
    let bm = read_at::<*const u8>(vm as *const u8, VLIB_MAIN_OFF_BUFFER_MAIN);

    read_at::<usize>(bm, VLIB_BUFFER_MAIN_OFF_BUFFER_MEM_START) as *mut u8
}

/// `node->errors[i]`: the error code of the node's error i.
#[inline(always)]
pub unsafe fn node_error(node: *const VlibNodeRuntime, i: usize) -> u16 {
    let errors = read_at::<*const u16>(node as *const u8, VLIB_NODE_RUNTIME_OFF_ERRORS);

    *errors.add(i)
}

/// `node->flags & VLIB_NODE_FLAG_TRACE`.
#[inline(always)]
pub unsafe fn node_is_traced(node: *const VlibNodeRuntime) -> bool {
    read_at::<u16>(node as *const u8, VLIB_NODE_RUNTIME_OFF_FLAGS) & VLIB_NODE_FLAG_TRACE != 0
}

/// `feature_main.shared_feature_config_heap`: the next-feature heap every arc shares. Read
/// once per frame: features change only at a barrier, between frames.
#[inline(always)]
pub unsafe fn feature_config_heap() -> *const u32 {
    read_at::<*const u32>(ptr::addr_of!(feature_main), VNET_FEATURE_MAIN_OFF_SHARED_FEATURE_CONFIG_HEAP)
}

/// `vlib_buffer_func_main.buffer_enqueue_to_next_fn`: what `vlib_buffer_enqueue_to_next()`
/// calls.
#[inline(always)]
pub unsafe fn enqueue_to_next_fn() -> EnqueueToNextFn {
    read_at::<EnqueueToNextFn>(
        ptr::addr_of!(vlib_buffer_func_main),
        VLIB_BUFFER_FUNC_MAIN_OFF_ENQUEUE_TO_NEXT_FN,
    )
}
