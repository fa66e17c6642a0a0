# shellcheck shell=bash
# shellcheck disable=SC2034 # top, tmp, n, rc and out are for the tests that source this
# What every lab test starts with: $top (the tree), $tmp (a fresh folder removed on exit,
# whatever happens), check NAME CMD..., which prints one TAP line for CMD's status, and
# try CMD..., which keeps CMD's output and status for the checks.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
# try CMD...: runs CMD; its output (stdout and stderr) in $out, its exit status in $rc.
try() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}
check() { # NAME CMD...
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}
