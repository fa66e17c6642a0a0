# shellcheck shell=bash
# shellcheck disable=SC2154 # src, native, plugins, march_variants, jobs, objdir, here, base, build: peers/vpp/build
# How VPP is built from its sources (sourced by peers/vpp/build, which keeps the results in
# the build cache). This file's sha256 is part of every VPP entry's key: change it, and every
# variant is built again; the driver (peers/vpp/build: options, the cache, locks, progress)
# is not, since it does not change what is built.

configure() { # BUILD_DIR: CMake, again whenever its arguments changed
	local b=$1
	local -a args=(-G Ninja -S "$src/src" -B "$b" -DCMAKE_BUILD_TYPE=Release
		-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
		"-DVPP_BUILD_NATIVE_ONLY=$native" -DVPP_USE_LTO=OFF -DPython3_EXECUTABLE=/usr/bin/python3
		-DVPP_EXCLUDED_PLUGINS=af_xdp "-DVPP_CRYPTO_ENGINES=native,openssl"
		"-DVPP_PLUGINS=$([ "$plugins" = all ] || echo "$plugins")"
		"-DCMAKE_CXX_FLAGS=-include array")
	# A portable build with the x86-64-v2 baseline only: no runtime-selected variants.
	if [ "$native" = OFF ] && [ "$march_variants" = none ]; then
		args+=(-DVPP_MARCH_VARIANT_X86_64_V3=OFF -DVPP_MARCH_VARIANT_X86_64_V4=OFF
			-DVPP_MARCH_VARIANT_SCALAR=OFF)
	fi
	if [ -f "$b/build.ninja" ] && [ "$(cat "$b.args" 2>/dev/null)" = "${args[*]}" ]; then
		return 0
	fi
	log "configuring $b"
	nice -n 19 cmake "${args[@]}" >"$b.configure.log" 2>&1 ||
		{ tail -30 "$b.configure.log" >&2; die "cmake failed (log: $b.configure.log)"; }
	echo "${args[*]}" >"$b.args"
}

# The CMake folders of a VPP that runs: the libraries, vpp and vppctl, the plugins chosen
# (VPP_PLUGINS), the crypto engines, the CMake files for out-of-tree plugins. Not built by
# default: vat/vat2 (API test tools), vcl, the native device drivers, vapi.
vpp_dirs=(cmake vppinfra vlib svm vlibapi vlibmemory vnet vpp plugins crypto_engines)

compile() { # BUILD_DIR
	local -a targets=()
	local d
	if [ "${VPP_BUILD_ALL:-0}" != 1 ]; then
		for d in "${vpp_dirs[@]}"; do targets+=("CMakeFiles/$d/all"); done
	fi
	log "building $1 with -j$jobs (log: $1.ninja.log); the default build takes 11+ min on 2 idle cores"
	nice -n 19 ninja -C "$1" -j"$jobs" "${targets[@]}" >"$1.ninja.log" 2>&1 &
	progress_wait $! "$1.ninja.log" || { tail -40 "$1.ninja.log" >&2; die "ninja failed (log: $1.ninja.log)"; }
}

install_tree() { # BUILD_DIR DEST
	local b=$1 dest=$2 c d
	local -a scripts=("$b/cmake_install.cmake")
	rm -rf "$dest"
	mkdir -p "$dest"
	if [ "${VPP_BUILD_ALL:-0}" != 1 ]; then
		scripts=()
		for d in "${vpp_dirs[@]}"; do scripts+=("$b/CMakeFiles/$d/cmake_install.cmake"); done
	fi
	# Every component but the Python API one, which reaches for a package index; what
	# `cmake --install --component C` does, folder by folder.
	grep -rhoE 'CMAKE_INSTALL_COMPONENT STREQUAL "[^"]+"' "$b" --include=cmake_install.cmake |
		sed 's/.*"\(.*\)"/\1/' | sort -u >"$dest.components"
	while read -r c; do
		case "$c" in *python* | *papi*) continue ;; esac
		for d in "${scripts[@]}"; do
			[ -f "$d" ] || die "$d missing"
			(cd "$b" && cmake "-DCMAKE_INSTALL_PREFIX=$dest" "-DCMAKE_INSTALL_COMPONENT=$c" \
				-DCMAKE_INSTALL_CONFIG_NAME=Release -P "$d") >>"$dest.install.log" 2>&1 ||
				{ tail -20 "$dest.install.log" >&2; die "installing component $c of $d failed"; }
		done
	done <"$dest.components"
	rm -f "$dest.install.log" "$dest.components"
}

libvnet_of() { # BUILD_DIR -> path of the real libvnet.so.X in the build tree
	find "$1/lib" -maxdepth 2 -name 'libvnet.so.*' -type f | head -1
}

# The command ninja would run to link libvnet, with extra flags, writing OUT instead. CMake
# may pass the objects in a response file, which ninja deletes after the link: then libvnet
# is linked again by ninja with -d keeprsp first, which leaves the file there.
relink_libvnet() { # BUILD_DIR OUT EXTRA_LDFLAGS...
	local b=$1 out=$2 lib target cmd rsp
	shift 2
	lib=$(libvnet_of "$b")
	target=${lib#"$b"/}
	cmd=$(cd "$b" && ninja -t commands "$target" | tail -1)
	[[ "$cmd" == *" -o $target "* ]] || die "cannot find libvnet's link command in $b/build.ninja"
	rsp=$(grep -oE '@[^ ]+\.rsp' <<<"$cmd" | head -n1 | cut -c2-) || true
	if [ -n "$rsp" ] && [ ! -f "$b/$rsp" ]; then
		rm -f "$lib"
		(cd "$b" && nice -n 19 ninja -d keeprsp "$target" >/dev/null) ||
			die "ninja could not link $target again"
		[ -f "$b/$rsp" ] || die "no response file $rsp after ninja -d keeprsp"
	fi
	cmd=${cmd/" -o $target "/" -o $out $* "}
	# The build tree's rpath is for the build tree; the installed libvnet has none of it.
	cmd=$(sed -E 's/ -Wl,-rpath,[^ ]+//g' <<<"$cmd")
	(cd "$b" && nice -n 19 bash -c "$cmd") || die "relinking libvnet ($*) failed"
}


# variant_relink PREFIX bsymbolic|hidden: the default tree (hard links) with libvnet linked again
# from the same objects.
variant_relink() {
	local prefix=$1 libname dest defs imps vers
	# Same objects, libvnet relinked: an install tree of hard links with one new file.
	rm -rf "$prefix"
	cp -al "$base" "$prefix"
	rm -f "$prefix/BUILD-INFO" "$prefix/build-info.json" "$prefix/MANIFEST" "$prefix/INPUTS" "$prefix/STAT"
	libname=$(basename "$(libvnet_of "$build")")
	dest=$(find "$prefix/lib" -maxdepth 2 -name "$libname" -type f | head -1)
	rm -f "$dest"
	if [ "$2" = bsymbolic ]; then
		relink_libvnet "$build" "$dest" -Wl,-Bsymbolic-functions
		return
	fi
	# Hidden visibility with explicit exports: export only what something else in this VPP
	# imports from libvnet (undefined symbols of vpp, other libraries and plugins that
	# libvnet defines); everything else is local and bound directly.
	defs=$(mktemp) imps=$(mktemp) vers=$prefix/libvnet.exports.map
	nm -D --defined-only "$(libvnet_of "$build")" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$defs"
	find "$base" -type f \( -name '*.so*' -o -path '*/bin/*' \) ! -name "$libname" -print0 |
		xargs -0 -r nm -D --undefined-only 2>/dev/null | awk '{print $2}' | sed 's/@.*//' |
		sort -u >"$imps"
	{
		echo "{ global:"
		comm -12 "$defs" "$imps" | sed 's/$/;/'
		echo "local: *; };"
	} >"$vers"
	log "hidden: libvnet exports $(comm -12 "$defs" "$imps" | wc -l) of $(wc -l <"$defs") symbols"
	rm -f "$defs" "$imps"
	relink_libvnet "$build" "$dest" "-Wl,--version-script=$vers"
}

# variant_example PREFIX: our C plugin, compiled against the default install's headers with the
# flags VPP builds its own plugins with (for the same CPUs as the build: x86-64-v2 unless
# native); the tree is the default one (hard links) plus fwdlab/plugins/example_plugin.so and
# fwdlab/setup.cli, which the vpp backend loads.
variant_example() {
	local prefix=$1 march=x86-64-v2
	rm -rf "$prefix"
	cp -al "$base" "$prefix"
	rm -f "$prefix/BUILD-INFO" "$prefix/build-info.json" "$prefix/MANIFEST" "$prefix/INPUTS" "$prefix/STAT"
	mkdir -p "$prefix/fwdlab/plugins"
	[ "$native" = OFF ] || march=native
	log "building the example plugin out of tree against $base"
	nice -n 19 clang -std=gnu11 -O3 -march="$march" -fPIC -shared -g -Wall -Werror \
		-fno-common -I"$base/include" \
		-o "$prefix/fwdlab/plugins/example_plugin.so" "$here/plugins/example/example.c" ||
		die "the example plugin does not build against $base"
	cp "$here/plugins/example/setup.cli" "$prefix/fwdlab/setup.cli"
}

# variant_verB PREFIX: a second build told apart by `show version`: the same tree with another
# version string in the generated vpp/app/version.h; ninja recompiles what includes it (vpp,
# some plugins and libvnet API files), the result is installed, then the original header is
# put back and ninja brings the objects back to the default build's (the other variants are
# linked from them).
variant_verB() {
	local prefix=$1 vh
	vh=$(find "$build" -path '*/vpp/app/version.h' | head -n 1)
	[ -f "$vh" ] || die "no generated vpp/app/version.h in $build"
	cp -p "$vh" "$objdir/version.h.default"
	# whatever happens (a failure, a signal), the objects go back to the default build's header
	trap 'cp -p "$objdir/version.h.default" "$vh"; touch "$vh"; rm -f "$base_inputs" "$inputs"' EXIT
	sed -i 's/^#define VPP_BUILD_VER "\(.*\)"/#define VPP_BUILD_VER "\1-fwdlabB"/' "$vh"
	grep -q 'fwdlabB' "$vh" || { cp -p "$objdir/version.h.default" "$vh"; die "cannot set the version in $vh"; }
	compile "$build"
	install_tree "$build" "$prefix"
	cp -p "$objdir/version.h.default" "$vh"
	touch "$vh"
	trap 'rm -f "$base_inputs" "$inputs"' EXIT
	compile "$build"
}
