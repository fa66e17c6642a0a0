#!/usr/bin/env python3
# Seeds for fuzz_packet (fuzz/corpus/packet/seed-*): one frame each of the paths the harness
# must reach (IPv4 routed, DF over the 576-byte MTU of port1, fragmentation, ARP glean through
# the unresolved default route, TTL 1, IP options, echo, ARP request and reply, IPv6 routed,
# IPv6 glean, packet too big, hop limit 1, NS, NA, ICMPv6 echo), and seed-all with all of them.
# The fuzz set-up's net_ring ports have the MAC 00:00:00:00:00:00: frames for another MAC
# stop in ethernet-input (the older seeds, written for net_pcap's MAC, do).
#   fuzz/make_packet_seeds.py fuzz/corpus/packet
import struct, os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
P0 = bytes(6)  # net_ring ports have MAC 00:00:00:00:00:00
SRC = bytes.fromhex('020000000002')
def csum(b):
    if len(b) % 2: b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b)//2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff
def ip4(src, dst, proto, payload, ttl=64, df=False, opts=b''):
    ihl = 5 + len(opts)//4
    h = struct.pack('!BBHHHBBH4s4s', 0x40|ihl, 0, 20+len(opts)+len(payload), 1, 0x4000 if df else 0, ttl, proto, 0, bytes(src), bytes(dst)) + opts
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + payload
def udp(n): return struct.pack('!HHHH', 1025, 12, 8+n, 0) + bytes(range(n % 256))*(n//256) + bytes(range(n%256))
def eth(t, p, dst=P0): return dst + SRC + struct.pack('!H', t) + p
def ip6(src, dst, nh, payload, hl=64):
    return struct.pack('!IHBB16s16s', 0x60000000, len(payload), nh, hl, src, dst) + payload
def a6(s):
    import ipaddress; return ipaddress.IPv6Address(s).packed
def icmp6(src, dst, typ, code, body):
    m = struct.pack('!BBH', typ, code, 0) + body
    ph = src + dst + struct.pack('!IxxxB', len(m), 58)
    c = csum(ph + m)
    return m[:2] + struct.pack('!H', c) + m[4:]
def rec(frame, port=0):
    n = len(frame); return struct.pack('<H', n | (port << 15)) + frame
A = lambda *x: bytes(x)
frames = {
 'ip4-mtu-df': eth(0x0800, ip4(A(16,0,0,1), A(48,0,0,1), 17, udp(1000), df=True)),
 'ip4-mtu-frag': eth(0x0800, ip4(A(16,0,0,1), A(48,0,0,1), 17, udp(1200))),
 'ip4-glean': eth(0x0800, ip4(A(16,0,0,1), A(99,0,0,1), 17, udp(18))),
 'ip4-ttl1': eth(0x0800, ip4(A(16,0,0,1), A(48,0,0,1), 17, udp(18), ttl=1)),
 'ip4-echo': eth(0x0800, ip4(A(10,0,0,2), A(10,0,0,1), 1, (lambda m: m[:2]+struct.pack('!H', csum(m))+m[4:])(struct.pack('!BBHHH',8,0,0,1,1)+b'x'*16))),
 'ip4-opts': eth(0x0800, ip4(A(16,0,0,1), A(48,0,0,1), 17, udp(18), opts=bytes([7,7,4,0,0,0,0,0]))),
 'arp-req': eth(0x0806, struct.pack('!HHBBH6s4s6s4s',1,0x0800,6,4,1,SRC,A(10,0,0,2),bytes(6),A(10,0,0,1)), dst=b'\xff'*6),
 'arp-reply': eth(0x0806, struct.pack('!HHBBH6s4s6s4s',1,0x0800,6,4,2,SRC,A(10,0,0,3),P0,A(10,0,0,1))),
 'ip6-udp': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db8:1::5'), 17, udp(18))),
 'ip6-glean': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db9::5'), 17, udp(18))),
 'ip6-big': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db8:1::5'), 17, udp(1400))),
 'ip6-hl1': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db8:1::5'), 17, udp(18), hl=1)),
 'ip6-ns': eth(0x86dd, ip6(a6('2001:db8::2'), a6('ff02::1:ff00:1'), 58, icmp6(a6('2001:db8::2'), a6('ff02::1:ff00:1'), 135, 0, b'\0'*4 + a6('2001:db8::1') + bytes([1,1]) + SRC), hl=255), dst=bytes.fromhex('3333ff000001')),
 'ip6-na': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db8::1'), 58, icmp6(a6('2001:db8::2'), a6('2001:db8::1'), 136, 0, b'\x60\0\0\0' + a6('2001:db8::2') + bytes([2,1]) + SRC), hl=255)),
 'ip6-echo': eth(0x86dd, ip6(a6('2001:db8::2'), a6('2001:db8::1'), 58, icmp6(a6('2001:db8::2'), a6('2001:db8::1'), 128, 0, b'\0\1\0\1' + b'y'*16))),
}
allb = b''
for k, f in frames.items():
    open(os.path.join(out, 'seed-' + k), 'wb').write(rec(f)); allb += rec(f)
open(os.path.join(out, 'seed-all'), 'wb').write(allb)
