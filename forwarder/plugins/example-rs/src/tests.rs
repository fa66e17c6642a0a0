// SPDX-License-Identifier: BSD-3-Clause
//! The node's process function on a graph laid out in memory as DPDK lays it out (a source
//! node with three edges, a pending-stream ring), with frames in mbufs. Only the two C
//! functions the plugin calls are stand-ins here; the integration tests run the plugin in
//! vfwd on real DPDK ports.

use super::*;
use crate::classify::tests::ip4_frame;
use crate::classify::IPPROTO_ICMP;
use crate::ffi::VfwdNodeCtx;
use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::mem;
use std::ptr;

thread_local! {
    static ALLOCS: Cell<usize> = Cell::new(0);
    static REGISTERED: RefCell<Vec<(String, String, Vec<String>, i32, usize)>> =
        RefCell::new(Vec::new());
}

/// Stand-in for libvfwd's vfwd_feature_register: records what the plugin asked for.
#[no_mangle]
unsafe extern "C" fn vfwd_feature_register(reg: *const VfwdFeatureReg) -> c_int {
    let s = |p| CStr::from_ptr(p).to_str().unwrap().to_string();
    let r = &*reg;
    let errors = (0..r.n_errors as usize).map(|i| s(*r.errors.add(i))).collect();

    REGISTERED.with(|v| {
        v.borrow_mut()
            .push((s(r.arc), s(r.name), errors, r.order, r.process as *const () as usize))
    });
    0
}

/// Stand-in for librte_graph's stream growth: a larger array holding the same objects.
#[no_mangle]
unsafe extern "C" fn __rte_node_stream_alloc_size(
    _graph: *mut RteGraph,
    node: *mut RteNode,
    req_size: u16,
) {
    let mut v: Vec<*mut c_void> = vec![ptr::null_mut(); req_size as usize];

    ptr::copy_nonoverlapping((*node).objs, v.as_mut_ptr(), (*node).idx as usize);
    (*node).objs = v.as_mut_ptr();
    (*node).size = req_size;
    mem::forget(v);
    ALLOCS.with(|a| a.set(a.get() + 1));
}

const EDGE_DROP: usize = 0;
const EDGE_LOOKUP: usize = 1;
const EDGE_FEATURE: usize = 2;

/// rte_node with its next-node array right behind it, as in the graph's memory.
#[repr(C)]
struct NodeMem {
    node: RteNode,
    nodes: [*mut RteNode; 3],
}

struct Harness {
    graph: Box<RteGraph>,
    cir: Vec<u32>,
    src: Box<NodeMem>,
    next: Vec<Box<NodeMem>>, // indexed by edge
    errors: Box<[u64; 4]>,
    next_by_port: Box<[u16; ffi::RTE_MAX_ETHPORTS]>,
    frames: Vec<Vec<u8>>,
    mbufs: Vec<Box<RteMbuf>>,
}

fn stream(size: u16) -> *mut *mut c_void {
    let mut v: Vec<*mut c_void> = vec![ptr::null_mut(); size as usize];
    let p = v.as_mut_ptr();

    mem::forget(v);
    p
}

fn node(off: u32, size: u16) -> Box<NodeMem> {
    // SAFETY: all-zero is a valid NodeMem (integers and raw pointers).
    let mut n: Box<NodeMem> = Box::new(unsafe { mem::zeroed() });

    n.node.off = off;
    n.node.size = size;
    n.node.objs = stream(size);
    n
}

impl Harness {
    /// Port 0's next feature is ip4-lookup (edge 1), port 1's is another feature (edge 2).
    fn new() -> Harness {
        let mut h = Harness {
            graph: Box::new(unsafe { mem::zeroed() }),
            cir: vec![u32::MAX; 16],
            src: node(100, 256),
            next: vec![node(200, 256), node(201, 256), node(202, 256)],
            errors: Box::new([0; 4]),
            next_by_port: Box::new([EDGE_LOOKUP as u16; ffi::RTE_MAX_ETHPORTS]),
            frames: Vec::new(),
            mbufs: Vec::new(),
        };
        h.next_by_port[1] = EDGE_FEATURE as u16;
        h.graph.cir_start = h.cir.as_mut_ptr();
        h.graph.cir_mask = 15;
        for e in 0..3 {
            h.src.nodes[e] = &mut h.next[e].node;
        }
        let ctx = VfwdNodeCtx { errors: h.errors.as_mut_ptr(), next_by_port: h.next_by_port.as_ptr() };
        // SAFETY: ctx is 16 bytes, as the const assertions in ffi.rs check.
        unsafe { ptr::write_unaligned(h.src.node.ctx.as_mut_ptr() as *mut VfwdNodeCtx, ctx) };
        h
    }

    /// Puts frames (protocol, port) in mbufs with 128 bytes of headroom, in the stream.
    fn load(&mut self, pkts: &[(u8, u16)]) {
        for (i, &(proto, port)) in pkts.iter().enumerate() {
            let mut buf = vec![0u8; 128];
            buf.extend_from_slice(&ip4_frame(proto, port).bytes);
            let mut m: Box<RteMbuf> = Box::new(unsafe { mem::zeroed() });
            m.buf_addr = buf.as_mut_ptr();
            m.data_off = 128;
            m.port = port;
            m.data_len = (buf.len() - 128) as u16;
            unsafe { *self.src.node.objs.add(i) = &mut *m as *mut RteMbuf as *mut c_void };
            self.frames.push(buf);
            self.mbufs.push(m);
        }
        self.src.node.idx = pkts.len() as u16;
    }

    fn run(&mut self) -> u16 {
        let n = &mut self.src.node;
        unsafe { example_rs_process(&mut *self.graph, n, n.objs, n.idx) }
    }

    fn mbuf(&self, i: usize) -> *mut c_void {
        &*self.mbufs[i] as *const RteMbuf as *mut c_void
    }

    /// The objects waiting on edge `e`.
    fn queued(&self, e: usize) -> Vec<*mut c_void> {
        let n = &self.next[e].node;
        (0..n.idx as usize).map(|i| unsafe { *n.objs.add(i) }).collect()
    }

    /// The nodes put on the graph's pending list, in order.
    fn pending(&self) -> Vec<u32> {
        self.cir[..self.graph.tail as usize].to_vec()
    }
}

#[test]
fn udp_and_tcp_from_one_port_move_as_one_stream_without_copy() {
    let mut h = Harness::new();
    h.load(&[(17, 0), (6, 0), (17, 0), (17, 0), (6, 0)]);
    let src_stream = h.src.node.objs;
    let lookup_stream = h.next[EDGE_LOOKUP].node.objs;

    assert_eq!(h.run(), 5);
    assert_eq!(h.next[EDGE_LOOKUP].node.objs, src_stream, "streams swapped");
    assert_eq!(h.src.node.objs, lookup_stream);
    assert_eq!(h.queued(EDGE_LOOKUP), (0..5).map(|i| h.mbuf(i)).collect::<Vec<_>>());
    assert_eq!(h.pending(), vec![201]);
    assert_eq!(h.errors[0], 0);
}

#[test]
fn a_next_node_already_pending_gets_the_stream_appended() {
    let mut h = Harness::new();
    h.next[EDGE_LOOKUP].node.idx = 2; // two packets from another node are already there
    h.load(&[(17, 0), (17, 0), (17, 0)]);

    assert_eq!(h.run(), 3);
    let q = h.queued(EDGE_LOOKUP);
    assert_eq!(q.len(), 5);
    assert_eq!(q[2..], [h.mbuf(0), h.mbuf(1), h.mbuf(2)]);
    assert!(h.pending().is_empty(), "already on the pending list");
}

#[test]
fn icmp_is_dropped_and_counted_and_the_rest_keep_order_per_port() {
    let mut h = Harness::new();
    h.load(&[(17, 0), (IPPROTO_ICMP, 0), (6, 1), (17, 0), (IPPROTO_ICMP, 1), (17, 1)]);

    assert_eq!(h.run(), 6);
    assert_eq!(h.queued(EDGE_DROP), vec![h.mbuf(1), h.mbuf(4)]);
    assert_eq!(h.queued(EDGE_LOOKUP), vec![h.mbuf(0), h.mbuf(3)]);
    assert_eq!(h.queued(EDGE_FEATURE), vec![h.mbuf(2), h.mbuf(5)]);
    assert_eq!(h.errors[EXAMPLE_RS_ERROR_ICMP_DROPPED as usize], 2);
    assert_eq!(h.pending(), vec![201, 200, 202], "each next node listed once, in first-use order");
}

#[test]
fn a_full_next_stream_grows() {
    let mut h = Harness::new();
    h.next[EDGE_LOOKUP] = node(201, 2);
    h.src.nodes[EDGE_LOOKUP] = &mut h.next[EDGE_LOOKUP].node;
    h.load(&[(17, 0), (17, 0), (17, 0), (17, 0), (IPPROTO_ICMP, 0)]);
    ALLOCS.with(|a| a.set(0));

    assert_eq!(h.run(), 5);
    assert_eq!(h.queued(EDGE_LOOKUP), (0..4).map(|i| h.mbuf(i)).collect::<Vec<_>>());
    assert_eq!(ALLOCS.with(|a| a.get()), 2, "grown when the 3rd and the 4th packet came");
    assert_eq!(h.errors[0], 1);
}

#[test]
fn init_registers_feature_example_rs_on_ip4_unicast_with_the_c_counter_text() {
    assert_eq!(vfwd_plugin.abi_version, ffi::VFWD_PLUGIN_ABI_VERSION);
    let rc = unsafe { (vfwd_plugin.init.unwrap())() };

    assert_eq!(rc, 0);
    REGISTERED.with(|r| {
        let r = r.borrow();
        assert_eq!(r.len(), 1);
        let (arc, name, errors, order, process) = &r[0];
        assert_eq!(arc, "ip4-unicast");
        assert_eq!(name, "example-rs");
        assert_eq!(errors, &vec!["icmp packets dropped".to_string()]);
        assert_eq!(*order, 100);
        assert_eq!(*process, example_rs_process as *const () as usize);
    });
}
