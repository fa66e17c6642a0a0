# shellcheck shell=bash
# A peer backend (peers/) as the host topology's DUT, for `fwdlab swap peer:NAME`. Sourced
# by topologies/host/driver.sh after its own functions, which call these where vfwd and a
# peer differ.
#
# A DPDK peer takes vfwd's place on the very same vhost-user sockets (virtio-user server=1
# with the MACs of topology.conf), so tgen connects to it as it does to vfwd. The kernel
# (linux) cannot serve a vhost-user socket: it gets one veth pair per port instead (its end
# in a network namespace, peers/backends/linux) and tgen uses net_af_packet on the root-side
# ends, with the same MACs. Routes, neighbors and addresses come from setup.cli, the file
# vfwd executes at start, so both get the same ones.
#
# State in $STATE/peer/: name (the backend), config (peers/README.md "Config file"),
# build-info.json (what a run's meta.json records as dut.build), run/ (the backend's own
# run folder: pid files, logs, OVS's database), start.log.

# topo_has_peers: this topology runs peer backends as its DUT (topologies/CONTRACT.md).
topo_has_peers() { :; }
peer_current() { cat "$STATE/peer/name" 2>/dev/null || true; }
# peer_is_dut: a peer backend is the lab's DUT (vfwd is stopped). Whether it runs: peer_running.
peer_is_dut() { [ -s "$STATE/peer/name" ]; }
# peer_backend: the backend that runs the current peer (vpp:BUILD and vpp-plugin:FILE.so are
# the vpp backend).
peer_backend() {
	local n
	n=$(peer_current)
	case "$n" in vpp-plugin:*) echo vpp ;; *) echo "${n%%:*}" ;; esac
}
# peer_vpp_base: the VPP build under the current peer (vpp, vpp:NAME), without a plugin swapped in.
peer_vpp_base() { cat "$STATE/peer/base" 2>/dev/null || peer_current; }
# peer_vppctl CLI...: VPP's CLI when a VPP build is the peer (CRs removed).
peer_vppctl() {
	local prefix lib
	prefix=$(awk '$1 == "vpp-prefix" { print $2 }' "$STATE/peer/config")
	lib=$(dirname "$(find "$prefix/lib" -maxdepth 2 -name 'libvnet.so*' -print -quit)")
	LD_LIBRARY_PATH=$lib "$prefix/bin/vppctl" -s "$STATE/peer/run/cli.sock" "$@" | tr -d '\r'
}
peer_do() { # VERB [DIR]: peers/backend NAME VERB CONFIG [DIR]
	"$PEERS_BACKEND" "$(peer_backend)" "$1" "$STATE/peer/config" "${@:2}"
}
# peer_own_tgen_ports: the DUT does not serve vfwd's vhost-user sockets, so tgen's ports
# differ (peer_tgen_eal): linux (veths) and vpp (memif).
peer_own_tgen_ports() { case "$(peer_backend)" in linux | vpp) return 0 ;; *) return 1 ;; esac; }
# The memif socket of port N when VPP is the DUT (VPP is the master, tgen the client).
peer_memif_sock() { echo "$STATE/run/memif$1.sock"; }
peer_running() { peer_is_dut && peer_do status >/dev/null 2>&1; }

# The root-side veth of port N (linux): unique per lab folder, 15 characters at most.
peer_veth() { printf 'fl%sp%s' "$(lab_prefix)" "$1"; }

# peer_host_config NAME: the backend's config from topology.conf and setup.cli.
peer_host_config() {
	local name=$1 p workers backend=${1%%:*}
	[[ $name != vpp-plugin:* ]] || backend=vpp
	workers=$(conf vfwd.workers)
	[[ $workers =~ ^[0-9]+$ ]] ||
		die "$TOPO_CONF: vfwd.workers = $workers; a peer backend forwards on one lcore"
	echo "# written by fwdlab (topologies/host/peer.sh) from $TOPO_CONF and $TOPO_DIR/setup.cli"
	for p in 0 1; do
		if [ "$name" = linux ]; then
			echo "port$p veth:$(peer_veth "$p")"
		elif [ "$backend" = vpp ]; then
			echo "port$p memif:$(peer_memif_sock "$p")"
		else
			echo "port$p net_virtio_user$p,path=$STATE/run/port$p.sock,server=1,queue_size=1024,mac=$(conf "vfwd.port${p}_mac")"
		fi
		echo "mac port$p $(conf "vfwd.port${p}_mac")"
	done
	[ "$name" = linux ] || [ "$backend" = vpp ] || echo "eal-args $(conf vfwd.eal_args)"
	if [[ $name == vpp-plugin:* ]]; then
		# the base build (swap_vpp_plugin wrote it) and the plugin swapped in, with FILE.cli
		echo "vpp-prefix $(vpp_spec_prefix "$(cat "$STATE/peer/base")")"
		echo "vpp-plugin $STATE/peer/plugin/${name#vpp-plugin:}"
	elif [ "$backend" = vpp ]; then
		echo "vpp-prefix $(vpp_spec_prefix "$name")"
	fi
	echo "main-lcore $(conf vfwd.main_core)"
	echo "lcore $workers"
	echo "num-mbufs $(conf vfwd.num_mbufs)"
	peer_config_from_cli "$TOPO_DIR/setup.cli" || die "$TOPO_DIR/setup.cli: see above"
	echo "file-prefix peer-$(lab_prefix)"
	echo "run-dir $STATE/peer/run"
}

# tgen's ports when the DUT is linux: net_af_packet on the veths' root-side ends; vpp:
# net_memif clients on VPP's memif sockets, with the neighbors' MACs of setup.cli.
peer_tgen_eal() {
	local p mac
	printf '%s --file-prefix tgen-%s --no-pci' "$(conf tgen.eal_args)" "$(lab_prefix)"
	if [ "$(peer_backend)" = vpp ]; then
		for p in 0 1; do
			mac=$(awk -v p="port$p" '$1 == "neighbor" && $2 == p { print $4; exit }' "$STATE/peer/config")
			printf ' --vdev net_memif%s,role=client,id=0,socket=%s,socket-abstract=no%s' \
				"$p" "$(peer_memif_sock "$p")" "${mac:+,mac=$mac}"
		done
		return
	fi
	printf ' --vdev net_af_packet%s,iface=%s' 0 "$(peer_veth 0)" 1 "$(peer_veth 1)"
}

# More patience for tgen with a peer: OVS adds its ports one after the other (60 s for the
# links), and a DPDK peer takes the next vhost client only when it notices the last one left
# (LSC interrupt; OVS's watchdog every 5 s): warm up until a frame comes back, 30 s at most.
peer_tgen_extra_args() { printf -- ' --link-timeout 60 --warmup 30'; }

# peer_tgen_hold: tgen connected to the DUT's sockets until INT (1 pps, no warm-up), holding
# tgen.lock like every tgen of the lab.
peer_tgen_hold() {
	exec 9>"$STATE/tgen.lock"
	flock -w 60 9 || exit 75
	# shellcheck disable=SC2046 # EAL and port arguments are words
	exec "$(tgen_bin)" $(tgen_eal) -- run --rate 1pps --duration 600 $(tgen_port_args) \
		--warmup 0 >>"$STATE/tgen-link.log" 2>&1 </dev/null
}

# peer_trial_hooks RUN_DIR: tgen's --pre-trial and --post-trial commands, one a line.
peer_trial_hooks() {
	local hook=$PEERS_LAB_DIR/lab-trial-hook name cfg=$STATE/peer/config
	name=$(peer_backend)
	echo "$hook pre $1/trials $name $cfg"
	echo "$hook post $1/trials $name $cfg"
}

# peer_stop: the running peer, if any, and its state; the sockets it served are stale then.
# (vfwd's own sockets, when vfwd is the DUT, are left alone.)
peer_stop() {
	if peer_is_dut; then
		say "stopping peer backend $(peer_current)"
		peer_do stop >&2 || warn "peers/backend $(peer_backend) stop failed"
		rm -f "$STATE/run/port0.sock" "$STATE/run/port1.sock" "$(peer_memif_sock 0)" "$(peer_memif_sock 1)"
	fi
	rm -rf "${STATE:?}/peer" "$STATE/peer.failed"
}

# peer_start_linked NAME: starts the backend (its config written) on fresh sockets, then a
# tgen of its own must see both links up. Returns 0, the backend's failure, or 75 when the
# backend started and a link stayed down (tgen-link.log says which).
peer_start_linked() {
	local name=$1 hold_pid="" rc=0
	rm -f "$STATE/run/port0.sock" "$STATE/run/port1.sock" "$STATE/run/cli.sock"
	: >"$STATE/tgen-link.log"
	if [ "$name" != linux ] && [[ $name != vpp* ]]; then
		# The backend's EAL init waits for a vhost client on each socket, and its port
		# setup may talk to that client again (l3fwd renegotiates virtio features for its
		# Rx offloads; a client gone by then is a SIGPIPE that kills it): a tgen holds the
		# links (1 pps, nothing forwarded yet) until the backend forwards.
		peer_tgen_hold &
		hold_pid=$!
	fi
	say "starting peer backend $name ($STATE/peer/config)"
	peer_do start >"$STATE/peer/start.log" 2>&1 || rc=$?
	if [ -n "$hold_pid" ]; then
		kill -INT "$hold_pid" 2>/dev/null || true
		wait "$hold_pid" || true
	fi
	# A tgen of its own connects and sees both links up: for a DPDK backend, that proves it
	# takes the next vhost client, as each experiment's tgen will be.
	[ "$rc" -eq 0 ] || return "$rc"
	bash -c "$(tgen_link_cmd "-w 60")" && return 0
	if grep -q 'link down after' "$STATE/tgen-link.log"; then return 75; fi
	return 1
}

# topo_peer_swap NAME: vfwd (or the previous peer) out, NAME in; returns when it forwards.
# vpp-plugin:FILE.so: host_plugin_swap.
topo_peer_swap() {
	local name=$1 rc=0
	if [[ $name == vpp-plugin:* ]]; then
		host_plugin_swap "$name"
		return
	fi
	# The lab is up (its vfwd build installed), whether or not a DUT runs now.
	[ -d "$STATE/vfwd" ] || die "the host lab is not up (fwdlab up --topology host)"
	peer_needs_build "$name"
	vfwd_stop
	peer_stop
	mkdir -p "$STATE/peer/run" "$STATE/run"
	peer_host_config "$name" | atomic_write "$STATE/peer/config"
	echo "$name" >"$STATE/peer/name"
	peer_start_linked "$name" || rc=$?
	# DPDK 22.11's vhost-user reconnect race (docs/design.md "The peer tests' reference generator
	# and the vhost-user reconnect race"): a backend that started can leave one of tgen's links
	# down for good. One more start, said and counted; a second failure is the swap's.
	if [ "$rc" -eq 75 ]; then
		say "retry 1 of 1: tgen's link to $name stayed down ($(grep -o 'port[01] ([^)]*): link down after [0-9]* s' "$STATE/tgen-link.log" | head -n 1)): the vhost-user reconnect race; starting $name again"
		echo "$name: tgen link down, backend restarted" >>"$STATE/peer-retries.log"
		peer_do stop >/dev/null 2>&1 || true
		rc=0
		peer_start_linked "$name" || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		tail -n 20 "$STATE/peer/start.log" "$STATE/tgen-link.log" >&2
		peer_do stop >/dev/null 2>&1 || true
		rm -rf "$STATE/peer.failed"
		mv "$STATE/peer" "$STATE/peer.failed"
		rm -f "$STATE/peer.failed/name"
		die "peer backend $name did not start (logs above, all of them in $STATE/peer.failed); the lab has no DUT now: fwdlab swap BUILD or fwdlab up"
	fi
	peer_build_info "$name"
}

# peer_build_info NAME: what meta.json records as the DUT's build ($STATE/peer/build-info.json):
# the backend's name and version (from a dump of it; VPP's from its show version); a VPP build
# is labelled by its name (vpp:verB, vpp-plugin:FILE.so), so that two of them are two columns,
# and lists the plugins it runs that are not VPP's own ([{file, sha256, node}]: the tree's own,
# build-plugin --tree, and one swapped in).
peer_build_info() {
	local name=$1 tmp label="" plugins=null base="" version="" prefix
	if [ "$(peer_backend)" = vpp ]; then
		# VPP: its show version (as its dump's backend.json says it) and plugins, without a dump
		label=$name
		prefix=$(awk '$1 == "vpp-prefix" { print $2 }' "$STATE/peer/config")
		version="$(peer_vppctl show version | head -n 1) ($prefix)"
		plugins=$(vpp_tree_plugins_json "$prefix")
		if [ -s "$STATE/peer/plugin/plugin.json" ]; then
			plugins=$(jq -c --slurpfile s "$STATE/peer/plugin/plugin.json" '. + [$s[0] | {file, sha256, node}]' <<<"$plugins")
		fi
	else
		tmp=$(mktemp -d "$STATE/peer/probe.XXXXXX")
		peer_do dump "$tmp" >/dev/null 2>&1 || true
		version=$(jq -r '.version // ""' "$tmp/backend.json" 2>/dev/null) || version=""
		rm -rf "$tmp"
	fi
	[ ! -s "$STATE/peer/base" ] || base=$(cat "$STATE/peer/base")
	jq -n --arg b "$name" --arg v "$version" --arg l "$label" --arg be "$(peer_backend)" \
		--argjson p "${plugins:-[]}" --arg base "$base" \
		'{name: $b, backend: $be, version: $v, label: $l}
		+ (if $p == null then {} else {plugins: $p} end)
		+ (if $base == "" then {} else {base: $base} end)' | atomic_write "$STATE/peer/build-info.json"
}

# host_plugin_swap vpp-plugin:/ABS/FILE.so: a plugin into the running VPP, in seconds. The
# plugin is checked (a VPP plugin, enable lines, built for this VPP's version, a name VPP does
# not have already), copied with its enable lines to $STATE/peer/plugin/ (the vpp backend's
# `vpp-plugin` key), VPP restarted on the same base build (vpp:NAME; a previous plugin goes),
# then `show plugins` and each enable line's arc checked. When the new one fails, the previous
# DUT starts again as it was, and the failure names VPP's own error.
host_plugin_swap() {
	local spec=$1 base prefix file stage=$STATE/vpp-plugin.new prev=$STATE/peer.prev rc=0
	local why="" seen="" back
	[ -d "$STATE/vfwd" ] || die "the host lab is not up (fwdlab up --topology host)"
	if [ "$(peer_backend)" != vpp ] || ! peer_running; then
		die "swap $spec: VPP is not the DUT (fwdlab swap vpp:NAME first)"
	fi
	base=$(peer_vpp_base)
	prefix=$(vpp_spec_prefix "$base")
	vpp_plugin_stage "$spec" "$stage"
	file=$(jq -r .file "$stage/plugin.json")
	vpp_plugin_fits "$stage" "$(vpp_prefix_version "$prefix")"
	# VPP loads the first plugin of a name it finds, its own folder first
	if [ -n "$(find "$prefix/lib" "$prefix/fwdlab/plugins" -maxdepth 3 -name "$file" -print -quit 2>/dev/null)" ]; then
		die "swap $spec: $base ($prefix) has a plugin named $file already; rename the file"
	fi
	# the previous DUT, to come back to
	rm -rf "$prev"
	mkdir -p "$prev"
	find "$STATE/peer" -mindepth 1 -maxdepth 1 ! -name run ! -name 'probe.*' -exec cp -a {} "$prev/" \;
	peer_stop
	mkdir -p "$STATE/peer/run" "$STATE/peer/plugin"
	cp "$stage/$file" "$stage/${file%.so}.cli" "$stage/plugin.json" "$STATE/peer/plugin/"
	echo "$base" >"$STATE/peer/base"
	echo "vpp-plugin:$file" >"$STATE/peer/name"
	peer_host_config "vpp-plugin:$file" | atomic_write "$STATE/peer/config"
	say "starting VPP ($base) with $file ($STATE/peer/config)"
	peer_vpp_start || rc=$?
	if [ "$rc" -eq 0 ]; then
		seen=$(vpp_plugin_verify "$STATE/peer/plugin" peer_vppctl 2>"$STATE/peer/verify.err") || {
			rc=1
			why=$(cat "$STATE/peer/verify.err")
		}
	else
		tail -n 12 "$STATE/peer/start.log" >&2
		[ ! -s "$STATE/tgen-link.log" ] || tail -n 5 "$STATE/tgen-link.log" >&2
		# VPP's own error about the plugin (its log, which the backend prints), else the backend's
		why=$(sed -n 's/.*plugin\/load[[:space:]]*//p' "$STATE/peer/start.log" | awk '!seen[$0]++' |
			paste -sd';' | sed 's/;/; /g')
		if [ -n "$why" ]; then
			why="VPP did not load it: $why"
		else
			why=$(sed -n 's/^vpp: //p' "$STATE/peer/start.log" | tail -n 1)
			[ -n "$why" ] || why="VPP did not start with it (logs above)"
		fi
	fi
	if [ "$rc" -ne 0 ]; then
		peer_do stop >/dev/null 2>&1 || true
		rm -rf "$STATE/peer.failed"
		mv "$STATE/peer" "$STATE/peer.failed"
		rm -f "$STATE/peer.failed/name" "$(peer_memif_sock 0)" "$(peer_memif_sock 1)"
		mv "$prev" "$STATE/peer"
		mkdir -p "$STATE/peer/run"
		if peer_vpp_start; then
			back="the DUT runs $(peer_current) again"
		else
			back="the previous DUT, $(peer_current), did not start again either (logs: $STATE/peer/start.log); fwdlab swap vpp:default"
		fi
		rm -rf "$stage"
		die "swap $spec: $why; $back (the failed start's files: $STATE/peer.failed)"
	fi
	peer_build_info "vpp-plugin:$file"
	printf '%s\n' "$seen" >"$STATE/peer/plugin/verified"
	rm -rf "$prev" "$stage"
}

# peer_vpp_start: the VPP peer of $STATE/peer/config started (VPP needs no client to start),
# then a tgen of its own sees both links up, as every experiment's tgen will.
peer_vpp_start() {
	: >"$STATE/tgen-link.log"
	peer_do start >"$STATE/peer/start.log" 2>&1 || return 1
	bash -c "$(tgen_link_cmd "-w 60")"
}

# topo_peer_dump DIR: the backend's own runtime output into DIR (backend.json names it).
topo_peer_dump() { peer_do dump "$1" >/dev/null; }

peer_dmesg() {
	echo "(host topology: peer backend $(peer_current); the last lines of its logs)"
	tail -n 50 "$STATE/peer/start.log" "$STATE/peer/run"/*.log 2>/dev/null || true
}

peer_status() {
	if peer_running; then
		echo "  DUT: peer backend $(peer_current): $(peer_do status 2>&1)"
	else
		echo "  DUT: peer backend $(peer_current), not running (fwdlab swap BUILD or peer:NAME)"
	fi
}
