#!/usr/bin/env bash
# Writes OUT/build-info.json for a build of NAME (vfwd, tgen): what was built, how, from which
# git revision of SRC (the component's folder; "-dirty" when it has changes), and the sha256
# of each file under OUT/bin, OUT/lib and OUT/plugins (HACKING.md).
#   build-info.sh NAME SRC OUT VARIANT LABEL CC CFLAGS LDFLAGS DPDK_VERSION
set -euo pipefail
name=$1 src=$2 out=$3 variant=$4 label=$5 cc=$6 cflags=$7 ldflags=$8 dpdk=$9

json_str() { # escape for JSON
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}

rev=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git -C "$src" status --porcelain -- . 2>/dev/null)" ]; then
	rev="$rev-dirty"
fi
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	built=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
else
	built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
compiler=$("$cc" --version | head -n1)

dirs=()
for d in bin lib plugins; do
	if [ -d "$out/$d" ]; then dirs+=("$out/$d"); fi
done
artifacts=""
while IFS= read -r f; do
	rel=${f#"$out"/}
	sum=$(sha256sum "$f" | cut -d' ' -f1)
	artifacts+="${artifacts:+,
    }$(json_str "$rel"): \"$sum\""
done < <(find "${dirs[@]}" -type f | LC_ALL=C sort)

tmp=$(mktemp "$out/.build-info.XXXXXX")
cat >"$tmp" <<JSON
{
  "name": $(json_str "$name"),
  "version": "0.1.0",
  "label": $(json_str "$label"),
  "variant": $(json_str "$variant"),
  "git_rev": $(json_str "$rev"),
  "compiler": $(json_str "$compiler"),
  "cflags": $(json_str "$cflags"),
  "ldflags": $(json_str "$ldflags"),
  "dpdk_version": $(json_str "$dpdk"),
  "built_at": "$built",
  "artifacts": {
    $artifacts
  }
}
JSON
chmod 644 "$tmp"
mv "$tmp" "$out/build-info.json"
