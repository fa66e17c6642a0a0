# shellcheck shell=bash
# The CPU plan of a VM topology: which host CPU runs which vCPU and QEMU's emulator threads.
#
# Per libvirt host (nodes grouped by URI): the first CPU of the host's list is for
# housekeeping (non-forwarding vCPUs and emulator threads); each forwarding vCPU gets a CPU
# of its own, taken from the end of the list. When the host has too few CPUs, forwarding
# vCPUs wrap around onto CPUs already in use: that is an overlap, which only a smoke run
# accepts (numbers from an overlapped plan measure the host's scheduler, not the DUT).
#
# plan_compute writes $STATE/plan.env (PLAN_<node>_VCPUPIN="0:3 1:2", PLAN_<node>_EMU="0-1")
# PLAN_<node>_SHARED=1 for a node one of whose forwarding vCPUs shares its host CPU, and
# $STATE/plan.txt (the table `fwdlab plan` prints); returns 3 on an overlap.

# node_get CONF NODE KEY [DEFAULT]: a node's setting. The topology driver may give another
# value for what the node runs (topo_node_value NODE KEY: b2b's TG with TRex needs 3 vCPUs,
# topologies/b2b/driver.sh); else the topology file's, else DEFAULT.
node_get() {
	local v
	if v=$(topo_node_value "$2" "$3"); then
		echo "$v"
		return 0
	fi
	kv_get "$1" "$2.$3" "${4:-}"
}

# host_cpu_list URI SPEC: the host's usable CPUs, one a line ("all" = every online CPU).
host_cpu_list() {
	local uri=$1 spec=$2 n
	if [ "$spec" != all ]; then
		expand_cpus "$spec"
		return
	fi
	if uri_is_local "$uri"; then
		expand_cpus "$(cat /sys/devices/system/cpu/online)"
	else
		n=$(virsh -c "$uri" nodeinfo | awk -F: '/^CPU\(s\)/ { gsub(/ /, "", $2); print $2 }')
		[ -n "$n" ] || die "cannot read the CPU count of $uri (virsh nodeinfo)"
		seq 0 $((n - 1))
	fi
}

# expand_cpus "0-3,6": 0 1 2 3 6, one a line.
expand_cpus() {
	local part a b
	for part in ${1//,/ }; do
		if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
			a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]}
			seq "$a" "$b"
		elif [[ $part =~ ^[0-9]+$ ]]; then
			echo "$part"
		else
			die "bad CPU list '$1'"
		fi
	done
}

uri_is_local() {
	case "$1" in
	qemu:///* | "") return 0 ;;
	*) return 1 ;;
	esac
}

# plan_compute CONF: see above.
plan_compute() {
	local conf=$1 nodes uri uris=() node hostcpus fwdset v i c
	nodes=$(kv_get "$conf" nodes)
	for node in $nodes; do
		uri=$(kv_get "$conf" "$node.uri" qemu:///system)
		[[ " ${uris[*]} " == *" $uri "* ]] || uris+=("$uri")
	done
	mkdir -p "$STATE"
	local env=$STATE/plan.env.tmp txt=$STATE/plan.txt.tmp overlap=0
	: >"$env"
	: >"$txt"
	for uri in "${uris[@]}"; do
		mapfile -t hostcpus < <(host_cpu_list "$uri" "$(kv_get "$conf" host_cpus all)")
		local ncpu=${#hostcpus[@]} hk=${hostcpus[0]} next=$((${#hostcpus[@]} - 1))
		local -A load=() fwdcpu=()
		local pins
		for node in $nodes; do
			[ "$(kv_get "$conf" "$node.uri" qemu:///system)" = "$uri" ] || continue
			local vcpus
			vcpus=$(node_get "$conf" "$node" vcpus 1)
			fwdset=" $(node_get "$conf" "$node" forwarding_vcpus "" | tr ',' ' ') "
			pins=""
			for ((v = 0; v < vcpus; v++)); do
				if [[ $fwdset == *" $v "* ]]; then
					if [ "$next" -ge 1 ]; then
						c=${hostcpus[$next]}
						next=$((next - 1))
					else
						# Out of CPUs: wrap around onto the busiest-first list.
						i=$(((${#fwdcpu[@]}) % ncpu))
						c=${hostcpus[$i]}
					fi
					fwdcpu[$c]+="$node.vcpu$v "
				else
					c=$hk
				fi
				load[$c]+="$node.vcpu$v "
				pins+="$v:$c "
			done
			printf 'PLAN_%s_VCPUPIN="%s"\n' "$node" "${pins% }" >>"$env"
		done
		# Emulator threads: every housekeeping CPU (those without a forwarding vCPU).
		local emu="" hkcpus=()
		for c in "${hostcpus[@]}"; do
			[ -n "${fwdcpu[$c]:-}" ] || hkcpus+=("$c")
		done
		[ ${#hkcpus[@]} -gt 0 ] || hkcpus=("$hk")
		emu=$(IFS=,; echo "${hkcpus[*]}")
		for node in $nodes; do
			[ "$(kv_get "$conf" "$node.uri" qemu:///system)" = "$uri" ] || continue
			printf 'PLAN_%s_EMU="%s"\n' "$node" "$emu" >>"$env"
			for c in "${hkcpus[@]}"; do load[$c]+="$node.emulator "; done
		done
		printf 'host %s: %d CPUs (%s)\n' "$uri" "$ncpu" "$(IFS=,; echo "${hostcpus[*]}")" >>"$txt"
		for c in "${hostcpus[@]}"; do
			local what=${load[$c]:-} mark="" w
			for w in ${fwdcpu[$c]:-}; do what=${what/$w/$w(fwd) }; done
			if [ -n "${fwdcpu[$c]:-}" ] && [ "$(wc -w <<<"${load[$c]}")" -gt 1 ]; then
				mark="  <-- OVERLAP: forwarding vCPU shares this CPU"
				overlap=1
				for w in ${fwdcpu[$c]}; do
					grep -qx "PLAN_${w%%.*}_SHARED=1" "$env" || echo "PLAN_${w%%.*}_SHARED=1" >>"$env"
				done
			fi
			printf '  cpu %-3s %s%s\n' "$c" "${what:-idle}" "$mark" >>"$txt"
		done
		unset load fwdcpu
	done
	mv -f "$env" "$STATE/plan.env"
	mv -f "$txt" "$STATE/plan.txt"
	[ "$overlap" -eq 0 ] || return 3
}
