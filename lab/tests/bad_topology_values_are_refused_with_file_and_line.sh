#!/usr/bin/env bash
# shellcheck disable=SC2016 # eval checks expand when they run
# fwdlab refuses a topology whose values are wrong, not only its syntax: fwdstat's topology
# reader runs before plan, xml and up, and each error names FILE:LINE exactly. Nothing is
# generated from a refused file. fwdlab builds the reader when it is missing.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_TOPOLOGY_CONF=$tmp/topo.conf FWDLAB_NAME=badtopo
b2b=$top/topologies/b2b/topology.conf
host=$top/topologies/host/topology.conf

line_of() { grep -n "^$2 = " "$1" | cut -d: -f1; } # FILE KEY: the line that sets KEY

# refused NAME TOPOLOGY VERB WANT: fwdlab VERB fails and prints the line WANT exactly.
refused() {
	local name=$1 topo=$2 verb=$3 want=$4 rc=0 out
	out=$("$top/lab/fwdlab" --topology "$topo" "$verb" "$tmp/xml" 2>&1) || rc=$?
	printf '%s\n' "$out" | while IFS= read -r l; do echo "# $l"; done
	check "$name: refused" [ "$rc" -ne 0 ]
	check "$name: names ${want#"$tmp"/}" grep -qxF -- "$want" <<<"$out"
}

set_key() { # SRC KEY VALUE: SRC with KEY's value replaced, into topo.conf
	sed "s|^$2 = .*|$2 = $3|" "$1" >"$tmp/topo.conf"
}

set_key "$b2b" dut.vcpus 0
refused "vcpus out of range" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" dut.vcpus): dut.vcpus = 0: expected a whole number from 1 to 255"
set_key "$b2b" dut.forwarding_vcpus 2
refused "forwarding vCPU beyond vcpus" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" dut.forwarding_vcpus): dut.forwarding_vcpus = 2: vCPU 2 is not one of vCPUs 1 to 1 (vCPU 0 keeps the guest's housekeeping; dut.vcpus = 2)"
set_key "$b2b" dut.mgmt_host 10
refused "mgmt_host used twice" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" dut.mgmt_host): dut.mgmt_host = 10: mgmt_host 10 is already tg's (line $(line_of "$b2b" tg.mgmt_host))"
set_key "$b2b" links "tg.port0-dut.port0 tg.port0-dut.port1"
refused "port on two links" b2b xml \
	"$tmp/topo.conf:$(line_of "$b2b" links): link tg.port0-dut.port1: tg.port0 is already on link 1"
{ cat "$b2b"; echo "tg.hostdev_port0 = 0000:03:10.0"; } >"$tmp/topo.conf"
refused "a hostdev link with one passthrough end" b2b xml \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): tg.hostdev_port0: link 1 is a cable between two passthrough ports, but dut.port0 has no dut.hostdev_port0"
{ cat "$b2b"; echo "tg.hostdev_port0 = 0000:03:10.0"; echo "dut.hostdev_port0 = 3:10.2"; } >"$tmp/topo.conf"
refused "a hostdev address that is not DDDD:BB:SS.F" b2b xml \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): dut.hostdev_port0 = 3:10.2: expected a PCI address DDDD:BB:SS.F of the host, like 0000:03:10.2 (slot 00-1f, function 0-7)"
check "nothing generated from a refused file" [ ! -e "$tmp/xml" ]
set_key "$b2b" links "tg.port0-dux.port0 tg.port1-dut.port1"
refused "link to an undeclared node" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" links): link tg.port0-dux.port0: node dux is not in nodes"
set_key "$b2b" pci_slot.port1 4
refused "pci slot taken twice" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" pci_slot.port1): pci_slot.port1 = 4: pci slot 4 is already taken on line $(line_of "$b2b" pci_slot.port0)"
set_key "$b2b" data_mtu 90000
refused "data_mtu out of range" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" data_mtu): data_mtu = 90000: expected a whole number from 68 to 65535"
set_key "$b2b" mgmt_subnet 192.168.150.0/24
refused "mgmt_subnet shape" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" mgmt_subnet): mgmt_subnet = 192.168.150.0/24: expected the first three octets of a /24, like 192.168.150"
set_key "$b2b" dut.role sut
refused "role not tg or dut" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" dut.role): dut.role = sut: expected tg or dut"
set_key "$b2b" dut.uri "http://lab/system"
refused "uri scheme" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" dut.uri): dut.uri = http://lab/system: expected a libvirt QEMU URI like qemu:///system or qemu+ssh://user@host/system"
# Labs across hosts (topologies/b2b/remote.sh): a link between two hosts is a UDP tunnel.
set_key "$b2b" dut.uri "qemu+ssh://root@lab-server/system"
echo "tg.underlay = 10.0.0.1" >>"$tmp/topo.conf"
refused "link across hosts without an end's underlay" b2b plan \
	"$tmp/topo.conf:$(line_of "$b2b" links): link 1: tg and dut are on two hosts (their uri differ), so it is a UDP tunnel: give dut.underlay, the IPv4 address of dut's host"
set_key "$b2b" dut.uri "qemu+ssh://root@lab-server/system"
printf '%s\n' "tg.underlay = 10.0.0.1" "dut.underlay = 10.0.0.256" >>"$tmp/topo.conf"
refused "underlay not an IPv4 address" b2b plan \
	"$tmp/topo.conf:$(($(wc -l <"$b2b") + 2)): dut.underlay = 10.0.0.256: expected the IPv4 address of the node's host on the underlay, like 10.0.0.2"
cp "$b2b" "$tmp/topo.conf"
echo "dut.remote_dir = var/lib/fwdlab" >>"$tmp/topo.conf"
refused "remote_dir not absolute" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): dut.remote_dir = var/lib/fwdlab: expected an absolute folder on the node's host, no spaces, no .."
cp "$b2b" "$tmp/topo.conf"
echo "tunnel_port = 65535" >>"$tmp/topo.conf"
refused "tunnel_port out of range" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): tunnel_port = 65535: expected a whole number from 1024 to 65000"
cp "$b2b" "$tmp/topo.conf"
echo "dut.vcpus = 4" >>"$tmp/topo.conf"
refused "duplicate key" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): duplicate key dut.vcpus (first set on line $(line_of "$b2b" dut.vcpus))"
cp "$b2b" "$tmp/topo.conf"
echo "dut2.vcpus = 2" >>"$tmp/topo.conf"
refused "key of an undeclared node" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): dut2.vcpus: node dut2 is not in nodes (line $(line_of "$b2b" nodes))"
sed 's/$/\r/' "$b2b" >"$tmp/topo.conf"
refused "CRLF line endings" b2b plan \
	"$tmp/topo.conf:1: CRLF line ending ($(wc -l <"$b2b") lines end in \\r\\n; convert the file with dos2unix)"
cp "$b2b" "$tmp/topo.conf"
printf 'dut.ssh_proxy = a\0b\n' >>"$tmp/topo.conf"
refused "NUL byte" b2b plan "$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): NUL byte at column 18"
cp "$b2b" "$tmp/topo.conf"
printf '# d\xe9bit\n' >>"$tmp/topo.conf"
refused "not UTF-8" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): not valid UTF-8 at column 4 (byte 0xe9)"
cp "$b2b" "$tmp/topo.conf"
printf '# %01100d\n' 0 >>"$tmp/topo.conf"
refused "overlong line" b2b plan \
	"$tmp/topo.conf:$(wc -l <"$tmp/topo.conf"): line is 1102 bytes long; the limit is 1024"
set_key "$host" vfwd.port0_mac 01:00:5e:00:00:01
refused "host topology: multicast MAC" host plan \
	"$tmp/topo.conf:$(line_of "$host" vfwd.port0_mac): vfwd.port0_mac = 01:00:5e:00:00:01: a multicast MAC; a port needs a unicast one"
cp "$b2b" "$tmp/topo.conf"
refused "b2b file given to the host topology" host plan \
	"$tmp/topo.conf:$(line_of "$b2b" nodes): a host topology has no nodes (this is a VM topology)"

# A fresh tree: fwdlab builds fwdstat (the reader) before it reads the topology.
# (fwdlab, its drivers and what they source: lab/, topologies/, peers/; no build/.)
mkdir -p "$tmp/tree"
for d in lab topologies peers; do
	if [ -d "$top/$d" ]; then cp -r "$top/$d" "$tmp/tree/"; fi
done
rm -rf "$tmp/tree/lab/fwdstat/tests"
cp "$b2b" "$tmp/topo.conf"
rc=0
out=$(env -u FWDSTAT -u TOP "$tmp/tree/lab/fwdlab" --topology b2b plan --smoke 2>&1) || rc=$?
printf '%s\n' "$out" | while IFS= read -r l; do echo "# $l"; done
check "fresh tree: plan works" [ "$rc" -eq 0 ]
check "fresh tree: fwdlab built fwdstat" [ -x "$tmp/tree/build/lab/bin/fwdstat" ]
check "fresh tree: and said so" grep -q "building fwdstat" <<<"$out"
