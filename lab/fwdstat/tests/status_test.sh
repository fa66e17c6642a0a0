#!/usr/bin/env bash
# status lists every run with its status, and --list gives fwdlab --resume the folders.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
c=$tmp/results/20260101T000000Z-host-ab
make_run "$c" 001-A A udp 64 100 100 vfwd complete
make_run "$c" 002-B B udp 64 100 100 vfwd incomplete
make_run "$c" 003-A A udp 64 100 100 vfwd invalid
mkdir -p "$c/004-B"	# started, nothing written yet: not a run

check "status_exits_0" quiet_to "$tmp/out" "$FWDSTAT" status "$tmp/results"
sed 's/^/# /' "$tmp/out"
check "counts_line" grep -qx '3 runs: 1 complete, 1 incomplete, 1 invalid' "$tmp/out"
check "failure_reason_is_shown" grep -Eq '002-B .*incomplete.*interrupted' "$tmp/out"
check "list_incomplete_gives_the_folder" test "$("$FWDSTAT" status "$c" --list incomplete)" = "$c/002-B"
check "list_complete_gives_the_folder" test "$("$FWDSTAT" status "$c" --list complete)" = "$c/001-A"
check "a_run_folder_itself_is_accepted" test "$("$FWDSTAT" status "$c/003-A" --list invalid)" = "$c/003-A"
tap_done
