// SPDX-License-Identifier: BSD-3-Clause
//! Example feature on the ip4-unicast arc, in Rust: drops ICMP packets (counted as
//! "icmp packets dropped") and passes every other packet to the next feature. It is the
//! Rust twin of plugins/example/example.c: same behaviour, same counters, node `example-rs`.

mod classify;
mod ffi;

use std::os::raw::{c_int, c_void};

use classify::{Packet, Verdict, ETH_IP4_PROTO_OFFSET};
use ffi::{CStrArray, RteGraph, RteMbuf, RteNode, VfwdFeatureReg, VfwdPlugin};

/// Error counters of the node, in the order of `ERROR_STRINGS`.
const EXAMPLE_RS_ERROR_ICMP_DROPPED: u16 = 0;
const EXAMPLE_RS_N_ERROR: u16 = 1;
static ERROR_STRINGS: CStrArray<{ EXAMPLE_RS_N_ERROR as usize }> =
    CStrArray([cstr!("icmp packets dropped")]);

/// An mbuf pointer from the node's stream.
#[repr(transparent)]
struct Mbuf(*mut RteMbuf);

impl Packet for Mbuf {
    #[inline(always)]
    fn ip4_protocol(&self) -> u8 {
        // SAFETY: the graph hands us valid mbufs, and ip4-input let only frames that hold
        // a whole IPv4 header into the arc.
        unsafe { *ffi::mbuf_data(self.0).add(ETH_IP4_PROTO_OFFSET) }
    }

    #[inline(always)]
    fn rx_port(&self) -> u16 {
        // SAFETY: as above.
        unsafe { (*self.0).port }
    }
}

/// The node's process function (`rte_node_process_t`).
unsafe extern "C" fn example_rs_process(
    graph: *mut RteGraph,
    node: *mut RteNode,
    objs: *mut *mut c_void,
    cnt: u16,
) -> u16 {
    if cnt == 0 {
        return 0;
    }
    let pkts = std::slice::from_raw_parts(objs as *const Mbuf, cnt as usize);

    // fast path: no ICMP and one input interface, so the stream moves whole
    if classify::moves_whole(pkts) {
        let next = ffi::feature_next(node, pkts[0].rx_port());

        ffi::next_stream_move(graph, node, next);
        return cnt;
    }
    let dropped = classify::split(pkts, |i, verdict| {
        let next = match verdict {
            Verdict::Drop => ffi::VFWD_FEATURE_NEXT_DROP,
            Verdict::Pass { port } => ffi::feature_next(node, port),
        };
        ffi::enqueue_x1(graph, node, next, *objs.add(i));
    });
    ffi::error_add(node, EXAMPLE_RS_ERROR_ICMP_DROPPED, dropped);
    cnt
}

static FEATURE: VfwdFeatureReg = VfwdFeatureReg {
    arc: cstr!("ip4-unicast"),
    name: cstr!("example-rs"),
    process: example_rs_process,
    errors: &ERROR_STRINGS as *const CStrArray<1> as *const *const std::os::raw::c_char,
    n_errors: EXAMPLE_RS_N_ERROR,
    order: 100,
};

unsafe extern "C" fn example_rs_init() -> c_int {
    ffi::vfwd_feature_register(&FEATURE)
}

#[cfg(not(feature = "abi-mismatch"))]
const ABI_VERSION: u32 = ffi::VFWD_PLUGIN_ABI_VERSION;
#[cfg(feature = "abi-mismatch")]
const ABI_VERSION: u32 = ffi::VFWD_PLUGIN_ABI_VERSION + 1000;

/// The plugin descriptor vfwd looks up by name (VFWD_PLUGIN_REGISTER in C).
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static vfwd_plugin: VfwdPlugin = VfwdPlugin {
    abi_version: ABI_VERSION,
    name: cstr!("example-rs"),
    version: cstr!("1.0"),
    description: cstr!("drops ICMP on the ip4-unicast arc (Rust)"),
    init: Some(example_rs_init),
};

#[cfg(test)]
mod tests;
