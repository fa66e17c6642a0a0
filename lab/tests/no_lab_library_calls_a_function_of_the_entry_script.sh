#!/usr/bin/env bash
# shellcheck disable=SC2016 # the planted library holds a literal $(...)
# No lab library (lab/lib, lab/verbs, topologies) calls a function that lab/fwdlab defines:
# the entry script only dispatches. The checker is first shown to catch a planted call.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# entry_functions FILE: the names of the functions FILE defines, one a line.
entry_functions() {
	sed -nE 's/^[[:space:]]*(function[[:space:]]+)?([A-Za-z_][A-Za-z0-9_-]*)[[:space:]]*\(\)[[:space:]]*\{?.*$/\2/p' "$1"
}

# callers ENTRY FILE...: "FILE:LINE: NAME" for each line of FILE... that uses a function of
# ENTRY as a command word (comments left out); nothing when none does.
callers() {
	local entry=$1 f
	shift
	entry_functions "$entry" | while read -r fn; do
		for f in "$@"; do
			sed -E 's/(^|[[:space:]])#.*$//' "$f" |
				grep -nE "(^|[[:space:];&|({\`]|\\\$\()$fn([[:space:];&|)]|$)" |
				sed "s|^|$f:|; s|\$| ($fn)|" || true
		done
	done
}

# The checker catches a planted call (so that its silence below means something).
printf 'main() { :; }\nhelper_of_main() { :; }\nmain\n' >"$tmp/entry"
printf 'lib_fn() {\n\tx=$(helper_of_main)\n}\n' >"$tmp/lib.sh"
printf 'ok() { echo "helper_of_main is a word in a string"; } # helper_of_main\n' >"$tmp/clean.sh"
check "checker_finds_a_planted_call" grep -q "lib.sh:2:.*(helper_of_main)" <<<"$(callers "$tmp/entry" "$tmp/lib.sh")"
check "checker_passes_a_clean_file" test -z "$(callers "$tmp/entry" "$tmp/clean.sh")"

cd "$top"
mapfile -t libs < <(find lab/lib lab/verbs topologies -type f \( -name '*.sh' -o -perm -u+x \) \
	! -name '*.py' ! -name '*.conf' | sort)
found=$(callers lab/fwdlab "${libs[@]}")
[ -z "$found" ] || printf '# %s\n' "$found"
check "no_library_calls_the_entry_script (${#libs[@]} files, $(entry_functions lab/fwdlab | wc -l) functions in lab/fwdlab)" test -z "$found"
check "entry_script_is_under_150_lines" test "$(wc -l <lab/fwdlab)" -lt 150

# every verb the dispatcher accepts is in `fwdlab help`, at the start of a line
help=$(lab/fwdlab help)
verbs=$(awk '/^case "\$VERB" in/ { on = 1; next } on && /^esac/ { exit } on' lab/fwdlab |
	grep -oE '^[a-z| -]+\)' | tr -d ')' | tr '|' '\n' | tr -d ' \t' | sed '/^$/d' | sort -u)
[ -n "$verbs" ] || { echo "# no verbs read from lab/fwdlab"; exit 1; }
missing=""
for v in $verbs; do
	grep -qE "^  ($v|[a-z|-]*\|$v)([ |]|$)" <<<"$help" || missing+=" $v"
done
[ -z "$missing" ] || echo "# missing from fwdlab help:$missing"
check "help_lists_every_verb ($(wc -w <<<"$verbs") verbs)" test -z "$missing"
echo "1..$n"
