#!/usr/bin/env bash
# shellcheck disable=SC2034,SC2154 # boot_lib.sh (sourced) sets and reads the boot's variables
# Boot test of the VPP DUT image (images/dut-vpp) with plain qemu-system-x86_64 (q35; KVM
# when a time-boxed probe shows it works, else TCG with -cpu max; no libvirt) and a seed
# from `provisioning/make-seed --dut vpp`: VPP must answer `show version` with the
# version of the build the image holds, its ports must be the two data NICs through
# af_packet (left to the kernel's virtio-net), and it must route: frames sent into port0
# from this host (QEMU socket netdevs, one UDP socket per NIC) come out of port1 with
# TTL 63, the neighbor's MAC and port1's MAC, counted by VPP; systemd restarts VPP after
# kill -9. TAP output. Environment: OUT (images, default images/out), BOOT_LIMIT (seconds,
# default 900), FRAMES (default 200).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=boot_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot_lib.sh"
frames=${FRAMES:-200}
role=dut-vpp
boot_need_image $role skip "make -C images dut-vpp (needs the portable VPP build)"
boot_tmp fwdlab-vpp-boot
ssh_port=$(free_port tcp)
# Per data NIC: QEMU listens on q*, this host's side on h*.
q0=$(free_port udp) h0=$(free_port udp) q1=$(free_port udp) h1=$(free_port udp)
mgmt_mac=52:54:00:f1:00:01
data0=52:54:00:f1:10:01
data1=52:54:00:f1:10:02
tg0=02:00:00:00:00:02 tg1=02:00:00:00:01:02

ssh-keygen -q -t ed25519 -N '' -C fwdlab-vpp-boot-test -f "$tmp/id" </dev/null
cat >"$tmp/setup.cli" <<EOF
set interface ip address port0 10.0.0.1/24
set interface ip address port1 10.0.1.1/24
set ip neighbor port0 10.0.0.2 $tg0 static
set ip neighbor port1 10.0.1.2 $tg1 static
ip route add 48.0.0.0/8 via 10.0.1.2 port1
ip route add 16.0.0.0/8 via 10.0.0.2 port0
EOF
"$top/provisioning/make-seed" --role dut --dut vpp --hostname dut-vpp-boot-test --ssh-key "$tmp/id.pub" \
	--mgmt-mac "$mgmt_mac" --data-mac "$data0" --data-mac "$data1" --vpp-setup "$tmp/setup.cli" \
	--isolate 1 --out "$tmp/seed" >/dev/null
boot_qemu $role "$mgmt_mac" -name "fwdlab-vpp-boot-$$" \
	-netdev "socket,id=d0,udp=127.0.0.1:$h0,localaddr=127.0.0.1:$q0" \
	-device "virtio-net-pci,netdev=d0,mac=$data0" \
	-netdev "socket,id=d1,udp=127.0.0.1:$h1,localaddr=127.0.0.1:$q1" \
	-device "virtio-net-pci,netdev=d1,mac=$data1"

vppctl() { guest /usr/local/bin/vppctl "$@"; }
dump_guest() {
	guest /bin/systemctl status --no-pager fwdlab-dataplane vpp 2>&1 | sed 's/^/# /' || true
	guest /bin/journalctl -b --no-pager -u fwdlab-dataplane -u vpp 2>&1 | tail -n 30 | sed 's/^/# /' || true
	guest /bin/cat /run/fwdlab/vpp-setup.cli 2>&1 | sed 's/^/# setup: /' || true
	guest /bin/tail -n 20 /var/log/vpp/vpp.log 2>&1 | sed 's/^/# vpp.log: /' || true
}

# 1. the guest agent answers
boot_wait_agent dut_vpp_boots_and_guest_agent_answers

# 2. VPP answers show version, naming the build the manifest records
version="" ready_at=""
while [ "$(elapsed | cut -d. -f1)" -lt "$limit" ]; do
	if version=$(vppctl show version 2>/dev/null | tr -d '\r') && grep -q '^vpp ' <<<"$version" &&
		grep -q 'port1.*up' <<<"$(vppctl show interface 2>/dev/null)"; then
		ready_at=$(elapsed)
		break
	fi
	sleep 2
done
want=$(jq -r '.payload.build_info.version' "$out/$role.manifest.json")
if [ -n "$ready_at" ] && [ "$version" = "$want" ]; then
	tap ok "vpp_answers_show_version_with_the_image_build (${ready_at}s after qemu started)"
else
	tap fail vpp_answers_show_version_with_the_image_build "got '${version//$'\n'/ }', want '$want'"
	dump_guest
	dump_console
fi
echo "# vpp: $version"

# 3. the ports: both data NICs stay virtio-net, VPP has them as af_packet port0/port1, up
ports=$(guest /bin/cat /run/fwdlab/ports 2>/dev/null || true)
ifs=$(vppctl show interface 2>&1 | tr -d '\r' || true)
hw=$(vppctl show hardware-interfaces 2>&1 | tr -d '\r' || true)
if grep -q "^port0 $data0 [0-9a-f:.]* kernel " <<<"$ports" && grep -q "^port1 $data1 [0-9a-f:.]* kernel " <<<"$ports" &&
	grep -q '^port0 .* up' <<<"$ifs" && grep -q '^port1 .* up' <<<"$ifs" &&
	grep -qi "af_packet\|host-" <<<"$hw" && grep -qi "$data1" <<<"$hw"; then
	tap ok vpp_holds_both_data_nics_through_af_packet
else
	tap fail vpp_holds_both_data_nics_through_af_packet "ports '${ports//$'\n'/; }'"
	printf '%s\n' "$ifs" "$hw" | sed 's/^/# /'
fi

# 4. it routes: FRAMES UDP frames 16.0.0.1 -> 48.0.0.1 into port0, out of port1
vppctl clear interfaces >/dev/null 2>&1 || true
res=$(python3 - "$q0" "$h0" "$q1" "$h1" "$data0" "$data1" "$tg0" "$tg1" "$frames" <<'EOF'
import socket, struct, sys, time
q0, h0, q1, h1 = (int(x) for x in sys.argv[1:5])
dut0, dut1, tg0, tg1 = (bytes.fromhex(m.replace(":", "")) for m in sys.argv[5:9])
count = int(sys.argv[9])
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF
def frame(i):
    payload = struct.pack("!I", i) + bytes(18)
    udp = struct.pack("!HHHH", 1025, 12, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i, 0, 64, 17, 0,
                     socket.inet_aton("16.0.0.1"), socket.inet_aton("48.0.0.1"))
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return dut0 + tg0 + b"\x08\x00" + ip + udp
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); tx.bind(("127.0.0.1", h0))
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); rx.bind(("127.0.0.1", h1))
rx.settimeout(0.2)
got, bad, other = set(), 0, 0
for i in range(count):
    tx.sendto(frame(i), ("127.0.0.1", q0))
    time.sleep(0.005)          # paced: a TCG guest takes frames slowly
deadline = time.time() + 30
while time.time() < deadline and len(got) < count:
    try:
        f, _ = rx.recvfrom(65536)
    except socket.timeout:
        continue
    if len(f) < 42 or f[12:14] != b"\x08\x00" or f[23] != 17 or f[30:34] != socket.inet_aton("48.0.0.1"):
        other += 1
        continue
    ip = f[14:34]
    ok = f[0:6] == tg1 and f[6:12] == dut1 and f[22] == 63 and csum(ip) == 0
    if ok:
        got.add(struct.unpack("!I", f[42:46])[0])
    else:
        bad += 1
print(len(got), bad, other)
EOF
) || res="error"
read -r fwd bad other <<<"$res"
ifc=$(vppctl show interface 2>&1 | tr -d '\r' || true)
rx0=$(awk '$1 == "port0" { p = 1 } p && $1 == "rx" && $2 == "packets" { print $3; exit }' <<<"$ifc")
tx1=$(awk '$1 == "port1" { p = 1 } p && $1 == "tx" && $2 == "packets" { print $3; exit }' <<<"$ifc")
if [ "${fwd:-0}" = "$frames" ] && [ "${bad:-1}" = 0 ] && [ "${rx0:-0}" -ge "$frames" ] &&
	[ "${tx1:-0}" -ge "$frames" ]; then
	tap ok "vpp_routes_frames_from_port0_to_port1_ttl_63_next_hop_mac ($fwd of $frames; VPP port0 rx $rx0, port1 tx $tx1; $other other frames)"
else
	tap fail vpp_routes_frames_from_port0_to_port1_ttl_63_next_hop_mac \
		"result '$res' (forwarded, bad, other), VPP port0 rx '${rx0:-}' port1 tx '${tx1:-}'"
	printf '%s\n' "$ifc" | sed 's/^/# /'
	vppctl show errors 2>&1 | sed 's/^/# /' || true
fi

# 5. systemd restarts VPP when it dies
boot_restarted vpp_is_restarted_after_a_crash vpp.service 90 2 vppctl show version

echo "# figures: accel=$accel boot_to_agent=${agent_at}s boot_to_vpp_ready=${ready_at:-never}s"
echo "1..$n"
