# shellcheck shell=bash
# The package lock of an image and its .deb cache (sourced by build-image, lock-image
# and the tests; README.md "Package lock").
#
# A lock (images/ROLE/packages.lock) names every package of the image, one a line:
#   PACKAGE VERSION ARCHITECTURE SIZE SHA256 POOL-PATH
# after a header of '#' lines; '# request: ...' is the package list it was resolved for.
# The .deb cache ($DEB_CACHE, default ${FWDLAB_CACHE:-/var/cache/fwdlab}/debs) holds
# one file per .deb, named SHA256.deb (and its control fields, SHA256.control); any
# other *.deb put there is hashed and renamed.
#
# Callers set LOCK_WHO (the prefix of messages, "images: dut") and may set MIRROR.
# Functions return non-zero after printing an error; they never exit the caller.

LOCK_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEB_CACHE=${DEB_CACHE:-${FWDLAB_CACHE:-/var/cache/fwdlab}/debs}
LOCK_ARCH=${LOCK_ARCH:-amd64}

lock_err() { echo "${LOCK_WHO:-images}: error: $*" >&2; }
lock_say() { echo "${LOCK_WHO:-images}: $*"; }

# lock_sources: the apt sources (deb822) to resolve against and fetch from: MIRROR (a
# .list/.sources file as it is, or a URL for bookworm main), else the host's Debian ones.
lock_sources() {
	if [ -n "${MIRROR:-}" ] && [ -f "$MIRROR" ]; then
		cat "$MIRROR"
	elif [ -n "${MIRROR:-}" ]; then
		printf 'Types: deb\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: %s\n' \
			"$MIRROR" /usr/share/keyrings/debian-archive-keyring.gpg
	else
		"$LOCK_LIB/host-sources"
	fi
}

# lock_apt_init DIR: a private apt (own sources, lists, status, preferences; the host's
# apt.conf.d still applies, for proxies) in DIR, with fresh package lists.
lock_apt_init() {
	local d=$1 name
	mkdir -p "$d/state/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" \
		"$d/preferences.d" "$d/log"
	: >"$d/status"
	: >"$d/sources.list"
	name=$(case "${MIRROR:-}" in *.list) echo lock.list ;; *) echo lock.sources ;; esac)
	lock_sources >"$d/sources.list.d/$name" || { lock_err "no Debian apt sources on this host; give MIRROR="; return 1; }
	cat >"$d/apt.conf" <<-EOF
		Dir::State "$d/state";
		Dir::State::Lists "$d/state/lists";
		Dir::State::status "$d/status";
		Dir::Cache "$d/cache";
		Dir::Etc::SourceList "$d/sources.list";
		Dir::Etc::SourceParts "$d/sources.list.d";
		Dir::Etc::Preferences "$d/preferences";
		Dir::Etc::PreferencesParts "$d/preferences.d";
		Dir::Log "$d/log";
		Debug::NoLocking "true";
		APT::Sandbox::User "root";
		APT::Install-Recommends "false";
		APT::Architecture "$LOCK_ARCH";
		#clear APT::Architectures;
		APT::Architectures { "$LOCK_ARCH"; };
		Acquire::Languages "none";
		Acquire::GzipIndexes "false";
		Acquire::Retries "3";
	EOF
	if ! lock_apt "$d" apt-get -q update >"$d/update.log" 2>&1 || grep -q '^[EW]: ' "$d/update.log"; then
		sed 's/^/  /' "$d/update.log" >&2
		lock_err "apt-get update against $(lock_sources_label) failed (above)"
		return 1
	fi
}
lock_sources_label() { if [ -n "${MIRROR:-}" ]; then echo "MIRROR=$MIRROR"; else echo "the host's Debian sources"; fi; }

# lock_apt DIR COMMAND ARGS...: runs an apt command with the private configuration.
lock_apt() {
	local d=$1
	shift
	APT_CONFIG=$d/apt.conf "$@"
}

# lock_index DIR: what the archive serves, one line per package version and suite:
#   PACKAGE VERSION ARCHITECTURE SIZE SHA256 POOL-PATH SUITE
lock_index() {
	local d=$1 f s
	for f in "$d"/state/lists/*_Packages*; do
		[ -f "$f" ] || continue
		s=$(basename "$f")
		if [[ $s =~ _dists_([^_]+)_ ]]; then s=${BASH_REMATCH[1]}; else s=-; fi
		# apt-helper reads the list however apt stored it (plain, gz, lz4, ...).
		/usr/lib/apt/apt-helper cat-file "$f" | awk -v s="$s" '
			BEGIN { RS = ""; FS = "\n"; OFS = "\t" }
			{ p = v = a = z = h = n = ""
				for (i = 1; i <= NF; i++) {
					k = $i; sub(/:.*/, "", k); val = $i; sub(/^[^:]*: */, "", val)
					if (k == "Package") p = val; else if (k == "Version") v = val
					else if (k == "Architecture") a = val; else if (k == "Size") z = val
					else if (k == "SHA256") h = val; else if (k == "Filename") n = val
				}
				if (p != "" && h != "") print p, v, a, z, h, n, s }'
	done
}

# lock_inst: "PACKAGE VERSION" of the Inst lines of `apt-get -s` on stdin (Remv: "-PACKAGE").
lock_inst() {
	sed -n -E -e 's/^Inst ([^ ]+) (\[[^]]*\] )?\(([^ ]+) .*/\1 \3/p' -e 's/^Remv ([^ ]+).*/-\1/p'
}

# lock_resolve DIR REQUEST_FILE [OLD_LOCK]: prints the lock's package lines for the
# requested packages the way mmdebstrap --variant=apt installs them: first what
# `apt-get dist-upgrade` on an empty status installs (Essential:yes and apt), then,
# with those installed, `apt-get install REQUEST`. With OLD_LOCK its versions are
# pinned, so only what the request changed moves (versions the archive lost move too).
lock_resolve() {
	local d=$1 request=$2 old=${3:-} ess req want
	: >"$d/preferences"
	if [ -n "$old" ] && [ -f "$old" ]; then
		awk '!/^#/ && NF >= 2 { printf "Package: %s\nPin: version %s\nPin-Priority: 1001\n\n", $1, $2 }' \
			"$old" >"$d/preferences"
	fi
	: >"$d/status"
	ess=$(lock_apt "$d" apt-get -s -q dist-upgrade 2>"$d/resolve.err" | lock_inst) ||
		{ cat "$d/resolve.err" >&2; lock_err "resolving the essential set failed"; return 1; }
	[ -n "$ess" ] || { lock_err "the archive offers no essential packages (wrong MIRROR?)"; return 1; }
	# A dpkg status with the essential set installed, from the archive's own records.
	# shellcheck disable=SC2046 # one argument per PACKAGE=VERSION
	lock_apt "$d" apt-cache show $(awk '{ print $1 "=" $2 }' <<<"$ess") 2>"$d/resolve.err" | awk '
		BEGIN { RS = ""; ORS = "\n\n" }
		{ if (match($0, /(^|\n)Package: [^\n]+/)) { p = substr($0, RSTART, RLENGTH) } }
		!(p in seen) { seen[p] = 1; print $0 "\nStatus: install ok installed" }' >"$d/status.ess"
	mapfile -t want <"$request"
	if [ ${#want[@]} -gt 0 ]; then
		req=$(lock_apt "$d" apt-get -s -q -o Dir::State::status="$d/status.ess" install "${want[@]}" \
			2>"$d/resolve.err" | lock_inst) ||
			{ sed 's/^/  /' "$d/resolve.err" >&2; lock_err "resolving the requested packages failed (above)"; return 1; }
	fi
	lock_index "$d" >"$d/index"
	printf '%s\n%s\n' "$ess" "${req:-}" | awk -v idx="$d/index" '
		BEGIN { while ((getline l < idx) > 0) { split(l, f, "\t"); k = f[1] " " f[2]
			if (!(k in line)) line[k] = f[1] "\t" f[2] "\t" f[3] "\t" f[4] "\t" f[5] "\t" f[6] } }
		/^-/ { del[substr($1, 2)] = 1; next }
		NF == 2 { ver[$1] = $2 }
		END { bad = 0
			for (p in ver) { if (p in del) continue; k = p " " ver[p]
				if (!(k in line)) { print "lock: " k " is in no Packages index" > "/dev/stderr"; bad = 1; continue }
				print line[k] }
			exit bad }' | LC_ALL=C sort
}

# lock_write ROLE REQUEST_FILE BODY_FILE: the lock file (header and package lines).
lock_write() {
	local role=$1 request=$2 body=$3
	# shellcheck disable=SC2016 # backquotes are text
	printf '# fwdlab image lock: %s. Written by `make images-lock` (or `make images-update`, which\n' "$role"
	printf '# takes the archive'"'"'s newest versions); a change to it is a reviewed change.\n'
	printf '# The image installs exactly these packages; each .deb is checked against its sha256.\n'
	printf '# request: %s\n' "$(tr '\n' ' ' <"$request" | sed 's/ $//')"
	printf '# package\tversion\tarchitecture\tsize\tsha256\tpool-path\n'
	cat "$body"
}

# lock_request LOCK: the request line of a lock, one package a line.
lock_request() { sed -n 's/^# request: //p' "$1" | tr ' ' '\n' | grep -v '^$' || true; }
# lock_packages LOCK: the package lines.
lock_packages() { grep -v '^#' "$1" | grep -v '^[[:space:]]*$' || true; }

# lock_check LOCK REQUEST_FILE: the lock exists, is well formed and was resolved for
# this package list.
lock_check() {
	local lock=$1 request=$2 rel=${1#"${TOP:-/nonexistent}"/} added removed
	[ -f "$lock" ] || { lock_err "no package lock $rel; run 'make images-lock' and commit it"; return 1; }
	if ! awk 'BEGIN { bad = 0 }
		/^#/ || /^[[:space:]]*$/ { next }
		NF != 6 || length($5) != 64 || $5 !~ /^[0-9a-f]+$/ || $4 !~ /^[0-9]+$/ {
			if (++bad <= 5) printf "%s:%d: expected PACKAGE VERSION ARCH SIZE SHA256 POOL-PATH\n", FILENAME, FNR > "/dev/stderr" }
		END { exit bad > 0 }' "$lock"; then
		lock_err "malformed package lock $rel"
		return 1
	fi
	added=$(LC_ALL=C comm -13 <(lock_request "$lock" | LC_ALL=C sort) <(LC_ALL=C sort "$request") | tr '\n' ' ')
	removed=$(LC_ALL=C comm -23 <(lock_request "$lock" | LC_ALL=C sort) <(LC_ALL=C sort "$request") | tr '\n' ' ')
	if [ -n "$added$removed" ]; then
		lock_err "$rel was resolved for another package list (${added:+now requested: $added}${removed:+no longer requested: $removed}); run 'make images-lock', review and commit the lock"
		return 1
	fi
}

# lock_changes OLD NEW [INDEX]: what changed between two locks, old -> new; versions
# the archive serves from a *-security suite (INDEX from lock_index) are marked.
lock_changes() {
	local old=$1 new=$2 idx=${3:-/dev/null}
	[ -f "$old" ] || old=/dev/null
	awk -v idx="$idx" -v oldf="$old" '
		BEGIN { while ((getline l < idx) > 0) { split(l, f, "\t")
				if (f[7] ~ /-security$/) sec[f[1] " " f[2]] = 1 }
			while ((getline l < oldf) > 0) { if (l ~ /^#/ || l !~ /[^ \t]/) continue
				split(l, f, "\t"); ov[f[1]] = f[2]; os[f[1]] = f[5] } }
		/^#/ || !/[^ \t]/ { next }
		{ seen[$1] = 1
			if (!($1 in ov)) { add[++na] = sprintf("  + %-34s %s%s", $1, $2, ($1 " " $2 in sec) ? "  [security]" : ""); next }
			if (ov[$1] != $2) { up[++nu] = sprintf("  %-36s %s -> %s%s", $1, ov[$1], $2,
					($1 " " $2 in sec) ? "  [security]" : ""); if ($1 " " $2 in sec) ns++; next }
			if (os[$1] != $5) up[++nu] = sprintf("  %-36s %s: sha256 %.12s -> %.12s (same version, other bytes)", $1, $2, os[$1], $5) }
		END { for (p in ov) if (!(p in seen)) rm[++nr] = sprintf("  - %-34s %s", p, ov[p])
			printf "%d changed (%d security), %d added, %d removed\n", nu, ns, na, nr
			for (i = 1; i <= nu; i++) print up[i] | "sort"; close("sort")
			for (i = 1; i <= na; i++) print add[i] | "sort"; close("sort")
			for (i = 1; i <= nr; i++) print rm[i] | "sort"; close("sort") }' "$new"
}

# lock_adopt: renames the .deb files a user put into the cache to their sha256.
lock_adopt() {
	local f sum
	for f in "$DEB_CACHE"/*.deb; do
		[ -f "$f" ] || continue
		[[ $(basename "$f") =~ ^[0-9a-f]{64}\.deb$ ]] && continue
		sum=$(sha256sum <"$f" | cut -d' ' -f1)
		mv -f "$f" "$DEB_CACHE/$sum.deb"
	done
}

# lock_fetch LOCK: every .deb of the lock into the cache; only the missing ones are
# fetched (apt-get download from the sources, checked against the signed index and then
# against the lock). A locked version the archive no longer serves is an error that
# names it and says where to put the .deb; no other version is ever taken.
lock_fetch() {
	local d rc=0
	d=$(mktemp -d "${TMPDIR:-/tmp}/fwdlab-fetch.XXXXXX")
	lock_fetch_in "$1" "$d" || rc=$?
	rm -rf "$d"
	return "$rc"
}
lock_fetch_in() { # LOCK TMPDIR
	local lock=$1 d=$2 missing n_missing total sum got
	mkdir -p "$DEB_CACHE" || { lock_err "cannot create the .deb cache $DEB_CACHE (set DEB_CACHE=)"; return 1; }
	lock_adopt
	total=$(lock_packages "$lock" | wc -l)
	missing=$(lock_packages "$lock" | while IFS=$'\t' read -r p v a z h f; do
		[ -f "$DEB_CACHE/$h.deb" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$v" "$a" "$z" "$h" "$f"
	done)
	n_missing=$(grep -c . <<<"$missing" || true)
	lock_say ".deb cache $DEB_CACHE: $((total - n_missing)) of $total locked packages present${missing:+, fetching $n_missing}"
	[ -n "$missing" ] || return 0
	lock_apt_init "$d/apt" || return 1
	lock_index "$d/apt" | awk -F'\t' '{ print $1 "\t" $2 "\t" $5 }' | sort -u >"$d/served"
	# shellcheck disable=SC2046 # one argument per PACKAGE=VERSION
	set -- $(awk -F'\t' -v s="$d/served" 'BEGIN { while ((getline l < s) > 0) ok[l] = 1 }
		($1 "\t" $2 "\t" $5) in ok { print $1 "=" $2 }' <<<"$missing")
	mkdir -p "$d/dl"
	if [ $# -gt 0 ] && ! (cd "$d/dl" && lock_apt "$d/apt" apt-get -q download "$@" >"$d/dl.log" 2>&1); then
		sed 's/^/  /' "$d/dl.log" >&2
		lock_err "apt-get download failed (above)"
		return 1
	fi
	for got in "$d"/dl/*.deb; do
		[ -f "$got" ] || continue
		sum=$(sha256sum <"$got" | cut -d' ' -f1)
		mv -f "$got" "$DEB_CACHE/$sum.deb.tmp$$" && mv -f "$DEB_CACHE/$sum.deb.tmp$$" "$DEB_CACHE/$sum.deb"
	done
	missing=$(while IFS=$'\t' read -r p v a z h f; do
		[ -f "$DEB_CACHE/$h.deb" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$v" "$a" "$z" "$h" "$f"
	done <<<"$missing")
	[ -z "$missing" ] && return 0
	n_missing=$(grep -c . <<<"$missing")
	{
		echo "${LOCK_WHO:-images}: error: $n_missing locked package(s) in neither the .deb cache nor $(lock_sources_label) (the archive no longer serves these versions):"
		while IFS=$'\t' read -r p v a z h f; do
			printf '  %s %s (%s, sha256 %s)\n' "$p" "$v" "$a" "$h"
			printf '    get %s_%s_%s.deb (another machine'"'"'s cache, https://snapshot.debian.org/binary/%s/,\n' \
				"$p" "${v#*:}" "$a" "$p"
			printf '    pool path %s)\n' "$f"
		done <<<"$missing"
		echo "  and put it into $DEB_CACHE/ (any file name: it is found by its sha256)"
		echo "  or take the archive's current versions on purpose: make images-update (then review and commit the lock)"
	} >&2
	return 1
}

# lock_repo LOCK REPO: a flat apt repository in REPO holding exactly the locked .debs
# (links into the cache, each checked against its sha256), for mmdebstrap's copy://.
lock_repo() {
	local lock=$1 repo=$2 bad
	rm -rf "$repo"
	mkdir -p "$repo"
	bad=$(lock_packages "$lock" | awk -F'\t' -v c="$DEB_CACHE" '{ print $5 "  " c "/" $5 ".deb" }' |
		sha256sum -c --quiet 2>/dev/null | sed -n 's/: FAILED.*//p' || true)
	if [ -n "$bad" ]; then
		# shellcheck disable=SC2086 # paths without blanks (sha256 names)
		rm -f $bad
		lock_err "corrupt .deb in the cache (removed, run the build again to fetch it): $bad"
		return 1
	fi
	lock_packages "$lock" | while IFS=$'\t' read -r p v a z h f; do
		local deb="${p}_${v//:/%3a}_$a.deb"
		ln -s "$DEB_CACHE/$h.deb" "$repo/$deb"
		# The control fields, kept beside the .deb (SHA256.control) after the first use.
		if [ ! -s "$DEB_CACHE/$h.control" ]; then
			dpkg-deb -f "$DEB_CACHE/$h.deb" | grep -v '^$' >"$DEB_CACHE/$h.control.tmp$$" &&
				mv -f "$DEB_CACHE/$h.control.tmp$$" "$DEB_CACHE/$h.control"
		fi
		cat "$DEB_CACHE/$h.control"
		printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "$deb" "$z" "$h"
	done >"$repo/Packages" || { lock_err "cannot index the locked .debs"; return 1; }
	{
		echo "Date: $(LC_ALL=C date -u -d "@${SOURCE_DATE_EPOCH:-0}" '+%a, %d %b %Y %H:%M:%S UTC')"
		echo "SHA256:"
		printf ' %s %s Packages\n' "$(sha256sum <"$repo/Packages" | cut -d' ' -f1)" "$(stat -c %s "$repo/Packages")"
	} >"$repo/Release"
}
