# shellcheck shell=bash
# snapshot save|list|rm NAME, and up --from-snapshot NAME (issue 16): a booted lab kept and
# brought back without booting. The topology does the work (topo_snapshot_save DIR,
# topo_snapshot_restore DIR; b2b: topologies/b2b/snapshot.sh); this file names and lists
# the snapshots. They live outside the lab's folder, which `down` removes:
#   ${FWDLAB_SNAPSHOTS:-/var/lib/fwdlab/snapshots}/<lab name>/<NAME>/

snap_root() { echo "${FWDLAB_SNAPSHOTS:-/var/lib/fwdlab/snapshots}/${FWDLAB_NAME:-fwdlab}"; }

snap_name_ok() {
	[[ ${1:-} =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
		die "snapshot name '${1:-}': letters, digits, . _ - (fwdlab snapshot save NAME)"
}

snapshot() {
	local what=${1:-} name=${2:-} dir
	case "$what" in
	save)
		snap_name_ok "$name"
		dir=$(snap_root)/$name
		[ ! -e "$dir" ] || die "snapshot $name exists ($dir): fwdlab snapshot rm $name first"
		mkdir -p "$(snap_root)"
		# a save that fails leaves no half snapshot behind
		trap 'rm -rf "$dir"' EXIT
		topo_snapshot_save "$dir"
		trap - EXIT
		say "snapshot $name: $dir ($(du -sh "$dir" | cut -f1)); bring it back with fwdlab up --from-snapshot $name"
		;;
	list)
		local f
		printf '%-20s %-20s %-8s %-6s %s\n' NAME SAVED TOPOLOGY ACCEL SIZE
		for f in "$(snap_root)"/*/snapshot.json; do
			[ -s "$f" ] || continue
			printf '%-20s %-20s %-8s %-6s %s\n' "$(basename "$(dirname "$f")")" \
				"$(jq -r .saved_at "$f")" "$(jq -r .topology "$f")" "$(jq -r .accel "$f")" \
				"$(du -sh "$(dirname "$f")" | cut -f1)"
		done
		;;
	rm)
		snap_name_ok "$name"
		dir=$(snap_root)/$name
		[ -d "$dir" ] || die "no snapshot $name in $(snap_root) (fwdlab snapshot list)"
		rm -rf "$dir"
		rmdir "$(snap_root)" 2>/dev/null || true
		say "snapshot $name removed"
		;;
	*) die "snapshot: save NAME, list or rm NAME" ;;
	esac
}

# up_from_snapshot NAME: up's path when --from-snapshot is given.
up_from_snapshot() {
	snap_name_ok "$1"
	local dir
	dir=$(snap_root)/$1
	[ -s "$dir/snapshot.json" ] || die "no snapshot $1 in $(snap_root) (fwdlab snapshot list)"
	[ "$(jq -r .topology "$dir/snapshot.json")" = "$TOPOLOGY" ] ||
		die "snapshot $1 is of the $(jq -r .topology "$dir/snapshot.json") topology, not $TOPOLOGY"
	topo_snapshot_restore "$dir"
	topo_access
}
