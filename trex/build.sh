#!/bin/bash
# trex/build.sh: make a runnable TRex tree from TREX_TARBALL, cached by the
# tarball's sha256 under ${FWDLAB_CACHE:-/var/cache/fwdlab}/trex/<sha256>/.
#
#   TREX_TARBALL=PATH trex/build.sh      # build (or reuse) and print the cache dir
#   trex/build.sh --print                # print the cache dir if built, else fail
#
# PATH is either a trex-core source tarball (built here with the three
# -Wno-error flags gcc 12 needs) or an upstream release tarball (v3.08.tar.gz),
# which ships scripts/_t-rex-64 ready to run.  The cache keeps only what runs:
# scripts/ (the t-rex-64 wrapper, so/ libraries, the Python client, stl/
# profiles) and the stripped binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache_root=${FWDLAB_CACHE:-/var/cache/fwdlab}/trex
default_tarball=$repo/../shared/trex/trex-core-v3.08.tar.xz

die() { echo "trex/build.sh: $*" >&2; exit 1; }

fetch_hint() {
	cat >&2 <<'MSG'
trex/build.sh: no TRex tarball.  Set TREX_TARBALL to one of:
  - the trex-core source archive, e.g.
      https://github.com/cisco-system-traffic-generator/trex-core/archive/refs/tags/v3.08.tar.gz
    (built here, ~13 min on 2 cores; needs gcc g++ python3 zlib1g-dev binutils)
  - the upstream release tarball that ships _t-rex-64 ready, e.g.
      https://trex-tgn.cisco.com/trex/release/v3.08.tar.gz
  then: TREX_TARBALL=/path/to/that.tar.gz make -C trex build
  The sha256 of the trex-core v3.08 source tree this lab was tested with
  (../shared/trex/trex-core-v3.08.tar.xz) is
      897aa39a8d2fbab794535677f1b4d72ea8b0f7c754172f6fc49fe866a13f7563
MSG
	exit 1
}

tarball=${TREX_TARBALL:-}
if [ -z "$tarball" ] && [ -f "$default_tarball" ]; then
	tarball=$default_tarball
fi

if [ "${1:-}" = --print ]; then
	# Without hashing a tarball: the newest complete cache entry, or the one
	# for TREX_TARBALL if given.
	if [ -n "$tarball" ] && [ -f "$tarball" ]; then
		sha=$(sha256sum "$tarball" | cut -d' ' -f1)
		d=$cache_root/$sha
		[ -f "$d/.complete" ] || die "TRex not built for $tarball (sha256 $sha): run make -C trex build"
		echo "$d"; exit 0
	fi
	# shellcheck disable=SC2012 # cache folders are sha256 names
	d=$(ls -1dt "$cache_root"/*/.complete 2>/dev/null | head -1 || true)
	[ -n "$d" ] || die "no TRex build under $cache_root: run make -C trex build"
	dirname "$d"; exit 0
fi

[ -n "$tarball" ] || fetch_hint
[ -f "$tarball" ] || die "TREX_TARBALL=$tarball: no such file"
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
dest=$cache_root/$sha
if [ -f "$dest/.complete" ]; then
	echo "$dest"; exit 0
fi

mkdir -p "$cache_root"
work=$(mktemp -d "$cache_root/.build-XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$cache_root/$sha.build.log
echo "trex/build.sh: unpacking $tarball (sha256 $sha)" >&2
tar -xf "$tarball" -C "$work"
top=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -n "$top" ] || die "$tarball: empty archive"

if [ -x "$top/_t-rex-64" ] && [ -f "$top/t-rex-64" ]; then
	# Release tarball: scripts/ is its top folder.
	scripts=$top
elif [ -d "$top/linux_dpdk" ] && [ -d "$top/scripts" ]; then
	echo "trex/build.sh: building _t-rex-64 (log $log; ~13 min on 2 idle cores)" >&2
	(
		cd "$top/linux_dpdk"
		export CXXFLAGS="-Wno-error=maybe-uninitialized -Wno-error=uninitialized -Wno-error=dangling-pointer"
		nice -n 19 ./b configure
		nice -n 19 ./b build --targets=_t-rex-64 -j"${TREX_JOBS:-2}"
	) >"$log" 2>&1 || die "build failed; see $log"
	bin=$top/linux_dpdk/build_dpdk/linux_dpdk/_t-rex-64
	[ -f "$bin" ] || die "build finished without $bin; see $log"
	rm -f "$top/scripts/_t-rex-64"
	cp "$bin" "$top/scripts/_t-rex-64"
	scripts=$top/scripts
else
	die "$tarball: neither a trex-core source tree (linux_dpdk/, scripts/) nor a release tree (_t-rex-64, t-rex-64)"
fi

strip --strip-debug "$scripts/_t-rex-64" 2>/dev/null || true
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
# Keep what runs: the scripts folder minus build-only and non-x86 payloads.
cp -a "$scripts" "$dest.tmp/scripts"
find "$dest.tmp/scripts" -xtype l -delete 2>/dev/null || true
ver=$(head -n1 "$top/VERSION" 2>/dev/null | tr -d "[:space:]" || true)
# a release tarball's top folder is its version (v3.08/)
if [ -z "$ver" ] && [[ $(basename "$top") =~ ^v[0-9] ]]; then ver=$(basename "$top"); fi
{
	echo "tarball=$(basename "$tarball")"
	echo "sha256=$sha"
	echo "version=${ver:-unknown}"
	echo "built=$(date -u +%FT%TZ)"
} >"$dest.tmp/BUILD-INFO"
touch "$dest.tmp/.complete"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest"
