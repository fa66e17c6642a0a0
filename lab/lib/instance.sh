# shellcheck shell=bash
# shellcheck disable=SC2034 # STATE is lab/fwdlab's (and its topology driver's)
# Several labs on one host: --instance N (or FWDLAB_INSTANCE=N), N from 1 to 99, gives a
# lab its own
#   state folder    .lab/TOPOLOGY-N (sockets, pid files, logs, disks, seeds, ssh key, XML);
#                   with FWDLAB_STATE=DIR set, DIR-N
#   DPDK prefixes   derived from the state folder (topologies/host: lab_prefix)
#   CPU plan        computed into its own state folder (plan.env, plan.txt)
#   libvirt names   prefix fwdlabN (domains, networks, bridges fwdlabN-l0, MACs hashed on it)
#   mgmt subnet     the file's mgmt_subnet with N added to its third octet (192.168.151 for 1)
# Without an instance nothing changes (.lab/TOPOLOGY, prefix fwdlab, the file's subnet).
# FWDLAB_NAME and FWDLAB_MGMT_SUBNET, when set, win over what N gives.

INSTANCE=${FWDLAB_INSTANCE:-}

# instance_apply: sets STATE's default, FWDLAB_NAME and FWDLAB_MGMT_SUBNET for INSTANCE;
# before the topology driver is sourced (libvirt.sh reads FWDLAB_NAME when it loads).
instance_apply() {
	[ -n "$INSTANCE" ] || return 0
	[[ $INSTANCE =~ ^[1-9][0-9]?$ ]] || die "--instance $INSTANCE: a number from 1 to 99"
	STATE=${FWDLAB_STATE:-$TOP/.lab/$TOPOLOGY}-$INSTANCE
	export FWDLAB_NAME=${FWDLAB_NAME:-fwdlab$INSTANCE}
	if [ -z "${FWDLAB_MGMT_SUBNET:-}" ] && [ "$TOPOLOGY" != host ]; then
		local subnet c
		subnet=$(kv_get "$TOPO_CONF" mgmt_subnet 192.168.150)
		c=${subnet##*.}
		[ $((c + INSTANCE)) -le 254 ] ||
			die "--instance $INSTANCE: mgmt_subnet $subnet has no room for it (third octet $c + $INSTANCE > 254)"
		export FWDLAB_MGMT_SUBNET=${subnet%.*}.$((c + INSTANCE))
	fi
	export FWDLAB_INSTANCE=$INSTANCE
}

# instance_others: the other labs of this topology beside this one (the folder without an
# instance and each FOLDER-N) whose forwarder runs, one "FOLDER (vfwd pid P)" a line.
instance_others() {
	local base=$STATE d
	if [ -n "$INSTANCE" ]; then base=${STATE%-"$INSTANCE"}; fi
	for d in "$base" "$base"-[0-9]*; do
		if [ "$d" = "$STATE" ] || [ ! -d "$d" ]; then continue; fi
		if pid_alive "$d/vfwd.pid"; then echo "$d (vfwd pid $(cat "$d/vfwd.pid"))"; fi
	done
}

# instance_note: for plan and status: this lab's instance, and the other labs running beside
# it, whose plans (the same topology file's) put their polling threads on the same CPUs.
instance_note() {
	local others d
	[ -z "$INSTANCE" ] || echo "  instance $INSTANCE, lab folder $STATE"
	others=$(instance_others)
	[ -n "$others" ] || return 0
	echo "  other labs running beside this one (their CPU plans are their topology files'; with the same file they share these CPUs):"
	while IFS= read -r d; do echo "    $d"; done <<<"$others"
}
