// SPDX-License-Identifier: BSD-3-Clause
//! Hand-written FFI for the parts of `vfwd/plugin.h` and DPDK 22.11 (`rte_graph_worker.h`,
//! `rte_mbuf_core.h`) this plugin touches, and Rust ports of the `static inline` graph
//! helpers it needs (DPDK exports no symbol for them).
//!
//! Every `pub const` below is a number copied from the C headers. `layout_check.c` asserts
//! each one against the headers at build time (`make` extracts them from this file), and
//! the unit tests assert that the `#[repr(C)]` structures put their fields at these
//! offsets. So a DPDK or plugin.h change that moves a field fails the build instead of
//! corrupting memory at run time.

// The layout constants are read by layout_check.c and the tests, not all by the code.
#![allow(dead_code)]

use std::os::raw::{c_char, c_int, c_void};
use std::ptr;

// ---- vfwd/plugin.h ----
pub const VFWD_PLUGIN_ABI_VERSION: u32 = 1;
pub const VFWD_FEATURE_NEXT_DROP: u16 = 0;
pub const VFWD_PLUGIN_OFF_INIT: usize = 32;
pub const VFWD_PLUGIN_SIZE: usize = 40;
pub const VFWD_NODE_CTX_OFF_NEXT_BY_PORT: usize = 8;
pub const VFWD_FEATURE_REG_OFF_PROCESS: usize = 16;
pub const VFWD_FEATURE_REG_OFF_N_ERRORS: usize = 32;
pub const VFWD_FEATURE_REG_OFF_ORDER: usize = 36;
pub const VFWD_FEATURE_REG_SIZE: usize = 40;

// ---- rte_graph_worker.h ----
pub const RTE_GRAPH_OFF_CIR_MASK: usize = 8;
pub const RTE_GRAPH_OFF_CIR_START: usize = 16;
pub const RTE_NODE_OFF_CTX: usize = 192;
pub const RTE_NODE_CTX_SZ: usize = 16;
pub const RTE_NODE_OFF_SIZE: usize = 208;
pub const RTE_NODE_OFF_IDX: usize = 210;
pub const RTE_NODE_OFF_OFF: usize = 212;
pub const RTE_NODE_OFF_OBJS: usize = 240;
pub const RTE_NODE_OFF_NODES: usize = 256;

// ---- rte_mbuf_core.h ----
pub const RTE_MBUF_OFF_DATA_OFF: usize = 16;
pub const RTE_MBUF_OFF_PORT: usize = 22;
pub const RTE_MBUF_OFF_DATA_LEN: usize = 40;
/// `RTE_MAX_ETHPORTS` of the DPDK build: the length of `vfwd_node_ctx.next_by_port`.
pub const RTE_MAX_ETHPORTS: usize = 32;

/// `struct vfwd_plugin`: the descriptor vfwd looks up by the symbol name `vfwd_plugin`.
#[repr(C)]
pub struct VfwdPlugin {
    pub abi_version: u32,
    pub name: *const c_char,
    pub version: *const c_char,
    pub description: *const c_char,
    pub init: Option<unsafe extern "C" fn() -> c_int>,
}

/// `rte_node_process_t`.
pub type ProcessFn =
    unsafe extern "C" fn(graph: *mut RteGraph, node: *mut RteNode, objs: *mut *mut c_void, cnt: u16) -> u16;

/// `struct vfwd_feature_reg`.
#[repr(C)]
pub struct VfwdFeatureReg {
    pub arc: *const c_char,
    pub name: *const c_char,
    pub process: ProcessFn,
    pub errors: *const *const c_char,
    pub n_errors: u16,
    pub order: c_int,
}

/// `struct vfwd_node_ctx`: what vfwd stores in `node->ctx` of every feature node.
#[repr(C)]
pub struct VfwdNodeCtx {
    pub errors: *mut u64,
    pub next_by_port: *const u16,
}

// The descriptors are immutable data placed in statics; the pointers in them point to
// other statics.
unsafe impl Sync for VfwdPlugin {}
unsafe impl Sync for VfwdFeatureReg {}

/// A static array of C string pointers (`const char *const []`).
#[repr(transparent)]
pub struct CStrArray<const N: usize>(pub [*const c_char; N]);
unsafe impl<const N: usize> Sync for CStrArray<N> {}

/// A NUL-terminated literal as a C string pointer.
#[macro_export]
macro_rules! cstr {
    ($s:literal) => {
        concat!($s, "\0").as_ptr() as *const std::os::raw::c_char
    };
}

extern "C" {
    /// libvfwd: registers a feature node on an arc; 0 or -errno.
    pub fn vfwd_feature_register(reg: *const VfwdFeatureReg) -> c_int;
    /// librte_graph: grows `node`'s stream to at least `req_size` objects.
    fn __rte_node_stream_alloc_size(graph: *mut RteGraph, node: *mut RteNode, req_size: u16);
}

/// The head of `struct rte_graph` (cache aligned, 128 bytes in all; we only read the head).
#[repr(C)]
pub struct RteGraph {
    pub tail: u32,
    pub head: u32,
    pub cir_mask: u32,
    pub nb_nodes: u32,
    pub cir_start: *mut u32,
}

/// `struct rte_node` up to the flexible `nodes[]` array of next nodes.
#[repr(C, align(64))]
pub struct RteNode {
    slow_path: [u8; RTE_NODE_OFF_CTX], // fence, next, id, parent_id, nb_edges, names
    pub ctx: [u8; RTE_NODE_CTX_SZ],
    pub size: u16,
    pub idx: u16,
    pub off: u32,
    stats: [u64; 3], // total_cycles, total_calls, total_objs
    pub objs: *mut *mut c_void,
    pub process: usize,
    pub nodes: [*mut RteNode; 0],
}

/// `struct rte_mbuf` up to `data_len` (first cache line; the rest is never touched).
#[repr(C)]
pub struct RteMbuf {
    pub buf_addr: *mut u8,
    buf_iova: u64,
    pub data_off: u16,
    refcnt: u16,
    nb_segs: u16,
    pub port: u16,
    ol_flags: u64,
    packet_type: u32,
    pub pkt_len: u32,
    pub data_len: u16,
}

const _: () = assert!(std::mem::size_of::<VfwdPlugin>() == VFWD_PLUGIN_SIZE);
const _: () = assert!(std::mem::size_of::<VfwdFeatureReg>() == VFWD_FEATURE_REG_SIZE);
const _: () = assert!(std::mem::size_of::<VfwdNodeCtx>() == RTE_NODE_CTX_SZ);
const _: () = assert!(std::mem::size_of::<RteNode>() == RTE_NODE_OFF_NODES);

/// `rte_pktmbuf_mtod()`: the first byte of the packet data.
#[inline(always)]
pub unsafe fn mbuf_data(m: *const RteMbuf) -> *const u8 {
    (*m).buf_addr.add((*m).data_off as usize)
}

/// `vfwd_feature_next()`: the next edge after this feature for packets from `port`.
#[inline(always)]
pub unsafe fn feature_next(node: *const RteNode, port: u16) -> u16 {
    let ctx = (*node).ctx.as_ptr() as *const VfwdNodeCtx;

    *(*ctx).next_by_port.add(port as usize)
}

/// `vfwd_error_add()`: counts `n` packets under `reason` of this node.
#[inline(always)]
pub unsafe fn error_add(node: *mut RteNode, reason: u16, n: u64) {
    let ctx = (*node).ctx.as_ptr() as *const VfwdNodeCtx;
    let c = (*ctx).errors.add(reason as usize);

    *c += n;
}

/// `__rte_node_next_node_get()`.
#[inline(always)]
unsafe fn next_node_get(node: *mut RteNode, next: u16) -> *mut RteNode {
    let nodes = ptr::addr_of!((*node).nodes) as *const *mut RteNode;

    *nodes.add(next as usize)
}

/// `__rte_node_enqueue_tail_update()`: puts `node` on the graph's pending list.
#[inline(always)]
unsafe fn enqueue_tail_update(graph: *mut RteGraph, node: *const RteNode) {
    let tail = (*graph).tail;

    *(*graph).cir_start.add(tail as usize) = (*node).off;
    (*graph).tail = tail.wrapping_add(1) & (*graph).cir_mask;
}

/// `__rte_node_enqueue_prologue()`.
#[inline(always)]
unsafe fn enqueue_prologue(graph: *mut RteGraph, node: *mut RteNode, idx: u16, space: u16) {
    if idx == 0 {
        enqueue_tail_update(graph, node);
    }
    if ((*node).size as u32) < idx as u32 + space as u32 {
        __rte_node_stream_alloc_size(graph, node, (*node).size.wrapping_add(space));
    }
}

/// `rte_node_enqueue_x1()`: appends one object to the stream of edge `next`.
#[inline(always)]
pub unsafe fn enqueue_x1(graph: *mut RteGraph, node: *mut RteNode, next: u16, obj: *mut c_void) {
    let dst = next_node_get(node, next);
    let idx = (*dst).idx;

    enqueue_prologue(graph, dst, idx, 1);
    *(*dst).objs.add(idx as usize) = obj;
    (*dst).idx = idx + 1;
}

/// `rte_node_enqueue()`: appends `n` objects to the stream of edge `next`.
#[inline]
pub unsafe fn enqueue(
    graph: *mut RteGraph,
    node: *mut RteNode,
    next: u16,
    objs: *const *mut c_void,
    n: u16,
) {
    let dst = next_node_get(node, next);
    let idx = (*dst).idx;

    enqueue_prologue(graph, dst, idx, n);
    ptr::copy_nonoverlapping(objs, (*dst).objs.add(idx as usize), n as usize);
    (*dst).idx = idx + n;
}

/// `rte_node_next_stream_move()`: hands the whole stream of `src` to edge `next`, by
/// swapping the two streams when the next node holds nothing yet.
#[inline(always)]
pub unsafe fn next_stream_move(graph: *mut RteGraph, src: *mut RteNode, next: u16) {
    let dst = next_node_get(src, next);

    if (*dst).idx == 0 {
        ptr::swap(ptr::addr_of_mut!((*dst).objs), ptr::addr_of_mut!((*src).objs));
        ptr::swap(ptr::addr_of_mut!((*dst).size), ptr::addr_of_mut!((*src).size));
        (*dst).idx = (*src).idx;
        enqueue_tail_update(graph, dst);
    } else {
        enqueue(graph, src, next, (*src).objs, (*src).idx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::MaybeUninit;

    macro_rules! offset {
        ($t:ty, $f:ident) => {{
            let u = MaybeUninit::<$t>::uninit();
            let base = u.as_ptr();
            unsafe { (ptr::addr_of!((*base).$f) as usize) - (base as usize) }
        }};
    }

    #[test]
    fn repr_c_structures_match_the_c_offsets() {
        assert_eq!(offset!(VfwdPlugin, init), VFWD_PLUGIN_OFF_INIT);
        assert_eq!(offset!(VfwdNodeCtx, next_by_port), VFWD_NODE_CTX_OFF_NEXT_BY_PORT);
        assert_eq!(offset!(VfwdFeatureReg, process), VFWD_FEATURE_REG_OFF_PROCESS);
        assert_eq!(offset!(VfwdFeatureReg, n_errors), VFWD_FEATURE_REG_OFF_N_ERRORS);
        assert_eq!(offset!(VfwdFeatureReg, order), VFWD_FEATURE_REG_OFF_ORDER);
        assert_eq!(offset!(RteGraph, cir_mask), RTE_GRAPH_OFF_CIR_MASK);
        assert_eq!(offset!(RteGraph, cir_start), RTE_GRAPH_OFF_CIR_START);
        assert_eq!(offset!(RteNode, ctx), RTE_NODE_OFF_CTX);
        assert_eq!(offset!(RteNode, size), RTE_NODE_OFF_SIZE);
        assert_eq!(offset!(RteNode, idx), RTE_NODE_OFF_IDX);
        assert_eq!(offset!(RteNode, off), RTE_NODE_OFF_OFF);
        assert_eq!(offset!(RteNode, objs), RTE_NODE_OFF_OBJS);
        assert_eq!(offset!(RteNode, nodes), RTE_NODE_OFF_NODES);
        assert_eq!(offset!(RteMbuf, data_off), RTE_MBUF_OFF_DATA_OFF);
        assert_eq!(offset!(RteMbuf, port), RTE_MBUF_OFF_PORT);
        assert_eq!(offset!(RteMbuf, data_len), RTE_MBUF_OFF_DATA_LEN);
    }
}
