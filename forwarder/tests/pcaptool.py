#!/usr/bin/env python3
"""Test helper (stdlib only): writes the mixed-traffic input pcap, the packets
vfwd must send out of each port, and compares pcaps packet by packet.

  pcaptool.py gen DIR PORT1_MAC [--example]   writes DIR/in.pcap, DIR/expect1.pcap,
                                              DIR/expect0.pcap, DIR/counts.txt
  pcaptool.py cmp A.pcap B.pcap               exit 0 when the packet bytes are equal
"""
import struct
import sys

PORT0_IP = bytes([10, 0, 0, 1])
NBR1_MAC = bytes.fromhex("020000000102")
SRC_MAC = bytes.fromhex("020000000002")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ip4(src, dst, proto, payload, ttl=64, ident=1, ihl=5):
    opts = b"\x01" * ((ihl - 5) * 4)
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, ihl * 4 + len(payload), ident, 0, ttl,
                    proto, 0, bytes(src), bytes(dst)) + opts
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def udp(sport, dport, size):
    return struct.pack("!HHHH", sport, dport, 8 + size, 0) + bytes((i & 0xFF) for i in range(size))


def icmp_echo(ident, seq):
    body = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + b"vfwd-test-icmp!!"
    return body[:2] + struct.pack("!H", csum(body)) + body[4:]


def eth(dst, src, etype, payload):
    frame = dst + src + struct.pack("!H", etype) + payload
    return frame + b"\0" * max(0, 60 - len(frame))


def routed(frame, port1_mac):
    """What a router makes of a frame: bytes past the IP total length trimmed
    (RFC 1812 5.2.2: padding is not part of the packet), new MACs, TTL-1,
    checksum recomputed."""
    tot = struct.unpack("!H", frame[16:18])[0]
    ip = bytearray(frame[14:14 + tot])
    ihl = (ip[0] & 15) * 4
    ip[8] -= 1
    ip[10:12] = b"\0\0"
    ip[10:12] = struct.pack("!H", csum(bytes(ip[:ihl])))
    return NBR1_MAC + port1_mac + frame[12:14] + bytes(ip)


def arp(op, sha, sip, tha, tip):
    return struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, bytes(sip), tha, bytes(tip))


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, p in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(p), len(p)) + p)


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def gen(d, port1_mac, example):
    port0_mac = bytes.fromhex("027063617000")  # net_pcap0's MAC: vfwd takes only frames for it
    frames, out1, out0 = [], [], []
    counts = {"ttl": 0, "cksum": 0, "ethertype": 0, "noroute": 0, "icmp": 0, "short": 0,
              "ihl": 0, "length": 0}
    for i in range(600):
        kind = i % 20
        src = [16, 0, i // 256 % 256, i % 256]
        dst = [48, 0, 0, 1 + i % 200]
        if kind == 3:
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 1, icmp_echo(7, i)))
            counts["icmp"] += 1
            if not example:
                out1.append(routed(f, port1_mac))
        elif kind == 5:
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1025, 12, 18), ttl=1))
            counts["ttl"] += 1
        elif kind == 7:
            f = bytearray(eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1025, 12, 18))))
            f[24] ^= 0x5A
            f = bytes(f)
            counts["cksum"] += 1
        elif kind == 9:
            f = eth(port0_mac, SRC_MAC, 0x88B5, bytes(40))  # IEEE local experimental
            counts["ethertype"] += 1
        elif kind == 11:
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, [99, 1, 2, 3], 17, udp(1, 2, 18)))
            counts["noroute"] += 1
        elif kind == 13:
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1, 2, 18)))[:30]
            counts["short"] += 1
        elif kind == 15:
            f = bytearray(eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1, 2, 18))))
            f[14] = 0x44
            f = bytes(f)
            counts["ihl"] += 1
        elif kind == 17:
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1, 2, 18)))
            f = f[:16] + struct.pack("!H", 1400) + f[18:]
            counts["length"] += 1
        elif kind == 19 and i < 100:
            f = eth(b"\xff" * 6, SRC_MAC, 0x0806,
                    arp(1, SRC_MAC, [10, 0, 0, 2], bytes(6), PORT0_IP))
            # the reply comes back out of port0; its MACs are checked by the caller
            out0.append(f)
        else:
            size = [18, 82, 210, 466, 978, 1454][i % 6]
            opts = 5 if i % 7 else 6
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1025, 12, size), ident=i,
                                                     ihl=opts))
            out1.append(routed(f, port1_mac))
        frames.append(f)
    import os
    if not os.path.exists(d + "/in.pcap"):
        write_pcap(d + "/in.pcap", frames)
    write_pcap(d + "/expect1.pcap", out1)
    write_pcap(d + "/empty.pcap", [])
    with open(d + "/counts.txt", "w") as f:
        f.write("in %d\nout1 %d\narp %d\n" % (len(frames), len(out1), len(out0)))
        for k, v in counts.items():
            f.write("%s %d\n" % (k, v))


def malformed(d, port1_mac, n):
    """Broken frames mixed with good ones; counts.txt holds one line per drop reason."""
    import random
    rnd = random.Random(9)
    port0_mac = bytes.fromhex("027063617000")
    frames, out1 = [], []
    counts = {k: 0 for k in ("good", "eth_short", "ethertype", "ip_short", "version", "ihl",
                             "length", "cksum", "ttl")}
    for i in range(n):
        kind = i % 12
        src = [16, 1, i // 256 % 256, i % 256]
        dst = [48, 0, 1, 1 + i % 250]
        good = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1025, 12, 18 + i % 1400)))
        if kind == 0:  # truncated below an Ethernet header
            f, k = good[:rnd.randrange(0, 14)], "eth_short"
        elif kind == 1:  # random bytes behind a random non-IPv4/ARP ethertype
            t = rnd.choice([0x88B5, 0x8100, 0x88CC, 0x0000, 0xFFFF, 0x1234])
            f = eth(port0_mac, SRC_MAC, t, bytes(rnd.randrange(256) for _ in range(rnd.randrange(0, 1500))))
            k = "ethertype"
        elif kind == 2:  # IPv4 ethertype, header cut short
            f, k = good[:14 + rnd.randrange(0, 20)], "ip_short"
            f = f if len(f) < 34 else f[:33]
            if len(f) >= 60:
                f = f[:59]
            # eth() pads to 60 bytes; keep the cut frame as it is (runt on the wire)
        elif kind == 3:  # random bytes as an IPv4 packet with version != 4
            b = bytearray(rnd.randrange(256) for _ in range(rnd.randrange(20, 1400)))
            b[0] = (rnd.choice([0, 1, 6, 15]) << 4) | (b[0] & 15)
            f, k = eth(port0_mac, SRC_MAC, 0x0800, bytes(b)), "version"
        elif kind == 4:  # IHL below 5
            f = bytearray(good)
            f[14] = 0x40 | rnd.randrange(0, 5)
            f, k = bytes(f), "ihl"
        elif kind == 5:  # total length larger than the frame (oversize claim)
            f = good[:16] + struct.pack("!H", rnd.choice([1501, 9000, 65535])) + good[18:]
            k = "length"
        elif kind == 6:  # bad header checksum
            f = bytearray(good)
            f[24] ^= 0xA5
            f, k = bytes(f), "cksum"
        elif kind == 7:  # TTL 0 or 1
            f = eth(port0_mac, SRC_MAC, 0x0800, ip4(src, dst, 17, udp(1, 2, 30), ttl=i % 2))
            k = "ttl"
        else:
            f, k = good, "good"
            out1.append(routed(f, port1_mac))
        counts[k] += 1
        frames.append(f)
    import os
    if not os.path.exists(d + "/in.pcap"):
        write_pcap(d + "/in.pcap", frames)
    write_pcap(d + "/expect1.pcap", out1)
    write_pcap(d + "/empty.pcap", [])
    with open(d + "/counts.txt", "w") as f:
        f.write("in %d\n" % len(frames))
        for k, v in counts.items():
            f.write("%s %d\n" % (k, v))


def ip6(src, dst, nh, payload, hlim=64):
    import socket
    return struct.pack("!IHBB", 6 << 28, len(payload), nh, hlim) + \
        socket.inet_pton(socket.AF_INET6, src) + socket.inet_pton(socket.AF_INET6, dst) + payload


def l4_csum6(pkt6):
    """The checksum over the IPv6 pseudo-header and the payload of pkt6 (RFC 8200 8.1)."""
    plen, nh = struct.unpack("!HB", pkt6[4:7])
    pseudo = pkt6[8:40] + struct.pack("!IxxxB", plen, nh)
    return csum(pseudo + pkt6[40:40 + plen])


def with_csum6(pkt6, off):
    """pkt6 with the L4 checksum at payload offset off filled in."""
    b = bytearray(pkt6)
    b[40 + off:42 + off] = b"\0\0"
    c = l4_csum6(bytes(b))
    b[40 + off:42 + off] = struct.pack("!H", c)
    return bytes(b)


def udp6(src, dst, size, hlim=64):
    u = struct.pack("!HHHH", 1025, 12, 8 + size, 0) + bytes((i * 3) & 0xFF for i in range(size))
    return with_csum6(ip6(src, dst, 17, u, hlim), 6)


def ns6(src, target, sll):
    import socket
    t = socket.inet_pton(socket.AF_INET6, target)
    snm = "ff02::1:ff%02x:%02x%02x" % (t[13], t[14], t[15])
    body = struct.pack("!BBHI", 135, 0, 0, 0) + t + bytes([1, 1]) + sll
    return with_csum6(ip6(src, snm, 58, body, 255), 2), bytes([0x33, 0x33, 0xFF]) + t[13:16]


def echo6(src, dst, ident, seq, data):
    body = struct.pack("!BBHHH", 128, 0, 0, ident, seq) + data
    return with_csum6(ip6(src, dst, 58, body, 64), 2)


def routed6(frame, port1_mac, nbr_mac):
    plen = struct.unpack("!H", frame[18:20])[0]
    ip = bytearray(frame[14:14 + 40 + plen])
    ip[7] -= 1
    return nbr_mac + port1_mac + frame[12:14] + bytes(ip)


def gen6(d, port0_mac, port1_mac):
    """IPv6 through vfwd: good UDP of several sizes (expect1.pcap, byte exact),
    one reason per bad class (counts.txt), an NS for port0's address, an echo
    request from a static neighbour."""
    import os
    src, dst = "2001:db8::2", "2001:db8:1::%x"
    frames, out1 = [], []
    counts = {"good": 0, "hlim": 0, "version": 0, "length": 0, "mcast": 0, "msrc": 0, "mdst": 0}
    for i in range(240):
        kind = i % 12
        sz = [18, 82, 210, 466, 978, 1400][i % 6]
        if kind == 3:
            f = eth(port0_mac, SRC_MAC, 0x86DD, udp6(src, dst % (i + 1), 30, hlim=1))
            counts["hlim"] += 1
        elif kind == 5:
            b = bytearray(udp6(src, dst % (i + 1), 30))
            b[0] = 0x45
            f = eth(port0_mac, SRC_MAC, 0x86DD, bytes(b))
            counts["version"] += 1
        elif kind == 7:
            b = bytearray(udp6(src, dst % (i + 1), 30))
            b[4:6] = struct.pack("!H", 1400)
            f = eth(port0_mac, SRC_MAC, 0x86DD, bytes(b))
            counts["length"] += 1
        elif kind == 9:
            f = eth(port0_mac, SRC_MAC, 0x86DD, udp6(src, "ff0e::1234", 30))
            counts["mcast"] += 1
        elif kind == 10:
            f = eth(port0_mac, SRC_MAC, 0x86DD, udp6("::1", dst % (i + 1), 30))
            counts["msrc"] += 1
        elif kind == 11:
            f = eth(port0_mac, SRC_MAC, 0x86DD, udp6(src, "fe80::99", 30))
            counts["mdst"] += 1
        else:
            f = eth(port0_mac, SRC_MAC, 0x86DD, udp6(src, dst % (i + 1), sz))
            out1.append(routed6(f, port1_mac, NBR1_MAC))
            counts["good"] += 1
        frames.append(f)
    ns, snm_mac = ns6("2001:db8::2", "2001:db8::1", SRC_MAC)
    frames.append(eth(snm_mac, SRC_MAC, 0x86DD, ns))
    frames.append(eth(port0_mac, bytes.fromhex("020000000003"), 0x86DD,
                      echo6("2001:db8::3", "2001:db8::1", 77, 5, b"vfwd-echo6-test!")))
    if not os.path.exists(d + "/in.pcap"):
        write_pcap(d + "/in.pcap", frames)
    write_pcap(d + "/expect1.pcap", out1)
    write_pcap(d + "/empty.pcap", [])
    with open(d + "/counts.txt", "w") as fh:
        fh.write("in %d\n" % len(frames))
        for k, v in counts.items():
            fh.write("%s %d\n" % (k, v))


def check_nd6(path, port0_mac):
    """out0.pcap holds our NA for 2001:db8::1 and the echo reply to 2001:db8::3."""
    import socket
    pk = read_pcap(path)
    na = [p for p in pk if p[12:14] == b"\x86\xdd" and p[14 + 6] == 58 and p[54] == 136]
    er = [p for p in pk if p[12:14] == b"\x86\xdd" and p[14 + 6] == 58 and p[54] == 129]
    ok = True
    if len(na) != 1:
        print("# %d NAs" % len(na)); return 1
    p = na[0]
    ip = p[14:]
    checks = {
        "eth dst is the soliciting host": p[0:6] == SRC_MAC,
        "eth src is port0": p[6:12] == port0_mac,
        "hop limit 255": ip[7] == 255,
        "ip src is the target": ip[8:24] == socket.inet_pton(socket.AF_INET6, "2001:db8::1"),
        "ip dst is the solicitor": ip[24:40] == socket.inet_pton(socket.AF_INET6, "2001:db8::2"),
        "flags R S O": ip[44] == 0xE0,
        "target": ip[48:64] == socket.inet_pton(socket.AF_INET6, "2001:db8::1"),
        "target link-layer option": ip[64:66] == b"\x02\x01" and ip[66:72] == port0_mac,
        "checksum": l4_csum6(bytes(ip)) == 0,
    }
    if len(er) != 1:
        checks["one echo reply"] = False
    else:
        e = er[0][14:]
        checks["echo reply to 2001:db8::3"] = e[24:40] == socket.inet_pton(socket.AF_INET6, "2001:db8::3")
        checks["echo id, seq, data"] = e[44:48] == struct.pack("!HH", 77, 5) and e[48:] == b"vfwd-echo6-test!"
        checks["echo checksum"] = l4_csum6(bytes(e)) == 0
        checks["echo eth dst"] = er[0][0:6] == bytes.fromhex("020000000003")
    for k, v in checks.items():
        if not v:
            print("# NA/echo check failed: " + k)
            ok = False
    return 0 if ok else 1


def cmp(a, b):
    pa, pb = read_pcap(a), read_pcap(b)
    if len(pa) != len(pb):
        print("# %s has %d packets, %s has %d" % (a, len(pa), b, len(pb)))
        return 1
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y:
            print("# packet %d differs:\n#  got  %s\n#  want %s" % (i, x.hex(), y.hex()))
            return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], bytes.fromhex(sys.argv[3].replace(":", "")), "--example" in sys.argv)
    elif sys.argv[1] == "malformed":
        malformed(sys.argv[2], bytes.fromhex(sys.argv[3].replace(":", "")), int(sys.argv[4]))
    elif sys.argv[1] == "gen6":
        gen6(sys.argv[2], bytes.fromhex(sys.argv[3].replace(":", "")),
             bytes.fromhex(sys.argv[4].replace(":", "")))
    elif sys.argv[1] == "check-nd6":
        sys.exit(check_nd6(sys.argv[2], bytes.fromhex(sys.argv[3].replace(":", ""))))
    elif sys.argv[1] == "cmp":
        sys.exit(cmp(sys.argv[2], sys.argv[3]))
    elif sys.argv[1] == "count":
        print(len(read_pcap(sys.argv[2])))
