# shellcheck shell=bash
# fwdlab capture NODE PORT [--count N] [--duration S] [--out FILE]: a pcap of what crosses
# the data link on NODE's PORT, both directions, taken by the DUT's forwarder at its end of
# that link (vfwd's `pcap trace PORT rxtx`: ethdev rx/tx callbacks that exist only while the
# capture is on, so the measurement path is unchanged when nothing is captured). NODE is
# either end of the link (host: vfwd or tgen, or dut/tg; b2b: the nodes of `links`). The
# capture stops at N frames (default 1000) or after S seconds (default 10), whichever comes
# first. The file (default capture-NODE-PORT.pcap here) opens in Wireshark or tshark.

CAPTURE_COUNT=""

# capture_dut_port NODE PORT: the DUT's port on the link that NODE's PORT is on.
capture_dut_port() {
	local node=$1 port=$2 l a b dut
	if [ "$TOPOLOGY" = host ]; then
		case $node in vfwd | dut | tgen | tg) ;; *) die "capture: the host topology's nodes are vfwd (dut) and tgen (tg), not '$node'" ;; esac
		case $port in port0 | port1) echo "$port"; return ;; esac
		die "capture: $node has port0 and port1, not '$port'"
	fi
	dut=$(node_by_role dut)
	for l in $(kv_get "$TOPO_CONF" links); do
		a=${l%%-*} b=${l#*-}
		if [ "$a" = "$node.$port" ] || [ "$b" = "$node.$port" ]; then
			if [ "${a%%.*}" = "$dut" ]; then echo "${a#*.}"; return; fi
			if [ "${b%%.*}" = "$dut" ]; then echo "${b#*.}"; return; fi
			die "capture: link $l has no end on the DUT ($dut), whose forwarder takes the capture"
		fi
	done
	die "capture: $node.$port is on no link of $TOPO_CONF (links = $(kv_get "$TOPO_CONF" links))"
}

# capture_dut_file: where the DUT's forwarder writes the pcap (the host: the lab's run
# folder; b2b: /var/tmp in the DUT VM, then copied here over ssh).
capture_dut_file() {
	if [ "$TOPOLOGY" = host ]; then echo "$STATE/run/capture.pcap"; else echo /var/tmp/vfwd-capture.pcap; fi
}

capture_fetch() { # DUT_FILE OUT
	if [ "$TOPOLOGY" = host ]; then
		mv -f "$1" "$2" || die "capture: cannot move $1 to $2"
	else
		node_ssh "$(node_by_role dut)" "cat $1 && rm -f $1" </dev/null | atomic_write "$2" ||
			die "capture: cannot copy $1 from the DUT"
	fi
}

capture() {
	local node="" port="" count=${CAPTURE_COUNT:-1000} secs=${DURATION:-10} out="" dport file
	while [ $# -gt 0 ]; do
		case $1 in
		--count) count=${2:-}; shift 2 || die "capture: --count needs a number" ;;
		--out) out=${2:-}; shift 2 || die "capture: --out needs a file" ;;
		-*) die "capture: unknown option $1" ;;
		*)
			if [ -z "$node" ]; then node=$1; elif [ -z "$port" ]; then port=$1; else
				die "capture: unexpected '$1' (capture NODE PORT [--count N] [--duration S] [--out FILE])"
			fi
			shift
			;;
		esac
	done
	if [ -z "$node" ] || [ -z "$port" ]; then
		die "capture: which link end? (capture NODE PORT [--count N] [--duration S] [--out FILE])"
	fi
	if ! [[ $count =~ ^[1-9][0-9]{0,6}$ ]] || [ "$count" -gt 1000000 ]; then
		die "capture: --count $count: a whole number from 1 to 1000000"
	fi
	[[ $secs =~ ^[1-9][0-9]{0,4}$ ]] || die "capture: --duration $secs: whole seconds, at least 1"
	out=${out:-$PWD/capture-$node-$port.pcap}
	[ -d "$(dirname "$out")" ] || die "capture: the folder of $out does not exist"
	dport=$(capture_dut_port "$node" "$port")
	topo_require_up
	[ "${DUT_BACKEND:-vfwd}" = vfwd ] ||
		die "capture: the DUT is peer backend $DUT_BACKEND; captures are vfwd's (pcap trace): fwdlab swap BUILD first"
	file=$(capture_dut_file)
	local reply
	reply=$(dut_ctl pcap trace "$dport" rxtx max "$count" file "$file" 2>&1) ||
		die "capture: vfwd refused pcap trace: $reply"
	grep -q '^error' <<<"$reply" && die "capture: vfwd refused pcap trace: $reply"
	say "capture: $reply"
	# stopped on any exit from here, so that no capture stays on in the DUT
	trap 'dut_ctl pcap trace off >/dev/null 2>&1 || true' EXIT
	local start now st
	start=$(date +%s)
	while :; do
		st=$(dut_ctl show pcap trace 2>/dev/null) || st=""
		if [[ $st =~ \ ([0-9]+)\ of\ ([0-9]+)\ frames ]] &&
			[ "${BASH_REMATCH[1]}" -ge "${BASH_REMATCH[2]}" ]; then
			break
		fi
		now=$(date +%s)
		[ $((now - start)) -lt "$secs" ] || break
		sleep 0.2
	done
	reply=$(dut_ctl pcap trace off 2>&1) || die "capture: pcap trace off failed: $reply"
	trap - EXIT
	grep -q '^error' <<<"$reply" && die "capture: pcap trace off: $reply"
	capture_fetch "$file" "$out"
	say "capture: ${reply#pcap trace: }; $out"
	echo "$out"
}
