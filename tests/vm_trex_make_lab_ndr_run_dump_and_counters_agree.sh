#!/usr/bin/env bash
# `make lab TG=trex`: the b2b lab with TRex as the generator, under TCG when KVM cannot run
# guests, and what it proves (`make -C tests check-vm-trex`):
#   make lab TG=trex  -> the TG boots the image with TRex (images/out/tg-trex: /opt/trex, the
#                        manifest records TRex's BUILD-INFO sha256) with 3 vCPUs, vCPUs 1-2
#                        polling; trex.service (trexctl start) answers; /etc/trex_cfg.yaml
#                        names the data NICs by PCI address, with an address and the DUT's
#                        address as gateway per port (ARP); vfwd learnt the TG's addresses by
#                        ARP (its setup file sets no neighbor); the reference NDR search ran
#                        through TRex: NDR and PDR, a DUT dump per trial, meta.json names trex
#                        v3.08 and its sha256, generator-trials.jsonl holds TRex's counters
#   counters agree    -> in each trial without loss, vfwd's ip4-lookup and port1-tx counted
#                        exactly TRex's tx (= rx) packets; in a run at a fixed rate
#                        TRex rx <= port1-tx <= ip4-lookup <= TRex tx (equal when no loss)
#   dump              -> a dump of its own, naming TRex as the run's generator
#   make lab-down     -> no domain, network or bridge of the lab left, no lab folder
# Skips (exit 77) without a cached TRex build (make -C trex build). Its own lab name, folder
# and subnet: a user's lab is left alone. Prints how long each stage took.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=trex/tests/lib.sh
. "$top/trex/tests/lib.sh"
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
chmod 0755 "$tmp" # QEMU runs as libvirt-qemu and must reach the lab's disks
export FWDLAB_NAME=fwtrex FWDLAB_STATE=$tmp/lab FWDLAB_RESULTS=$tmp/results TOPOLOGY=b2b
export FWDLAB_MGMT_SUBNET=${FWDLAB_MGMT_SUBNET:-192.168.158}
unset FWDLAB_TOPOLOGY_CONF FWDLAB_GENERATOR
cleanup() {
	make -s -C "$top" lab-down TG=trex >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/vm_lib.sh
. "$top/tests/vm_lib.sh"
manifest=$top/images/out/tg-trex/tg.manifest.json

stage "make lab TG=trex (up + reference NDR through TRex, smoke profile)" \
	make -s -C "$top" lab TG=trex \
	LAB_ARGS="--smoke --label trex --max-rate 20000 --min-rate 200 --trial-duration 1 --final-duration 2" || {
	vm_consoles
	lab ssh tg 'journalctl --no-pager -n 30 -u trex.service; tail -n 30 /run/fwdlab/gen-trex/server.log' \
		2>&1 | sed 's/^/# tg: /' || true
	exit 1
}

# ---- the TG VM with TRex
check "the TG image carries TRex: the manifest names /opt/trex and the tarball's sha256" eval '
	jq -e ".trex.installed_at == \"/opt/trex\" and (.trex.sha256 | length) == 64" "$manifest" >/dev/null &&
	[ "$(jq -r .trex.sha256 "$manifest")" = "$(sed -n "s/^sha256=//p" "$trex_home/BUILD-INFO")" ]'
check "the TG VM has 3 vCPUs, the DUT keeps its 2" eval '
	[ "$(virsh vcpucount fwtrex-tg --live --active)" -eq 3 ] &&
	[ "$(virsh vcpucount fwtrex-dut --live --active)" -eq 2 ]'
check "trex.service runs in the TG and the server answers" \
	lab ssh tg 'systemctl is-active --quiet trex.service && set -a && . /etc/fwdlab/trex.env &&
		/opt/fwdlab/lab/generators/trex check'
cfg=$(lab ssh tg cat /etc/trex_cfg.yaml 2>/dev/null || true)
printf '%s\n' "$cfg" | sed 's/^/#   trex_cfg.yaml: /'
check "/etc/trex_cfg.yaml: the data NICs by PCI address, ip and default_gw (the DUT's) per port" eval '
	grep -qF "interfaces: [\"0000:00:04.0\", \"0000:00:05.0\"]" <<<"$cfg" &&
	grep -qE "ip: 10\.0\.0\.2" <<<"$cfg" && grep -qE "default_gw: 10\.0\.0\.1" <<<"$cfg" &&
	grep -qE "ip: 10\.0\.1\.2" <<<"$cfg" && grep -qE "default_gw: 10\.0\.1\.1" <<<"$cfg"'
neigh=$(lab ssh dut /opt/vfwd/bin/vfwdctl show ip neighbors 2>/dev/null || true)
printf '%s\n' "$neigh" | sed 's/^/#   vfwd neighbors: /'
check "vfwd's setup sets no neighbor, and vfwd resolved both TG addresses by ARP (TRex's MACs)" eval '
	! lab ssh dut "grep -q \"ip neighbor\" /etc/vfwd/setup.cli" &&
	grep -i "10\.0\.0\.2" <<<"$neigh" | grep -qi "$(tg_mac 1)" &&
	grep -i "10\.0\.1\.2" <<<"$neigh" | grep -qi "$(tg_mac 2)"'

# ---- the reference NDR that make lab ran
n=$(run_dir ndr-udp-1500)
echo "# ndr run: $n"
check "the ndr run is complete with NDR and PDR, by TRex through the lab's one search" eval '
	[ "$(status_of "$n")" = complete ] &&
	jq -e ".mode == \"ndr\" and .tool == \"trex\" and .search.tool == \"tgen\" and
		.ndr.rate_pps > 0 and .pdr.rate_pps >= .ndr.rate_pps" "$n/tgen.json" >/dev/null'
echo "# NDR $(jq -r '.ndr.rate_pps' "$n/tgen.json" 2>/dev/null) pps ($(jq -r '.ndr.limited_by' "$n/tgen.json" 2>/dev/null)), PDR $(jq -r '.pdr.rate_pps' "$n/tgen.json" 2>/dev/null) pps, $(jq -r '.trials | length' "$n/tgen.json" 2>/dev/null) trials"
check "meta.json names the generator: trex v3.08 and its tarball's sha256; b2b, the DUT image lock" eval '
	jq -e --arg sha "$(jq -r .trex.sha256 "$manifest")" ".topology == \"b2b\" and
		.generator.name == \"trex\" and .generator.version == \"v3.08\" and
		.generator.sha256 == \$sha and (.dut.image_lock_sha256 | length) == 64" "$n/meta.json" >/dev/null'
check "the results layout of a tgen run: show_runtime/errors/interfaces/version, xstats, tgen.json" eval '
	for f in show_runtime.txt show_runtime.json show_errors.txt show_interfaces.txt \
		show_version.txt xstats.txt tgen.json meta.json; do [ -s "$n/$f" ] || exit 1; done'
check "a DUT dump (show runtime, errors) for every trial of the search" eval '
	t=$(jq ".trials | length" "$n/tgen.json") && [ "$t" -gt 1 ] &&
	[ "$(find "$n/trials" -name show_runtime.txt | wc -l)" -eq "$t" ] &&
	[ "$(find "$n/trials" -name show_errors.txt | wc -l)" -eq "$t" ]'
check "generator-trials.jsonl: TRex's own JSON of each trial (its port counters)" eval '
	[ "$(wc -l <"$n/generator-trials.jsonl")" -eq "$(jq ".trials | length" "$n/tgen.json")" ] &&
	jq -se "all(.[]; .generator.name == \"trex\" and .trex_port_stats[\"0\"].opackets == .directions[0].tx_packets)" \
		"$n/generator-trials.jsonl" >/dev/null'
trials_agree "$n" TRex vfwd
check "in each of the $lossless trials without loss vfwd counted exactly TRex's packets (ip4-lookup = port1-tx = TRex tx = rx)" \
	eval '[ "$lossless" -ge 1 ] && [ "$agree" = 1 ]'

# ---- one run at a fixed rate
stage "run at 2000 pps for 3 s through TRex" lab run --label trex --rate 2000 --duration 3 \
	--run trex-run || true
r=$(run_dir trex-run)
trex_counts "$r"
echo "# run: TRex tx $tx rx $rx; vfwd ip4-lookup $lk port1-tx $p1 (its trial's dump)"
check "the run is complete; TRex sent about 6000 packets and received some" eval '
	[ "$(status_of "$r")" = complete ] && [ "$tx" -ge 5000 ] && [ "$tx" -le 7000 ] && [ "$rx" -gt 0 ]'
check "TRex's and vfwd's counters agree: TRex rx <= port1-tx <= ip4-lookup <= TRex tx, equal without loss" eval '
	[ "$rx" -le "$p1" ] && [ "$p1" -le "$lk" ] && [ "$lk" -le "$tx" ] &&
	{ [ "$tx" -ne "$rx" ] || { [ "$lk" -eq "$tx" ] && [ "$p1" -eq "$tx" ]; }; }'

# ---- dump
stage "dump" lab dump --run trex-dump || true
dd=$(run_dir trex-dump)
check "a dump of its own: complete, show runtime and version, generator trex" eval '
	[ "$(status_of "$dd")" = complete ] && [ -s "$dd/show_runtime.txt" ] && [ -s "$dd/show_version.txt" ] &&
	jq -e ".generator.name == \"trex\"" "$dd/meta.json" >/dev/null'

# ---- down
stage "make lab-down TG=trex" make -s -C "$top" lab-down TG=trex || true
check "no domain, network or bridge of the lab left, no lab folder" vm_lab_gone
echo "1..$TAP_N"
exit "$TAP_FAILED"
