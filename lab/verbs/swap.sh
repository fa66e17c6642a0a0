# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# swap DUT: a vfwd build, a .deb holding one, or a peer backend in place of the DUT.

swap() {
	local build=${1:-}
	[ -n "$build" ] || die "swap: which DUT? (a vfwd build folder like build/vfwd/default, a .deb, peer:NAME, vpp:NAME|vpp:DIR, or vpp-plugin:FILE.so; fwdlab swap peer:list)"
	[ $# -le 1 ] || die "swap: one DUT at a time (got: $*)"
	if dut_spec_is_peer "$build"; then
		swap_peer "$build"
		return
	fi
	[ -e "$build" ] || die "swap: $build does not exist"
	build=$(readlink -f "$build")
	if [[ $build == *.deb ]]; then
		build=$(deb_build "$build")
	fi
	[ -x "$build/bin/vfwd" ] || die "swap: $build/bin/vfwd is missing (build it: make forwarder)"
	[ -s "$build/build-info.json" ] || die "swap: $build/build-info.json is missing"
	topo_require_up
	local want got
	want=$(jq -r '"\(.version) \(.label) \(.git_rev)"' "$build/build-info.json")
	topo_swap "$build"
	got=$(dut_ctl show version) || die "swap: vfwd did not answer after the restart"
	if ! version_names_build "$got" "$build/build-info.json"; then
		printf '%s\n' "$got" >&2
		die "swap: show version does not name the build $build ($want)"
	fi
	say "swap: DUT runs $build ($want)"
}

# swap_peer peer:NAME: a peer backend (peers/) in place of the DUT's forwarder. peer:list
# prints the names. Topologies without peers (topo_has_peers; b2b: the DUT image holds vfwd only)
# refuse before touching the lab.
swap_peer() {
	local name
	if [ "$1" = peer:list ]; then
		peer_names
		return 0
	fi
	name=$(peer_spec_name "$1")
	topo_has_peers ||
		die "swap $1: this $TOPOLOGY lab's DUT runs vfwd only (peer backends are not in its DUT image); use --topology host, or swap a vfwd build (b2b: a lab brought up with --forwarder vpp swaps VPP builds and plugins)"
	if [[ $name == vpp-plugin:* ]]; then
		swap_vpp_plugin "$name"
		return
	fi
	topo_peer_swap "$name"
	say "swap: DUT runs peer backend $name ($(jq -r .version "$STATE/peer/build-info.json" 2>/dev/null))"
}

# swap_vpp_plugin vpp-plugin:/ABS/FILE.so: one VPP plugin into the running VPP (the topology's
# topo_peer_swap: checks, copies, restarts VPP, checks `show plugins` and the arc, and keeps the
# previous DUT when the new one fails). Its enable lines are checked before the lab is touched;
# when VPP is not the DUT, vpp:default is swapped in first.
swap_vpp_plugin() {
	local spec=$1 cur
	vpp_plugin_enable_lines "${spec#vpp-plugin:}" >/dev/null
	cur=$(peer_current)
	if [[ $cur != vpp && $cur != vpp:* && $cur != vpp-plugin:* ]] || ! peer_running; then
		say "swap $spec: VPP is not the DUT (${cur:-vfwd}); swapping in vpp:default first"
		swap_peer vpp:default
	fi
	topo_peer_swap "$spec"
	say "swap: DUT runs VPP $(peer_vpp_base) with $(jq -r '.file + " (sha256 " + .sha256 + ", node " + .node + ")"' "$STATE/peer/plugin/plugin.json"): $(cat "$STATE/peer/plugin/verified" 2>/dev/null)"
}

# deb_build FILE.deb: unpacks a vfwd package into the lab folder and prints the folder in
# it that is a vfwd build (bin/vfwd beside build-info.json, e.g. opt/vfwd).
deb_build() {
	local deb=$1 dir found
	dir=$STATE/swap-deb
	rm -rf "$dir"
	mkdir -p "$dir"
	dpkg-deb -x "$deb" "$dir" || die "swap: $deb is not a Debian package"
	found=$(find "$dir" -path '*/bin/vfwd' -type f -print -quit)
	[ -n "$found" ] || die "swap: $deb holds no bin/vfwd"
	dirname "$(dirname "$found")"
}

# version_names_build TEXT BUILD_INFO: `show version` output names the build's label or rev.
version_names_build() {
	local text=$1 info=$2 label rev
	label=$(jq -r '.label // ""' "$info")
	rev=$(jq -r '.git_rev // ""' "$info")
	if [ -n "$label" ]; then
		grep -qF -- "$label" <<<"$text" || return 1
	fi
	[ -z "$rev" ] || grep -qF -- "$rev" <<<"$text"
}

