# shellcheck shell=bash
# shellcheck disable=SC2034 # top, tmp, n, rc and out are for the tests that source this
# What every lab test starts with: $top (the tree), $tmp (a fresh folder removed on exit,
# whatever happens), check NAME CMD..., which prints one TAP line for CMD's status, and
# try CMD..., which keeps CMD's output and status for the checks.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The TAP lines come from the tree's one library; `n` is this suite's name for its count.
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
n=0 # (assigned here for shellcheck: tap_alias makes it a name for TAP_N)
tap_alias n lab_tap_failed
# try CMD...: runs CMD; its output (stdout and stderr) in $out, its exit status in $rc.
try() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}
