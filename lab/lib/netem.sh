# shellcheck shell=bash
# fwdlab netem LINK [--delay D] [--loss P] [--rate R] | netem LINK off | netem show
# Link impairments for robustness experiments: tc netem on the host side of a data link.
# A b2b link is a libvirt network whose bridge (link_bridge) holds one tap per VM on it;
# netem goes on the root qdisc of each tap, so both directions of the link are impaired
# (a tap's egress is what the host sends into that guest). LINK is the link's index (0 or
# link0, as `fwdlab xml` names its file), its network's name (fwdlab-link0), or its ends as `links` writes them (tg.port0-dut.port0).
# What was set is kept in $STATE/netem/ (one file per tap), shown by `status` and
# `netem show`, and removed by `down` (and by `netem LINK off`).
# The host topology's links are vhost-user sockets, with no kernel interface to impair.

NETEM_DELAY="" NETEM_LOSS=""

# netem_link_index LINK: the index of LINK in the topology's links.
netem_link_index() {
	local want=$1 i=0 l
	if [[ $want =~ ^(link)?([0-9]+)$ ]]; then want=$(link_net "${BASH_REMATCH[2]}"); fi
	for l in $(kv_get "$TOPO_CONF" links); do
		if [ "$want" = "$l" ] || [ "$want" = "$(link_net "$i")" ]; then
			echo "$i"
			return 0
		fi
		i=$((i + 1))
	done
	die "netem: no link '$1' in $TOPO_CONF (links = $(kv_get "$TOPO_CONF" links); or link0, link1, ..., or a network name like $(link_net 0))"
}

# netem_taps INDEX: the interfaces on the link's bridge, one a line.
netem_taps() {
	local br
	if [ "$TOPOLOGY" = b2b ] && link_is_tunnel "$1"; then
		die "netem: link $1 joins nodes on two hosts, a UDP tunnel with no bridge or tap here; impair the underlay instead (tc netem on the interface that carries $(kv_get "$TOPO_CONF" underlay_mtu 1500)-byte packets to the other host)"
	fi
	br=$(link_bridge "$1")
	[ -d "/sys/class/net/$br/brif" ] ||
		die "netem: the bridge $br of link $1 does not exist (is the $TOPOLOGY lab up? fwdlab up)"
	ls "/sys/class/net/$br/brif"
}

# netem_args: the netem parameters from the options, checked (tc's own units).
netem_args() {
	local args=()
	if [ -n "$NETEM_DELAY" ]; then
		[[ $NETEM_DELAY =~ ^[0-9]+(\.[0-9]+)?(us|ms|s)$ ]] ||
			die "netem: --delay $NETEM_DELAY: a time with its unit (10ms, 500us, 1s)"
		args+=(delay "$NETEM_DELAY")
	fi
	if [ -n "$NETEM_LOSS" ]; then
		if ! [[ $NETEM_LOSS =~ ^[0-9]+(\.[0-9]+)?%$ ]] ||
			[ "$(echo "${NETEM_LOSS%\%} <= 100" | bc)" != 1 ]; then
			die "netem: --loss $NETEM_LOSS: a percentage from 0% to 100% (0.1%)"
		fi
		args+=(loss "$NETEM_LOSS")
	fi
	if [ -n "${RATE:-}" ]; then
		[[ $RATE =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)$ ]] ||
			die "netem: --rate $RATE: a rate with tc's unit (100mbit, 1gbit, 10mbps = bytes)"
		args+=(rate "$RATE")
	fi
	[ ${#args[@]} -gt 0 ] || die "netem: say what to impair: --delay D, --loss P, --rate R (or: netem LINK off)"
	printf '%s\n' "${args[@]}"
}

# netem_cmd DEV ARGS...: the tc command that puts netem on DEV (printed by --dry-run).
netem_cmd() {
	local dev=$1
	shift
	printf '%s\n' tc qdisc replace dev "$dev" root netem "$@"
}

netem_off_dev() {
	local dev=$1
	if [ -e "/sys/class/net/$dev" ] && tc qdisc show dev "$dev" root | grep -q netem; then
		tc qdisc del dev "$dev" root || warn "netem: tc qdisc del dev $dev root failed"
	fi
	rm -f "$STATE/netem/$dev"
}

netem() {
	local link="" dry=0 off=0 idx dev
	while [ $# -gt 0 ]; do
		case $1 in
		--delay) NETEM_DELAY=${2:-}; shift 2 || die "netem: --delay needs a value" ;;
		--loss) NETEM_LOSS=${2:-}; shift 2 || die "netem: --loss needs a value" ;;
		--dry-run) dry=1; shift ;;
		off) off=1; shift ;;
		show) netem_status; return 0 ;;
		-*) die "netem: unknown option $1" ;;
		*)
			[ -z "$link" ] || die "netem: one link at a time ('$link', then '$1')"
			link=$1
			shift
			;;
		esac
	done
	[ -n "$link" ] || die "netem: which link? (netem LINK --delay D --loss P --rate R | netem LINK off | netem show)"
	[ "$TOPOLOGY" != host ] ||
		die "netem: the host topology's links are vhost-user sockets between two processes, with no kernel interface for tc netem; use --topology b2b"
	idx=$(netem_link_index "$link")
	if [ "$off" = 1 ]; then
		for dev in $(netem_taps "$idx"); do netem_off_dev "$dev"; done
		say "netem: link $idx ($(link_net "$idx")) has no impairment"
		return 0
	fi
	local args taps
	mapfile -t args < <(netem_args)
	[ ${#args[@]} -gt 0 ] || exit 1
	taps=$(netem_taps "$idx")
	[ -n "$taps" ] || die "netem: the bridge $(link_bridge "$idx") has no interface on it (no VM runs on link $idx)"
	for dev in $taps; do
		if [ "$dry" = 1 ]; then
			netem_cmd "$dev" "${args[@]}" | tr '\n' ' ' | sed 's/ $/\n/'
			continue
		fi
		mkdir -p "$STATE/netem"
		mapfile -t cmd < <(netem_cmd "$dev" "${args[@]}")
		"${cmd[@]}" || die "netem: ${cmd[*]} failed"
		printf 'link %s %s dev %s: %s\n' "$idx" "$(link_net "$idx")" "$dev" "${args[*]}" |
			atomic_write "$STATE/netem/$dev"
		say "netem: ${cmd[*]}"
	done
}

# netem_status: one line per impaired interface, with what tc says it runs.
netem_status() {
	local f dev
	[ -d "$STATE/netem" ] || return 0
	for f in "$STATE"/netem/*; do
		[ -e "$f" ] || continue
		dev=${f##*/}
		printf '  netem %s (tc: %s)\n' "$(cat "$f")" \
			"$(tc qdisc show dev "$dev" root 2>/dev/null | head -n1 || echo 'interface gone')"
	done
}

# netem_clear_all: down's part: every impairment this lab set, removed.
netem_clear_all() {
	local f
	[ -d "$STATE/netem" ] || return 0
	for f in "$STATE"/netem/*; do
		[ -e "$f" ] || continue
		netem_off_dev "${f##*/}"
	done
	rmdir "$STATE/netem" 2>/dev/null || true
}
