# shellcheck shell=bash
# shellcheck disable=SC2154,SC2034 # top: the tree, set by the sourcing test; lossless and agree are read by it
# Shared by the b2b VM tests that bring up a lab of their own (TRex's, VPP's), sourced once
# FWDLAB_NAME, FWDLAB_STATE and FWDLAB_RESULTS are set; `top` is the tree.
lab() { "$top/lab/fwdlab" "$@"; }
run_dir() { find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name "$1" -print -quit; }
status_of() { jq -r .status "$1/meta.json" 2>/dev/null || echo none; }
# tg_mac N: the TG's MAC on its NIC N (1 = port0, 2 = port1), as topologies/b2b/libvirt.sh node_mac
tg_mac() {
	local h
	h=$(printf '%s/%s/%s' "$FWDLAB_NAME" tg "$1" | md5sum)
	printf '52:54:00:%s:%s:%s\n' "${h:0:2}" "${h:2:2}" "${h:4:2}"
}
# vm_consoles: the last 30 lines of both guests' consoles, as TAP comments (a failed up)
vm_consoles() {
	local n
	for n in tg dut; do
		echo "# --- $n console (last 30 lines)"
		tail -n 30 "$FWDLAB_STATE/$n-console.log" 2>/dev/null | sed 's/^/# /'
	done
}
# vm_lab_gone: no domain, network or bridge of the lab is left, nor its folder
vm_lab_gone() {
	! virsh -q list --all --name | grep -q "^$FWDLAB_NAME-" &&
		! virsh -q net-list --all --name | grep -q "^$FWDLAB_NAME-" &&
		! ip -o link show | grep -q ": $FWDLAB_NAME-" && [ ! -e "$FWDLAB_STATE" ]
}
# trials_agree RUN_DIR GENERATOR DUT: per trial of the run's search, the generator's tx and
# rx beside the DUT's ip4-lookup and port1-tx (the trial's dump), as TAP comments; sets
# `lossless` (how many trials lost nothing) and `agree` (1 while, in each of those, both
# DUT counters equal the generator's count).
trials_agree() {
	local i tx rx d lk p1
	lossless=0 agree=1
	while read -r i tx rx; do
		d=$(printf '%s/trials/%03d' "$1" "$i")
		lk=$(runtime_vectors "$d/show_runtime.txt" ip4-lookup)
		p1=$(runtime_vectors "$d/show_runtime.txt" port1-tx)
		echo "#   trial $i: $2 tx $tx rx $rx; $3 ip4-lookup $lk port1-tx $p1"
		if [ "$tx" -eq "$rx" ] && [ "$tx" -gt 0 ]; then
			lossless=$((lossless + 1))
			[ "$lk" -eq "$tx" ] && [ "$p1" -eq "$tx" ] || agree=0
		fi
	done < <(jq -r '.trials[] | "\(.index) \(.tx_packets) \(.rx_packets)"' "$1/tgen.json" 2>/dev/null)
}
