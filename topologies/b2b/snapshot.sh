# shellcheck shell=bash
# b2b snapshots (issue 16): `fwdlab snapshot save NAME` keeps the booted lab, `fwdlab up
# --from-snapshot NAME` brings it back in seconds instead of a boot. A snapshot is a folder
#   snapshot.json     what it holds: lab, nodes, the base images' sha256, when, how long
#   NODE.save         each domain's memory and device state (virsh save: QEMU's migration
#                     stream written to a file, the domain's XML inside)
#   state/            the lab's folder as it was (overlay disks, seeds, plan, key, XML)
# Both guests are paused together before either is saved, so the pair is one instant: the
# DUT's counters and neighbours match what the TG last sent. The disks are copied while the
# domains are stopped (after their save, before they run again), so memory and disk agree.
# Local nodes only (a node on another libvirt is refused by name).

# snap_nodes_local: dies naming a node whose libvirt is not this host's.
snap_nodes_local() {
	local node
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri_is_local "$(node_uri "$node")" ||
			die "snapshot: node $node runs on $(node_uri "$node"); snapshots keep local nodes only"
	done
}

# snap_base_sha NODE: the sha256 of the image the node's overlay disk is backed by.
snap_base_sha() {
	sha256sum "$(node_image "$1")" | cut -d' ' -f1
}

# snap_copy_state TO: the lab's folder without its ssh control sockets (their masters are
# closed before a save), console logs (QEMU keeps appending to the live ones) and the
# hugepage count (the pages are released by down and reserved again by the restore).
snap_copy_state() {
	mkdir -p "$1"
	tar -C "$STATE" --sparse --exclude='./ssh-*.ctl' --exclude='./*-console.log' \
		--exclude=./hugepages -cf - . |
		tar -C "$1" -xf - || die "snapshot: copying the lab folder $STATE to $1 failed"
}

# topo_snapshot_save DIR: saves the running lab into DIR (made here; the caller removes it
# on failure), then runs the lab on from the same state. Prints the seconds each took.
topo_snapshot_save() {
	local dir=$1 node uri dom n t0 t1 t2 nodes=() shas=()
	topo_require_up
	snap_nodes_local
	! pid_alive "$STATE/tgen.pid" ||
		die "snapshot: a run is going on (tgen pid $(cat "$STATE/tgen.pid")); save after it"
	read -r -a nodes <<<"$(kv_get "$TOPO_CONF" nodes)"
	mkdir -p "$dir"
	# the base images do not change while the lab runs: read before the guests stop
	for node in "${nodes[@]}"; do shas+=("$node=$(snap_base_sha "$node")"); done
	for node in "${nodes[@]}"; do ssh_close "$node"; done
	t0=$(date +%s.%N)
	for node in "${nodes[@]}"; do
		vsh "$(node_uri "$node")" suspend "$(dom_name "$node")" >/dev/null ||
			die "snapshot: pausing $(dom_name "$node") failed"
	done
	say "snapshot: both guests paused; saving their memory (TCG guests: about a second per 100 MB)"
	for node in "${nodes[@]}"; do
		uri=$(node_uri "$node")
		dom=$(dom_name "$node")
		if ! vsh "$uri" save "$dom" "$dir/$node.save" >/dev/null; then
			# the others run on; this one is still paused or stopped: `up` starts it again
			for n in "${nodes[@]}"; do vsh "$(node_uri "$n")" resume "$(dom_name "$n")" >/dev/null 2>&1 || true; done
			die "snapshot: virsh save $dom failed (libvirt's log: /var/log/libvirt/qemu/$dom.log)"
		fi
		say "snapshot: $node saved ($(du -h "$dir/$node.save" | cut -f1))"
	done
	t1=$(date +%s.%N)
	snap_copy_state "$dir/state"
	# the lab runs on from what was saved (the saved file stays the snapshot's)
	for node in "${nodes[@]}"; do
		vsh "$(node_uri "$node")" restore "$dir/$node.save" --paused >/dev/null ||
			die "snapshot: saved, but restoring $node to run on failed (fwdlab up --from-snapshot works from $dir)"
	done
	for node in "${nodes[@]}"; do vsh "$(node_uri "$node")" resume "$(dom_name "$node")" >/dev/null; done
	t2=$(date +%s.%N)
	for node in "${nodes[@]}"; do snap_clock_set "$node"; done
	jq -n --arg lab "$LAB_NAME" --arg topo "$TOPOLOGY" --arg at "$(utc_now)" \
		--arg accel "$(topo_accel)" --arg gen "$(cat "$STATE/generator" 2>/dev/null || tg_kind)" \
		--arg fwd "$(dut_forwarder)" \
		--argjson save "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')" \
		--argjson resume "$(awk -v a="$t1" -v b="$t2" 'BEGIN {printf "%.1f", b - a}')" \
		--argjson img "$(jq -n '$ARGS.positional | map(split("=") | {(.[0]): .[1]}) | add' --args "${shas[@]}")" \
		--arg nodes "${nodes[*]}" \
		'{lab: $lab, topology: $topo, saved_at: $at, accel: $accel, generator: $gen, forwarder: $fwd,
		  nodes: ($nodes | split(" ")), images_sha256: $img,
		  save_seconds: $save, run_on_seconds: $resume}' >"$dir/snapshot.json.tmp" &&
		mv -f "$dir/snapshot.json.tmp" "$dir/snapshot.json"
	for n in "${nodes[@]}"; do wait_until 120 "ssh to $n" node_ssh "$n" true || die "$n does not answer ssh after the save"; done
	vfwd_answers || die "$(dut_forwarder) does not answer in the DUT after the save"
	say "snapshot: saved in $(jq -r .save_seconds "$dir/snapshot.json") s, the lab ran on after $(jq -r .run_on_seconds "$dir/snapshot.json") s more"
}

# snap_clock_set NODE: a restored guest's clock stands where it was saved; set it to ours.
snap_clock_set() {
	node_ssh "$1" "date -u -s @$(date +%s) >/dev/null" </dev/null 2>/dev/null || true
}

# topo_snapshot_restore DIR: the lab from snapshot DIR, with nothing of it running now.
topo_snapshot_restore() {
	local dir=$1 node uri dom want have uuid nodes=() t0
	snap_nodes_local
	read -r -a nodes <<<"$(kv_get "$TOPO_CONF" nodes)"
	[ "$(jq -r .lab "$dir/snapshot.json")" = "$LAB_NAME" ] ||
		die "snapshot $dir is of lab $(jq -r .lab "$dir/snapshot.json"), this is $LAB_NAME (FWDLAB_NAME/--instance)"
	for node in "${nodes[@]}"; do
		[ -s "$dir/$node.save" ] || die "snapshot $dir has no $node.save"
		if vsh "$(node_uri "$node")" dominfo "$(dom_name "$node")" >/dev/null 2>&1; then
			die "--from-snapshot: domain $(dom_name "$node") exists; fwdlab down first"
		fi
		want=$(jq -r --arg n "$node" '.images_sha256[$n]' "$dir/snapshot.json")
		have=$(snap_base_sha "$node")
		[ "$want" = "$have" ] ||
			die "--from-snapshot: the $node image $(node_image "$node") changed since the snapshot (sha256 ${have:0:12}, saved on ${want:0:12}): its disk would not match; fwdlab snapshot rm, then up and save again"
	done
	t0=$(date +%s.%N)
	snap_copy_state_back "$dir/state"
	# shellcheck source=/dev/null
	. "$STATE/plan.env"
	# as topo_up does them (snap_nodes_local: every node is on this host)
	lab_hugepages_reserve local
	lab_nets_up
	for node in "${nodes[@]}"; do
		uri=$(node_uri "$node")
		dom=$(dom_name "$node")
		vsh "$uri" restore "$dir/$node.save" --paused >/dev/null ||
			die "--from-snapshot: virsh restore of $node failed (libvirt's log: /var/log/libvirt/qemu/$dom.log)"
		# restored domains are transient: defined again from the lab's XML with the restored
		# UUID, so that down and a later up treat them as any other
		uuid=$(vsh "$uri" domuuid "$dom")
		sed -e '/^  <uuid>/d' -e "s|^  <name>.*</name>$|&\n  <uuid>$uuid</uuid>|" \
			"$STATE/xml/$node.xml" >"$STATE/xml/$node.restored.xml"
		vsh "$uri" define "$STATE/xml/$node.restored.xml" >/dev/null || warn "defining $dom again failed"
	done
	for node in "${nodes[@]}"; do vsh "$(node_uri "$node")" resume "$(dom_name "$node")" >/dev/null; done
	say "--from-snapshot: both guests running again from $(jq -r .saved_at "$dir/snapshot.json")"
	for node in "${nodes[@]}"; do
		wait_until 300 "ssh to $node" node_ssh "$node" true ||
			die "$node does not answer ssh at $(node_ip "$node") after the restore; console: $STATE/$node-console.log"
		snap_clock_set "$node"
	done
	wait_until 120 "$(dut_forwarder) in the DUT" vfwd_answers || die "$(dut_forwarder) does not answer in the DUT after the restore"
	say "--from-snapshot: the lab answers $(awk -v a="$t0" -v b="$(date +%s.%N)" \
		'BEGIN {printf "%.1f", b - a}') s after the restore began"
}

snap_copy_state_back() {
	mkdir -p "$STATE"
	tar -C "$1" --sparse -cf - . | tar -C "$STATE" -xf - ||
		die "--from-snapshot: copying $1 back to $STATE failed"
	chmod 0711 "$STATE"
}
