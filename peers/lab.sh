# shellcheck shell=bash
# The lab's side of the peer backends, sourced by lab/fwdlab (via lab/lib/experiments.sh):
# what `peer:NAME` means as a DUT, and the backend config written from a topology's vfwd CLI
# file, so that a peer gets the routes and neighbors vfwd gets. Uses fwdlab's die.
# peers/README.md "In the lab" describes the user's side.

PEERS_LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PEERS_BACKEND=$PEERS_LAB_DIR/backend

# peer_names: the backends a lab can swap in, one a line. vfwd is not one of them here: the
# lab swaps vfwd as a build folder (the peers' vfwd backend exists for peers/bench).
peer_names() { "$PEERS_BACKEND" list | grep -vx vfwd; }

# dut_spec_is_peer SPEC: SPEC is peer:NAME, vpp:NAME or vpp-plugin:FILE.so (a path that starts
# so is written ./peer:NAME).
dut_spec_is_peer() { [[ $1 == peer:* || $1 == vpp:* || $1 == vpp-plugin:* ]]; }

# VPP builds by name: vpp:NAME is the install tree $VPP_BUILDS/NAME (default build/vpp/NAME,
# which peers/vpp/build links to its cache: default, bsymbolic, hidden, verB, example).
# peer:vpp is vpp:default.
vpp_builds_dir() { echo "${VPP_BUILDS:-$TOP/build/vpp}"; }
vpp_build_names() {
	local d
	for d in "$(vpp_builds_dir)"/*/; do
		[ -x "$d/bin/vpp" ] && basename "$d"
	done 2>/dev/null || true
}
# vpp_spec_prefix NAME: the install tree of the VPP peer NAME (vpp, vpp:BUILD, or vpp:DIR: a
# path, one with a / in it, to any VPP install tree), or dies.
vpp_spec_prefix() {
	local b=default d
	[ "$1" = vpp ] || b=${1#vpp:}
	if [[ $b == */* ]]; then
		[ -x "$b/bin/vpp" ] || die "$1: $b is not a VPP install tree (no bin/vpp there)"
		readlink -f "$b"
		return 0
	fi
	d=$(vpp_builds_dir)/$b
	case "$b" in
	default | bsymbolic | hidden | verB | example)
		# A variant of peers/vpp/build, linked as build/vpp/NAME to a checked cache entry:
		# when the link is missing or dangling, built (or taken from the cache) now, with
		# progress on stderr (about 11 min on 2 idle cores the first time).
		if [ ! -x "$d/bin/vpp" ] || [ ! -f "$d/MANIFEST" ]; then
			say "$1: building VPP ($b) with peers/vpp/build"
			"$PEERS_LAB_DIR/vpp/build" --variant "$b" >/dev/null || die "$1: building VPP ($b) failed (above)"
		fi ;;
	esac
	if [ ! -x "$d/bin/vpp" ]; then
		die "$1: no VPP build named $b in $(vpp_builds_dir) (builds there: $(vpp_build_names | tr '\n' ' ')); peers/vpp/build --variant V links default, bsymbolic, hidden, verB, example; or link an install tree there)"
	fi
	readlink -f "$d"
}

# peer_spec_name SPEC: the NAME of peer:NAME, or dies naming the choices.
peer_spec_name() {
	local name=${1#peer:} choices
	# vpp-plugin:FILE.so: a plugin for the running VPP, checked (the name keeps its full path).
	if [[ $name == vpp-plugin:* ]]; then
		echo "vpp-plugin:$(vpp_plugin_file "$name")"
		return 0
	fi
	# vpp:NAME and peer:vpp:NAME: a VPP build by name (its name is the peer's name).
	if [[ $name == vpp:* ]]; then
		[[ ${name#vpp:} =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ||
			${name#vpp:} =~ ^[A-Za-z0-9._+-]*/[A-Za-z0-9._/+-]*$ ]] ||
			die "$1: vpp:NAME takes a build name (a folder in $(vpp_builds_dir)) or a path with a / (vpp:./DIR; letters, digits and . _ + - / only)"
		vpp_spec_prefix "$name" >/dev/null
		echo "$name"
		return 0
	fi
	choices=$(peer_names | tr '\n' ' ')
	choices=${choices% }
	case "$name" in
	vfwd) die "$1: vfwd is swapped as a build folder (e.g. build/vfwd/default), not as a peer; peer backends: $choices" ;;
	list | "") die "$1 is not a DUT: the peer backends are $choices (fwdlab swap peer:list)" ;;
	esac
	peer_names | grep -qxF -- "$name" ||
		die "unknown peer backend '$name' ($1); choose peer:NAME, NAME one of: $choices"
	echo "$name"
}

# peer_config_from_cli FILE: the vfwd CLI lines a peer understands (interface addresses,
# neighbors, routes) as peer config lines (peers/README.md "Config file"). Any other command
# is refused with FILE:LINE: a peer that silently lacked it would forward differently.
peer_config_from_cli() {
	awk -v f="$1" '
		{ line = $0; sub(/#.*/, "", line); n = split(line, w, " ") }
		n == 0 { next }
		n == 6 && w[1] == "set" && w[2] == "interface" && w[3] == "ip" && w[4] == "address" {
			print "address", w[5], w[6]; next }
		n == 6 && w[1] == "set" && w[2] == "ip" && w[3] == "neighbor" {
			print "neighbor", w[4], w[5], w[6]; next }
		n == 7 && w[1] == "ip" && w[2] == "route" && w[3] == "add" && w[5] == "via" {
			print "route", w[4], "via", w[6], w[7]; next }
		{ printf "%s:%d: peer backends take addresses, neighbors and routes only, not: %s\n",
			f, NR, line > "/dev/stderr"; bad = 1 }
		END { exit bad }' "$1"
}

# peer_needs_build NAME: builds the DPDK example NAME (peers/build-examples) when it is missing;
# a VPP build must be there already (its build takes an hour under load: peers/vpp/build).
peer_needs_build() {
	case "$1" in
	vpp | vpp:*) vpp_spec_prefix "$1" >/dev/null ;;
	vpp-plugin:*) ;; # the running VPP's build
	l3fwd | l3fwd-graph)
		[ -x "${PEERS_BIN:-$TOP/build/peers/bin}/$1" ] && return 0
		say "building DPDK's $1 example (peers/build-examples $1)"
		"$PEERS_LAB_DIR/build-examples" "$1" >&2 || die "peers/build-examples $1 failed"
		;;
	esac
}

# ---- vpp-plugin:FILE.so: one VPP plugin built elsewhere, swapped into the running VPP ---------
# The lab's side of `fwdlab swap vpp-plugin:FILE.so` for both topologies (host: the vpp
# backend's `vpp-plugin` config key; b2b: the DUT VM's /opt/vpp/fwdlab, topologies/b2b/vpp.sh).
# A plugin is known by its file name (VPP's own name for it) and its sha256; its enable lines
# come from FILE.cli beside it (build-plugin writes one) or `--enable NODE` (PLUGIN_ENABLE):
# `set interface feature port0 NODE arc ip4-unicast` and port1. The plugin node is the word
# before `arc` of the first such line.

# vpp_plugin_file SPEC: the .so of vpp-plugin:FILE.so (or peer:vpp-plugin:FILE.so) as an
# absolute path, or dies: a missing file, not a .so, not a VPP plugin.
vpp_plugin_file() {
	local f=${1#peer:}
	f=${f#vpp-plugin:}
	[ -n "$f" ] || die "$1: vpp-plugin:FILE.so takes the path of a VPP plugin (a .so)"
	[[ $f == *.so ]] || die "$1: $f is not a .so (vpp-plugin:FILE.so takes a VPP plugin)"
	[ -f "$f" ] || die "$1: $f: no such file"
	f=$(readlink -f "$f")
	[[ $(basename "$f") =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*\.so$ ]] ||
		die "$1: $(basename "$f"): a plugin's file name is letters, digits and . _ + - (VPP knows a plugin by it)"
	# readelf's listing first, then grep: `readelf | grep -q` under pipefail fails when grep
	# exits at the match before readelf has written the rest (SIGPIPE, seen with the Rust .so)
	grep -qE '\.vlib_plugin_(registration|r2)\b' <<<"$(readelf -SW "$f" 2>/dev/null || true)" ||
		die "$1: $f is not a VPP plugin (no .vlib_plugin_registration section: VPP would not load it)"
	printf '%s\n' "$f"
}

# vpp_plugin_enable_lines SO: the CLI lines that enable its feature: --enable NODE (PLUGIN_ENABLE)
# on both ports, else SO.cli's lines; dies when neither gives a `set interface feature` line.
vpp_plugin_enable_lines() {
	local so=$1 cli=${1%.so}.cli lines
	if [ -n "${PLUGIN_ENABLE:-}" ]; then
		[[ $PLUGIN_ENABLE =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] ||
			die "--enable $PLUGIN_ENABLE: a VPP node name (letters, digits, - _ .)"
		printf 'set interface feature port%s %s arc ip4-unicast\n' 0 "$PLUGIN_ENABLE" 1 "$PLUGIN_ENABLE"
		return 0
	fi
	[ -f "$cli" ] ||
		die "vpp-plugin:$so: no enable lines: give its feature's CLI lines in $(basename "$cli") beside it (e.g. set interface feature port0 NODE arc ip4-unicast; build-plugin writes one) or --enable NODE"
	lines=$(grep -v '^[[:space:]]*\(#\|$\)' "$cli" || true)
	[ -n "$(vpp_feature_node <<<"$lines")" ] ||
		die "vpp-plugin:$so: $cli has no enable line (set interface feature PORT NODE arc ARC); give one there or --enable NODE"
	printf '%s\n' "$lines"
}

# vpp_feature_node: the node of the first `set interface feature PORT NODE arc ARC` line on stdin
vpp_feature_node() {
	awk '$1 == "set" && $2 == "interface" && $3 == "feature" && $6 == "arc" && $8 != "disable" {
		print $5; exit }'
}

# vpp_plugin_reg_version SO: the version the plugin was built for (its registration's
# `version`, VPP_BUILD_VER of the headers it was built against); nothing for an r2 registration.
vpp_plugin_reg_version() {
	local tmp
	tmp=$(mktemp)
	if objcopy -O binary --only-section=.vlib_plugin_registration "$1" "$tmp" 2>/dev/null &&
		[ -s "$tmp" ]; then
		# vlib_plugin_registration_t: a byte of flags, then char version[64]
		head -c 65 "$tmp" | tail -c 64 | tr '\0' '\n' | head -n 1
	fi
	rm -f "$tmp"
}

# vpp_show_version_ver TEXT: "26.06-release" of "vpp v26.06-release built by ..." (show version,
# vpp --version, build-info.json's version).
vpp_show_version_ver() { awk '$1 == "vpp" { sub(/^v/, "", $2); print $2; exit }' <<<"$1"; }

# vpp_prefix_version PREFIX: the version line of an install tree (build-info.json, else its vpp).
vpp_prefix_version() {
	local v lib
	v=$(jq -r '.version // ""' "$1/build-info.json" 2>/dev/null) || v=""
	if [ -z "$v" ]; then
		lib=$(dirname "$(find "$1/lib" -maxdepth 2 -name 'libvppinfra.so*' -print -quit)")
		v=$(LD_LIBRARY_PATH=$lib "$1/bin/vpp" --version 2>/dev/null | head -n 1) || v=""
	fi
	printf '%s\n' "$v"
}

# vpp_plugin_stage SPEC DIR: the plugin checked and staged: DIR/FILE.so, DIR/FILE.cli (its
# enable lines), DIR/plugin.json {file, sha256, node, version, source, enable}.
vpp_plugin_stage() {
	local so dir=$2 file lines
	so=$(vpp_plugin_file "$1")
	lines=$(vpp_plugin_enable_lines "$so")
	file=$(basename "$so")
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$so" "$dir/$file"
	printf '%s\n' "$lines" >"$dir/${file%.so}.cli"
	jq -n --arg f "$file" --arg s "$(sha256sum "$dir/$file" | cut -d' ' -f1)" \
		--arg n "$(vpp_feature_node <<<"$lines")" --arg v "$(vpp_plugin_reg_version "$so")" \
		--arg src "$so" --arg e "$lines" \
		'{file: $f, sha256: $s, node: $n, version: $v, source: $src,
		  enable: ($e | split("\n") | map(select(. != "")))}' >"$dir/plugin.json"
}

# vpp_plugin_fits DIR VERSION_LINE: the staged plugin was built for this VPP (the headers'
# VPP_BUILD_VER is the version `show version` prints), or dies naming both.
vpp_plugin_fits() {
	local want have file
	file=$(jq -r .file "$1/plugin.json")
	have=$(jq -r .version "$1/plugin.json")
	want=$(vpp_show_version_ver "$2")
	[ -n "$have" ] || return 0 # an r2 registration: show plugins is checked after the start
	[ -n "$want" ] || die "swap vpp-plugin:$file: cannot tell the running VPP's version ('$2')"
	[ "$have" = "$want" ] ||
		die "swap vpp-plugin:$file: built against VPP $have's headers, but the DUT's VPP is $want ($2): rebuild it against this VPP (peers/vpp/plugins/build-plugin --prefix ...)"
}

# vpp_plugin_verify DIR CTL...: the plugin staged in DIR runs in the VPP that CTL (a command
# taking VPP CLI words) talks to: `show plugins` lists it with this VPP's version, and each of
# its enable lines' nodes is on its port's arc (`show interface features PORT`). Prints what it
# saw, one line; fails with the reason on stderr.
vpp_plugin_verify() {
	local dir=$1 file node ver plugins line port arc feats
	local -a w
	shift
	file=$(jq -r .file "$dir/plugin.json")
	node=$(jq -r .node "$dir/plugin.json")
	plugins=$("$@" show plugins) || { echo "show plugins failed" >&2; return 1; }
	ver=$(awk -v f="$file" '$1 ~ /^[0-9]+\.$/ && $2 == f { print $3; exit }' <<<"$plugins")
	if [ -z "$ver" ]; then
		echo "show plugins does not list $file (VPP did not load it)" >&2
		return 1
	fi
	local want
	want=$(vpp_show_version_ver "$("$@" show version)")
	if [ "$ver" != "$want" ]; then
		echo "show plugins lists $file as version $ver, but VPP is $want: built against another VPP" >&2
		return 1
	fi
	local ports=()
	while read -r line; do
		read -r -a w <<<"$line"
		[ "${w[0]:-} ${w[1]:-} ${w[2]:-} ${w[5]:-}" = "set interface feature arc" ] || continue
		[ "${w[7]:-}" != disable ] || continue
		port=${w[3]} arc=${w[6]}
		feats=$("$@" show interface features "$port") || { echo "show interface features $port failed" >&2; return 1; }
		if ! awk -v arc="$arc:" -v n="${w[4]}" '$0 == arc { on = 1; next } on && /^[^ ]/ { on = 0 }
			on && $1 == n { found = 1 } END { exit !found }' <<<"$feats"; then
			echo "${w[4]} is not on $port's $arc arc (show interface features $port)" >&2
			return 1
		fi
		ports+=("$port")
	done < <(jq -r '.enable[]' "$dir/plugin.json")
	echo "show plugins lists $file (version $ver); $node is on the arc of ${ports[*]}"
}

# vpp_tree_plugins_json PREFIX: [{file, sha256, node}] of an install tree's own plugins
# (build-plugin --tree: its build-info.json's fwdlab_plugins), [] for none.
vpp_tree_plugins_json() {
	jq -c '[.fwdlab_plugins[]? | {file, sha256, node: ((.enable // [])
		| map(split(" ") | select(.[0] == "set" and .[2] == "feature" and .[5] == "arc") | .[4])
		| first)}]' "$1/build-info.json" 2>/dev/null || echo '[]'
}
