# shellcheck shell=bash
# b2b topology driver: a TG VM and a DUT VM on libvirt, two isolated data links, a
# management network. Sourced by lab/fwdlab; the lab's state (generated XML, disks, seeds,
# ssh key, console logs) lives in $STATE (.lab/b2b by default).

# The CPU plan and the libvirt XML, used by this driver only.
# shellcheck source=topologies/b2b/plan.sh
. "$TOPO_DIR/plan.sh"
# shellcheck source=topologies/b2b/libvirt.sh
. "$TOPO_DIR/libvirt.sh"
# shellcheck source=topologies/b2b/snapshot.sh
. "$TOPO_DIR/snapshot.sh"
# shellcheck source=topologies/b2b/remote.sh
. "$TOPO_DIR/remote.sh"
# shellcheck source=topologies/b2b/vpp.sh
. "$TOPO_DIR/vpp.sh"

GUEST_RUN=/var/tmp/fwdlab
# The TRex side of the TG VM (images/tg/hooks/60-trex.sh, images/tg/trex/trex.service).
TG_GEN_DIR=/opt/fwdlab/lab/generators
TG_TREX_DIR=/run/fwdlab/gen-trex

topo_conf_check() {
	local node k nodes
	[ -r "$TOPO_CONF" ] || die "topology file $TOPO_CONF is missing"
	kv_check "$TOPO_CONF" >&2 || die "bad topology file (see above)"
	nodes=$(kv_get "$TOPO_CONF" nodes)
	for node in $nodes; do
		for k in role vcpus memory_mib mgmt_host image; do
			[ -n "$(kv_get "$TOPO_CONF" "$node.$k")" ] || die "$TOPO_CONF: $node.$k is missing"
		done
	done
	[ -n "$(node_by_role dut)" ] || die "$TOPO_CONF: no node with role = dut"
	[ -n "$(node_by_role tg)" ] || die "$TOPO_CONF: no node with role = tg"
}

node_by_role() {
	local node
	for node in $(kv_get "$TOPO_CONF" nodes); do
		if [ "$(kv_get "$TOPO_CONF" "$node.role")" = "$1" ]; then
			echo "$node"
			return
		fi
	done
}

node_uri() { kv_get "$TOPO_CONF" "$1.uri" qemu:///system; }
node_ip() {
	local subnet
	subnet=${FWDLAB_MGMT_SUBNET:-$(kv_get "$TOPO_CONF" mgmt_subnet 192.168.150)}
	echo "$subnet.$(kv_get "$TOPO_CONF" "$1.mgmt_host")"
}
# node_console_log NODE: the node's serial log, as HOST:PATH when it is on another host.
node_console_log() {
	if node_is_remote "$1"; then
		echo "$(ssh_host_of "$(node_uri "$1")"):$(node_dir "$1")/$1-console.log"
	else
		echo "$STATE/$1-console.log"
	fi
}
vsh() { # URI ARGS...
	local uri=$1
	shift
	virsh -q -c "$uri" "$@"
}
# A node's data MAC by port name: the NIC index is the link index + 1.
port_mac() { # NODE PORT
	local idx port
	while read -r idx port; do
		if [ "$port" = "$2" ]; then
			node_mac "$1" $((idx + 1))
			return
		fi
	done < <(node_ports "$TOPO_CONF" "$1")
	die "$TOPO_CONF: $1 has no $2"
}

topo_accel() { cat "$STATE/accel" 2>/dev/null || echo unknown; }
topo_is_slow() { [ "$(topo_accel)" != kvm ]; }

# ---- plan -------------------------------------------------------------------------------

topo_plan() {
	topo_conf_check
	local rc=0
	plan_compute "$TOPO_CONF" || rc=$?
	cat "$STATE/plan.txt"
	echo "  (fwd) = forwarding vCPU; emulator = QEMU's emulator threads"
	if [ "$rc" -eq 3 ]; then
		if [ "$SMOKE" = 1 ]; then
			warn "forwarding vCPUs share host CPUs: allowed for this smoke run only"
		else
			die "forwarding vCPUs share host CPUs: numbers would measure the scheduler." \
				"Give the plan more CPUs, fewer forwarding vCPUs, or pass --smoke"
		fi
	elif [ "$rc" -ne 0 ]; then
		die "plan failed"
	fi
	local dut tg
	dut=$(node_by_role dut) tg=$(node_by_role tg)
	if dut_is_vpp; then
		echo "  $dut: VPP on af_packet ports, its workers on the forwarding vCPUs, polling"
	else
		local ms
		ms=$(dut_max_sleep_us "$dut")
		echo "  $dut: vfwd rx-mode $(node_mode "$dut" rx_mode adaptive poll)${ms:+, sleeps of up to $ms us when idle (TCG)}"
	fi
	echo "  $tg: tgen --pacing $(node_mode "$tg" pacing sleep busy)"
}

# dut_max_sleep_us NODE: the bound of an adaptive vfwd's sleeps in NODE (make-seed
# --adaptive-max-sleep-us), or nothing for vfwd's own 50 us. Under TCG a guest's wake-up costs
# the host tens of us: an idle DUT whose worker slept 50 us at a time kept one of the two host
# CPUs busy (104 % vs 4 % with vfwd stopped, measured), taking it from the TG, the host's
# verbs and ssh. 1 ms, interrupt mode's bound, gives it back; TCG's rates (tens of kpps) fill
# no rx ring in 1 ms.
dut_max_sleep_us() {
	if [ "$(topo_accel)" = tcg ] && [ "$(node_mode "$1" rx_mode adaptive poll | cut -d' ' -f1)" = adaptive ]; then
		echo 1000
	fi
}

# node_mode NODE KEY YIELDING BUSY: NODE.KEY of the topology file (rx_mode for vfwd,
# pacing for tgen); `auto`, the default, is YIELDING when one of the node's forwarding
# vCPUs shares a host CPU in the plan (a guest that busy-polls there takes that CPU from
# the other guest's vCPUs and from QEMU), BUSY when each has a CPU of its own.
node_mode() {
	local v
	v=$(kv_get "$TOPO_CONF" "$1.$2" auto)
	if [ "$v" = auto ]; then
		if grep -qx "PLAN_${1}_SHARED=1" "$STATE/plan.env" 2>/dev/null; then
			v="$3 (auto: a forwarding vCPU shares a host CPU)"
		else
			v="$4 (auto: forwarding vCPUs have host CPUs of their own)"
		fi
	fi
	echo "$v"
}

# ---- ssh --------------------------------------------------------------------------------

ssh_opts() {
	local node=$1 proxy
	# ConnectTimeout covers the banner: a TCG guest's sshd on a loaded host took more than 5 s
	# to send it (23:15, load 16), and `up` died on a new connection after the master expired.
	printf '%s\n' -i "$STATE/id_ed25519" -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=30 \
		-o BatchMode=yes -o ServerAliveInterval=5 -o ServerAliveCountMax=6 \
		-o ControlMaster=auto -o "ControlPath=$STATE/ssh-$node.ctl" -o ControlPersist=600
	proxy=$(kv_get "$TOPO_CONF" "$node.ssh_proxy")
	if [ -n "$proxy" ]; then printf '%s\n' -o "ProxyJump=$proxy"; fi
}

node_ssh() { # NODE CMD...  (CMD is a shell command line for the guest)
	local node=$1 opts
	shift
	mapfile -t opts < <(ssh_opts "$node")
	command ssh "${opts[@]}" "root@$(node_ip "$node")" "$@"
}

topo_ssh() {
	local node=$1
	shift
	[ -n "$(kv_get "$TOPO_CONF" "$node.role")" ] || die "no node $node in $TOPO_CONF"
	local opts
	mapfile -t opts < <(ssh_opts "$node")
	if [ $# -eq 0 ]; then
		exec ssh -t "${opts[@]}" "root@$(node_ip "$node")"
	fi
	node_ssh "$node" "$@"
}

topo_console() {
	local node=$1
	[ -n "$(kv_get "$TOPO_CONF" "$node.role")" ] || die "no node $node in $TOPO_CONF"
	exec virsh -c "$(node_uri "$node")" console "$(dom_name "$node")"
}

ssh_key() {
	if [ ! -s "$STATE/id_ed25519" ]; then
		ssh-keygen -q -t ed25519 -N '' -C "fwdlab-$LAB_NAME" -f "$STATE/id_ed25519"
	fi
	chmod 0600 "$STATE/id_ed25519"
}

# ---- the DUT and the TG -----------------------------------------------------------------

# These never read stdin: ssh would otherwise swallow the rest of a caller's
# `while read` input (fwdlab's dump loop lost every command after the first).
# dut_ctl CMD...: one command to the DUT's forwarder: vfwdctl, or VPP's vppctl (vpp.sh).
dut_ctl() {
	local ctl="/opt/vfwd/bin/vfwdctl -s /run/vfwd/cli.sock"
	if dut_is_vpp; then ctl=$DUT_VPPCTL; fi
	node_ssh "$(node_by_role dut)" "$ctl" "$(printf '%q ' "$@")" </dev/null
}

dut_build_info() {
	if dut_is_vpp; then dut_vpp_build_info; return; fi
	node_ssh "$(node_by_role dut)" cat /opt/vfwd/build-info.json </dev/null
}
dut_dmesg() { node_ssh "$(node_by_role dut)" 'dmesg | tail -n 200' </dev/null; }

vfwd_answers() { dut_ctl show version >/dev/null 2>&1; }
# True when the DUT's forwarder (vfwd or VPP) answers, or when a service it needs has failed
# (no use waiting then).
vfwd_up_or_failed() {
	vfwd_answers || node_ssh "$(node_by_role dut)" \
		"systemctl is-failed --quiet fwdlab-dataplane.service $(dut_unit)" 2>/dev/null
}
# tgen answers when `tgen link` brings both data ports up and sees the DUT's side up.
tgen_answers() {
	node_ssh "$(node_by_role tg)" "timeout 60 /opt/tgen/bin/tgen $(tgen_eal) -- link \
		$(tgen_port_args)" >"$STATE/tgen-link.log" 2>&1
}

# tgen_invoke RUN_DIR MODE ARGS...: tgen in the TG VM, with trial hooks that reach the DUT
# over the management network; the JSON and the per-trial dumps come back to RUN_DIR.
# With another generator (TRex) the lab's one search, tgen's, runs in the TG too and calls
# that generator's trials (tg_search_cmd); its trials' own JSON comes back as
# generator-trials.jsonl.
tgen_invoke() {
	local rundir=$1 mode=$2 tg id gdir rc=0 args run hooks
	shift 2
	tg=$(node_by_role tg)
	id=$(basename "$(dirname "$rundir")")-$(basename "$rundir")
	gdir=$GUEST_RUN/$id
	echo "$gdir" >"$STATE/tgen-guest-dir"
	hooks="--pre-trial '/opt/fwdlab/trial-hook pre $gdir/trials /opt/fwdlab/dutctl $(dut_forwarder)'"
	hooks+=" --post-trial '/opt/fwdlab/trial-hook post $gdir/trials /opt/fwdlab/dutctl $(dut_forwarder)'"
	if [ "$(gen_current)" != tgen ]; then
		run="set -a && . /etc/fwdlab/trex.env && set +a &&
			export FWDLAB_GEN_TRIALS=$gdir/generator-trials.jsonl &&
			exec $(tg_search_cmd "$mode" "$@")"
	else
		args=$(printf '%q ' "$@")
		run="exec /opt/tgen/bin/tgen $(tgen_eal) -- $mode $args $(tgen_port_args)"
	fi
	node_ssh "$tg" "rm -rf $gdir && mkdir -p $gdir/trials && cd $gdir && echo \$\$ >tgen.pid &&
		$run --json $gdir/tgen.json $hooks" </dev/null || rc=$?
	# A TG that is gone has nothing to give back (the lab names it: topo_nodes_down).
	if [ "$(vsh "$(node_uri "$tg")" domstate "$(dom_name "$tg")" 2>/dev/null)" = running ]; then
		tg_collect "$gdir" "$rundir"
	fi
	if [ "$rc" -eq 0 ] && [ -s "$rundir/tgen.json" ]; then gen_json_finish "$rundir/tgen.json"; fi
	rm -f "$STATE/tgen-guest-dir"
	return "$rc"
}

# tg_search_cmd MODE ARGS...: the search's command line in the TG (gen_search_cmd with the
# TG's paths: tgen in /opt/tgen, the generators in /opt/fwdlab), one shell line.
tg_search_cmd() {
	(
		# shellcheck disable=SC2034 # read by gen_search_cmd (lab/generators/lib.sh)
		GEN_LIB_DIR=$TG_GEN_DIR FWDLAB_GEN_LINK=$(kv_get "$TOPO_CONF" tgen_link 10gbps)
		if [[ $PROFILE == *.py ]]; then PROFILE=$(tg_profile "$PROFILE"); fi
		local w line=""
		while IFS= read -r w; do line+="$(printf '%q' "$w") "; done < <(gen_search_cmd "$@")
		printf '%s\n' "$line"
	)
}

# tg_collect GUEST_DIR RUN_DIR: tgen.json and the trial dumps from the TG into RUN_DIR.
tg_collect() {
	local gdir=$1 rundir=$2 tg tmp t
	tg=$(node_by_role tg)
	if node_ssh "$tg" "cat $gdir/tgen.json" 2>/dev/null | atomic_write "$rundir/tgen.json"; then
		[ -s "$rundir/tgen.json" ] || rm -f "$rundir/tgen.json"
	fi
	tmp=$(mktemp -d "$rundir/.trials.XXXXXX")
	node_ssh "$tg" "tar -C $gdir/trials -cf - ." 2>/dev/null | tar -C "$tmp" -xf - 2>/dev/null || true
	if node_ssh "$tg" "test -s $gdir/generator-trials.jsonl && cat $gdir/generator-trials.jsonl" \
		2>/dev/null | atomic_write "$rundir/generator-trials.jsonl"; then
		[ -s "$rundir/generator-trials.jsonl" ] || rm -f "$rundir/generator-trials.jsonl"
	fi
	for t in "$tmp"/[0-9]*; do
		if [ -d "$t" ]; then mv "$t" "$rundir/trials/"; fi
	done
	rm -rf "$tmp"
	node_ssh "$tg" "rm -rf $gdir" || true
}

# tgen's EAL arguments in the TG VM: lcores 0 (main) and 1, the two data NICs at their
# fixed PCI slots (port0, port1 in that order).
tgen_eal() {
	printf -- '-l 0,1 --main-lcore 0 --file-prefix tgen -a 0000:00:%02x.0 -a 0000:00:%02x.0' \
		"$(kv_get "$TOPO_CONF" pci_slot.port0)" "$(kv_get "$TOPO_CONF" pci_slot.port1)"
}

# tgen's addresses and gateways (the DUT's), resolved by ARP: tgen asks for the DUT's MAC
# and answers the DUT's requests for its own (setup.cli.in sets no neighbor).
tgen_port_args() {
	printf -- '--ip0 %s --gw0 %s --ip1 %s --gw1 %s --link %s --pacing %s' "$(tg_port_ip port0)" \
		"$(dut_port_ip port0)" "$(tg_port_ip port1)" "$(dut_port_ip port1)" \
		"$(kv_get "$TOPO_CONF" tgen_link 10gbps)" \
		"$(node_mode "$(node_by_role tg)" pacing sleep busy | cut -d' ' -f1)"
}

# dut_port_ip PORT: the DUT's address on PORT (setup.cli.in's `set interface ip address`).
dut_port_ip() {
	local ip
	ip=$(awk -v p="$1" '$1 == "set" && $2 == "interface" && $3 == "ip" && $4 == "address" &&
		$5 == p { sub(/\/.*/, "", $6); print $6; exit }' "$TOPO_DIR/setup.cli.in")
	[ -n "$ip" ] || die "$TOPO_DIR/setup.cli.in: no 'set interface ip address $1 ADDR/LEN'"
	echo "$ip"
}

# tg_port_ip PORT: the TG's address on PORT: the next hop of the DUT's routes out of PORT.
tg_port_ip() {
	local ip
	ip=$(awk -v p="$1" '$1 == "ip" && $2 == "route" && $3 == "add" && $5 == "via" && $7 == p {
		print $6; exit }' "$TOPO_DIR/setup.cli.in")
	[ -n "$ip" ] || die "$TOPO_DIR/setup.cli.in: no 'ip route add PREFIX via ADDR $1' (the TG's address)"
	echo "$ip"
}

# ---- the TG's generator: tgen, or TRex in the TG image that carries it -------------------
# lab/generators/README.md is the contract; here its verbs run in the TG VM over ssh.

tgen_bin() { echo /opt/tgen/bin/tgen; }

# What TRex needs of the TG VM: trexctl's thread layout (master on vCPU 0, latency on 1,
# one data core on 2: latency streams need the three; 1 and 2 poll), the image that
# carries it, and 2 GB of hugepages for its DPDK (TRex sizes its pools for 2 ports).
TREX_TG_VCPUS=3
TREX_TG_FWD_VCPUS=1,2
TREX_TG_MEMORY_MIB=3072
TREX_TG_HUGEPAGES=1024

# tg_kind: the generator the TG VM was brought up for (its image and vCPUs follow it): trex
# or tgen. Fixed for the lab's life once `up` ran ($STATE/tg-generator); before that,
# --generator, else the tg node's `generator` in the topology file, else tgen.
tg_kind() {
	local k
	k=$(cat "$STATE/tg-generator" 2>/dev/null) ||
		k=${GENERATOR:-$(kv_get "$TOPO_CONF" "$(node_by_role tg).generator" tgen)}
	echo "$k"
}

# topo_node_value NODE KEY: the TG's vCPUs, memory and image when it runs TRex (read by
# topologies/b2b/plan.sh node_get, for the plan and the domain XML); false for anything else.
topo_node_value() {
	local v
	if [ "$2" = image ] && [ "$(kv_get "$TOPO_CONF" "$1.role")" = dut ] && dut_is_vpp; then
		# the topology's DUT image, or the one with VPP beside the default one
		v=$(kv_get "$TOPO_CONF" "$1.image")
		if [ -z "$v" ] || [ "$v" = images/out/dut.qcow2 ]; then v=images/out/dut-vpp.qcow2; fi
		echo "$v"
		return 0
	fi
	[ "$(kv_get "$TOPO_CONF" "$1.role")" = tg ] && [ "$(tg_kind)" = trex ] || return 1
	v=$(kv_get "$TOPO_CONF" "$1.$2")
	case "$2" in
	vcpus) echo $((${v:-0} > TREX_TG_VCPUS ? v : TREX_TG_VCPUS)) ;;
	forwarding_vcpus) echo "$TREX_TG_FWD_VCPUS" ;;
	memory_mib) echo $((${v:-0} > TREX_TG_MEMORY_MIB ? v : TREX_TG_MEMORY_MIB)) ;;
	image)
		# the topology's TG image, or the one with TRex beside the default one
		if [ -z "$v" ] || [ "$v" = images/out/tg.qcow2 ]; then v=images/out/tg-trex/tg.qcow2; fi
		echo "$v"
		;;
	*) return 1 ;;
	esac
}

# trex_env: the TRex server's settings in the TG (make-seed --trex-env; trex/README.md): its
# NICs by PCI slot, and per port its address and gateway (the DUT's) to resolve by ARP.
trex_env() {
	local dut p
	dut=$(node_by_role dut)
	echo "FWDLAB_GEN_DIR=$TG_TREX_DIR"
	echo "FWDLAB_GEN_ID=$LAB_NAME"
	echo "FWDLAB_GEN_LINK=$(kv_get "$TOPO_CONF" tgen_link 10gbps)"
	for p in 0 1; do
		printf 'FWDLAB_GEN_PCI%s=0000:00:%02x.0\n' "$p" "$(kv_get "$TOPO_CONF" "pci_slot.port$p")"
		echo "FWDLAB_GEN_IP$p=$(tg_port_ip "port$p")"
		echo "FWDLAB_GEN_GW$p=$(dut_port_ip "port$p")"
		echo "FWDLAB_GEN_DST_MAC$p=$(port_mac "$dut" "port$p")"
	done
	echo "TREX_HOME=/opt/trex"
	# under TCG the server takes minutes to answer
	echo "TREX_START_TIMEOUT=600"
}

# trex_rpc_port: the server's RPC port, as trexctl derives it from FWDLAB_GEN_ID.
trex_rpc_port() {
	echo $((20000 + 2 * (16#$(printf '%s\n' "$LAB_NAME" | md5sum | cut -c1-4) % 10000)))
}

# gen_do NAME VERB ARGS...: a generator's verb in the TG VM (lab/generators/README.md),
# with the settings the seed gave it (/etc/fwdlab/trex.env). A profile file of the host
# (an argument ending in .py) is copied to the TG first (tg_profile).
gen_do() {
	local name=$1 verb=$2 tg w args=() words=""
	shift 2
	tg=$(node_by_role tg)
	case "$name/$verb" in
	tgen/info)
		node_ssh "$tg" cat /opt/tgen/build-info.json </dev/null |
			jq -c '{name: "tgen", version: (.version // "?"), build: .}'
		return
		;;
	tgen/*) return 0 ;; # tgen runs as one process per verb (tgen_invoke)
	trex/start) trex_start; return ;;
	trex/stop) node_ssh "$tg" systemctl stop trex.service </dev/null; return ;;
	trex/*) ;;
	*) die "generator $name: the b2b TG VM runs tgen or trex" ;;
	esac
	for w in "$@"; do
		if [[ $w == *.py ]] && [ -f "$w" ]; then w=$(tg_profile "$w"); fi
		args+=("$w")
	done
	if [ ${#args[@]} -gt 0 ]; then words=$(printf '%q ' "${args[@]}"); fi
	node_ssh "$tg" "set -a && . /etc/fwdlab/trex.env && set +a &&
		exec $TG_GEN_DIR/$name $verb $words" </dev/null
}

# gen_info NAME: as lab/generators/lib.sh's, plus the sha256 of the generator's build when
# it names one (TRex: its tarball's, the TG image manifest's trex.sha256), for meta.json.
gen_info() {
	local f=$STATE/gen-$1/info.json
	if [ ! -s "$f" ]; then
		mkdir -p "$STATE/gen-$1"
		if gen_do "$1" info >"$f.tmp" 2>/dev/null; then mv -f "$f.tmp" "$f"; else rm -f "$f.tmp"; fi
	fi
	if [ -s "$f" ]; then
		jq -c '{name, version} + (if (.build.sha256? // "") != "" then {sha256: .build.sha256} else {} end)' "$f"
	else
		jq -nc --arg n "$1" '{name: $n, version: "?"}'
	fi
}

# tg_profile FILE: the path in the TG of a profile file of the host: one of the host's TRex
# tree (trex/build.sh) is in the image's /opt/trex; any other is copied to the TG.
tg_profile() {
	local f home dst
	f=$(readlink -f "$1")
	home=$("$TOP/trex/build.sh" --print 2>/dev/null || true)
	if [ -n "$home" ] && [[ $f == "$home"/* ]]; then
		echo "/opt/trex/${f#"$home"/}"
		return
	fi
	dst=$GUEST_RUN/profiles/$(basename "$f")
	node_ssh "$(node_by_role tg)" "mkdir -p $GUEST_RUN/profiles && cat >$dst" <"$f" ||
		die "copying the profile $1 to the TG failed"
	echo "$dst"
}

# topo_gen_use NAME: the lab's verbs use generator NAME. TRex needs the TG image with TRex
# (up --generator trex); tgen runs in either image (TRex's server stops: tgen takes the NICs).
topo_gen_use() {
	local g=$1
	case "$g" in
	tgen | trex) ;;
	*) die "--generator $g: the b2b TG VM runs tgen or trex (lab/generators/README.md)" ;;
	esac
	if [ "$g" = trex ] && [ "$(tg_kind)" != trex ]; then
		die "--generator trex: the TG VM runs the tgen-only image; fwdlab down, then fwdlab up --generator trex (make lab TG=trex)"
	fi
	if [ "$g" = tgen ] && [ "$(tg_kind)" = trex ]; then gen_do trex stop || true; fi
	printf '%s\n' "$g" >"$STATE/generator"
	gen_start
}

gen_start() {
	[ "$(gen_lab)" = trex ] || return 0
	trex_start
}

# trex_start: trex.service in the TG (trexctl start) and its STL API answering, with a
# progress line; then TRex's ports resolve their gateways, the DUT's addresses, by ARP
# (which teaches vfwd the TG's addresses too).
trex_start() {
	local tg out
	tg=$(node_by_role tg)
	node_ssh "$tg" 'test -x /opt/trex/scripts/_t-rex-64' </dev/null ||
		die "the TG VM has no TRex (/opt/trex): it runs the tgen-only image; fwdlab down, then make lab TG=trex"
	if ! gen_do trex check >/dev/null 2>&1; then
		node_ssh "$tg" 'systemctl reset-failed trex.service 2>/dev/null || true
			systemctl start --no-block trex.service' </dev/null ||
			die "cannot start trex.service in the TG"
		wait_until 900 "the TRex server in the TG (trex.service)" trex_up_or_failed || true
		if ! gen_do trex check >/dev/null 2>&1; then
			node_ssh "$tg" "journalctl --no-pager -n 15 -u trex.service; tail -n 15 $TG_TREX_DIR/server.log" \
				</dev/null >&2 || true
			die "the TRex server in the TG does not answer (above; fwdlab ssh tg journalctl -u trex.service, log $TG_TREX_DIR/server.log)"
		fi
	fi
	if ! wait_until 180 "TRex to resolve the DUT's addresses (ARP)" node_ssh "$tg" \
		"python3 /opt/fwdlab/trex/trex-resolve.py --retries 10" </dev/null; then
		out=$(node_ssh "$tg" "python3 /opt/fwdlab/trex/trex-resolve.py --retries 10" </dev/null 2>&1) || true
		printf '%s\n' "$out" >&2
		die "TRex's ports did not resolve the DUT's addresses by ARP (vfwd: fwdlab ssh dut /opt/vfwd/bin/vfwdctl show ip neighbors)"
	fi
}

trex_up_or_failed() {
	gen_do trex check >/dev/null 2>&1 ||
		node_ssh "$(node_by_role tg)" 'systemctl is-failed --quiet trex.service' </dev/null
}

topo_abort() {
	local gdir
	gdir=$(cat "$STATE/tgen-guest-dir" 2>/dev/null) || return 0
	node_ssh "$(node_by_role tg)" "kill -INT \$(cat $gdir/tgen.pid)" 2>/dev/null || true
}

topo_swap() {
	local build=$1 dut
	dut=$(node_by_role dut)
	if dut_is_vpp; then
		die "swap $build: this lab's DUT VM runs VPP (images/out/dut-vpp): swap a VPP build (vpp:NAME or vpp:DIR), or bring the lab up again with --forwarder vfwd (fwdlab down; fwdlab up) for vfwd builds"
	fi
	say "swap: copying $build to the DUT"
	tar -C "$build" -cf - . | node_ssh "$dut" 'set -e
		rm -rf /opt/vfwd.new && mkdir -p /opt/vfwd.new && tar -C /opt/vfwd.new -xf -
		systemctl stop vfwd.service
		rm -rf /opt/vfwd.old && mv /opt/vfwd /opt/vfwd.old && mv /opt/vfwd.new /opt/vfwd
		systemctl start vfwd.service' || die "swap: copying or restarting vfwd failed"
	wait_until 60 "vfwd to answer" vfwd_answers || die "swap: vfwd does not answer"
}

# topo_require_up: both VMs run and the DUT's forwarder answers; DUT_BACKEND (meta.json's
# dut.backend) is vfwd, or the VPP build that runs in the DUT (vpp, vpp:NAME).
# shellcheck disable=SC2034 # DUT_BACKEND is read by lab/lib/results.sh and lab/lib/dump.sh
topo_require_up() {
	local down
	if ! down=$(topo_nodes_down); then
		die "$down; the $TOPOLOGY lab is not up (fwdlab up --topology $TOPOLOGY restarts it)"
	fi
	DUT_BACKEND=vfwd DUT_SPEC=
	if dut_is_vpp; then
		DUT_SPEC=$(peer_current)
		DUT_BACKEND=${DUT_SPEC%%:*}
	fi
	vfwd_answers || topo_dut_settle ||
		die "$(dut_forwarder) does not answer in the DUT (fwdlab ssh dut journalctl -u $(dut_unit))"
}

# topo_nodes_down: "VM NAME (NODE) is STATE" for each VM of the lab that is not running,
# joined by "; "; false when there is one.
topo_nodes_down() {
	local node st out=()
	for node in $(kv_get "$TOPO_CONF" nodes); do
		st=$(vsh "$(node_uri "$node")" domstate "$(dom_name "$node")" 2>/dev/null) ||
			st="not defined"
		[ "$st" = running ] || out+=("VM $(dom_name "$node") ($node) is $st")
	done
	[ ${#out[@]} -eq 0 ] && return 0
	local msg
	msg=$(printf '%s; ' "${out[@]}")
	printf '%s\n' "${msg%; }"
	return 1
}

# ---- vfwd's restarts (vfwd.service, Restart=on-failure) -------------------------------------
# The same interface as the host topology's supervisor: the lab counts the forwarder's
# deaths before and after a trial; any death in between makes the trial invalid.

# dut_exits_json: one JSON object a line per death of vfwd in this boot of the DUT, in the
# host supervisor's shape ({event: "exit", at, pid, how} or {event: "gave-up", at}), read
# from systemd's journal: "vfwd.service: Main process exited, code=killed, status=9/KILL"
# (a `systemctl stop`, as swap does, is a clean exit and logs no such line); the pid is
# that of the last vfwd that logged before it.
dut_exits_json() {
	[ "$(vsh "$(node_uri "$(node_by_role dut)")" domstate "$(dom_name "$(node_by_role dut)")" \
		2>/dev/null)" = running ] || return 1
	node_ssh "$(node_by_role dut)" "journalctl -b -q -o json -u $(dut_unit) \
		--output-fields=MESSAGE,_PID,__REALTIME_TIMESTAMP" </dev/null |
		jq -nc 'foreach (inputs | select((.MESSAGE | type) == "string")) as $e ({pid: null};
			if $e._PID != "1" then .pid = ($e._PID | tonumber? // null) | .out = null
			else .out = (($e.__REALTIME_TIMESTAMP | tonumber / 1000000 | floor | todate) as $at
				| ($e.MESSAGE | capture("Main process exited, code=(?<c>[a-z]+), status=(?<s>[^ ]+)")
					// null) as $m
				| if $m != null then {event: "exit", at: $at, pid: .pid,
					how: (if $m.c == "exited" then "exited with status \($m.s)"
					      else "\($m.c) by signal \($m.s)" end)}
				  elif ($e.MESSAGE | test("Start request repeated too quickly")) then
					{event: "gave-up", at: $at}
				  else null end)
			end; .out | select(. != null))'
}

# topo_dut_events: vfwd's exits and systemd's giving up in the DUT (this boot), from its
# journal (topologies/CONTRACT.md; lab/lib/results.sh counts them).
topo_dut_events() { dut_exits_json || true; }

# topo_dut_settle: while systemd restarts vfwd, wait until it answers (false when the unit
# failed for good or the DUT is down).
topo_dut_settle() {
	topo_nodes_down >/dev/null || return 1
	vfwd_answers && return 0
	wait_until "$(if topo_is_slow; then echo 180; else echo 60; fi)" \
		"$(dut_forwarder) (restarted by $(dut_unit))" vfwd_answers_or_gave_up || return 1
	vfwd_answers
}

vfwd_answers_or_gave_up() {
	vfwd_answers || node_ssh "$(node_by_role dut)" "systemctl is-failed --quiet $(dut_unit)" \
		</dev/null 2>/dev/null
}

topo_access() {
	local node
	echo "lab $LAB_NAME ($TOPOLOGY, $(topo_accel)) is up:"
	for node in $(kv_get "$TOPO_CONF" nodes); do
		printf '  %-4s %s  fwdlab ssh %s | fwdlab console %s  (log %s)\n' "$node" \
			"$(node_ip "$node")" "$node" "$node" "$(node_console_log "$node")"
	done
	if dut_is_vpp; then
		echo "  VPP CLI ($(peer_current)): fwdlab ssh dut vppctl -s /run/vpp/cli.sock show runtime"
	else
		echo "  vfwd CLI: fwdlab ssh dut /opt/vfwd/bin/vfwdctl show runtime"
	fi
	if [ "$(gen_lab)" = trex ]; then
		echo "  TRex (generator of the verbs; trex.service, config /etc/trex_cfg.yaml):"
		echo "    console: fwdlab ssh tg 'cd /opt/trex/scripts && ./trex-console -p $(trex_rpc_port) --async_port $(($(trex_rpc_port) + 1))'"
	fi
}

# ---- up ---------------------------------------------------------------------------------

# qemu_can_reach DIR: QEMU runs as libvirt-qemu on Debian; the disks and seeds in DIR are
# useless to it when a parent folder is closed to others (mktemp -d makes 0700 folders).
qemu_can_reach() {
	local user
	user=$(sed -n 's/^[[:space:]]*user[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' \
		/etc/libvirt/qemu.conf 2>/dev/null | tail -n1)
	user=${user:-libvirt-qemu}
	[ "$user" != root ] && id "$user" >/dev/null 2>&1 || return 0
	runuser -u "$user" -- test -x "$1" ||
		die "QEMU (user $user) cannot reach $1: open its parent folders to others (chmod o+x)"
}

node_image() {
	local image
	image=$(node_get "$TOPO_CONF" "$1" image)
	[[ $image == /* ]] || image=$TOP/$image
	echo "$image"
}

# node_xml NODE ACCEL: the node's domain XML (plan.env must be loaded), with the paths of the
# node's host (remote.sh: a remote node's images and files are copied there).
node_xml() {
	local base dir
	base=$(node_image "$1")
	base=${base%.qcow2}
	if node_is_remote "$1"; then
		dir=$(node_dir "$1")
		gen_domain "$TOPO_CONF" "$1" "$2" "$dir/$1.qcow2" "$STATE/$1-seed" \
			"$dir/$1-console.log" "$(remote_image_path "$1" "$base.vmlinuz")" \
			"$(remote_image_path "$1" "$base.initrd")" "$dir/$1-seed/seed.iso"
		return
	fi
	gen_domain "$TOPO_CONF" "$1" "$2" "$STATE/$1.qcow2" "$STATE/$1-seed" \
		"$STATE/$1-console.log" "$base.vmlinuz" "$base.initrd"
}

# topo_xml DIR: the networks' XML into DIR (mgmt.xml, linkN.xml).
topo_xml() {
	local i nlinks
	mkdir -p "$1"
	gen_mgmt_net "$TOPO_CONF" >"$1/mgmt.xml"
	nlinks=$(wc -w <<<"$(kv_get "$TOPO_CONF" links)")
	for ((i = 0; i < nlinks; i++)); do
		link_is_hostdev "$i" && continue # a cable between passthrough ports: no network
		gen_link_net "$TOPO_CONF" "$i" >"$1/link$i.xml"
	done
}

# xml DIR: every XML `up` would define, for reading and validation (no seeds, no disks).
topo_xml_all() {
	local dir=$1 node
	topo_conf_check
	SMOKE=1 topo_plan >/dev/null
	# shellcheck source=/dev/null
	. "$STATE/plan.env"
	topo_xml "$dir"
	for node in $(kv_get "$TOPO_CONF" nodes); do
		node_xml "$node" "${FWDLAB_ACCEL:-tcg}" >"$dir/$node.xml"
	done
	ls "$dir"/*.xml
}

# node_files NODE: builds the node's overlay disk and seed if absent (on its own host: a
# remote node's seed is made here and copied there with its images, remote.sh).
node_files() {
	local node=$1 role image seed_args=() disk
	role=$(kv_get "$TOPO_CONF" "$node.role")
	image=$(node_image "$node")
	disk=$STATE/$node.qcow2
	if ! node_is_remote "$node" && [ ! -s "$disk" ]; then
		if ! qemu-img create -q -f qcow2 -F qcow2 -b "$image" "$disk"; then
			rm -f "$disk"
			die "creating $node's disk $disk failed (qemu-img above; $(df -h --output=avail "$STATE" | tail -n1 | tr -d ' ') free in $STATE)"
		fi
	fi
	local seed=$STATE/$node-seed fwd
	fwd=$(node_get "$TOPO_CONF" "$node" forwarding_vcpus)
	seed_args=(--role "$role" --hostname "$(dom_name "$node")" --ssh-key "$STATE/id_ed25519.pub"
		--mgmt-mac "$(node_mac "$node" 0)" --mgmt-ip "$(node_ip "$node")/24" --out "$seed")
	if [ -n "$fwd" ]; then seed_args+=(--isolate "$fwd"); fi
	local idx port
	while read -r idx port; do
		seed_args+=(--data-mac "$(node_mac "$node" $((idx + 1)))")
	done < <(node_ports "$TOPO_CONF" "$node")
	if [ "$role" = dut ] && dut_is_vpp; then
		# VPP's CLI takes the setup file's lines as they are (vpp.sh)
		dut_setup_cli >"$STATE/$node-setup.cli"
		seed_args+=(--dut vpp --vpp-setup "$STATE/$node-setup.cli")
	elif [ "$role" = dut ]; then
		dut_setup_cli >"$STATE/$node-setup.cli"
		seed_args+=(--vfwd-setup "$STATE/$node-setup.cli"
			--rx-mode "$(node_mode "$node" rx_mode adaptive poll | cut -d' ' -f1)")
		local ms
		ms=$(dut_max_sleep_us "$node")
		if [ -n "$ms" ]; then seed_args+=(--adaptive-max-sleep-us "$ms"); fi
	fi
	if [ "$role" = tg ] && [ "$(tg_kind)" = trex ]; then
		trex_env >"$STATE/$node-trex.env"
		seed_args+=(--trex-env "$STATE/$node-trex.env" --hugepages "$TREX_TG_HUGEPAGES")
	fi
	"$TOP/provisioning/make-seed" "${seed_args[@]}" >/dev/null || die "make-seed failed for $node"
	if node_is_remote "$node"; then remote_node_files "$node"; fi
}

dut_setup_cli() {
	local tg line
	tg=$(node_by_role tg)
	sed -e "s/@$tg\.port0\.mac@/$(port_mac "$tg" port0)/g" \
		-e "s/@$tg\.port1\.mac@/$(port_mac "$tg" port1)/g" "$TOPO_DIR/setup.cli.in" |
		while IFS= read -r line; do
			case "$line" in "#"* | "") continue ;; esac
			[[ $line != *@*@* ]] || die "$TOPO_DIR/setup.cli.in: unfilled placeholder: $line"
			echo "$line"
		done
}

images_wanted() {
	local node
	for node in $(kv_get "$TOPO_CONF" nodes); do printf '%s ' "$(node_image "$node")"; done
}

images_present() {
	local node image
	for node in $(kv_get "$TOPO_CONF" nodes); do
		image=$(node_image "$node")
		[ -s "$image" ] && [ -s "${image%.qcow2}.vmlinuz" ] || return 1
	done
}

# images_ours: every node boots an image `make images` makes (images/out/), not a user's own.
images_ours() {
	local node
	for node in $(kv_get "$TOPO_CONF" nodes); do
		[[ $(node_image "$node") == "$TOP/images/out/"* ]] || return 1
	done
}

# overlays_present: a node's overlay disk exists, so its image is in use (the lab is up, or
# was not taken down): it must not change under the overlay.
overlays_present() {
	local node
	for node in $(kv_get "$TOPO_CONF" nodes); do
		[ ! -e "$STATE/$node.qcow2" ] || return 0
	done
	return 1
}

# stale_bridge_clear URI BRIDGE: before a network starts, a bridge of its name that no active
# network owns is a leftover (an earlier lab whose libvirt state was removed, or a libvirtd
# that died): with no port in it, it goes; with ports, another lab uses it, and up stops.
stale_bridge_clear() {
	uri_is_local "$1" || return 0
	[ -d "/sys/class/net/$2/bridge" ] || return 0
	local ports
	ports=$(find "/sys/class/net/$2/brif" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null || true)
	if [ -n "$ports" ]; then
		die "bridge $2 exists with ports ($ports) but no active network of this lab owns it: another lab named $LAB_NAME runs here? (FWDLAB_NAME or --instance N gives this one other names)"
	fi
	ip link del "$2" || die "bridge $2 is a leftover of an earlier lab, and ip link del failed"
	say "removed bridge $2, a leftover of an earlier lab (no network owned it, no port in it)"
}

net_up() { # URI NAME XMLFILE BRIDGE
	if ! vsh "$1" net-info "$2" >/dev/null 2>&1; then
		vsh "$1" net-define "$3" >/dev/null || die "net-define $2 failed"
	fi
	# Output first, then grep: `virsh | grep -q` under pipefail fails when grep exits early
	# and virsh gets SIGPIPE (a second `up` then started an active network and died).
	local info
	info=$(vsh "$1" net-info "$2" 2>/dev/null) || true
	if ! grep -Eq '^Active: +yes' <<<"$info"; then
		stale_bridge_clear "$1" "$4"
		vsh "$1" net-start "$2" >/dev/null || die "net-start $2 failed"
	fi
}

# lab_hugepages_reserve local|remote: the hugepages of the nodes on this host (one sum), or
# of each node on another host (over ssh, remote.sh).
lab_hugepages_reserve() {
	local node mem=0
	for node in $(kv_get "$TOPO_CONF" nodes); do
		if ! node_is_remote "$node"; then
			mem=$((mem + $(node_get "$TOPO_CONF" "$node" memory_mib)))
		elif [ "$1" = remote ]; then
			remote_hugepages_reserve "$(node_uri "$node")" "$(node_dir "$node")/$node.hugepages" \
				$((($(node_get "$TOPO_CONF" "$node" memory_mib) + 1) / 2))
		fi
	done
	if [ "$1" = local ]; then hugepages_reserve $(((mem + 1) / 2)); fi
}

# lab_nets_up: each host of the lab gets the management network and the bridged links of its
# nodes (their XML in $STATE/xml); a link between hosts is a UDP tunnel in the domains' XML,
# with no network.
lab_nets_up() {
	local node uri uris=() i nlinks a b
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri=$(node_uri "$node")
		[[ " ${uris[*]} " == *" $uri "* ]] || uris+=("$uri")
	done
	nlinks=$(wc -w <<<"$(kv_get "$TOPO_CONF" links)")
	for uri in "${uris[@]}"; do
		net_up "$uri" "$(mgmt_net)" "$STATE/xml/mgmt.xml" "$(mgmt_bridge)"
		for ((i = 0; i < nlinks; i++)); do
			if link_is_tunnel "$i" || link_is_hostdev "$i"; then continue; fi
			read -r a b < <(link_ends "$i")
			[ "$(node_uri "$a")" = "$uri" ] || continue
			net_up "$uri" "$(link_net "$i")" "$STATE/xml/link$i.xml" "$(link_bridge "$i")"
		done
	done
}

topo_up() {
	topo_conf_check
	mkdir -p "$STATE/xml"
	# The TG's generator decides its image and vCPUs: fixed while its VM lives.
	local tg
	tg=$(node_by_role tg)
	if [ "$(vsh "$(node_uri "$tg")" domstate "$(dom_name "$tg")" 2>/dev/null)" != running ]; then
		rm -f "$STATE/tg-generator"
		tg_kind | atomic_write "$STATE/tg-generator"
	fi
	case "$(tg_kind)" in tgen | trex) ;; *) die "generator $(tg_kind): the b2b TG runs tgen or trex" ;; esac
	# The DUT's forwarder decides its image: fixed while its domain (and its disk) lives, so
	# a DUT that is defined but down boots again with the forwarder its disk was made for.
	local dut
	dut=$(node_by_role dut)
	if ! vsh "$(node_uri "$dut")" dominfo "$(dom_name "$dut")" >/dev/null 2>&1; then
		rm -f "$STATE/dut-forwarder" "$STATE/peer/name" "$STATE/peer/build-info.json"
		dut_forwarder | atomic_write "$STATE/dut-forwarder"
	elif [ -n "${FORWARDER:-}" ] && [ "$FORWARDER" != "$(dut_forwarder)" ]; then
		die "the DUT VM was made for $(dut_forwarder), not $FORWARDER: fwdlab down first to boot it with another forwarder"
	fi
	case "$(dut_forwarder)" in vfwd | vpp) ;; *) die "forwarder $(dut_forwarder): the b2b DUT runs vfwd or vpp" ;; esac
	# The images first: the probe boots their kernel (a fresh machine may have none in /boot).
	if ! images_present; then
		say "VM images missing: building them (make images TG=$(tg_kind) DUT=$(dut_forwarder))"
		make -C "$TOP" images TG="$(tg_kind)" DUT="$(dut_forwarder)" || die "make images failed (its output is above)"
		images_present || die "make images did not produce the images the topology names ($(images_wanted))"
	elif images_ours && ! overlays_present; then
		# The project's own images carry the tree's vfwd and tgen: make them again when
		# those (or the recipe) changed since, before any overlay disk is made on them.
		# `make images` is incremental (an inputs key), so an unchanged tree costs seconds.
		say "checking that the VM images carry this tree's builds (make images TG=$(tg_kind) DUT=$(dut_forwarder))"
		make -s -C "$TOP" images TG="$(tg_kind)" DUT="$(dut_forwarder)" || die "make images failed (its output is above)"
	fi
	local accel
	if [ ! -s "$STATE/accel" ]; then
		say "probing KVM (time-boxed)"
		kvm_probe >"$STATE/accel.tmp" || die "the KVM probe failed"
		mv -f "$STATE/accel.tmp" "$STATE/accel"
	fi
	accel=$(topo_accel)
	if [ "$accel" = tcg ]; then
		warn "KVM cannot run guests here: using TCG (software emulation)."
		warn "TCG proves the data path; its packet rates are not performance figures."
		SMOKE=1
	else
		say "KVM runs guests here: using it"
	fi
	topo_plan
	# shellcheck source=/dev/null
	. "$STATE/plan.env"
	# The lab's folder holds its private ssh key: others may pass through it (QEMU, as
	# libvirt-qemu, opens the disks and seeds in it) but not list or read it.
	chmod 0711 "$STATE"
	ssh_key
	qemu_can_reach "$STATE"
	local node uri
	lab_hugepages_reserve local
	tunnels_say
	tunnel_rmem_note
	topo_xml "$STATE/xml"
	local uris=() err
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri=$(node_uri "$node")
		[[ " ${uris[*]} " == *" $uri "* ]] || uris+=("$uri")
	done
	for uri in "${uris[@]}"; do
		# Every libvirt the lab uses answers before anything is defined on any of them.
		if ! err=$(vsh "$uri" version 2>&1 >/dev/null); then
			die "libvirt at $uri does not answer (virsh: ${err:-no message}); fwdlab host-setup starts the local one"
		fi
	done
	lab_nets_up
	lab_hugepages_reserve remote
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri=$(node_uri "$node")
		if [ "$(vsh "$uri" domstate "$(dom_name "$node")" 2>/dev/null)" = running ]; then
			say "$node already runs"
			continue
		fi
		node_files "$node"
		local uuid
		uuid=$(vsh "$uri" domuuid "$(dom_name "$node")" 2>/dev/null) || uuid=""
		# A domain that is defined but down (destroyed, crashed) keeps its UUID, its disk
		# and its seed: redefined in place (libvirt refuses the name with another UUID).
		node_xml "$node" "$accel" | if [ -n "$uuid" ]; then
			sed "s|^  <name>.*</name>$|&\n  <uuid>$uuid</uuid>|"
		else
			cat
		fi >"$STATE/xml/$node.xml"
		vsh "$uri" define "$STATE/xml/$node.xml" >/dev/null || die "define $node failed"
		vsh "$uri" start "$(dom_name "$node")" >/dev/null || die "start $node failed"
		if [ -n "$uuid" ]; then
			say "$node was down: started again ($(dom_name "$node"), same disk)"
		else
			say "$node started ($(dom_name "$node") on $uri)"
		fi
	done
	# Under TCG on a busy 2-core host a guest took 11 min to reach sshd (22:30, load 12-18).
	local limit=${FWDLAB_BOOT_TIMEOUT:-1200}
	[ "$accel" = kvm ] && limit=${FWDLAB_BOOT_TIMEOUT:-180}
	for node in $(kv_get "$TOPO_CONF" nodes); do
		wait_until "$limit" "ssh to $node" node_ssh "$node" true ||
			die "$node does not answer ssh at $(node_ip "$node"); console: $(node_console_log "$node")"
	done
	tg_install_hooks
	if dut_is_vpp; then dut_vpp_install_ctl; fi
	wait_until "$limit" "$(dut_forwarder) in the DUT" vfwd_up_or_failed ||
		die "$(dut_forwarder) does not answer in the DUT (fwdlab ssh dut journalctl -u $(dut_unit))"
	if ! vfwd_answers; then
		node_ssh "$(node_by_role dut)" "journalctl --no-pager -n 15 -u fwdlab-dataplane \
			-u $(dut_unit)" >&2 || true
		die "the DUT's data plane or $(dut_unit) failed (above; fwdlab ssh dut journalctl)"
	fi
	# The verbs' generator: TRex's server answering (trex.service, started at boot), or tgen
	# bringing both links up (TRex's server, if the image has one, stops for it).
	local g
	g=${GENERATOR:-$(cat "$STATE/generator" 2>/dev/null || tg_kind)}
	if [ "$g" = trex ]; then
		topo_gen_use trex
		return 0
	fi
	topo_gen_use tgen
	wait_until 60 "tgen in the TG" tgen_answers || die "tgen does not run in the TG"
}

# The TG runs the trial hooks; they reach the DUT's vfwdctl over the management network
# with the lab's key (the key lives in the lab's VMs and $STATE only).
tg_install_hooks() {
	local tg dut
	tg=$(node_by_role tg)
	dut=$(node_by_role dut)
	node_ssh "$tg" 'mkdir -p /opt/fwdlab /root/.ssh && umask 077 &&
		cat >/root/.ssh/fwdlab_lab' <"$STATE/id_ed25519"
	node_ssh "$tg" 'cat >/opt/fwdlab/trial-hook && chmod 0755 /opt/fwdlab/trial-hook' \
		<"$LAB_DIR/trial-hook"
	if [ "$(tg_kind)" = trex ]; then
		node_ssh "$tg" 'mkdir -p /opt/fwdlab/trex && cat >/opt/fwdlab/trex/trex-resolve.py' \
			<"$TOPO_DIR/trex-resolve.py"
	fi
	node_ssh "$tg" "cat >/opt/fwdlab/dutctl && chmod 0755 /opt/fwdlab/dutctl" <<EOF
#!/bin/sh
# One ssh connection for all the hook's commands (ControlMaster), so a trial's dump costs
# one handshake, not one per command.
# ServerAlive and ConnectTimeout: a DUT that is gone fails the hook in seconds (a master
# connection to a destroyed VM would otherwise hang the trial for TCP's whole timeout).
exec ssh -i /root/.ssh/fwdlab_lab -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	-o LogLevel=ERROR -o BatchMode=yes -o ConnectTimeout=30 -o ServerAliveInterval=5 \
	-o ServerAliveCountMax=4 -o ControlMaster=auto \
	-o ControlPath=/run/fwdlab-dut.ctl -o ControlPersist=120 \
	root@$(node_ip "$dut") $(if dut_is_vpp; then echo "$DUT_VPPCTL"; else echo "/opt/vfwd/bin/vfwdctl -s /run/vfwd/cli.sock"; fi) "\$@"
EOF
}

# ---- down and status --------------------------------------------------------------------

# ssh_close NODE: ends the node's ssh master connection (ControlPersist): asks it to exit,
# then stops it by its pid if it lingers (a session stuck on a guest that is gone).
ssh_close() {
	local ctl=$STATE/ssh-$1.ctl pid="" i
	if [ -S "$ctl" ]; then
		pid=$(command ssh -o "ControlPath=$ctl" -O check "root@$(node_ip "$1")" 2>&1 |
			sed -n 's/.*pid=\([0-9]*\).*/\1/p')
		command ssh -o "ControlPath=$ctl" -O exit "root@$(node_ip "$1")" >/dev/null 2>&1 || true
	fi
	if [ -n "$pid" ]; then
		for ((i = 0; i < 20; i++)); do
			pid_running "$pid" || break
			sleep 0.1
		done
		kill "$pid" 2>/dev/null || true
	fi
	rm -f "$ctl"
}

topo_down() {
	topo_conf_check
	local node uri dom i nlinks uris=()
	for node in $(kv_get "$TOPO_CONF" nodes); do
		ssh_close "$node"
	done
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri=$(node_uri "$node")
		dom=$(dom_name "$node")
		[[ " ${uris[*]} " == *" $uri "* ]] || uris+=("$uri")
		if vsh "$uri" dominfo "$dom" >/dev/null 2>&1; then
			vsh "$uri" destroy "$dom" >/dev/null 2>&1 || true
			vsh "$uri" undefine "$dom" --nvram >/dev/null 2>&1 ||
				vsh "$uri" undefine "$dom" >/dev/null || warn "undefine $dom failed"
			say "removed domain $dom"
		fi
		# libvirt keeps a domain's QEMU log after undefine; the lab made it, down removes it.
		if uri_is_local "$uri"; then
			rm -f "/var/log/libvirt/qemu/$dom.log"*
		else
			host_sh "$uri" "rm -f /var/log/libvirt/qemu/$dom.log*" </dev/null || true
			remote_node_down "$node"
		fi
	done
	nlinks=$(wc -w <<<"$(kv_get "$TOPO_CONF" links)")
	for uri in "${uris[@]}"; do
		local nets=("$(mgmt_net)")
		for ((i = 0; i < nlinks; i++)); do nets+=("$(link_net "$i")"); done
		local n
		for n in "${nets[@]}"; do
			if vsh "$uri" net-info "$n" >/dev/null 2>&1; then
				vsh "$uri" net-destroy "$n" >/dev/null 2>&1 || true
				vsh "$uri" net-undefine "$n" >/dev/null || warn "net-undefine $n failed"
				say "removed network $n"
			fi
			# libvirt 9 leaves a network's empty port folder behind in its runtime folder.
			if uri_is_local "$uri"; then
				rmdir "/run/libvirt/network/$n/ports" "/run/libvirt/network/$n" 2>/dev/null || true
			fi
		done
	done
	# Bridges libvirt left behind (a libvirtd that died mid-way) go too.
	local br
	for br in "$(mgmt_bridge)" $(for ((i = 0; i < nlinks; i++)); do link_bridge "$i"; done); do
		if ip link show "$br" >/dev/null 2>&1; then
			ip link del "$br" && say "removed bridge $br"
		fi
	done
	for node in $(kv_get "$TOPO_CONF" nodes); do
		rm -rf "${STATE:?}/$node.qcow2" "$STATE/$node-seed" "$STATE/$node-setup.cli" \
			"$STATE/$node-console.log"
	done
	rm -rf "$STATE/xml" "$STATE/plan.env" "$STATE/plan.txt" "$STATE/accel" "$STATE/accel.tmp" \
		"$STATE/id_ed25519" "$STATE/id_ed25519.pub" "$STATE/last-tgen.json" "$STATE/current-run" \
		"$STATE/swap-deb" "$STATE/tgen-link.log" "$STATE/tgen-guest-dir" "$STATE/tg-generator" \
		"$STATE/generator" "$STATE"/gen-* "$STATE"/*-trex.env "$STATE/dut-forwarder" "$STATE/peer" "$STATE/calibration.json"
}

topo_status() {
	topo_conf_check
	local node uri dom st down
	echo "topology b2b, lab $LAB_NAME, accel $(topo_accel)"
	for node in $(kv_get "$TOPO_CONF" nodes); do
		uri=$(node_uri "$node")
		dom=$(dom_name "$node")
		st=$(vsh "$uri" domstate "$dom" 2>/dev/null) || st="not defined"
		[ "$st" = running ] || st="DOWN ($st)"
		printf '  %-4s %-14s %-16s %s\n' "$node" "$dom" "$st" "$(node_ip "$node")"
	done
	tunnels_say
	if ! down=$(topo_nodes_down); then
		echo "  $down: fwdlab up starts it again"
	elif vfwd_answers; then
		echo "  $(dut_forwarder) answers: $(dut_ctl show version | head -n1)"
	else
		echo "  $(dut_forwarder) does not answer (fwdlab ssh dut systemctl status $(dut_unit))"
	fi
}
