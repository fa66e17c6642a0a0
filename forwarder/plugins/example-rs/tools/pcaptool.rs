// SPDX-License-Identifier: BSD-3-Clause
//! pcaptool: writes the pcaps that the example-rs tests and bench feed to vfwd, and reads
//! the pcaps vfwd writes back.
//!
//!   pcaptool mixed FILE [--reverse] [--count N]
//!                                     mixed IPv4 UDP/TCP/ICMP/GRE, TTL 1, ARP, IPv6, unknown
//!   pcaptool udp FILE SIZE [COUNT]    TRex udp_for_benchmarks: 16.0.0.1:1025 -> 48.0.0.1:12
//!   pcaptool empty FILE               a pcap with no packets
//!   pcaptool dump FILE                one line per packet: length and bytes, no timestamp
//!   pcaptool summary FILE             packet counts by kind, one `key value` a line

use std::env;
use std::fs;
use std::process::exit;

const LINKTYPE_ETHERNET: u32 = 1;
const SRC_MAC: [u8; 6] = [0x02, 0, 0, 0, 0, 0x02];
const DST_MAC: [u8; 6] = [0x02, 0x70, 0x63, 0x61, 0x70, 0x00];
const ETH_IP4: u16 = 0x0800;
const ETH_ARP: u16 = 0x0806;
const ETH_IP6: u16 = 0x86dd;
const ETH_UNKNOWN: u16 = 0x88b5; // IEEE local experimental
const PROTO_ICMP: u8 = 1;
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;
const PROTO_GRE: u8 = 47;

fn die(msg: String) -> ! {
    eprintln!("pcaptool: {}", msg);
    exit(1)
}

fn csum(b: &[u8]) -> u16 {
    let mut s: u32 = 0;
    for c in b.chunks(2) {
        s += (c[0] as u32) << 8 | *c.get(1).unwrap_or(&0) as u32;
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

fn ether(dst: [u8; 6], ethertype: u16) -> Vec<u8> {
    let mut f = dst.to_vec();
    f.extend_from_slice(&SRC_MAC);
    f.extend_from_slice(&ethertype.to_be_bytes());
    f
}

/// Ethernet + IPv4 + `l4` header, padded with a byte pattern to `size` bytes.
fn ip4(src: [u8; 4], dst: [u8; 4], proto: u8, ttl: u8, l4: &[u8], size: usize) -> Vec<u8> {
    let mut f = ether(DST_MAC, ETH_IP4);
    let total = (size.max(14 + 20 + l4.len()) - 14) as u16;
    let mut h = vec![0x45, 0];
    h.extend_from_slice(&total.to_be_bytes());
    h.extend_from_slice(&[0, 1, 0, 0, ttl, proto, 0, 0]);
    h.extend_from_slice(&src);
    h.extend_from_slice(&dst);
    let c = csum(&h);
    h[10..12].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&h);
    f.extend_from_slice(l4);
    while f.len() < 14 + total as usize {
        f.push((f.len() & 0xff) as u8);
    }
    f
}

fn udp(sport: u16, dport: u16, size: usize) -> Vec<u8> {
    let len = (size.max(14 + 20 + 8) - 14 - 20) as u16;
    let mut u = sport.to_be_bytes().to_vec();
    u.extend_from_slice(&dport.to_be_bytes());
    u.extend_from_slice(&len.to_be_bytes());
    u.extend_from_slice(&[0, 0]); // no checksum, allowed in IPv4
    u
}

fn tcp(sport: u16, dport: u16) -> Vec<u8> {
    let mut t = sport.to_be_bytes().to_vec();
    t.extend_from_slice(&dport.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0x20, 0, 0, 0, 0, 0]);
    t
}

fn icmp_echo(id: u16, seq: u16) -> Vec<u8> {
    let mut i = vec![8, 0, 0, 0];
    i.extend_from_slice(&id.to_be_bytes());
    i.extend_from_slice(&seq.to_be_bytes());
    let c = csum(&i);
    i[2..4].copy_from_slice(&c.to_be_bytes());
    i
}

fn arp_request(sender: [u8; 4], target: [u8; 4]) -> Vec<u8> {
    let mut f = ether([0xff; 6], ETH_ARP);
    f.extend_from_slice(&[0, 1, 8, 0, 6, 4, 0, 1]);
    f.extend_from_slice(&SRC_MAC);
    f.extend_from_slice(&sender);
    f.extend_from_slice(&[0; 6]);
    f.extend_from_slice(&target);
    f.resize(60, 0);
    f
}

fn other(ethertype: u16, size: usize) -> Vec<u8> {
    let mut f = ether(DST_MAC, ethertype);
    while f.len() < size {
        f.push((f.len() * 7 & 0xff) as u8);
    }
    f
}

/// A small deterministic generator, so every run writes the same file.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// `count` packets: the first 3/7 UDP and TCP only (whole vectors take the fast path), the
/// rest every kind mixed.
fn mixed(reverse: bool, count: u32) -> Vec<Vec<u8>> {
    let (near, far, me, peer) = if reverse {
        ([48u8, 0, 0, 0], [16u8, 0, 0, 0], [10u8, 0, 1, 1], [10u8, 0, 1, 2])
    } else {
        ([16u8, 0, 0, 0], [48u8, 0, 0, 0], [10u8, 0, 0, 1], [10u8, 0, 0, 2])
    };
    let mut rng = Lcg(if reverse { 2 } else { 1 });
    let mut pkts = Vec::new();
    let addr = |base: [u8; 4], rng: &mut Lcg| {
        [base[0], rng.next(4) as u8, rng.next(8) as u8, 1 + rng.next(250) as u8]
    };
    for i in 0..count {
        let (src, dst) = (addr(near, &mut rng), addr(far, &mut rng));
        let size = 64 + rng.next(1500 - 64 + 1) as usize;
        let kind = if i < count * 3 / 7 { rng.next(6) } else { rng.next(13) };
        let sport = 1024 + rng.next(4000) as u16;
        let p = match kind {
            0..=3 => ip4(src, dst, PROTO_UDP, 64, &udp(sport, 53, size), size),
            4 | 5 => ip4(src, dst, PROTO_TCP, 64, &tcp(sport, 80), size),
            6 | 7 => ip4(src, dst, PROTO_ICMP, 64, &icmp_echo(sport, i as u16), size),
            8 => ip4(src, dst, PROTO_GRE, 64, &[0, 0, 0x08, 0], size),
            9 => ip4(src, dst, PROTO_UDP, 1, &udp(sport, 53, size), size), // ttl expires
            10 => arp_request(peer, me),
            11 => other(ETH_IP6, size),
            _ => other(ETH_UNKNOWN, size),
        };
        // vfwd takes only frames for its own port's MAC: reverse traffic enters port1, whose
        // net_pcap MAC ends in 01 (DPDK numbers pcap ports' MACs in creation order).
        let mut p = p;
        if reverse && p[0..6] == DST_MAC {
            p[5] = 0x01;
        }
        pkts.push(p);
    }
    pkts
}

fn write_pcap(path: &str, pkts: &[Vec<u8>]) {
    let mut out = 0xa1b2c3d4u32.to_le_bytes().to_vec();
    out.extend_from_slice(&[2, 0, 4, 0]); // version 2.4
    for v in [0u32, 0, 65535, LINKTYPE_ETHERNET] {
        out.extend_from_slice(&v.to_le_bytes()); // thiszone, sigfigs, snaplen, linktype
    }
    for (i, p) in pkts.iter().enumerate() {
        for v in [1_700_000_000u32, i as u32, p.len() as u32, p.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(p);
    }
    fs::write(path, out).unwrap_or_else(|e| die(format!("{}: {}", path, e)));
}

/// The packets of a little-endian pcap (micro- or nanosecond timestamps).
fn read_pcap(path: &str) -> Vec<(u32, Vec<u8>)> {
    let b = fs::read(path).unwrap_or_else(|e| die(format!("{}: {}", path, e)));
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    if b.len() < 24 || (u32_at(0) != 0xa1b2c3d4 && u32_at(0) != 0xa1b23c4d) {
        die(format!("{}: not a little-endian pcap file", path));
    }
    if u32_at(20) != LINKTYPE_ETHERNET {
        die(format!("{}: link type {} is not Ethernet", path, u32_at(20)));
    }
    let mut pkts = Vec::new();
    let mut o = 24;
    while o < b.len() {
        if o + 16 > b.len() {
            die(format!("{}: truncated record header at offset {}", path, o));
        }
        let (caplen, origlen) = (u32_at(o + 8) as usize, u32_at(o + 12));
        if o + 16 + caplen > b.len() {
            die(format!("{}: truncated packet at offset {}", path, o));
        }
        pkts.push((origlen, b[o + 16..o + 16 + caplen].to_vec()));
        o += 16 + caplen;
    }
    pkts
}

fn summary(pkts: &[(u32, Vec<u8>)]) -> Vec<(&'static str, usize)> {
    let mut n = [0usize; 9];
    for (_, p) in pkts {
        let ethertype = if p.len() >= 14 { u16::from_be_bytes([p[12], p[13]]) } else { 0 };
        let k = match ethertype {
            ETH_IP4 if p.len() >= 34 => match p[23] {
                _ if p[22] <= 1 => 6,
                PROTO_UDP => 1,
                PROTO_TCP => 2,
                PROTO_ICMP => 3,
                _ => 4,
            },
            ETH_ARP => 5,
            _ => 7,
        };
        n[k] += 1;
        n[0] += 1;
        n[8] += (ethertype == ETH_IP4) as usize;
    }
    let names = ["packets", "udp", "tcp", "icmp", "ip4-other", "arp", "ttl-expiring", "non-ip"];
    let mut s: Vec<(&'static str, usize)> = names.iter().zip(n).map(|(a, b)| (*a, b)).collect();
    s.push(("ip4", n[8]));
    s
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let arg = |i: usize| -> &str {
        args.get(i).map(|s| s.as_str()).unwrap_or_else(|| die("missing argument; see the header of tools/pcaptool.rs".into()))
    };
    let num = |s: &str| s.parse::<usize>().unwrap_or_else(|_| die(format!("'{}' is not a number", s)));
    match arg(0) {
        "mixed" => {
            let reverse = args.iter().any(|a| a == "--reverse");
            let count = match args.iter().position(|a| a == "--count") {
                Some(i) => num(arg(i + 1)),
                None => 700,
            };
            write_pcap(arg(1), &mixed(reverse, count as u32));
        }
        "udp" => {
            let size = num(arg(2));
            if !(60..=9000).contains(&size) {
                die(format!("frame size {} is outside 60..9000", size));
            }
            let count = args.get(3).map(|s| num(s)).unwrap_or(256);
            let p = ip4([16, 0, 0, 1], [48, 0, 0, 1], PROTO_UDP, 64, &udp(1025, 12, size), size);
            write_pcap(arg(1), &vec![p; count]);
        }
        "empty" => write_pcap(arg(1), &[]),
        "dump" => {
            let b = fs::read(arg(1)).unwrap_or_else(|e| die(format!("{}: {}", arg(1), e)));
            let hdr: String = b.iter().take(24).map(|b| format!("{:02x}", b)).collect();
            println!("header {}", hdr);
            for (origlen, p) in read_pcap(arg(1)) {
                let hex: String = p.iter().map(|b| format!("{:02x}", b)).collect();
                println!("{} {} {}", origlen, p.len(), hex);
            }
        }
        "summary" => {
            for (k, v) in summary(&read_pcap(arg(1))) {
                println!("{} {}", k, v);
            }
        }
        c => die(format!("unknown command '{}'", c)),
    }
}
