#!/usr/bin/env bash
# The b2b lab as a user meets it, under TCG when KVM cannot run guests:
#   make lab (smoke profile)  -> both VMs up, NDR search with short trials, results folder
#   a bidirectional trial     -> packets cross the DUT both ways
#   make swap                 -> a second vfwd build replaces the first; show version names it
#   make lab-down             -> no domain, network, bridge, hugepage reservation, process left
# Prints how long each stage took. Uses its own lab name, folder and subnet, so it does not
# touch a user's lab.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
chmod 0755 "$tmp" # QEMU runs as libvirt-qemu and must reach the lab's disks
export FWDLAB_NAME=fwsmoke FWDLAB_STATE=$tmp/lab FWDLAB_RESULTS=$tmp/results
export FWDLAB_MGMT_SUBNET=${FWDLAB_MGMT_SUBNET:-192.168.157} TOPOLOGY=b2b
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
hp_before=$(cat "$hp")
cleanup() {
	make -s -C "$top" lab-down >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
lab() { "$top/lab/fwdlab" "$@"; }

args="--smoke --label smoke"
stage "make lab (up + reference NDR, smoke profile)" \
	make -s -C "$top" lab LAB_ARGS="$args --trial-duration 1 --final-duration 2" || {
	for n in tg dut; do
		echo "# --- $n console (last 30 lines)"
		tail -n 30 "$FWDLAB_STATE/$n-console.log" 2>/dev/null | sed 's/^/# /'
	done
	exit 1
}
check "both VMs run" eval '[ "$(virsh -q list --name | grep -c "^fwsmoke-")" -eq 2 ]'
run=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'ndr-udp-1500*' | head -n1)
check "results folder is results/<UTC>-b2b-smoke/ndr-udp-1500" \
	eval '[[ $(basename "$(dirname "$run")") =~ ^[0-9]{8}T[0-9]{6}Z-b2b-smoke$ ]]'
check "ndr run is complete" eval '[ "$(jq -r .status "$run/meta.json")" = complete ]'
for node in ethernet-input ip4-lookup ip4-rewrite; do
	check "show_runtime.txt: $node has vectors > 0" \
		eval '[ "$(runtime_vectors "$run/show_runtime.txt" "$node")" -gt 0 ]'
done
check "ndr trials each have a runtime dump" \
	eval '[ "$(find "$run/trials" -name show_runtime.txt | wc -l)" -eq "$(jq ".trials | length" "$run/tgen.json")" ]'

stage "bidirectional trial" lab run --smoke --label smoke --bidir --rate 2000 --duration 3 --run bidir || true
bidir=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'bidir*' | head -n1)
for node in port0-rx port1-rx port0-tx port1-tx; do
	check "bidir: $node has vectors > 0 (packets cross the DUT both ways)" \
		eval '[ "$(runtime_vectors "$bidir/show_runtime.txt" "$node")" -gt 0 ]'
done
check "bidir: tgen received packets" \
	eval '[ "$(jq -r ".trial.rx_packets // 0" "$bidir/tgen.json")" -gt 0 ]'

label=swap-$(date +%s)
stage "build a second vfwd (debug variant, label $label)" \
	quiet make -s -C "$top/forwarder" TOP="$tmp/b" VARIANT=debug LABEL="$label" || true
stage "make swap" make -s -C "$top" swap DUT_BUILD="$tmp/b/build/vfwd/debug" || true
check "show version names the swapped build" \
	eval 'lab ssh dut /opt/vfwd/bin/vfwdctl show version | grep -qF "$label"'
stage "make dump" make -s -C "$top" dump || true
d=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'dump*' | head -n1)
check "dump after swap records the new build in meta.json" \
	eval '[ "$(jq -r .dut.build_label "$d/meta.json")" = "$label" ]'
for f in show_runtime.txt show_errors.txt show_interfaces.txt show_version.txt xstats.txt dmesg.txt; do
	check "dump has $f" [ -s "$d/$f" ]
done

stage "make lab-down" make -s -C "$top" lab-down || true
check "no domain left" eval '! virsh -q list --all --name | grep -q "^fwsmoke-"'
check "no network left" eval '! virsh -q net-list --all --name | grep -q "^fwsmoke-"'
check "no bridge left" eval '! ip -o link show | grep -q "fwsmoke-"'
check "hugepage reservation given back" [ "$(cat "$hp")" -eq "$hp_before" ]
check "no qemu process of the lab left" eval '! pgrep -f "guest=fwsmoke-" >/dev/null'
check "no ssh master connection of the lab left" eval '! pgrep -f "$FWDLAB_STATE/ssh-" >/dev/null'
check "lab folder holds no disk, seed, key or XML" \
	eval '[ -z "$(find "$FWDLAB_STATE" -type f 2>/dev/null)" ]'
exit "$TAP_FAILED"
