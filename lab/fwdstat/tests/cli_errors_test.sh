#!/usr/bin/env bash
# Bad input gets a clear message and exit 1; bad usage exit 2.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
use_tmp
data=${FWDSTAT_DATA:-$(dirname "${BASH_SOURCE[0]}")/data}

status_of() { # expected-status stderr-file command...
	local want=$1 errf=$2 rc=0
	shift 2
	"$@" >/dev/null 2>"$errf" || rc=$?
	[ "$rc" -eq "$want" ]
}
check "unknown_command_is_usage_error" status_of 2 "$tmp/e" "$FWDSTAT" frobnicate
check "runtime_without_node_is_usage_error" status_of 2 "$tmp/e" "$FWDSTAT" runtime "$data/vpp_2workers.txt"
check "bad_dump_exits_1" status_of 1 "$tmp/e" "$FWDSTAT" runtime "$data/bad_row.txt" --node ip4-lookup
check "bad_dump_message_names_file_and_line" grep -q 'bad_row.txt:10: not a show runtime line' "$tmp/e"
"$FWDSTAT" runtime "$data/vpp_2workers.txt" "$data/bad_row.txt" --node ip4-lookup --json \
	>"$tmp/mixed.json" 2>/dev/null || true
check "json_stays_valid_when_one_dump_is_bad" quiet jq -e '.files | length == 1' "$tmp/mixed.json"
check "unknown_node_exits_1" status_of 1 "$tmp/e" "$FWDSTAT" runtime "$data/vpp_2workers.txt" --node no-such-node
check "unknown_node_is_named" grep -q 'node no-such-node not found' "$tmp/e"
check "missing_dir_exits_1" status_of 1 "$tmp/e" "$FWDSTAT" compare "$tmp/nope"
check "missing_dir_is_named" grep -q "$tmp/nope: not a directory" "$tmp/e"
make_run "$tmp/c" 001 A udp 64 100 100 vfwd complete
printf '{ "run": "001", "status": \n' >"$tmp/c/001/meta.json"
check "broken_meta_json_exits_1" status_of 1 "$tmp/e" "$FWDSTAT" compare "$tmp/c"
check "broken_meta_json_names_file_and_line" grep -q "$tmp/c/001/meta.json:line 2:" "$tmp/e"
check "bad_link_rate_is_usage_error" status_of 2 "$tmp/e" "$FWDSTAT" sweep "$tmp/c" --link fast
check "empty_campaign_compare_exits_1" status_of 1 "$tmp/e" "$FWDSTAT" compare "$tmp"/c/..
tap_done
