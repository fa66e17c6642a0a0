#!/usr/bin/env bash
# scripts/cache, the build cache every long build uses, on a cache folder of its own:
#   store, lookup        -> an entry whose key is the sha256 of its INPUTS is found again, its
#                           files whole; a key that is not its inputs' sha256 is refused
#   a file changed       -> lookup finds it corrupt, says so and removes the entry (the caller
#                           rebuilds); the quick check (size, mtime) catches a changed size,
#                           the full check (verify) a changed byte of the same size and mtime
#   partial              -> a folder without MANIFEST (a build that died) is removed by lookup
#   verify               -> hashes every entry: a corrupt one is named (BAD ...), removed, exit 1;
#                           debs/ (each .deb checked against its name by its reader) is left alone
#   list, clean          -> list names each kind, clean empties the kinds asked for
# shellcheck disable=SC2016,SC2034 # checks are eval'd by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export FWDLAB_CACHE=$tmp/cache
cache() { "$top/scripts/cache" "$@"; }

# entry NAME: a build's output (two files, a link) and its inputs; prints the key
entry() {
	local w
	printf 'name test %s\nfile build.sh %s\n' "$1" "$(printf %s "$1" | sha256sum | cut -d' ' -f1)" >"$tmp/$1.inputs"
	w=$(cache scratch test)
	mkdir -p "$w/bin"
	printf 'binary of %s\n' "$1" >"$w/bin/prog"
	# text only, so the \001 written below always changes a byte (random data held it 1 in 256)
	yes "data of $1" | head -c 4096 >"$w/data" || true
	ln -s bin/prog "$w/prog"
	cache store test "$(cache key "$tmp/$1.inputs")" "$w" "$tmp/$1.inputs" >/dev/null
	cache key "$tmp/$1.inputs"
}

ka=$(entry a)
kb=$(entry b)
kc=$(entry c)
da=$(cache lookup test "$ka")
check "a stored entry is found by its key, its files and link whole" eval '
	[ "$da" = "$FWDLAB_CACHE/test/$ka" ] && grep -qx "binary of a" "$da/bin/prog" &&
	[ "$(readlink "$da/prog")" = bin/prog ] && [ -f "$da/MANIFEST" ] && [ -f "$da/INPUTS" ]'
w=$(cache scratch test)
check "a key that is not the sha256 of its inputs is refused" \
	eval '! cache store test "$kb" "$w" "$tmp/a.inputs" 2>/dev/null'
rm -rf "$w"

# a changed size: the quick check of lookup sees it
echo extra >>"$FWDLAB_CACHE/test/$ka/bin/prog"
out=$(cache lookup test "$ka" 2>&1) && rc=0 || rc=$?
check "a grown file: lookup fails, says corrupt and removed" eval '
	[ "$rc" -ne 0 ] && [[ $out == *"corrupt"*"removed"* ]] && [ ! -e "$FWDLAB_CACHE/test/$ka" ]'

# a changed byte, same size and mtime: only the full check (verify) sees it
f=$FWDLAB_CACHE/test/$kb/data
m=$(stat -c %y "$f")
printf '\001' | dd of="$f" bs=1 seek=100 conv=notrunc status=none
touch -d "$m" "$f"
check "a flipped byte of the same size and mtime is left to the full check (lookup's quick one passes it)" \
	eval 'cache lookup test "$kb" >/dev/null 2>&1'
# a partial entry: a build that died before store
mkdir -p "$FWDLAB_CACHE/test/$(printf %064d 7)"
# debs/ holds .deb files, not entries
mkdir -p "$FWDLAB_CACHE/debs"
echo deb >"$FWDLAB_CACHE/debs/$(printf %064d 1).deb"
out=$(cache verify 2>&1) && rc=0 || rc=$?
check "verify names the flipped entry and the partial one BAD, removes both, exits 1" eval '
	[ "$rc" -eq 1 ] && grep -q "^BAD .*test/$kb: corrupt" <<<"$out" &&
	grep -q "^BAD .*partial" <<<"$out" && [ ! -e "$FWDLAB_CACHE/test/$kb" ] &&
	[ ! -e "$FWDLAB_CACHE/test/$(printf %064d 7)" ]'
check "verify keeps the whole entry (ok) and leaves debs/ alone" eval '
	grep -q "^ok .*test/$kc" <<<"$out" && [ -n "$(ls "$FWDLAB_CACHE/debs")" ]'
out=$(cache list 2>&1)
check "list names the entry and debs" eval '
	grep -q "^test .*${kc:0:16}.*ok" <<<"$out" && grep -q "^debs " <<<"$out"'
cache clean debs 2>/dev/null
check "clean KIND empties that kind only" eval '
	[ ! -e "$FWDLAB_CACHE/debs" ] && cache lookup test "$kc" >/dev/null 2>&1'
tap_done
