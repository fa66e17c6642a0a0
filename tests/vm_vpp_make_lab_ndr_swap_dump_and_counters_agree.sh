#!/usr/bin/env bash
# `make lab DUT=vpp`: the b2b lab with FD.io VPP in the DUT VM, under TCG when KVM cannot
# run guests, and what it proves (`make -C tests check-vm-vpp`):
#   make lab DUT=vpp  -> the DUT boots images/out/dut-vpp (the portable VPP build in /opt/vpp,
#                        the manifest records its version); vpp.service holds both data NICs
#                        as af_packet port0/port1, up; VPP resolved the TG's addresses by ARP
#                        (the setup file sets no neighbor); the reference NDR search ran through
#                        VPP: NDR > 0, meta.json names the backend vpp and VPP's version, the
#                        run folder has VPP's own dump (backend.json, stats.json, show runtime)
#   counters agree    -> in each trial without loss VPP's ip4-lookup and port1-tx counted
#                        exactly tgen's tx (= rx) packets; a run at a fixed rate:
#                        tgen rx <= port1-tx <= ip4-lookup <= tgen tx
#   make swap DUT_BUILD=vpp:DIR -> another VPP build (portable-verB) in the running DUT:
#                        show version names it, a run's meta.json too; a native build is
#                        refused under TCG (VPP would die of SIGILL) and the DUT keeps its
#                        build; a build whose vpp does not start is put aside and the one
#                        before comes back; swap vpp:portable brings the first one back
#   compare vpp:portable vpp:portable-verB -> A then B in the DUT VM, each run labelled by
#                        its build and its own show version, fwdstat's table with both
#   dump, make lab-down -> a dump of its own; no domain, network or bridge left
# Skips without the portable VPP builds (VPP_PORTABLE=1 peers/vpp/build [--variant verB]).
# Its own lab name, folder and subnet: a user's lab is left alone. Prints each stage's time.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
pa=$(VPP_PORTABLE=1 "$top/peers/vpp/build" --print-prefix 2>/dev/null) ||
	skip_all "no portable VPP build (VPP_PORTABLE=1 peers/vpp/build; about 12 min on 2 idle cores)"
pb=$(VPP_PORTABLE=1 "$top/peers/vpp/build" --variant verB --print-prefix 2>/dev/null) ||
	skip_all "no portable verB VPP build (VPP_PORTABLE=1 peers/vpp/build --variant verB)"
# the builds by the names the lab swaps them by (build/vpp/portable, build/vpp/portable-verB)
VPP_PORTABLE=1 "$top/peers/vpp/build" >/dev/null
VPP_PORTABLE=1 "$top/peers/vpp/build" --variant verB >/dev/null
tmp=$(mktemp -d)
chmod 0755 "$tmp" # QEMU runs as libvirt-qemu and must reach the lab's disks
export FWDLAB_NAME=fwvpp FWDLAB_STATE=$tmp/lab FWDLAB_RESULTS=$tmp/results TOPOLOGY=b2b
export FWDLAB_MGMT_SUBNET=${FWDLAB_MGMT_SUBNET:-192.168.159}
unset FWDLAB_TOPOLOGY_CONF FWDLAB_GENERATOR FWDLAB_FORWARDER
cleanup() {
	make -s -C "$top" lab-down DUT=vpp >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/vm_lib.sh
. "$top/tests/vm_lib.sh"
vppctl() { lab ssh dut vppctl -s /run/vpp/cli.sock "$@" 2>/dev/null | tr -d '\r'; }
manifest=$top/images/out/dut-vpp.manifest.json

stage "make lab DUT=vpp (up + reference NDR through VPP, smoke profile)" \
	make -s -C "$top" lab DUT=vpp \
	LAB_ARGS="--smoke --label vpp --max-rate 20000 --min-rate 200 --trial-duration 1 --final-duration 2" || {
	vm_consoles
	lab ssh dut 'journalctl --no-pager -n 30 -u fwdlab-dataplane -u vpp.service; tail -n 30 /var/log/vpp/vpp.log' \
		2>&1 | sed 's/^/# dut: /' || true
	exit 1
}

# ---- the DUT VM with VPP
ver=$(jq -r .payload.build_info.version "$manifest" 2>/dev/null || true)
echo "# the image's VPP: $ver"
check "the DUT booted the VPP image: its manifest names /opt/vpp and a portable VPP" eval '
	jq -e ".payload.installed_at == \"/opt/vpp\" and .payload.build_info.native == \"OFF\"" "$manifest" >/dev/null &&
	[ -n "$ver" ] && virsh dumpxml fwvpp-dut | grep -q "images/out/dut-vpp.vmlinuz" &&
	qemu-img info -U "$FWDLAB_STATE/dut.qcow2" | grep -q "backing file: .*images/out/dut-vpp.qcow2"'
check "vpp.service runs and show version is the image'\''s VPP" eval '
	lab ssh dut systemctl is-active --quiet vpp.service && vppctl show version | grep -qF -- "${ver#vpp }"'
ints=$(vppctl show interface || true)
printf '%s\n' "$ints" | sed 's/^/#   show interface: /'
hw=$(vppctl show hardware-interfaces || true)
check "VPP holds both data NICs as af_packet interfaces port0 and port1, up" eval '
	grep -qE "^ *port0 +[0-9]+ +up" <<<"$ints" && grep -qE "^ *port1 +[0-9]+ +up" <<<"$ints" &&
	[ "$(grep -c "af_packet\|AF_PACKET\|host-" <<<"$hw")" -ge 2 ]'
neigh=$(vppctl show ip neighbors || true)
printf '%s\n' "$neigh" | sed 's/^/#   show ip neighbors: /'
check "the setup sets no neighbor, and VPP resolved both TG addresses by ARP (the TG's MACs)" eval '
	! lab ssh dut "grep -q \"ip neighbor\" /etc/vpp/setup.cli" &&
	grep -i "10\.0\.0\.2" <<<"$neigh" | grep -qi "$(tg_mac 1)" &&
	grep -i "10\.0\.1\.2" <<<"$neigh" | grep -qi "$(tg_mac 2)"'

# ---- the reference NDR that make lab ran
n=$(run_dir ndr-udp-1500)
echo "# ndr run: $n"
echo "# NDR $(jq -r '.ndr.rate_pps' "$n/tgen.json" 2>/dev/null) pps ($(jq -r '.ndr.limited_by' "$n/tgen.json" 2>/dev/null)), PDR $(jq -r '.pdr.rate_pps' "$n/tgen.json" 2>/dev/null) pps, $(jq -r '.trials | length' "$n/tgen.json" 2>/dev/null) trials"
check "the ndr run is complete with an NDR > 0 and a PDR >= it" eval '
	[ "$(status_of "$n")" = complete ] &&
	jq -e ".mode == \"ndr\" and .ndr.rate_pps > 0 and .pdr.rate_pps >= .ndr.rate_pps" "$n/tgen.json" >/dev/null'
check "meta.json: the DUT backend is vpp, its build the image's VPP version" eval '
	jq -e --arg v "$ver" ".topology == \"b2b\" and .dut.backend == \"vpp\" and .dut.build.version == \$v" \
		"$n/meta.json" >/dev/null'
check "the run folder has VPP's own dump: backend.json (vpp), stats.json, show runtime with ip4-lookup" eval '
	jq -e ".backend == \"vpp\"" "$n/backend.json" >/dev/null &&
	jq -e ".port0.rx > 0 and .port1.tx > 0" "$n/stats.json" >/dev/null &&
	grep -q "ip4-lookup" "$n/show_runtime.txt" && grep -qE "^ *Name +State +Calls +Vectors" "$n/show_runtime.txt" &&
	[ -s "$n/show_errors.txt" ] && [ -s "$n/startup.conf" ] && [ -s "$n/setup.cli" ]'
check "a VPP dump (show runtime, errors, interface) for every trial of the search" eval '
	t=$(jq ".trials | length" "$n/tgen.json") && [ "$t" -gt 1 ] &&
	[ "$(find "$n/trials" -name show_runtime.txt | wc -l)" -eq "$t" ] &&
	[ "$(find "$n/trials" -name show_errors.txt | wc -l)" -eq "$t" ] &&
	[ "$(find "$n/trials" -name show_interfaces.txt | wc -l)" -eq "$t" ]'
check "fwdstat reads the run's VPP show runtime: ip4-lookup has clocks per packet" eval '
	"$top/lab/fwdlab" runtime "$n/show_runtime.txt" --node ip4-lookup | grep -qE "[0-9]"'
trials_agree "$n" tgen VPP
check "in each of the $lossless trials without loss VPP counted exactly tgen's packets (ip4-lookup = port1-tx = tx = rx)" \
	eval '[ "$lossless" -ge 1 ] && [ "$agree" = 1 ]'

# ---- one run at a fixed rate
stage "run at 2000 pps for 3 s through VPP" lab run --label vpp --rate 2000 --duration 3 --run vpp-run || true
r=$(run_dir vpp-run)
read -r tx rx < <(jq -r '"\(.trial.tx_packets // .tx_packets // 0) \(.trial.rx_packets // .rx_packets // 0)"' "$r/tgen.json" 2>/dev/null) || tx=0 rx=0
t1=$(find "$r/trials" -name show_runtime.txt 2>/dev/null | sort | tail -n 1)
lk=$(runtime_vectors "${t1:-/dev/null}" ip4-lookup)
p1=$(runtime_vectors "${t1:-/dev/null}" port1-tx)
echo "# run: tgen tx $tx rx $rx; VPP ip4-lookup $lk port1-tx $p1 (its trial's dump)"
check "the run is complete; tgen sent about 6000 packets and received some" eval '
	[ "$(status_of "$r")" = complete ] && [ "$tx" -ge 5000 ] && [ "$tx" -le 7000 ] && [ "$rx" -gt 0 ]'
check "tgen's and VPP's counters agree: rx <= port1-tx <= ip4-lookup <= tx, equal without loss" eval '
	[ "$rx" -le "$p1" ] && [ "$p1" -le "$lk" ] && [ "$lk" -le "$tx" ] &&
	{ [ "$tx" -ne "$rx" ] || { [ "$lk" -eq "$tx" ] && [ "$p1" -eq "$tx" ]; }; }'

# ---- swaps between VPP builds
verb=$(jq -r .version "$pb/build-info.json")
echo "# verB: $verb"
stage "make swap DUT_BUILD=vpp:$pb" make -s -C "$top" swap DUT_BUILD="vpp:$pb" || true
check "after the swap show version names verB (fwdlabB)" eval 'vppctl show version | grep -qF -- "${verb#vpp }" &&
	vppctl show version | grep -q fwdlabB'
stage "run at 2000 pps for 2 s on verB" lab run --label vpp --rate 2000 --duration 2 --run verb-run || true
rb=$(run_dir verb-run)
check "a run on verB is complete and its meta.json names verB's version" eval '
	[ "$(status_of "$rb")" = complete ] &&
	jq -e --arg v "$verb" ".dut.backend != \"vfwd\" and .dut.build.version == \$v" "$rb/meta.json" >/dev/null'
fake=$tmp/native-vpp
mkdir -p "$fake/bin" "$fake/lib"
cp "$pa/bin/vpp" "$fake/bin/vpp"
jq '.native = "ON" | .version = "vpp v0-native-test"' "$pa/build-info.json" >"$fake/build-info.json"
out=$(lab swap "vpp:$fake" 2>&1) && rc=0 || rc=$?
echo "# swap of a native build: rc $rc: $(tail -n 1 <<<"$out")"
check "a native VPP build is refused under TCG (SIGILL named), and the DUT keeps verB" eval '
	if [ "$(cat "$FWDLAB_STATE/accel")" = tcg ]; then
		[ "$rc" -ne 0 ] && grep -q "SIGILL" <<<"$out" && vppctl show version | grep -q fwdlabB
	else
		true
	fi'
broken=$tmp/broken-vpp
cp -al "$pa" "$broken"
rm -f "$broken/bin/vpp"
printf '#!/bin/sh\necho "broken on purpose" >&2\nexit 1\n' >"$broken/bin/vpp"
chmod 0755 "$broken/bin/vpp"
rm -f "$broken/build-info.json"
jq '.version = "vpp v0-broken-test"' "$pa/build-info.json" >"$broken/build-info.json"
out=$(lab swap "vpp:$broken" 2>&1) && rc=0 || rc=$?
echo "# swap of a build whose vpp does not start: rc $rc: $(tail -n 1 <<<"$out")"
check "a build whose VPP does not start: the swap fails naming /opt/vpp.failed, and verB runs again" eval '
	[ "$rc" -ne 0 ] && grep -q "/opt/vpp.failed" <<<"$out" && vppctl show version | grep -q fwdlabB &&
	lab ssh dut test -x /opt/vpp.failed/bin/vpp'
stage "swap vpp:portable (back to the image's build)" lab swap vpp:portable || true
check "swapped back: show version is the image's VPP again, without fwdlabB" eval '
	vppctl show version | grep -qF -- "${ver#vpp }" && ! vppctl show version | grep -q fwdlabB'

# ---- two VPP builds compared in the DUT VM (A B, swaps between them)
cmp_out=$tmp/compare.txt
compare_ab() {
	lab compare vpp:portable vpp:portable-verB --runs 1 --profiles udp:64 --rate 2000 \
		--duration 2 >"$cmp_out" 2>&1
}
stage "fwdlab compare vpp:portable vpp:portable-verB (1 run each, 2000 pps, udp:64)" compare_ab || true
sed 's/^/#   /' "$cmp_out" | tail -n 14
camp=$(find "$FWDLAB_RESULTS" -mindepth 1 -maxdepth 1 -type d -name '*-compare-*' | head -n1)
for g in A B; do
	d=$(find "${camp:-/nonexistent}" -mindepth 1 -maxdepth 1 -type d -name "r1-$g-*" 2>/dev/null | head -n1)
	want=portable
	[ "$g" = A ] || want=portable-verB
	check "compare run $g: complete, labelled vpp:$want, tgen tx == rx > 0" eval '
		[ "$(jq -r "\"\(.status) \(.dut.build_label)\"" "$d/meta.json" 2>/dev/null)" = "complete vpp:$want" ] &&
		[ "$(jq -r ".trial | (.tx_packets > 0 and .tx_packets == .rx_packets)" "$d/tgen.json" 2>/dev/null)" = true ]'
	if [ "$g" = B ]; then
		check "compare run B: VPP's own show version names verB (-fwdlabB)" grep -q -- '-fwdlabB' "$d/show_version.txt"
	else
		check "compare run A: VPP's own show version is the image's build (no -fwdlabB)" eval '
			grep -q "^vpp v" "$d/show_version.txt" && ! grep -q -- "-fwdlabB" "$d/show_version.txt"'
	fi
done
check "fwdstat's comparison names both builds and has VPP's ip4-lookup clocks" eval '
	grep -qE "vpp:portable([^-]|$)" "$cmp_out" && grep -q "vpp:portable-verB" "$cmp_out" && grep -q "ip4-lookup" "$cmp_out"'

# ---- dump
stage "dump" lab dump --run vpp-dump || true
dd=$(run_dir vpp-dump)
check "a dump of its own: complete, VPP's backend.json, stats.json and show runtime" eval '
	[ "$(status_of "$dd")" = complete ] && jq -e ".backend == \"vpp\"" "$dd/backend.json" >/dev/null &&
	[ -s "$dd/stats.json" ] && [ -s "$dd/show_runtime.txt" ] && [ -s "$dd/show_version.txt" ]'

# ---- down
stage "make lab-down DUT=vpp" make -s -C "$top" lab-down DUT=vpp || true
check "no domain, network or bridge of the lab left, no lab folder" vm_lab_gone
echo "1..$TAP_N"
exit "$TAP_FAILED"
