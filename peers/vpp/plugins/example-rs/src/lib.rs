// SPDX-License-Identifier: BSD-3-Clause
//! fwdlab's example feature for VPP, in Rust: the node `example-rs` on the ip4-unicast arc
//! drops ICMP packets (to error-drop, counted as "icmp packets dropped") and passes every
//! other packet to the next feature of the arc. The twin of ../example/example.c, with its
//! own node name so that both plugins load side by side and `show runtime` tells them apart.
//!
//! This file is the node function: the per-packet work is Rust. shim.c holds what VPP's C
//! macros declare (plugin, node and feature registrations, the error strings, the trace
//! formatter) and the trace path. Per frame the node reads four VPP fields (vpp.rs, their
//! offsets checked against VPP's headers at build time) and makes one call into VPP, the
//! `vlib_buffer_enqueue_to_next()` function pointer, as the C node does.
#![cfg_attr(not(test), no_std)]
// The test build has no node function: the FFI half of vpp.rs is unused there.
#![cfg_attr(test, allow(dead_code))]

mod vpp;

use core::mem::MaybeUninit;
use vpp::*;

/// What the node needs of VPP for one frame, read once at its start.
pub struct FrameCtx {
    /// `vm->buffer_main->buffer_mem_start`
    pub buffer_mem_start: *mut u8,
    /// `feature_main.shared_feature_config_heap`
    pub feature_heap: *const u32,
    /// `node->errors[EXAMPLE_RS_ERROR_ICMP_DROPPED]`
    pub icmp_error: u16,
}

/// Marks the branch it is called from as unlikely (C's `PREDICT_FALSE`).
#[cold]
#[inline(always)]
fn unlikely_path() {}

/// `vlib_get_buffer()`: the buffer of index `bi`.
#[inline(always)]
unsafe fn buffer(ctx: &FrameCtx, bi: u32) -> *mut u8 {
    ctx.buffer_mem_start.add((bi as usize) << CLIB_LOG2_CACHE_LINE_BYTES)
}

/// `vlib_buffer_get_current()`: the packet's first byte (its IPv4 header on this arc).
#[inline(always)]
unsafe fn current(b: *mut u8) -> *mut u8 {
    let cd = read_at::<i16>(b, VLIB_BUFFER_OFF_CURRENT_DATA);

    b.add(VLIB_BUFFER_OFF_DATA).offset(cd as isize)
}

/// One packet: ICMP goes to error-drop with our counter as its reason (error-drop counts
/// it), anything else to the next feature of the arc (`vnet_feature_next_u16()`: the next
/// edge is the heap's word at the buffer's config index, and the index moves past it).
#[inline(always)]
unsafe fn classify(ctx: &FrameCtx, b: *mut u8) -> u16 {
    if *current(b).add(IP4_HEADER_OFF_PROTOCOL) == IP_PROTOCOL_ICMP {
        unlikely_path();
        write_at::<u16>(b, VLIB_BUFFER_OFF_ERROR, ctx.icmp_error);
        return EXAMPLE_RS_NEXT_DROP;
    }
    let ci = read_at::<u32>(b, VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX);

    write_at::<u32>(b, VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX, ci.wrapping_add(1));
    *ctx.feature_heap.add(ci as usize) as u16
}

/// `vlib_prefetch_buffer_header()` and `vlib_prefetch_buffer_data()`.
#[inline(always)]
unsafe fn prefetch(b: *mut u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

        _mm_prefetch::<_MM_HINT_T0>(b as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(current(b) as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = b;
}

/// The frame's next edges into `nexts[..n]`: four packets a turn, prefetching the next
/// four, then the rest one by one (the C node's loop).
///
/// # Safety
/// `from[..n]` are buffer indices of `ctx.buffer_mem_start`'s buffers, each holding an
/// IPv4 header at its current data and a valid config index into `ctx.feature_heap`;
/// `nexts` has room for `n` entries.
#[inline(always)]
pub unsafe fn classify_frame(ctx: &FrameCtx, from: *const u32, nexts: *mut u16, n: usize) {
    let mut i = 0;

    while i + 4 <= n {
        if i + 8 <= n {
            prefetch(buffer(ctx, *from.add(i + 4)));
            prefetch(buffer(ctx, *from.add(i + 5)));
            prefetch(buffer(ctx, *from.add(i + 6)));
            prefetch(buffer(ctx, *from.add(i + 7)));
        }
        *nexts.add(i) = classify(ctx, buffer(ctx, *from.add(i)));
        *nexts.add(i + 1) = classify(ctx, buffer(ctx, *from.add(i + 1)));
        *nexts.add(i + 2) = classify(ctx, buffer(ctx, *from.add(i + 2)));
        *nexts.add(i + 3) = classify(ctx, buffer(ctx, *from.add(i + 3)));
        i += 4;
    }
    while i < n {
        *nexts.add(i) = classify(ctx, buffer(ctx, *from.add(i)));
        i += 1;
    }
}

/// The node function (`vlib_node_function_t`), registered by shim.c as the node
/// `example-rs`'s function. Returns the number of buffers it handled.
///
/// # Safety
/// Called by VPP's dispatcher only, with its own `vm`, `node` and `frame`.
#[cfg(not(test))]
#[no_mangle]
pub unsafe extern "C" fn example_rs_node_fn(
    vm: *mut VlibMain,
    node: *mut VlibNodeRuntime,
    frame: *mut VlibFrame,
) -> usize {
    // vlib_buffer_enqueue_to_next() reads nexts past n (up to a multiple of 64) and ignores
    // what it reads there: a whole frame's worth, uninitialised, as the C node's array.
    let mut nexts = MaybeUninit::<[u16; VLIB_FRAME_SIZE]>::uninit();
    let nexts = nexts.as_mut_ptr() as *mut u16;
    let from = frame_buffers(frame);
    let n = frame_n_vectors(frame);
    let ctx = FrameCtx {
        buffer_mem_start: buffer_mem_start(vm),
        feature_heap: feature_config_heap(),
        icmp_error: node_error(node, EXAMPLE_RS_ERROR_ICMP_DROPPED),
    };

    classify_frame(&ctx, from, nexts, n);
    if node_is_traced(node) {
        unlikely_path();
        example_rs_trace_frame(vm, node, from, nexts, n as u32);
    }
    (enqueue_to_next_fn())(vm, node, from, nexts, n);
    n
}

/// The data path has no operation that panics (raw pointer reads and writes only); were
/// one added, it aborts VPP as a C assertion would.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    extern "C" {
        fn abort() -> !;
    }
    unsafe { abort() }
}

#[cfg(test)]
mod tests;
