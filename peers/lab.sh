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

# dut_spec_is_peer SPEC: SPEC is peer:NAME or vpp:NAME (a path that starts so is written
# ./peer:NAME).
dut_spec_is_peer() { [[ $1 == peer:* || $1 == vpp:* ]]; }

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
	if [ ! -x "$d/bin/vpp" ]; then
		if [ "$b" = default ]; then
			die "$1: no VPP build in $d (build it: peers/vpp/build; about 11 min on 2 idle cores, far longer under load)"
		fi
		die "$1: no VPP build named $b in $(vpp_builds_dir) (builds there: $(vpp_build_names | tr '\n' ' ')); peers/vpp/build --variant V links default, bsymbolic, hidden, verB, example; or link an install tree there)"
	fi
	readlink -f "$d"
}

# peer_spec_name SPEC: the NAME of peer:NAME, or dies naming the choices.
peer_spec_name() {
	local name=${1#peer:} choices
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
	l3fwd | l3fwd-graph)
		[ -x "${PEERS_BIN:-$TOP/build/peers/bin}/$1" ] && return 0
		say "building DPDK's $1 example (peers/build-examples $1)"
		"$PEERS_LAB_DIR/build-examples" "$1" >&2 || die "peers/build-examples $1 failed"
		;;
	esac
}
