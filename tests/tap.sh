# shellcheck shell=bash
# The integration tests' helpers: the TAP lines (check, stage, ...) come from tests/lib/tap.sh,
# the tree's one TAP library; TAP_N and TAP_FAILED are read by the sourcing test.
# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/tap.sh"
# runtime_vectors FILE NODE: the node's vectors summed over every thread of a VPP-format
# `show runtime` dump (0 when the node is absent).
runtime_vectors() {
	awk -v n="$2" '$1 == n && NF >= 7 { s += $(NF - 3) } END { print s + 0 }' "$1"
}
# quiet CMD...: CMD with its stdout thrown away (for stage, whose own lines must show).
quiet() { "$@" >/dev/null; }
