# shellcheck shell=bash
# shellcheck disable=SC2034 # top, tmp and n are for the tests that source this
# What every lab test starts with: $top (the tree), $tmp (a fresh folder removed on exit,
# whatever happens) and check NAME CMD..., which prints one TAP line for CMD's status.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
check() { # NAME CMD...
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}
