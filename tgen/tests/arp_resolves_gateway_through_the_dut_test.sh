#!/usr/bin/env bash
# shellcheck disable=SC1091,SC2154 # lib.sh (sourced) sets tmp, TGEN, ...
# ARP through a real DUT: capdut passes ARP unchanged, so port0's request for 10.0.1.2
# reaches port1, which owns 10.0.1.2 and answers; port0 learns port1's MAC as its
# destination. `tgen link` prints both.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need "$TGEN"
need "$CAPDUT"

start_capdut
rc=0
tgen link --gw0 10.0.1.2 --ip0 10.0.0.2 --ip1 10.0.1.2 || rc=$?
show "$tmp/tgen.out"
check "link_mode_exits_0" test "$rc" -eq 0
mac1=$(sed -n 's/^port1: .* mac \([0-9a-f:]*\).*/\1/p' "$tmp/tgen.out")
dst0=$(sed -n 's/^port0: .* dst \([0-9a-f:]*\).*/\1/p' "$tmp/tgen.out")
echo "# port1 mac $mac1, port0 learned dst $dst0"
check "port0_learned_port1_mac_by_arp" test -n "$mac1" -a "$mac1" = "$dst0"

# and a trial with the learned address: frames carry it and all come back
rc=0
tgen run --gw0 10.0.1.2 --ip1 10.0.1.2 --rate 5kpps --duration 1 --drain 2 --json "$tmp/r.json" || rc=$?
show "$tmp/tgen.out"
check "trial_after_arp_receives_everything" test "$rc" -eq 0 -a \
	"$(jq '.trial.tx_packets > 0 and .trial.tx_packets == .trial.rx_packets' "$tmp/r.json")" = true
finish
