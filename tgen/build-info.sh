#!/usr/bin/env bash
# Prints tgen's build-info.json (HACKING.md) for the build in OUT.
#   CC=... CFLAGS=... LDFLAGS=... LABEL=... ./build-info.sh OUT
set -euo pipefail
out=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
esc() { # JSON string body
	local s=$1
	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	printf '%s' "$s"
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
compiler=$(${CC:-cc} --version | head -n1)
sha=$(sha256sum "$out/bin/tgen" | cut -d' ' -f1)
printf '{"name": "tgen", "version": "0.1.0", "label": "%s", "variant": "default", ' \
	"$(esc "${LABEL:-}")"
printf '"git_rev": "%s", "compiler": "%s", "cflags": "%s", "ldflags": "%s", ' \
	"$rev" "$(esc "$compiler")" "$(esc "${CFLAGS:-}")" "$(esc "${LDFLAGS:-}")"
printf '"dpdk_version": "%s", "built_at": "%s", "artifacts": {"bin/tgen": "%s"}}\n' \
	"$(pkg-config --modversion libdpdk)" "$built" "$sha"
