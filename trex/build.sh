#!/bin/bash
# trex/build.sh: a runnable TRex tree from TREX_TARBALL, in fwdlab's build cache
# (scripts/cache: ${FWDLAB_CACHE:-/var/cache/fwdlab}/trex/<key>/), keyed by the tarball's
# sha256, this script's sha256 and the versions of the Debian packages it builds with.
#
#   trex/build.sh            build (or reuse a checked entry) and print its folder
#   trex/build.sh --print    print the folder of a checked entry, or fail saying what to run
#   TREX_TARBALL=PATH        default ../shared/trex/trex-core-v3.08.tar.xz beside the clone
#   TREX_JOBS                default 2 (the build runs under nice -n 19)
#
# PATH is either a trex-core source tarball (built here with the three -Wno-error flags gcc
# 12 needs) or an upstream release tarball (v3.08.tar.gz), which ships scripts/_t-rex-64
# ready to run. The entry keeps only what runs: scripts/ (the t-rex-64 wrapper, so/
# libraries, the Python client, stl/ profiles) with the stripped binary, and BUILD-INFO.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=$repo/scripts/cache
default_tarball=$repo/../shared/trex/trex-core-v3.08.tar.xz
# What the build compiles and links with: part of the key.
build_pkgs=(gcc-12 g++-12 binutils libc6-dev python3 zlib1g-dev libmnl-dev make)

die() { echo "trex/build.sh: $*" >&2; exit 1; }
say() { echo "trex/build.sh: $*" >&2; }

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

print_only=0
[ "${1:-}" != --print ] || print_only=1
tarball=${TREX_TARBALL:-}
if [ -z "$tarball" ] && [ -f "$default_tarball" ]; then tarball=$default_tarball; fi
[ -n "$tarball" ] || fetch_hint
[ -f "$tarball" ] || die "TREX_TARBALL=$tarball: no such file"
if [ "$print_only" = 0 ]; then
	# The packages it builds with are installed first, so the key names what is used.
	"$repo/scripts/install-deps" trex >&2 || die "installing TRex's build packages failed"
fi

inputs=$(mktemp)
trap 'rm -f "$inputs"' EXIT
sha=$(sha256sum "$tarball" | cut -d' ' -f1)
{
	echo "name trex $(basename "$tarball")"
	echo "tarball $sha"
	"$cache" files "$here/build.sh"
	"$cache" pkgs "${build_pkgs[@]}"
} >"$inputs"
key=$("$cache" key "$inputs")

if dest=$("$cache" lookup trex "$key" 2>"$inputs.why"); then
	echo "$dest"
	exit 0
fi
why=$(cat "$inputs.why")
rm -f "$inputs.why"
if [ "$print_only" = 1 ]; then
	die "TRex is not built for $tarball (${why#cache: }): run trex/build.sh (make -C trex build; ~13 min on 2 cores)"
fi
say "${why#cache: }: building it"

# build TARBALL WORK: unpacks and builds into WORK/entry (what the cache keeps).
build() {
	local work=$2 top scripts bin ver log=$2/build.log
	say "unpacking $1 (sha256 ${sha:0:16})"
	mkdir -p "$work/src" "$work/entry"
	tar -xf "$1" -C "$work/src"
	top=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d | head -1)
	[ -n "$top" ] || die "$1: empty archive"
	if [ -x "$top/_t-rex-64" ] && [ -f "$top/t-rex-64" ]; then
		scripts=$top # a release tarball: scripts/ is its top folder
	elif [ -d "$top/linux_dpdk" ] && [ -d "$top/scripts" ]; then
		say "building _t-rex-64 with -j${TREX_JOBS:-2} (~13 min on 2 idle cores; progress every minute)"
		(
			cd "$top/linux_dpdk"
			export CXXFLAGS="-Wno-error=maybe-uninitialized -Wno-error=uninitialized -Wno-error=dangling-pointer"
			nice -n 19 ./b configure
			nice -n 19 ./b build --targets=_t-rex-64 -j"${TREX_JOBS:-2}"
		) >"$log" 2>&1 &
		progress $! "$log" || { tail -n 30 "$log" >&2; die "the TRex build failed (last lines above)"; }
		bin=$top/linux_dpdk/build_dpdk/linux_dpdk/_t-rex-64
		[ -f "$bin" ] || die "the build finished without $bin"
		rm -f "$top/scripts/_t-rex-64"
		cp "$bin" "$top/scripts/_t-rex-64"
		# The build links its libraries into scripts/ (so/x86_64/libbpf-64.so -> the build
		# tree): copy them in, since the build tree is not kept.
		while read -r l; do
			t=$(readlink -f "$l" || true)
			if [ -f "$t" ] && [[ $t != "$top/scripts/"* ]]; then cp --remove-destination "$t" "$l"; fi
		done < <(find "$top/scripts" -type l)
		scripts=$top/scripts
	else
		die "$1: neither a trex-core source tree (linux_dpdk/, scripts/) nor a release tree (_t-rex-64, t-rex-64)"
	fi
	strip --strip-debug "$scripts/_t-rex-64" 2>/dev/null || true
	cp -a "$scripts" "$work/entry/scripts"
	find "$work/entry/scripts" -xtype l -delete 2>/dev/null || true
	ver=$(head -n1 "$top/VERSION" 2>/dev/null | tr -d "[:space:]" || true)
	# a release tarball's top folder is its version (v3.08/)
	if [ -z "$ver" ] && [[ $(basename "$top") =~ ^v[0-9] ]]; then ver=$(basename "$top"); fi
	{
		echo "tarball=$(basename "$1")"
		echo "sha256=$sha"
		echo "version=${ver:-unknown}"
		echo "key=$key"
		echo "built=$(date -u +%FT%TZ)"
	} >"$work/entry/BUILD-INFO"
}

# progress PID LOG: a line a minute while PID runs (the last ninja step it logged); its status.
progress() {
	local pid=$1 log=$2 t0 n=0
	t0=$(date +%s)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		n=$((n + 1))
		if [ $((n % 60)) -eq 0 ]; then
			say "building: $(($(date +%s) - t0)) s, $(grep -oE '^\[ *[0-9]+/[0-9]+\]' "$log" | tail -n 1 || echo '...')"
		fi
	done
	wait "$pid"
}

# One build of a key at a time; another build may have stored it while this one waited.
exec 9>"$("$cache" lockfile trex "$key")"
flock -n 9 || { say "waiting for another build of the same TRex (key ${key:0:16})"; flock 9; }
if dest=$("$cache" lookup trex "$key" 2>/dev/null); then
	echo "$dest"
	exit 0
fi
work=$("$cache" scratch trex)
trap 'rm -rf "$work" "$inputs"' EXIT
build "$tarball" "$work"
[ ! -f "$work/build.log" ] || cp "$work/build.log" "$work/entry/build.log"
dest=$("$cache" store trex "$key" "$work/entry" "$inputs")
say "TRex built into $dest"
echo "$dest"
