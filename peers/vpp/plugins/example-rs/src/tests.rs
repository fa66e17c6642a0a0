// SPDX-License-Identifier: BSD-3-Clause
//! The node's per-packet work on buffers laid out in memory as VPP lays them out (the
//! offsets of vpp.rs, which layout_check.c checks against VPP's headers): `cargo test
//! --offline` (peers/tests/vpp_example_rs_unit_tests_classify_frames.t runs it).

use super::*;

/// A buffer: 64-byte metadata, 64 bytes more, 128 bytes pre-data, then 2048 of data.
const BUF_SIZE: usize = VLIB_BUFFER_OFF_DATA + 2048;
const N_BUFS: usize = VLIB_FRAME_SIZE + 8;

/// A buffer pool, a feature heap and a frame of buffer indices.
struct Pool {
    mem: Vec<u8>,
    start: usize,
    heap: Vec<u32>,
}

impl Pool {
    fn new() -> Pool {
        let mem = vec![0u8; N_BUFS * BUF_SIZE + 64];
        let start = (64 - (mem.as_ptr() as usize % 64)) % 64;
        // config index 7 -> next edge 3; index 8 -> edge 5 (a second feature after it)
        let mut heap = vec![0xdead_u32; 16];
        heap[7] = 3;
        heap[8] = 5;
        Pool { mem, start, heap }
    }

    fn index(&self, k: usize) -> u32 {
        (k * BUF_SIZE >> CLIB_LOG2_CACHE_LINE_BYTES) as u32
    }

    fn buf(&mut self, k: usize) -> *mut u8 {
        unsafe { self.mem.as_mut_ptr().add(self.start + k * BUF_SIZE) }
    }

    /// Buffer k: an IPv4 header of protocol `proto` at current_data `cd`, config index `ci`.
    fn set(&mut self, k: usize, proto: u8, cd: i16, ci: u32) {
        let b = self.buf(k);
        unsafe {
            write_at::<i16>(b, VLIB_BUFFER_OFF_CURRENT_DATA, cd);
            write_at::<u16>(b, VLIB_BUFFER_OFF_ERROR, 0);
            write_at::<u32>(b, VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX, ci);
            let ip = b.add(VLIB_BUFFER_OFF_DATA).offset(cd as isize);
            *ip = 0x45;
            *ip.add(IP4_HEADER_OFF_PROTOCOL) = proto;
        }
    }

    fn error(&mut self, k: usize) -> u16 {
        unsafe { read_at::<u16>(self.buf(k), VLIB_BUFFER_OFF_ERROR) }
    }

    fn config_index(&mut self, k: usize) -> u32 {
        unsafe { read_at::<u32>(self.buf(k), VLIB_BUFFER_OFF_CURRENT_CONFIG_INDEX) }
    }

    /// Runs the node's loop over buffers `ks`; returns the next edges.
    fn run(&mut self, ks: &[usize]) -> Vec<u16> {
        let from: Vec<u32> = ks.iter().map(|&k| self.index(k)).collect();
        let mut nexts = vec![0xffff_u16; VLIB_FRAME_SIZE];
        let ctx = FrameCtx {
            buffer_mem_start: unsafe { self.mem.as_mut_ptr().add(self.start) },
            feature_heap: self.heap.as_ptr(),
            icmp_error: 0x1234,
        };
        unsafe { classify_frame(&ctx, from.as_ptr(), nexts.as_mut_ptr(), from.len()) };
        assert!(nexts[from.len()..].iter().all(|&x| x == 0xffff), "wrote past n");
        nexts.truncate(from.len());
        nexts
    }
}

const UDP: u8 = 17;
const ICMP: u8 = IP_PROTOCOL_ICMP;

#[test]
fn udp_passes_to_the_next_feature_and_its_config_index_moves_on() {
    let mut p = Pool::new();
    p.set(0, UDP, 14, 7);
    assert_eq!(p.run(&[0]), vec![3]);
    assert_eq!(p.config_index(0), 8);
    assert_eq!(p.error(0), 0);
    // the next feature of the arc would read index 8: edge 5
    assert_eq!(p.run(&[0]), vec![5]);
}

#[test]
fn icmp_is_dropped_with_the_nodes_error_and_keeps_its_config_index() {
    let mut p = Pool::new();
    p.set(0, ICMP, 14, 7);
    assert_eq!(p.run(&[0]), vec![EXAMPLE_RS_NEXT_DROP]);
    assert_eq!(p.error(0), 0x1234);
    assert_eq!(p.config_index(0), 7);
}

#[test]
fn the_header_is_found_at_current_data_before_or_after_data() {
    let mut p = Pool::new();
    for (k, cd) in [(0, 0), (1, 14), (2, -14), (3, -128), (4, 1000)] {
        p.set(k, if k % 2 == 0 { ICMP } else { UDP }, cd, 7);
    }
    assert_eq!(p.run(&[0, 1, 2, 3, 4]), vec![0, 3, 0, 3, 0]);
}

#[test]
fn every_frame_size_and_icmp_position_gives_each_packet_its_own_verdict() {
    for n in 0..=13 {
        for icmp_at in 0..=n {
            let mut p = Pool::new();
            // buffers in reverse order, so index k is not position k
            let ks: Vec<usize> = (0..n).map(|i| N_BUFS - 1 - i).collect();
            for (pos, &k) in ks.iter().enumerate() {
                p.set(k, if pos == icmp_at || pos % 5 == 4 { ICMP } else { UDP }, 14, 7);
            }
            let want: Vec<u16> = (0..n).map(|pos| if pos == icmp_at || pos % 5 == 4 { 0 } else { 3 }).collect();
            assert_eq!(p.run(&ks), want, "n {} icmp at {}", n, icmp_at);
            for (pos, &k) in ks.iter().enumerate() {
                let dropped = want[pos] == 0;
                assert_eq!(p.error(k), if dropped { 0x1234 } else { 0 });
                assert_eq!(p.config_index(k), if dropped { 7 } else { 8 });
            }
        }
    }
}

#[test]
fn a_whole_frame_of_udp_passes() {
    let mut p = Pool::new();
    let ks: Vec<usize> = (0..VLIB_FRAME_SIZE).collect();
    for &k in &ks {
        p.set(k, UDP, 14, 7);
    }
    assert_eq!(p.run(&ks), vec![3; VLIB_FRAME_SIZE]);
}
