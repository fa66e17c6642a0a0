#!/usr/bin/env bash
# The package lock and the .deb cache, on a local apt repository the test makes (its
# .debs built with dpkg-deb, indexed with dpkg-scanpackages) that moves on the way the
# Debian archive does: a security update of a library appears, then a point release
# drops the old version. A tiny root filesystem (mmdebstrap --variant=extract from the
# local repository of the locked .debs, as build-image does) stands in for an image, so
# the test takes seconds, not two image builds. TAP output.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
images=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fwdlab-locktest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000 MIRROR=$tmp/archive.sources DEB_CACHE=$tmp/cache/debs
export LOCK_FILE=$tmp/test.lock LOCK_REQUEST=$tmp/request
n=0
tap() { # ok|fail NAME [why]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2${3:+ # $3}"; fi
}
for tool in mmdebstrap dpkg-deb dpkg-scanpackages; do
	command -v "$tool" >/dev/null || { echo "1..0 # SKIP $tool missing (scripts/install-deps images)"; exit 0; }
done
[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP mmdebstrap --mode=root needs root"; exit 0; }

mkdeb() { # NAME VERSION [CONTROL-LINE...]: $tmp/debs/NAME_VERSION_all.deb
	local name=$1 ver=$2 d=$tmp/src/$1-$2
	shift 2
	mkdir -p "$d/DEBIAN" "$d/usr/share/fwdlab-test"
	{
		printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: fwdlab <fwdlab@localhost>\n' "$name" "$ver"
		[ $# -eq 0 ] || printf '%s\n' "$@"
		printf 'Description: fwdlab lock test package %s\n' "$name"
	} >"$d/DEBIAN/control"
	echo "$name $ver" >"$d/usr/share/fwdlab-test/$name"
	mkdir -p "$tmp/debs"
	dpkg-deb --root-owner-group -Zgzip --build "$d" "$tmp/debs/${name}_${ver}_all.deb" >/dev/null
}
publish() { # SUITE DEB...: the suite of the archive serves exactly these .debs
	local suite=$1 dir=$tmp/archive/dists/$1 p
	shift
	rm -rf "$tmp/archive/pool/$suite"
	mkdir -p "$tmp/archive/pool/$suite" "$dir/main/binary-amd64"
	[ $# -eq 0 ] || cp "$@" "$tmp/archive/pool/$suite/"
	(cd "$tmp/archive" && dpkg-scanpackages -m "pool/$suite" 2>/dev/null) >"$dir/main/binary-amd64/Packages"
	p=$dir/main/binary-amd64/Packages
	printf 'Origin: fwdlab-test\nSuite: %s\nCodename: %s\nArchitectures: amd64\nComponents: main\nDate: %s\nSHA256:\n %s %s main/binary-amd64/Packages\n' \
		"$suite" "$suite" "$(LC_ALL=C date -u -R)" "$(sha256sum <"$p" | cut -d' ' -f1)" "$(stat -c %s "$p")" \
		>"$dir/Release"
}
rootfs() { # OUT.tar: the tiny image of $LOCK_FILE, the way build-image installs a lock
	(
		export LOCK_WHO="images: test"
		# shellcheck source=/dev/null
		. "$images/lib/lock.sh"
		lock_fetch "$LOCK_FILE" && lock_repo "$LOCK_FILE" "$tmp/repo" &&
			mmdebstrap --mode=root --variant=extract --format=tar --quiet \
				--include=fwdlab-base,fwdlab-hello bookworm "$1" \
				"deb [trusted=yes] copy://$tmp/repo ./"
	)
}
sum() { sha256sum <"$1" | cut -d' ' -f1; }
lib_in() { tar -xOf "$1" ./usr/share/fwdlab-test/fwdlab-lib; } # the library version in a rootfs
lock_of() { awk -v p="$1" '$1 == p { print $2 " " $5 }' "$LOCK_FILE"; }

# The archive on day 1: an essential package, a program and its library 1.0.
mkdeb fwdlab-base 1 'Essential: yes'
mkdeb fwdlab-lib 1.0
mkdeb fwdlab-lib 1.1
mkdeb fwdlab-hello 1.0 'Depends: fwdlab-lib (>= 1.0)'
publish bookworm "$tmp"/debs/fwdlab-{base_1,lib_1.0,hello_1.0}_all.deb
publish bookworm-security
printf 'Types: deb\nURIs: file:%s\nSuites: bookworm bookworm-security\nComponents: main\nTrusted: yes\n' \
	"$tmp/archive" >"$MIRROR"
echo fwdlab-hello >"$LOCK_REQUEST"

# 1. The lock names every package (the essential set too) with the sha256 of its .deb.
name=images_lock_pins_every_package_version_and_sha256
if "$images/lock-image" test >"$tmp/lock.log" 2>&1 &&
	[ "$(lock_of fwdlab-lib)" = "1.0 $(sum "$tmp/debs/fwdlab-lib_1.0_all.deb")" ] &&
	[ "$(lock_of fwdlab-base)" = "1 $(sum "$tmp/debs/fwdlab-base_1_all.deb")" ] &&
	[ "$(lock_of fwdlab-hello)" = "1.0 $(sum "$tmp/debs/fwdlab-hello_1.0_all.deb")" ] &&
	[ "$(grep -vc '^#' "$LOCK_FILE")" = 3 ]; then
	tap ok "$name"
else
	tap fail "$name" "$(tr '\n' ';' <"$tmp/lock.log") lock: $(grep -v '^#' "$LOCK_FILE" 2>/dev/null | tr '\n' ';')"
fi
cp "$LOCK_FILE" "$tmp/day1.lock"

# 2. Build on day 1 (cold cache), then the archive moves on (a security update of the
# library); the same lock rebuilds byte for byte, from the cache and from an empty one.
name=locked_rebuild_is_byte_identical_after_the_archive_moves_on
rootfs "$tmp/a.tar" >"$tmp/a.log" 2>&1 || true
publish bookworm-security "$tmp/debs/fwdlab-lib_1.1_all.deb"
rootfs "$tmp/b.tar" >"$tmp/b.log" 2>&1 || true
rm -rf "$DEB_CACHE"
rootfs "$tmp/c.tar" >"$tmp/c.log" 2>&1 || true
if [ -s "$tmp/a.tar" ] && [ -s "$tmp/b.tar" ] && [ -s "$tmp/c.tar" ] &&
	[ "$(sum "$tmp/a.tar")" = "$(sum "$tmp/b.tar")" ] && [ "$(sum "$tmp/a.tar")" = "$(sum "$tmp/c.tar")" ] &&
	[ "$(lib_in "$tmp/a.tar")" = "fwdlab-lib 1.0" ] && grep -q 'fetching 3$' "$tmp/a.log" &&
	grep -q '3 of 3 locked packages present$' "$tmp/b.log"; then
	tap ok "$name (sha256 $(sum "$tmp/a.tar" | cut -c1-16) three times; warm cache fetched nothing)"
else
	tap fail "$name" "$(cat "$tmp"/[abc].log | tr '\n' ';'); sums: $(for t in a b c; do [ -s "$tmp/$t.tar" ] && sum "$tmp/$t.tar" | cut -c1-12; done | tr '\n' ' ')"
fi

# 3. `make images-lock` keeps the locked versions the archive still serves.
name=images_lock_keeps_locked_versions_when_newer_ones_appear
if "$images/lock-image" test >"$tmp/keep.log" 2>&1 && cmp -s "$LOCK_FILE" "$tmp/day1.lock" &&
	grep -q 'unchanged' "$tmp/keep.log"; then
	tap ok "$name"
else
	tap fail "$name" "$(tr '\n' ';' <"$tmp/keep.log")"
fi

# 4. `make images-update` takes the update on purpose and says so, old -> new, marked.
name=images_update_reports_old_to_new_with_security_marked
if "$images/lock-image" --update test >"$tmp/update.log" 2>&1 &&
	grep -Eq '^  fwdlab-lib +1\.0 -> 1\.1  \[security\]$' "$tmp/update.log" &&
	grep -q '1 changed (1 security), 0 added, 0 removed' "$tmp/update.log" &&
	[ "$(lock_of fwdlab-lib)" = "1.1 $(sum "$tmp/debs/fwdlab-lib_1.1_all.deb")" ] &&
	rootfs "$tmp/d.tar" >"$tmp/d.log" 2>&1 && [ "$(lib_in "$tmp/d.tar")" = "fwdlab-lib 1.1" ]; then
	tap ok "$name ($(grep -- '->' "$tmp/update.log" | sed 's/  */ /g;s/^ //'))"
else
	tap fail "$name" "$(tr '\n' ';' <"$tmp/update.log") $(tr '\n' ';' <"$tmp/d.log" 2>/dev/null)"
fi

# 5. A point release drops 1.0: the day-1 lock with an empty cache stops with which
# package, which version and where to put the .deb, and takes no other version; with
# the .deb put there (under any name) it builds the day-1 bytes again.
name=missing_locked_version_fails_naming_package_version_and_cache
cp "$tmp/day1.lock" "$LOCK_FILE"
publish bookworm "$tmp"/debs/fwdlab-{base_1,hello_1.0}_all.deb
rm -rf "$DEB_CACHE"
if rootfs "$tmp/e.tar" >"$tmp/e.log" 2>&1; then
	tap fail "$name" "the build succeeded without fwdlab-lib 1.0"
elif grep -q "fwdlab-lib 1.0 (all, sha256 $(sum "$tmp/debs/fwdlab-lib_1.0_all.deb"))" "$tmp/e.log" &&
	grep -q "put it into $DEB_CACHE/" "$tmp/e.log" &&
	! grep -rqs 'fwdlab-lib 1.1' "$DEB_CACHE" && [ ! -s "$tmp/e.tar" ]; then
	cp "$tmp/debs/fwdlab-lib_1.0_all.deb" "$DEB_CACHE/from-another-machine.deb"
	if rootfs "$tmp/f.tar" >"$tmp/f.log" 2>&1 && [ "$(sum "$tmp/f.tar")" = "$(sum "$tmp/a.tar")" ]; then
		tap ok "$name ($(grep -m1 'fwdlab-lib 1.0' "$tmp/e.log" | sed 's/^ *//' | cut -c1-40)...)"
	else
		tap fail "$name" "with the .deb in the cache: $(tr '\n' ';' <"$tmp/f.log")"
	fi
else
	tap fail "$name" "message: $(tr '\n' ';' <"$tmp/e.log")"
fi

# 6. A lock resolved for another package list is refused before anything is built.
name=lock_for_another_package_list_is_refused
printf 'fwdlab-hello\nfwdlab-extra\n' >"$tmp/request2"
# shellcheck disable=SC2016 # expanded by the inner shell
if LOCK_WHO="images: test" bash -c '. "$1/lib/lock.sh" && lock_check "$2" "$3"' _ "$images" "$LOCK_FILE" \
	"$tmp/request2" >"$tmp/stale.log" 2>&1; then
	tap fail "$name" "accepted"
elif grep -q 'now requested: fwdlab-extra' "$tmp/stale.log" && grep -q "make images-lock" "$tmp/stale.log"; then
	tap ok "$name"
else
	tap fail "$name" "$(tr '\n' ';' <"$tmp/stale.log")"
fi
echo "1..$n"
