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

# dut_spec_is_peer SPEC: SPEC is peer:NAME (a path that starts so is written ./peer:NAME).
dut_spec_is_peer() { [[ $1 == peer:* ]]; }

# peer_spec_name SPEC: the NAME of peer:NAME, or dies naming the choices.
peer_spec_name() {
	local name=${1#peer:} choices
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

# peer_needs_build NAME: builds the DPDK example NAME (peers/build-examples) when it is missing.
peer_needs_build() {
	case "$1" in
	l3fwd | l3fwd-graph)
		[ -x "${PEERS_BIN:-$TOP/build/peers/bin}/$1" ] && return 0
		say "building DPDK's $1 example (peers/build-examples $1)"
		"$PEERS_LAB_DIR/build-examples" "$1" >&2 || die "peers/build-examples $1 failed"
		;;
	esac
}
