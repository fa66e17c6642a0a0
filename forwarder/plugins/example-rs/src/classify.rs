// SPDX-License-Identifier: BSD-3-Clause
//! The packet classifier of the example feature: ICMP is dropped, everything else passes.
//! It is generic over `Packet`, so the unit tests below run it on byte frames and the node
//! runs it on mbufs with the same code.

/// IPv4 protocol number of ICMP.
pub const IPPROTO_ICMP: u8 = 1;
/// Offset of the IPv4 protocol field in an untagged Ethernet frame (14 + 9).
pub const ETH_IP4_PROTO_OFFSET: usize = 23;

/// What the classifier needs to know of a packet on the ip4-unicast arc. ip4-input has
/// already checked that an IPv4 header follows the Ethernet header.
pub trait Packet {
    /// The IPv4 protocol field.
    fn ip4_protocol(&self) -> u8;
    /// The interface the packet came in on (selects the next feature).
    fn rx_port(&self) -> u16;
}

#[inline(always)]
pub fn is_icmp<P: Packet>(p: &P) -> bool {
    p.ip4_protocol() == IPPROTO_ICMP
}

/// True when no packet of the vector is ICMP and all came in on the first packet's port,
/// so the whole vector goes to one next node. ORs the checks together four packets at a
/// time without early exit (non-short-circuit `|`), the same work the C example does, so
/// the common case compiles to straight-line code.
#[inline(always)]
pub fn moves_whole<P: Packet>(pkts: &[P]) -> bool {
    let port0 = match pkts.first() {
        Some(p) => p.rx_port(),
        None => return true,
    };
    let odd = |p: &P| is_icmp(p) | (p.rx_port() != port0);
    let mut chunks = pkts.chunks_exact(4);
    let mut any = false;

    for c in &mut chunks {
        any |= odd(&c[0]) | odd(&c[1]) | odd(&c[2]) | odd(&c[3]);
    }
    for p in chunks.remainder() {
        any |= odd(p);
    }
    !any
}

/// Where one packet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// To error-drop, counted as "icmp packets dropped".
    Drop,
    /// To the next feature of the port it came in on.
    Pass { port: u16 },
}

#[inline(always)]
pub fn verdict<P: Packet>(p: &P) -> Verdict {
    if is_icmp(p) {
        Verdict::Drop
    } else {
        Verdict::Pass { port: p.rx_port() }
    }
}

/// Calls `emit(index, verdict)` for each packet, in order; returns the number dropped.
#[inline(always)]
pub fn split<P: Packet, F: FnMut(usize, Verdict)>(pkts: &[P], mut emit: F) -> u64 {
    let mut dropped = 0;

    for (i, p) in pkts.iter().enumerate() {
        let v = verdict(p);

        dropped += (v == Verdict::Drop) as u64;
        emit(i, v);
    }
    dropped
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A frame as it sits in an mbuf, and the port it came in on.
    pub struct Frame {
        pub bytes: Vec<u8>,
        pub port: u16,
    }

    impl Packet for Frame {
        fn ip4_protocol(&self) -> u8 {
            self.bytes[ETH_IP4_PROTO_OFFSET]
        }
        fn rx_port(&self) -> u16 {
            self.port
        }
    }

    /// Ethernet + IPv4 (+ 8 bytes of L4) with protocol `proto`.
    pub fn ip4_frame(proto: u8, port: u16) -> Frame {
        let mut b = vec![0u8; 14 + 20 + 8];
        b[6..12].copy_from_slice(&[2, 0, 0, 0, 0, 2]);
        b[12] = 0x08; // ethertype IPv4
        b[14] = 0x45;
        b[16] = 0;
        b[17] = 28; // total length
        b[22] = 64; // ttl
        b[23] = proto;
        b[26..30].copy_from_slice(&[16, 0, 0, 1]);
        b[30..34].copy_from_slice(&[48, 0, 0, 1]);
        Frame { bytes: b, port }
    }

    const UDP: u8 = 17;
    const TCP: u8 = 6;

    #[test]
    fn icmp_is_dropped_udp_tcp_and_other_protocols_pass() {
        assert_eq!(verdict(&ip4_frame(IPPROTO_ICMP, 0)), Verdict::Drop);
        for proto in [UDP, TCP, 0, 2, 47, 58, 255] {
            assert_eq!(verdict(&ip4_frame(proto, 3)), Verdict::Pass { port: 3 }, "{}", proto);
        }
    }

    #[test]
    fn vector_of_udp_from_one_port_moves_whole_at_every_length() {
        for n in 0..=9 {
            let v: Vec<Frame> = (0..n).map(|_| ip4_frame(UDP, 1)).collect();
            assert!(moves_whole(&v), "n={}", n);
        }
    }

    #[test]
    fn one_icmp_anywhere_in_the_vector_forces_the_split() {
        for n in 1..=9 {
            for at in 0..n {
                let v: Vec<Frame> = (0..n)
                    .map(|i| ip4_frame(if i == at { IPPROTO_ICMP } else { TCP }, 0))
                    .collect();
                assert!(!moves_whole(&v), "n={} icmp at {}", n, at);
            }
        }
    }

    #[test]
    fn a_second_input_port_forces_the_split() {
        for n in 2..=9 {
            for at in 1..n {
                let v: Vec<Frame> =
                    (0..n).map(|i| ip4_frame(UDP, if i == at { 1 } else { 0 })).collect();
                assert!(!moves_whole(&v), "n={} port 1 at {}", n, at);
            }
        }
    }

    #[test]
    fn split_keeps_order_and_counts_only_icmp() {
        let v = vec![
            ip4_frame(UDP, 0),
            ip4_frame(IPPROTO_ICMP, 0),
            ip4_frame(TCP, 1),
            ip4_frame(IPPROTO_ICMP, 1),
            ip4_frame(UDP, 1),
        ];
        let mut seen = Vec::new();
        let dropped = split(&v, |i, verdict| seen.push((i, verdict)));

        assert_eq!(dropped, 2);
        assert_eq!(
            seen,
            vec![
                (0, Verdict::Pass { port: 0 }),
                (1, Verdict::Drop),
                (2, Verdict::Pass { port: 1 }),
                (3, Verdict::Drop),
                (4, Verdict::Pass { port: 1 }),
            ]
        );
    }
}
