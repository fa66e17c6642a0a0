# shellcheck shell=bash
# shellcheck disable=SC2016,SC2034,SC2154 # checks are eval'd; top is the sourcing test's
# contract_check NAME: the checks every generator meets (lab/generators/README.md), as TAP
# lines through tests/tap.sh's check. The caller has exported the FWDLAB_GEN_* environment a
# topology gives (README.md "Environment") and, for a generator with ports, a DUT that
# forwards udp 16.0.0.1 -> 48.0.0.1 from port0 to port1. RATE (default 1000) pps.
contract_check() {
	local g=$1 gen=$top/lab/generators/$1 d=$FWDLAB_GEN_DIR rate=${CONTRACT_RATE:-1000}
	mkdir -p "$d"
	check "$g: ports names its kind of port" eval '
		case "$("$gen" ports)" in vhost-user | memif | none) true ;; *) false ;; esac'
	check "$g: info is JSON naming $g and a version" eval '
		"$gen" info | jq -e --arg g "$g" ".name == \$g and (.version | type == \"string\" and length > 0)" >/dev/null'
	check "$g: start succeeds and check then passes" eval '"$gen" start >"$d/start.out" 2>&1 && "$gen" check >/dev/null 2>&1'
	check "$g: a trial writes the raw counters (tx, rx, per direction, duration)" eval '
		"$gen" trial --rate "$rate" --duration 2 --json "$d/c.json" --profile udp --size 64 >"$d/trial.out" 2>&1 &&
		jq -e --arg g "$g" --argjson r "$rate" "
			.generator.name == \$g and .rate_pps_requested == \$r and .duration_s > 0 and
			(.tx_packets | type == \"number\") and .tx_packets > 0 and .rx_packets <= .tx_packets and
			(.directions | length == 2) and
			(.directions[0].tx_packets + .directions[1].tx_packets == .tx_packets) and
			(.directions[0].rx_packets + .directions[1].rx_packets == .rx_packets)" "$d/c.json" >/dev/null'
	echo "# $g trial: $(jq -c "{tx_packets, rx_packets, duration_s}" "$d/c.json" 2>/dev/null)"
	check "$g: the DUT lost none of the trial's packets at $rate pps" eval '
		jq -e ".rx_packets == .tx_packets" "$d/c.json" >/dev/null'
	check "$g: a bad rate is refused with exit 2 and a message" eval '
		rc=0; "$gen" trial --rate fast --duration 1 --json "$d/bad.json" 2>"$d/bad.err" || rc=$?
		[ "$rc" -eq 2 ] && [ -s "$d/bad.err" ] && [ ! -e "$d/bad.json" ]'
	check "$g: an unknown profile is refused with exit 2, naming it" eval '
		rc=0; "$gen" trial --rate 100 --duration 1 --json "$d/bad.json" --profile "$d/no-such.py" 2>"$d/bad.err" || rc=$?
		[ "$rc" -eq 2 ] && grep -q "no-such" "$d/bad.err" && [ ! -e "$d/bad.json" ]'
	check "$g: the lab's search (tgen --trial-exec) runs its trial and reports its counters" eval '
		"$top/build/tgen/bin/tgen" -- run --trial-exec "$top/lab/generators/trial-exec $g --profile udp --size 64" \
			--rate "${rate}pps" --duration 2 --size 64 --json "$d/run.json" >"$d/run.out" 2>&1 &&
		jq -e --slurpfile t "$d/trial.json" ".trial.tx_packets == \$t[0].tx_packets and
			.trial.rx_packets == \$t[0].rx_packets and .trial.rate_pps_requested == $rate" "$d/run.json" >/dev/null'
	check "$g: stop succeeds, twice" eval '"$gen" stop && "$gen" stop'
}
