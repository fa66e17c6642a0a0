# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the run description and the lab's paths: lab/lib/options.sh
# The lab's life: host-setup, plan, up, down, status (sourced by lab/fwdlab).

host-setup() {
	if [ "$NO_INSTALL" != 1 ]; then
		# What the lab, its topologies and the pieces `up` builds (images, seeds, vfwd,
		# tgen) need; scripts/install-deps installs only what is missing.
		local d dirs=()
		for d in lab topologies tests images provisioning forwarder tgen; do
			if [ -f "$TOP/$d/apt-packages.txt" ]; then dirs+=("$d"); fi
		done
		"$TOP/scripts/install-deps" "${dirs[@]}" >&2 || die "installing packages failed"
	fi
	if [ "$TOPOLOGY" = b2b ] || [ "${FWDLAB_LIBVIRT:-0}" = 1 ]; then
		libvirt_start
	fi
	if [ "$HUGEPAGES" -gt 0 ]; then
		hugepages_reserve "$HUGEPAGES"
	fi
}

plan() {
	topo_plan
	instance_note
}

up() {
	host-setup
	TOPO_TOOL=$(topo_tool)
	kv_validate "$TOPO_CONF"
	topo_read "$TOPO_CONF"
	validate_check_file "$TOPO_CONF" >&2 || die "bad validate line in $TOPO_CONF (see above)"
	if [ -n "$FROM_SNAPSHOT" ]; then
		up_from_snapshot "$FROM_SNAPSHOT" # lab/verbs/snapshot.sh
		validate_after_up
		return 0
	fi
	topo_up
	topo_access
	validate_after_up
}

down() {
	netem_clear_all
	topo_down
	hugepages_release
	rmdir "$STATE" 2>/dev/null || true
	say "$TOPOLOGY lab is down"
}

status() {
	topo_status
	netem_status
	instance_note
	local cur
	cur=$(current_run)
	if [ -n "$cur" ]; then
		echo "current run: $cur ($(jq -r .status "$cur/meta.json" 2>/dev/null || echo '?'))"
	fi
}

