# shellcheck shell=bash
# VPP in the b2b DUT VM (`make lab DUT=vpp`, `fwdlab up --forwarder vpp`): the dut-vpp image
# (images/README.md) boots with VPP reading the data NICs through af_packet, named port0 and
# port1, and executing the same setup.cli.in as vfwd (VPP's CLI takes vfwd's lines). The lab
# reaches VPP with vppctl over ssh; `swap vpp:NAME|vpp:DIR` copies another VPP install tree
# into the running DUT; dumps and the trials' dumps come from VPP's own CLI.
# Sourced by driver.sh; the DUT's forwarder is fixed for the DUT VM's life ($STATE/dut-forwarder).

# dut_forwarder: vfwd or vpp. Once `up` ran, what the DUT VM was booted with; before, --forwarder
# (FWDLAB_FORWARDER), else the dut node's `forwarder` in the topology file, else vfwd.
dut_forwarder() {
	cat "$STATE/dut-forwarder" 2>/dev/null ||
		echo "${FORWARDER:-$(kv_get "$TOPO_CONF" "$(node_by_role dut).forwarder" vfwd)}"
}
dut_is_vpp() { [ "$(dut_forwarder)" = vpp ]; }
# dut_unit: the systemd unit of the DUT's forwarder.
dut_unit() { if dut_is_vpp; then echo vpp.service; else echo vfwd.service; fi; }

# The guest's one-command VPP CLI (installed at up, dut_vpp_install_ctl).
DUT_VPPCTL=/usr/local/sbin/fwdlab-vppctl

# dut_vpp_install_ctl: fwdlab-vppctl in the DUT: vppctl's output without its CRs, and a
# failure when VPP refuses a command (vppctl itself exits 0 then), so that the lab's checks
# and the trials' dumps see VPP's errors as errors.
dut_vpp_install_ctl() {
	node_ssh "$(node_by_role dut)" "cat >$DUT_VPPCTL.tmp && chmod 0755 $DUT_VPPCTL.tmp &&
		mv -f $DUT_VPPCTL.tmp $DUT_VPPCTL" <<'EOF' || die "installing $DUT_VPPCTL in the DUT failed"
#!/bin/sh
# fwdlab-vppctl CMD...: one VPP CLI command (written by fwdlab up, topologies/b2b/vpp.sh).
out=$(vppctl -s /run/vpp/cli.sock "$@" 2>&1) || { printf '%s\n' "$out" >&2; exit 1; }
out=$(printf '%s\n' "$out" | tr -d '\r')
case "$out" in
*"unknown input"* | *"unknown command"* | *"parse error"*) printf '%s\n' "$out" >&2; exit 1 ;;
esac
printf '%s\n' "$out"
EOF
}

# dut_vpp_build_info: the running VPP's build (the install tree's build-info.json, written
# by peers/vpp/build), with the name the lab knows it by (peer_current) as its label, and the
# plugins it runs that are not VPP's own (the tree's, and one swapped in: [{file, sha256, node}]).
dut_vpp_build_info() {
	local swapped='[]'
	[ ! -s "$STATE/peer/plugin/plugin.json" ] ||
		swapped=$(jq -c '[{file, sha256, node}]' "$STATE/peer/plugin/plugin.json")
	node_ssh "$(node_by_role dut)" 'cat /opt/vpp/build-info.json 2>/dev/null || echo "{}"' </dev/null |
		jq -c --arg l "$(peer_current)" --argjson s "$swapped" --arg base "$(cat "$STATE/peer/base" 2>/dev/null)" '
		. + {name: "vpp", backend: "vpp", label: $l,
		     plugins: (([.fwdlab_plugins[]? | {file, sha256, node: ((.enable // [])
			| map(split(" ") | select(.[2] == "feature" and .[5] == "arc") | .[4]) | first)}]
			| map(select(.file as $f | $s | all(.file != $f)))) + $s)}
		+ (if $base == "" then {} else {base: $base} end)'
}

# The guest's plugin tool (installed at each swap, dut_vpp_install_plugins_tool): VPP in the
# image does not yet load /opt/vpp/fwdlab/plugins nor run /opt/vpp/fwdlab/setup.cli (the layout
# of build-plugin --tree, which `swap vpp:DIR` copies and `swap vpp-plugin:` fills), so the tool
# adds both, between fwdlab markers, to /etc/vpp/startup.conf (a `plugins { add-path ... }`
# section: VPP joins its sections) and to /run/fwdlab/vpp-setup.cli (before the ports come
# up), unless those files name the folder already (an image that does it itself).
DUT_VPP_PLUGINS=/usr/local/sbin/fwdlab-vpp-plugins
dut_vpp_install_plugins_tool() {
	node_ssh "$(node_by_role dut)" "cat >$DUT_VPP_PLUGINS.tmp && chmod 0755 $DUT_VPP_PLUGINS.tmp &&
		mv -f $DUT_VPP_PLUGINS.tmp $DUT_VPP_PLUGINS" <<'EOF' || die "installing $DUT_VPP_PLUGINS in the DUT failed"
#!/bin/sh
# fwdlab-vpp-plugins hooks | install FILE.so (a tar of FILE.so and FILE.cli on stdin) | restore
# (written by fwdlab swap, topologies/b2b/vpp.sh)
set -e
fw=/opt/vpp/fwdlab conf=/etc/vpp/startup.conf setup=/run/fwdlab/vpp-setup.cli
B='# fwdlab-plugins begin' E='# fwdlab-plugins end'
strip() { sed "/^$B/,/^$E/d" "$1"; }
hooks() { # /opt/vpp/fwdlab's plugins loaded and its setup.cli run at VPP's next start
	strip $conf >$conf.tmp
	if ls $fw/plugins/*.so >/dev/null 2>&1 && ! grep -q "$fw/plugins" $conf.tmp; then
		{
			echo "$B (fwdlab swap: $fw/plugins, topologies/b2b/vpp.sh)"
			printf 'plugins { add-path %s' "$fw/plugins"
			for p in $fw/plugins/*.so; do printf ' plugin %s { enable }' "$(basename "$p")"; done
			echo ' }'
			echo "$E"
		} >>$conf.tmp
	fi
	mv -f $conf.tmp $conf
	[ -f $setup ] || return 0
	strip $setup >$setup.tmp
	if [ -s $fw/setup.cli ] && ! grep -q "$fw/setup.cli" $setup.tmp; then
		awk -v f=$fw/setup.cli -v b="$B" -v e="$E" '
			function block(l) {
				print b
				while ((getline l < f) > 0) if (l !~ /^[ 	]*(#|$)/) print l
				print e
				done = 1
			}
			!done && /^set interface state .* up/ { block() }
			{ print }
			END { if (!done) block() }' $setup.tmp >$setup.tmp2
		mv -f $setup.tmp2 $setup.tmp
	fi
	mv -f $setup.tmp $setup
}
case "$1" in
hooks) hooks ;;
install) # FILE.so: the tree's own plugins (kept once, in .base) and FILE.so; VPP restarted
	f=$2
	mkdir -p $fw
	if [ ! -d $fw/.base ]; then
		rm -rf $fw/.base.tmp && mkdir $fw/.base.tmp
		[ ! -d $fw/plugins ] || cp -a $fw/plugins $fw/.base.tmp/
		[ ! -f $fw/setup.cli ] || cp $fw/setup.cli $fw/.base.tmp/
		mv $fw/.base.tmp $fw/.base
	fi
	if ls /opt/vpp/lib/*/vpp_plugins/"$f" /opt/vpp/lib/vpp_plugins/"$f" $fw/.base/plugins/"$f" 2>/dev/null | grep -q .; then
		echo "the DUT's VPP has a plugin named $f already; rename the file" >&2
		exit 3
	fi
	rm -rf /opt/vpp/fwdlab.prev && cp -a $fw /opt/vpp/fwdlab.prev
	cp $conf $conf.fwdlab-prev
	if [ -f $setup ]; then cp $setup $setup.fwdlab-prev; fi
	rm -rf $fw/new && mkdir -p $fw/new/plugins
	[ ! -d $fw/.base/plugins ] || cp -a $fw/.base/plugins/. $fw/new/plugins/
	tar -C $fw/new/plugins -xf -
	{ cat $fw/.base/setup.cli 2>/dev/null || true; cat "$fw/new/plugins/${f%.so}.cli"; } >$fw/new/setup.cli
	rm -rf $fw/plugins && mv $fw/new/plugins $fw/plugins
	mv -f $fw/new/setup.cli $fw/setup.cli && rmdir $fw/new
	hooks
	systemctl reset-failed vpp.service 2>/dev/null || true
	systemctl restart vpp.service ;;
restore) # the state before the last install; VPP restarted
	systemctl stop vpp.service || true
	rm -rf /opt/vpp/fwdlab.failed && mv $fw /opt/vpp/fwdlab.failed && mv /opt/vpp/fwdlab.prev $fw
	mv -f $conf.fwdlab-prev $conf
	if [ -f $setup.fwdlab-prev ]; then mv -f $setup.fwdlab-prev $setup; fi
	systemctl reset-failed vpp.service 2>/dev/null || true
	systemctl start vpp.service ;;
*) echo "usage: $0 hooks | install FILE.so | restore" >&2; exit 2 ;;
esac
EOF
}

# topo_has_peers (b2b): VPP's builds are the DUT's peers when the DUT VM runs VPP.
topo_has_peers() { dut_is_vpp; }
# peer_current (b2b): the VPP build the DUT runs: vpp (the image's) or the vpp:NAME swapped in.
peer_current() {
	dut_is_vpp || return 0
	cat "$STATE/peer/name" 2>/dev/null || echo vpp
}
peer_is_dut() { dut_is_vpp; }
peer_running() { dut_is_vpp && vfwd_answers; }
# peer_vpp_base: the VPP build under the current peer (vpp, vpp:NAME), without a plugin swapped in.
peer_vpp_base() { cat "$STATE/peer/base" 2>/dev/null || peer_current; }

# vpp_build_version PREFIX: the first line `vpp --version` prints for an install tree (its
# build-info.json's, else the binary's own, run here with the tree's libraries).
vpp_build_version() {
	local v lib
	v=$(jq -r '.version // ""' "$1/build-info.json" 2>/dev/null) || v=""
	if [ -z "$v" ]; then
		lib=$(dirname "$(find "$1/lib" -maxdepth 2 -name 'libvppinfra.so*' | head -n 1)")
		v=$(LD_LIBRARY_PATH=$lib "$1/bin/vpp" --version 2>/dev/null | head -n 1 | tr -d '\r') || v=""
	fi
	[ -n "$v" ] || die "$1: cannot tell its VPP version (no build-info.json, and bin/vpp --version fails here)"
	printf '%s\n' "$v"
}

# vpp_answers_or_failing: VPP answers, or vpp.service failed or was restarted three times
# since its last start by hand: a build that cannot start (under TCG systemd's start limit,
# five starts in 10 s, is never reached: it would go on restarting it).
vpp_answers_or_failing() {
	local st
	vfwd_answers && return 0
	st=$(node_ssh "$(node_by_role dut)" 'systemctl is-failed --quiet vpp.service && echo failed
		systemctl show -p NRestarts --value vpp.service' </dev/null 2>/dev/null) || return 1
	[[ $st == failed* ]] && return 0
	[[ $st =~ ^[0-9]+$ ]] && [ "$st" -ge 3 ]
}

# topo_peer_swap vpp:NAME|vpp:DIR (b2b): another VPP install tree in the running DUT's /opt/vpp,
# vpp.service restarted; returns when `show version` names the new build. The previous tree
# stays in /opt/vpp.old (and comes back when the new one does not start).
topo_peer_swap() {
	local name=$1 prefix want got dut size down
	if [[ $name == vpp-plugin:* ]]; then
		b2b_plugin_swap "$name"
		return
	fi
	[[ $name == vpp* ]] ||
		die "swap peer:$name: the b2b DUT VM runs VPP or vfwd; the other peer backends run on the host topology (--topology host)"
	if ! down=$(topo_nodes_down); then
		die "$down; the $TOPOLOGY lab is not up (fwdlab up --topology $TOPOLOGY restarts it)"
	fi
	dut=$(node_by_role dut)
	prefix=$(vpp_spec_prefix "$name")
	if [ "$(jq -r '.native // "ON"' "$prefix/build-info.json" 2>/dev/null)" != OFF ] &&
		[ "$(topo_accel)" = tcg ]; then
		die "swap $name: $prefix is a native VPP build (VPP_BUILD_NATIVE_ONLY=ON): it uses this host's CPU features (AVX-512 here), which QEMU's TCG does not emulate, so VPP would die of SIGILL in the DUT; build a portable one (peers/vpp/build [--variant V], without VPP_NATIVE=1), then swap vpp:V"
	fi
	want=$(vpp_build_version "$prefix")
	size=$(du -sh --exclude=include "$prefix/" 2>/dev/null | cut -f1)
	say "swap: copying $prefix ($size, $want) to the DUT"
	dut_vpp_install_plugins_tool
	# Headers are for building plugins, not for running VPP: they stay here.
	# shellcheck disable=SC2016 # expanded in the guest
	tar -C "$prefix" --exclude=./include -cf - . | node_ssh "$dut" 'set -e
		rm -rf /opt/vpp.new && mkdir -p /opt/vpp.new && tar -C /opt/vpp.new -xf -
		libdir=$(cd /opt/vpp.new && find lib -maxdepth 2 -name "libvppinfra.so*" -printf "%h\n" | head -n 1)
		[ -n "$libdir" ] || { echo "the build has no libvppinfra.so" >&2; exit 1; }
		systemctl stop vpp.service
		rm -rf /opt/vpp.old && mv /opt/vpp /opt/vpp.old && mv /opt/vpp.new /opt/vpp
		echo "/opt/vpp/$libdir" >/etc/ld.so.conf.d/fwdlab-vpp.conf && ldconfig
		'"$DUT_VPP_PLUGINS"' hooks
		systemctl reset-failed vpp.service 2>/dev/null || true
		systemctl start vpp.service' || die "swap: copying $prefix to the DUT or restarting VPP failed"
	wait_until "$(if topo_is_slow; then echo 300; else echo 60; fi)" "VPP to answer" \
		vpp_answers_or_failing || true
	if ! vfwd_answers; then
		# shellcheck disable=SC2016 # expanded in the guest
		node_ssh "$dut" 'journalctl --no-pager -n 15 -u vpp.service; set -e
			systemctl stop vpp.service; rm -rf /opt/vpp.failed; mv /opt/vpp /opt/vpp.failed
			mv /opt/vpp.old /opt/vpp
			libdir=$(cd /opt/vpp && find lib -maxdepth 2 -name "libvppinfra.so*" -printf "%h\n" | head -n 1)
			echo "/opt/vpp/$libdir" >/etc/ld.so.conf.d/fwdlab-vpp.conf && ldconfig
			'"$DUT_VPP_PLUGINS"' hooks
			systemctl reset-failed vpp.service 2>/dev/null || true; systemctl start vpp.service' </dev/null >&2 || true
		wait_until 120 "the previous VPP build to answer again" vpp_answers_or_failing || true
		vfwd_answers || warn "the previous VPP build does not answer either (fwdlab ssh dut journalctl -u vpp.service)"
		die "swap: VPP from $prefix does not answer in the DUT (its journal above); the previous build is back in /opt/vpp, the failed one in the DUT's /opt/vpp.failed"
	fi
	# The new tree runs from here on, whatever show version says (a plugin swapped in is gone).
	mkdir -p "$STATE/peer"
	rm -rf "$STATE/peer/plugin" "$STATE/peer/base"
	echo "$name" >"$STATE/peer/name"
	dut_vpp_build_info | atomic_write "$STATE/peer/build-info.json"
	got=$(dut_ctl show version) || die "swap: VPP did not answer show version"
	if ! grep -qF -- "${want#vpp }" <<<"$got"; then
		printf '%s\n' "$got" >&2
		die "swap: show version does not name the build $prefix ($want); the DUT runs it all the same"
	fi
}

# b2b_plugin_swap vpp-plugin:/ABS/FILE.so: a plugin into the DUT VM's running VPP: checked
# (a VPP plugin, enable lines, built for the running VPP's version), copied over ssh with its
# enable lines into /opt/vpp/fwdlab (the tree's own plugins kept, a previous swapped-in one
# gone), VPP restarted, `show plugins` and each enable line's arc checked; when it fails the
# DUT's previous /opt/vpp/fwdlab and start-up files come back, VPP restarted on them.
b2b_plugin_swap() {
	local spec=$1 dut stage=$STATE/vpp-plugin.new file base seen="" why="" err="" rc=0 down back
	if ! down=$(topo_nodes_down); then
		die "$down; the $TOPOLOGY lab is not up (fwdlab up --topology $TOPOLOGY restarts it)"
	fi
	dut=$(node_by_role dut)
	base=$(peer_vpp_base)
	vpp_plugin_stage "$spec" "$stage"
	file=$(jq -r .file "$stage/plugin.json")
	vpp_plugin_fits "$stage" "$(dut_ctl show version | head -n 1)"
	dut_vpp_install_plugins_tool
	say "swap: copying $file to the DUT's /opt/vpp/fwdlab/plugins, restarting VPP"
	tar -C "$stage" -cf - "$file" "${file%.so}.cli" | node_ssh "$dut" "$DUT_VPP_PLUGINS install $file" || rc=$?
	[ "$rc" -ne 3 ] || die "swap $spec: the DUT's VPP has a plugin named $file already; rename the file"
	if [ "$rc" -eq 0 ]; then
		wait_until "$(if topo_is_slow; then echo 300; else echo 60; fi)" "VPP to answer" \
			vpp_answers_or_failing || true
		if vfwd_answers; then
			seen=$(vpp_plugin_verify "$stage" dut_ctl 2>"$stage/verify.err") || {
				rc=1
				why=$(cat "$stage/verify.err")
			}
		else
			rc=1 why="VPP does not answer with it"
		fi
	else
		why="copying it to the DUT or restarting VPP failed"
	fi
	if [ "$rc" -ne 0 ]; then
		# VPP's own words about plugins it did not load (its in-memory log), and its journal
		err=$(dut_ctl show logging 2>/dev/null | grep -E '(error|warn)[[:space:]]+plugin/load' |
			sed 's/^[0-9/]* [0-9:]* *//' | paste -sd';' | sed 's/;/; /g') || err=""
		node_ssh "$dut" 'journalctl --no-pager -n 15 -u vpp.service' </dev/null >&2 || true
		node_ssh "$dut" "$DUT_VPP_PLUGINS restore" </dev/null >&2 || true
		wait_until 120 "the previous VPP to answer again" vpp_answers_or_failing || true
		if vfwd_answers; then back="the DUT runs $(peer_current) again"; else
			back="the previous VPP does not answer either (fwdlab ssh dut journalctl -u vpp.service)"
		fi
		die "swap $spec: $why${err:+ (VPP: $err)}; $back (the failed one is in the DUT's /opt/vpp/fwdlab.failed)"
	fi
	mkdir -p "$STATE/peer"
	rm -rf "$STATE/peer/plugin"
	mkdir "$STATE/peer/plugin"
	cp "$stage/$file" "$stage/${file%.so}.cli" "$stage/plugin.json" "$STATE/peer/plugin/"
	echo "$base" >"$STATE/peer/base"
	echo "vpp-plugin:$file" >"$STATE/peer/name"
	dut_vpp_build_info | atomic_write "$STATE/peer/build-info.json"
	printf '%s\n' "$seen" >"$STATE/peer/plugin/verified"
	rm -rf "$stage"
}

# topo_peer_dump DIR (b2b): VPP's own runtime output into DIR, as the host topology's VPP
# backend writes it (peers/README.md "Dumps"): backend.json, stats.json (VPP's interface
# counters), show_*.txt, the startup and setup files, the end of VPP's log.
topo_peer_dump() {
	local dir=$1 dut file cmd rc=0 info
	dut=$(node_by_role dut)
	mkdir -p "$dir"
	info=$(dut_vpp_build_info) || info='{}'
	jq -n --arg v "$(dut_ctl show version | head -n 1)" --argjson build "$info" \
		--arg at "$(utc_now)" '{backend: "vpp", version: $v, build: $build, where: "b2b DUT VM",
		dumped_at: $at}' | atomic_write "$dir/backend.json" || rc=1
	while read -r file cmd; do
		# shellcheck disable=SC2086 # the CLI command is words
		atomic_cmd "$dir/$file" dut_ctl $cmd </dev/null || { warn "dump: VPP's '$cmd' failed"; rc=1; }
	done <<'EOF'
show_runtime.txt show runtime
show_errors.txt show errors
show_interfaces.txt show interface
show_hardware.txt show hardware-interfaces
show_ip_fib.txt show ip fib
show_threads.txt show threads
show_plugins.txt show plugins
EOF
	{ dut_ctl show version && dut_ctl show version verbose; } | atomic_write "$dir/show_version.txt" || rc=1
	jq '.plugins // []' <<<"$info" | atomic_write "$dir/plugins.json" || rc=1
	awk -f "$TOP/peers/lib/vpp-interface-stats.awk" "$dir/show_interfaces.txt" |
		atomic_write "$dir/stats.json" || rc=1
	node_ssh "$dut" cat /etc/vpp/startup.conf </dev/null | atomic_write "$dir/startup.conf" || rc=1
	node_ssh "$dut" cat /run/fwdlab/vpp-setup.cli </dev/null | atomic_write "$dir/setup.cli" || rc=1
	node_ssh "$dut" 'tail -n 200 /var/log/vpp/vpp.log' </dev/null | atomic_write "$dir/vpp.log" || true
	return "$rc"
}
