#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091 # eval checks expand when they run; lib.sh is followed with -x
# The topology reader: every real topology and every good case is accepted; every bad
# case is refused with exit 1 and exactly the FILE:LINE: messages of its .expect file;
# get, dump and usage errors behave as documented.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
cases=$here/topology
use_tmp

kind_of() { # FILE: host for host*.conf and host_*.conf, else vm
	case $(basename "$1") in
	host*) echo host ;;
	*) echo vm ;;
	esac
}

accepted() { # FILE KIND
	local rc=0
	"$FWDSTAT" topology check --kind "$2" "$1" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/out" ]; then
		cat "$tmp/out"
		return 1
	fi
}

refused_as_expected() { # FILE.conf: exit 1, stderr == FILE.expect with FILE for the path
	local conf=$1 rc=0
	"$FWDSTAT" topology check --kind "$(kind_of "$conf")" "$conf" >"$tmp/out" 2>"$tmp/err" ||
		rc=$?
	sed "s|^FILE|$conf|" "${conf%.conf}.expect" >"$tmp/want"
	[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && diff -u "$tmp/want" "$tmp/err"
}

for t in b2b host; do
	check "topologies/$t/topology.conf is accepted" accepted "$top/topologies/$t/topology.conf" \
		"$([ $t = host ] && echo host || echo vm)"
	check "topologies/$t/topology.conf is accepted without --kind" \
		quiet "$FWDSTAT" topology check "$top/topologies/$t/topology.conf"
done
for f in "$cases"/good/*.conf; do
	check "good/$(basename "$f") is accepted" accepted "$f" "$(kind_of "$f")"
done
n=0
for f in "$cases"/bad/*.conf; do
	check "bad/$(basename "$f" .conf) is refused with its FILE:LINE message" \
		refused_as_expected "$f"
	n=$((n + 1))
done
check "at least 70 bad cases" [ "$n" -ge 70 ]

# A file as large as the limit allows is refused with FILE: and no line.
head -c 1048577 /dev/zero | tr '\0' '#' >"$tmp/big.conf"
rc=0
"$FWDSTAT" topology check "$tmp/big.conf" 2>"$tmp/err" || rc=$?
check "file over 1 MiB is refused" [ "$rc" -eq 1 ]
check "file over 1 MiB: message names the file" \
	grep -qx "$tmp/big.conf: larger than 1048576 bytes" "$tmp/err"
# Errors are capped, and the cap is said.
cp "$cases/good/b2b.conf" "$tmp/many.conf"
for i in $(seq 100); do echo "bad line $i"; done >>"$tmp/many.conf"
"$FWDSTAT" topology check "$tmp/many.conf" 2>"$tmp/err" || true
check "errors past 64 are counted, not printed" \
	eval '[ "$(grep -c "expected KEY = VALUE" "$tmp/err")" -eq 64 ] &&
		grep -qx "$tmp/many.conf: 36 more errors not shown" "$tmp/err"'
# More settings than the reader keeps: refused at the first one too many.
for i in $(seq 513); do echo "k$i = 1"; done >"$tmp/wide.conf"
"$FWDSTAT" topology check "$tmp/wide.conf" 2>"$tmp/err" || true
check "setting 513 is one too many" grep -qx "$tmp/wide.conf:513: more than 512 settings" "$tmp/err"
check "a folder is refused by name" \
	eval '! "$FWDSTAT" topology check "$tmp" 2>"$tmp/err" && grep -qx "$tmp: cannot read: Is a directory" "$tmp/err"'

# get: the value, the default, nothing (exit 1) when unset.
b2b=$cases/good/b2b.conf
check "get prints a value" eval '[ "$("$FWDSTAT" topology get "$b2b" dut.vcpus)" = 2 ]'
check "get strips comments and blanks" \
	eval '[ "$("$FWDSTAT" topology get "$cases/good/vm_comments_tabs_order.conf" dut.vcpus)" = 4 ]'
check "get keeps inner blanks" \
	eval '[ "$("$FWDSTAT" topology get "$cases/good/host.conf" vfwd.eal_args)" = "--no-huge -m 512" ]'
check "get prints the default of an unset key" \
	eval '[ "$("$FWDSTAT" topology get "$b2b" dut.ssh_proxy none)" = none ]'
check "get of an unset key without default exits 1 silently" \
	eval '! "$FWDSTAT" topology get "$b2b" dut.ssh_proxy >"$tmp/out" 2>&1 && [ ! -s "$tmp/out" ]'
check "get of a missing file names it" \
	eval '! "$FWDSTAT" topology get "$tmp/nope" nodes 2>"$tmp/err" && grep -q "$tmp/nope: cannot read" "$tmp/err"'

# dump: KEY=VALUE per setting, or JSON; only of a valid file.
check "dump prints one KEY=VALUE line per setting" \
	eval '[ "$("$FWDSTAT" topology dump "$b2b" | grep -c =)" -eq "$(grep -c "^[a-z].* = " "$b2b")" ]'
check "dump --json is JSON with the settings" \
	eval '"$FWDSTAT" topology dump --json "$b2b" | jq -e ".kind == \"vm\" and .settings.nodes == \"tg dut\"" >/dev/null'
check "dump of a bad file exits 1" eval '! "$FWDSTAT" topology dump "$cases/bad/vm_crlf.conf" >/dev/null 2>&1'

usage_error() { local rc=0; "$@" >/dev/null 2>&1 || rc=$?; [ "$rc" -eq 2 ]; }
check "topology without a verb is a usage error" usage_error "$FWDSTAT" topology
check "check without a file is a usage error" usage_error "$FWDSTAT" topology check
check "unknown --kind is a usage error" usage_error "$FWDSTAT" topology check --kind xen "$b2b"
check "get without a key is a usage error" usage_error "$FWDSTAT" topology get "$b2b"

# fwdtopo, the reader's own binary (what fwdlab calls), answers as `fwdstat topology` does:
# the same output, messages and exit status on every good and bad file of the corpus.
fwdtopo=${FWDTOPO:-$(dirname "$FWDSTAT")/fwdtopo}
same_as_fwdstat() { # ARGS...: fwdtopo ARGS and fwdstat topology ARGS agree
	local a b ra=0 rb=0
	a=$("$fwdtopo" "$@" 2>&1) || ra=$?
	b=$("$FWDSTAT" topology "$@" 2>&1) || rb=$?
	[ "$a" = "$b" ] && [ "$ra" = "$rb" ]
}
if [ -x "$fwdtopo" ]; then
	disagree=""
	for f in "$cases"/*/*.conf "$b2b"; do
		for v in "check" "check --kind host" "check --kind vm" "dump" "dump --json"; do
			# shellcheck disable=SC2086 # v is words
			same_as_fwdstat $v "$f" || disagree+=" $v $(basename "$f");"
		done
		same_as_fwdstat get "$f" nodes none || disagree+=" get $(basename "$f");"
	done
	check "fwdtopo check/dump/get agree with fwdstat topology on every corpus file${disagree:+ (not:$disagree)}" \
		[ -z "$disagree" ]
	check "fwdtopo: a bad --kind and a missing file are usage errors (exit 2)" \
		eval 'usage_error "$fwdtopo" check --kind xen "$b2b" && usage_error "$fwdtopo" dump'
	check "fwdtopo's usage names fwdtopo" \
		eval '{ "$fwdtopo" 2>&1 || true; } | grep -q "^usage: fwdtopo check"'
else
	check "fwdtopo is built beside fwdstat ($fwdtopo)" false
fi
tap_done
