# shellcheck shell=bash
# Nodes on another libvirt host (NODE.uri = qemu+ssh://[USER@]HOST[:PORT]/system[?keyfile=
# KEY&no_verify=1]) and the data links between hosts.
#
# A remote node's files live on its own host, under NODE.remote_dir (default
# /var/lib/fwdlab/remote): the images it boots (disk, kernel, initrd) in images/, named by
# their sha256 so that labs and later `up`s share them, and the lab's own files (overlay
# disk, cloud-init seed, console log, the hugepages it added) in LAB_NAME/. `up` copies over
# ssh (the URI's user, host, port and keyfile) what is missing and checks every copy by its
# sha256 there; `down` removes the node's files in LAB_NAME/ (and the folder once empty),
# gives its hugepages back, and keeps images/.
#
# A link whose two ends are on different hosts is a libvirt UDP tunnel (QEMU's socket
# netdev): each end sends its frames as UDP datagrams to the other end's NODE.underlay
# address, on port tunnel_port + 2 * LINK (the link's first end) or + 1 (its second end).
# An Ethernet frame then costs 42 bytes of IPv4, UDP and Ethernet headers on the underlay, so
# the link carries frames up to underlay_mtu - 42 bytes of IP without fragments.

REMOTE_DIR_DEFAULT=/var/lib/fwdlab/remote
TUNNEL_PORT_DEFAULT=50000
UNDERLAY_MTU_DEFAULT=1500

node_is_remote() { ! uri_is_local "$(node_uri "$1")"; }

# uri_ssh_args URI: the ssh arguments (one a line, the destination last) that reach the
# host of a qemu+ssh URI as libvirt does: its user, host and port, and its keyfile and
# no_verify parameters.
uri_ssh_args() {
	local uri=$1 rest auth host port="" query p key="" noverify=0
	[[ $uri == qemu+ssh://* ]] || die "$uri: only qemu+ssh:// URIs name a host fwdlab can copy files to"
	rest=${uri#qemu+ssh://}
	auth=${rest%%/*}
	query=""
	[[ $rest != *\?* ]] || query=${rest#*\?}
	host=${auth#*@}
	if [[ $host == *:* ]]; then
		port=${host##*:}
		auth=${auth%:*}
	fi
	for p in ${query//&/ }; do
		case "$p" in
		keyfile=*) key=${p#keyfile=} ;;
		no_verify=1) noverify=1 ;;
		esac
	done
	printf '%s\n' -o BatchMode=yes -o ConnectTimeout=20 -o LogLevel=ERROR
	if [ -n "$port" ]; then printf '%s\n' -p "$port"; fi
	if [ -n "$key" ]; then printf '%s\n' -i "$key"; fi
	if [ "$noverify" = 1 ]; then
		printf '%s\n' -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	fi
	echo "$auth"
}

# host_sh URI CMD: runs shell command line CMD on the URI's host (stdin passed on).
host_sh() {
	local args
	mapfile -t args < <(uri_ssh_args "$1")
	command ssh "${args[@]}" "$2"
}

# ssh_host_of URI: USER@HOST of the URI, for messages.
ssh_host_of() { uri_ssh_args "$1" | tail -n1; }

remote_root() { kv_get "$TOPO_CONF" "$1.remote_dir" "$REMOTE_DIR_DEFAULT"; }
# node_dir NODE: the folder of the node's disk, seed and console log on its own host.
node_dir() {
	if node_is_remote "$1"; then echo "$(remote_root "$1")/$LAB_NAME"; else echo "$STATE"; fi
}

# local_sha256 FILE: its sha256, remembered by path, size and mtime in $STATE/sha256 (an
# image is 700 MB: `fwdlab xml` and every `up` would read it again otherwise).
local_sha256() {
	local f=$1 key sum cache=$STATE/sha256
	key="$f $(stat -c '%s %Y' "$f" 2>/dev/null)" || return 1
	sum=$(awk -v k="$key" '{ s = $1; $1 = ""; if (substr($0, 2) == k) print s }' "$cache" 2>/dev/null | tail -n1)
	if [ -z "$sum" ]; then
		sum=$(sha256sum "$f" | cut -d' ' -f1) || return 1
		mkdir -p "$STATE"
		echo "$sum $key" >>"$cache"
	fi
	echo "$sum"
}

# remote_image_path NODE LOCAL_FILE: where the file is on the node's host (images/SHA16-NAME),
# or images/unbuilt-NAME when it is not built yet here (`fwdlab xml` before `make images`).
remote_image_path() {
	local sum
	sum=$(local_sha256 "$2" 2>/dev/null) || sum=unbuilt
	echo "$(remote_root "$1")/images/${sum:0:16}-$(basename "$2")"
}

# remote_put URI LOCAL REMOTE [keep]: REMOTE on the URI's host holds LOCAL, checked by
# sha256 there. With "keep", a REMOTE that already has that sha256 is not copied again.
remote_put() {
	local uri=$1 src=$2 dst=$3 keep=${4:-} want have t0=$SECONDS
	want=$(local_sha256 "$src") || die "cannot read $src"
	if [ "$keep" = keep ]; then
		have=$(host_sh "$uri" "sha256sum '$dst' 2>/dev/null" </dev/null | cut -d' ' -f1) || have=""
		if [ "$have" = "$want" ]; then
			say "$(ssh_host_of "$uri"):$dst is there (sha256 ${want:0:16}, checked there)"
			return 0
		fi
	fi
	host_sh "$uri" "mkdir -p '$(dirname "$dst")' && cat >'$dst.part' && mv -f '$dst.part' '$dst'" \
		<"$src" || die "copying $src to $(ssh_host_of "$uri"):$dst failed (ssh above)"
	have=$(host_sh "$uri" "sha256sum '$dst'" </dev/null | cut -d' ' -f1) || have=""
	if [ "$have" != "$want" ]; then
		host_sh "$uri" "rm -f '$dst'" </dev/null || true
		die "the copy of $src on $(ssh_host_of "$uri"):$dst has sha256 ${have:-none}, not $want: removed"
	fi
	say "copied $(basename "$src") to $(ssh_host_of "$uri"):$dst ($(du -h "$src" | cut -f1), $((SECONDS - t0)) s, sha256 ${want:0:16} checked there)"
}

# remote_node_files NODE: the node's images, overlay disk and seed on its host (node_files
# made the seed here first).
remote_node_files() {
	local node=$1 uri image base f dir disk rimg
	uri=$(node_uri "$node")
	image=$(node_image "$node")
	base=${image%.qcow2}
	dir=$(node_dir "$node")
	for f in "$image" "$base.vmlinuz" "$base.initrd"; do
		remote_put "$uri" "$f" "$(remote_image_path "$node" "$f")" keep
	done
	rimg=$(remote_image_path "$node" "$image")
	disk=$dir/$node.qcow2
	# The overlay is made there, on the copy: its backing path is the remote host's.
	host_sh "$uri" "mkdir -p '$dir' && chmod 0711 '$dir' && { test -s '$disk' ||
		qemu-img create -q -f qcow2 -F qcow2 -b '$rimg' '$disk'; }" </dev/null ||
		die "creating $node's disk $disk on $(ssh_host_of "$uri") failed (qemu-img above)"
	remote_put "$uri" "$STATE/$node-seed/seed.iso" "$dir/$node-seed/seed.iso"
}

# remote_hugepages_reserve URI FILE PAGES: adds PAGES 2 MB pages to that host's pool (FILE
# there remembers how many the node added, for down) and mounts hugetlbfs there if it is not.
remote_hugepages_reserve() {
	local out
	out=$(host_sh "$1" "f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
		mkdir -p '$(dirname "$2")'; have=\$(cat \$f); added=\$(cat '$2' 2>/dev/null || echo 0)
		if [ \$added -lt $3 ]; then
			echo \$((have + $3 - added)) >\$f; got=\$(cat \$f)
			echo \$((added + got - have)) >'$2'
			[ \$((got - have)) -ge \$(($3 - added)) ] || { echo \"the kernel gave \$((added + got - have))\"; exit 1; }
		fi
		grep -q ' hugetlbfs ' /proc/mounts || { mkdir -p /dev/hugepages && mount -t hugetlbfs hugetlbfs /dev/hugepages; }
		cat \$f" </dev/null) || die "$(ssh_host_of "$1"): asked for $3 hugepages of 2 MB: ${out:-ssh failed}"
	say "reserved $3 hugepages of 2 MB on $(ssh_host_of "$1") ($out in its pool)"
}

# remote_node_down NODE: the node's files on its host go (and the lab's folder there once it
# is empty), and the hugepages the node added there go back; images/ stays (it is shared,
# and named by content).
remote_node_down() {
	local node=$1 uri dir out line
	uri=$(node_uri "$node")
	dir=$(node_dir "$node")
	out=$(host_sh "$uri" "f=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
		if [ -s '$dir/$node.hugepages' ]; then
			added=\$(cat '$dir/$node.hugepages'); have=\$(cat \$f)
			echo \$((have > added ? have - added : 0)) >\$f
			echo \"released \$added hugepages (\$(cat \$f) left in the pool)\"
		fi
		if [ -d '$dir' ]; then
			rm -rf '$dir/$node.qcow2' '$dir/$node-seed' '$dir/$node-console.log' '$dir/$node.hugepages'
			echo 'removed the files of $node in $dir'
			rmdir '$dir' 2>/dev/null || true
		fi" </dev/null) || {
		warn "$node: cannot reach $(ssh_host_of "$uri") to remove its files in $dir"
		return 0
	}
	while IFS= read -r line; do [ -z "$line" ] || say "$(ssh_host_of "$uri"): $line"; done <<<"$out"
}

# ---- links between hosts ----------------------------------------------------------------

# link_ends INDEX: "NODE_A NODE_B" of link INDEX (0-based).
link_ends() {
	local l
	l=$(kv_get "$TOPO_CONF" links | tr -s ' \t' '\n' | grep . | sed -n "$(($1 + 1))p")
	echo "${l%%.*} $(l=${l#*-} && echo "${l%%.*}")"
}

# link_is_tunnel INDEX: the link's ends are on two libvirt hosts (and not a hostdev cable).
link_is_tunnel() {
	local a b
	link_is_hostdev "$1" && return 1
	read -r a b < <(link_ends "$1")
	[ "$(node_uri "$a")" != "$(node_uri "$b")" ]
}

# link_is_hostdev INDEX: both ends are passthrough ports (NODE.hostdev_PORT; fwdtopo refuses a
# link with one): a cable between two host NICs, no libvirt network of the lab's.
link_is_hostdev() {
	local l a
	l=$(kv_get "$TOPO_CONF" links | tr -s ' \t' '\n' | grep . | sed -n "$(($1 + 1))p")
	a=${l%%-*}
	[ -n "$(kv_get "$TOPO_CONF" "${a%%.*}.hostdev_${a#*.}")" ]
}

tunnel_mtu() { echo $(($(kv_get "$TOPO_CONF" underlay_mtu "$UNDERLAY_MTU_DEFAULT") - 42)); }

# tunnel_iface NODE INDEX: "LOCAL_ADDR LOCAL_PORT PEER_ADDR PEER_PORT" of NODE's end of link
# INDEX, a UDP tunnel.
tunnel_iface() {
	local a b base
	read -r a b < <(link_ends "$2")
	base=$(($(kv_get "$TOPO_CONF" tunnel_port "$TUNNEL_PORT_DEFAULT") + 2 * $2))
	if [ "$1" = "$a" ]; then
		echo "$(kv_get "$TOPO_CONF" "$a.underlay") $base $(kv_get "$TOPO_CONF" "$b.underlay") $((base + 1))"
	else
		echo "$(kv_get "$TOPO_CONF" "$b.underlay") $((base + 1)) $(kv_get "$TOPO_CONF" "$a.underlay") $base"
	fi
}

# tunnels_say: one line per tunnelled link, with its addresses and MTU (up and status).
tunnels_say() {
	local i nlinks a b la lp pa pp
	nlinks=$(wc -w <<<"$(kv_get "$TOPO_CONF" links)")
	for ((i = 0; i < nlinks; i++)); do
		link_is_tunnel "$i" || continue
		read -r a b < <(link_ends "$i")
		read -r la lp pa pp < <(tunnel_iface "$a" "$i")
		echo "  link$i $a-$b: UDP tunnel $la:$lp <-> $pa:$pp, IP MTU $(tunnel_mtu) without fragments (underlay MTU $(kv_get "$TOPO_CONF" underlay_mtu "$UNDERLAY_MTU_DEFAULT") - 42)"
	done
}

# tunnel_rmem_note: QEMU's socket netdev takes the host's default receive buffer
# (net.core.rmem_default, 208 KiB on Debian: about 140 frames of 1500 bytes), and reads a
# tunnel only while its guest has room; a guest that falls further behind (TCG, a loaded
# host) loses frames in the kernel, counted as Udp RcvbufErrors in /proc/net/snmp. A warning
# per host of a tunnel whose default is under 4 MiB, naming the sysctl.
tunnel_rmem_note() {
	local i nlinks a b n uri v seen=" "
	nlinks=$(wc -w <<<"$(kv_get "$TOPO_CONF" links)")
	for ((i = 0; i < nlinks; i++)); do
		link_is_tunnel "$i" || continue
		read -r a b < <(link_ends "$i")
		for n in "$a" "$b"; do
			uri=$(node_uri "$n")
			[[ $seen != *" $uri "* ]] || continue
			seen+="$uri "
			local where="this host"
			if uri_is_local "$uri"; then
				v=$(sysctl -n net.core.rmem_default 2>/dev/null) || v=""
			else
				v=$(host_sh "$uri" 'sysctl -n net.core.rmem_default' </dev/null 2>/dev/null) || v=""
				where=$(ssh_host_of "$uri")
			fi
			if ! [[ $v =~ ^[0-9]+$ ]] || [ "$v" -ge 4194304 ]; then continue; fi
			warn "UDP tunnels: net.core.rmem_default is $v bytes on $where, so a tunnel socket holds about $((v / 1500)) frames of 1500 bytes for a guest that falls behind; more are lost in the kernel (Udp RcvbufErrors in /proc/net/snmp). sysctl -w net.core.rmem_default=4194304 there, before up, gives them 4 MiB"
		done
	done
}
