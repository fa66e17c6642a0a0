#!/usr/bin/env bash
# Writes OUT/build-info.json: what was built, how, and the sha256 of each artifact.
#   build-info.sh OUT VARIANT LABEL CC CFLAGS LDFLAGS DPDK_VERSION
set -euo pipefail
out=$1 variant=$2 label=$3 cc=$4 cflags=$5 ldflags=$6 dpdk=$7
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

json_str() { # escape for JSON
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}

rev=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git -C "$here" status --porcelain -- . 2>/dev/null)" ]; then
	rev="$rev-dirty"
fi
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	built=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
else
	built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
compiler=$("$cc" --version | head -n1)

artifacts=""
while IFS= read -r f; do
	rel=${f#"$out"/}
	sum=$(sha256sum "$f" | cut -d' ' -f1)
	artifacts+="${artifacts:+,
    }$(json_str "$rel"): \"$sum\""
done < <(find "$out/bin" "$out/lib" "$out/plugins" -type f | LC_ALL=C sort)

tmp=$(mktemp "$out/.build-info.XXXXXX")
cat >"$tmp" <<JSON
{
  "name": "vfwd",
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
