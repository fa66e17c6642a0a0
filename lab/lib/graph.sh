# shellcheck shell=bash
# fwdlab graph [--format dot|svg|mermaid]: the topology drawn from its file (nodes, ports,
# links, the CPU plan, where each node runs), whether the lab is up or not; when it is up,
# each node says so. `report` adds the graph of each topology its runs name.
#
# graph_model prints the drawing as records, tab-separated, that the renderers read:
#   node ID LABEL-LINE...        (a node; its label lines)
#   link A PORT_A B PORT_B LABEL (a data link between two nodes' ports)
#   net ID LABEL                 (a network that is not a data link: b2b's management)
#   attach NODE NET LABEL        (a node's interface on such a network)

# shellcheck disable=SC2153 # STATE is lab/fwdlab's
# graph_host_model: the host topology: vfwd and tgen, two host processes, two vhost-user
# sockets (or memif, for a generator that speaks memif).
graph_host_model() {
	local w workers="" up="lab down" kind=vhost-user p sock
	cpu_plan
	for w in $(host_cpus_expand "$(conf vfwd.workers)"); do workers+="$w,"; done
	if vfwd_answers; then up="up: vfwd pid $(cat "$STATE/vfwd.pid" 2>/dev/null)"; fi
	if [ -s "$STATE/generator" ] && [ "$(gen_ports_kind)" = memif ]; then kind=memif; fi
	printf 'node\tvfwd\tvfwd (dut)\thost process on %s\tmain core %s, workers %s (rx-mode %s)\tport0 %s, port1 %s\t%s\n' \
		"$(hostname)" "$(conf vfwd.main_core)" "${workers%,}" "$PLAN_RX_MODE" \
		"$(conf vfwd.port0_mac)" "$(conf vfwd.port1_mac)" "$up"
	printf 'node\ttgen\ttgen (tg)\thost process on %s, one per experiment\tlcore %s (pacing %s), link %s\n' \
		"$(hostname)" "$(tgen_main_lcore)" "$PLAN_PACING" "$(conf tgen.link)"
	for p in 0 1; do
		sock=$STATE/run/port$p.sock
		[ "$kind" = vhost-user ] || sock=$STATE/run/memif$p.sock
		printf 'link\ttgen\tport%s\tvfwd\tport%s\t%s %s\n' "$p" "$p" "$kind" "$sock"
	done
}

# graph_b2b_model: a VM topology: one node per VM (its libvirt host, domain, vCPUs and
# their host CPUs from the plan), one link per data network, the management network.
graph_b2b_model() {
	local node nodes i=0 l a b vcpus mem pins emu p plan_rc=0 state mtu
	nodes=$(kv_get "$TOPO_CONF" nodes)
	# The plan of this file, computed apart: `graph` works with the lab down, and never
	# rewrites the plan of a lab that is up.
	state=$(mktemp -d)
	(STATE=$state plan_compute "$TOPO_CONF") || plan_rc=$?
	[ -s "$state/plan.env" ] || { rm -rf "$state"; die "graph: the CPU plan of $TOPO_CONF failed"; }
	# shellcheck source=/dev/null
	. "$state/plan.env"
	rm -rf "$state"
	for node in $nodes; do
		vcpus=$(kv_get "$TOPO_CONF" "$node.vcpus" 1)
		mem=$(kv_get "$TOPO_CONF" "$node.memory_mib")
		pins=PLAN_${node}_VCPUPIN emu=PLAN_${node}_EMU
		local cpus="" state_line="lab down"
		for p in ${!pins}; do
			cpus+="vcpu${p%%:*}->cpu${p#*:}"
			if [[ " $(kv_get "$TOPO_CONF" "$node.forwarding_vcpus" "" | tr ',' ' ') " == *" ${p%%:*} "* ]]; then
				cpus+="(fwd)"
			fi
			cpus+=" "
		done
		if command -v virsh >/dev/null &&
			[ "$(virsh -q -c "$(node_uri "$node")" domstate "$(dom_name "$node")" 2>/dev/null)" = running ]; then
			state_line="up: domain running"
		fi
		printf 'node\t%s\t%s (%s)\t%s, domain %s\t%s vCPUs, %s MiB, image %s\t%s; emulator cpu %s\t%s\n' \
			"$node" "$node" "$(kv_get "$TOPO_CONF" "$node.role")" "$(node_uri "$node")" \
			"$(dom_name "$node")" "$vcpus" "$mem" "$(kv_get "$TOPO_CONF" "$node.image")" \
			"${cpus% }" "${!emu}" "$state_line"
	done
	[ "$plan_rc" -ne 3 ] || printf 'note\tCPU plan: forwarding vCPUs share host CPUs (smoke runs only)\n'
	mtu=$(kv_get "$TOPO_CONF" data_mtu 9000)
	local la lp pa pp
	for l in $(kv_get "$TOPO_CONF" links); do
		a=${l%%-*} b=${l#*-}
		if link_is_tunnel "$i"; then
			# its ends on two libvirt hosts (topologies/b2b/remote.sh)
			read -r la lp pa pp < <(tunnel_iface "${a%%.*}" "$i")
			printf 'link\t%s\t%s\t%s\t%s\tUDP tunnel %s:%s <-> %s:%s, IP mtu %s\n' "${a%%.*}" \
				"${a#*.}" "${b%%.*}" "${b#*.}" "$la" "$lp" "$pa" "$pp" "$(tunnel_mtu)"
		else
			printf 'link\t%s\t%s\t%s\t%s\tnetwork %s, bridge %s, mtu %s\n' "${a%%.*}" "${a#*.}" \
				"${b%%.*}" "${b#*.}" "$(link_net "$i")" "$(link_bridge "$i")" "$mtu"
		fi
		i=$((i + 1))
	done
	printf 'net\tmgmt\tmanagement: network %s, bridge %s, %s.0/24\n' "$(mgmt_net)" \
		"$(mgmt_bridge)" "${FWDLAB_MGMT_SUBNET:-$(kv_get "$TOPO_CONF" mgmt_subnet 192.168.150)}"
	for node in $nodes; do
		printf 'attach\t%s\tmgmt\t%s\n' "$node" "$(node_ip "$node")"
	done
}

graph_model() {
	topo_conf_check >/dev/null
	if [ "$TOPOLOGY" = host ]; then graph_host_model; else graph_b2b_model; fi
}

# dot_quote TEXT: TEXT as a dot string (quotes and backslashes escaped, a tab a new line).
dot_quote() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "${s//$'\t'/\\n}"
}

graph_dot() {
	local kind id rest a pa b pb label
	printf 'graph %s {\n' "$(dot_quote "fwdlab-$TOPOLOGY")"
	printf '  label=%s;\n  labelloc=t;\n' "$(dot_quote "fwdlab $TOPOLOGY topology ($TOPO_CONF)")"
	printf '  node [shape=box, fontname="monospace", fontsize=10];\n'
	printf '  edge [fontname="monospace", fontsize=9];\n'
	while IFS=$'\t' read -r kind id rest; do
		case $kind in
		node)
			printf '  %s [label=%s];\n' "$(dot_quote "$id")" "$(dot_quote "$rest")"
			;;
		net)
			printf '  %s [shape=ellipse, label=%s];\n' "$(dot_quote "$id")" "$(dot_quote "$rest")"
			;;
		link)
			a=$id
			IFS=$'\t' read -r pa b pb label <<<"$rest"
			printf '  %s -- %s [taillabel=%s, headlabel=%s, label=%s];\n' "$(dot_quote "$a")" \
				"$(dot_quote "$b")" "$(dot_quote "$pa")" "$(dot_quote "$pb")" \
				"$(dot_quote "$a.$pa - $b.$pb"$'\t'"$label")"
			;;
		attach)
			IFS=$'\t' read -r b label <<<"$rest"
			printf '  %s -- %s [style=dashed, label=%s];\n' "$(dot_quote "$id")" \
				"$(dot_quote "$b")" "$(dot_quote "mgmt $label")"
			;;
		note)
			printf '  note [shape=note, label=%s];\n' "$(dot_quote "$id")"
			;;
		esac
	done < <(graph_model)
	printf '}\n'
}

# mermaid_text TEXT: TEXT for a mermaid label in quotes (no quotes, <br/> between lines).
mermaid_text() {
	local s=${1//\"/\'}
	printf '%s' "${s//$'\t'/<br/>}"
}

graph_mermaid() {
	local kind id rest a pa b pb label
	printf 'graph LR\n'
	while IFS=$'\t' read -r kind id rest; do
		case $kind in
		node) printf '  %s["%s"]\n' "$id" "$(mermaid_text "$rest")" ;;
		net) printf '  %s(("%s"))\n' "$id" "$(mermaid_text "$rest")" ;;
		link)
			a=$id
			IFS=$'\t' read -r pa b pb label <<<"$rest"
			printf '  %s ---|"%s.%s - %s.%s: %s"| %s\n' "$a" "$a" "$pa" "$b" "$pb" \
				"$(mermaid_text "$label")" "$b"
			;;
		attach)
			IFS=$'\t' read -r b label <<<"$rest"
			printf '  %s -.-|"mgmt %s"| %s\n' "$id" "$label" "$b"
			;;
		note) printf '  note["%s"]\n' "$(mermaid_text "$id")" ;;
		esac
	done < <(graph_model)
}

# graph [--format dot|svg|mermaid] [--out FILE]
graph() {
	local format=dot out=""
	while [ $# -gt 0 ]; do
		case $1 in
		--format) format=${2:-}; shift 2 || die "graph: --format needs dot, svg or mermaid" ;;
		--format=*) format=${1#*=}; shift ;;
		--out) out=${2:-}; shift 2 || die "graph: --out needs a file" ;;
		*) die "graph: unknown argument '$1' (graph [--format dot|svg|mermaid] [--out FILE])" ;;
		esac
	done
	local text
	case $format in
	dot) text=$(graph_dot) ;;
	mermaid) text=$(graph_mermaid) ;;
	svg)
		command -v dot >/dev/null ||
			die "graph --format svg needs graphviz's dot (apt-get install graphviz, or make deps)"
		text=$(graph_dot | dot -Tsvg) || die "graph: dot -Tsvg failed"
		;;
	*) die "graph: --format $format: dot, svg or mermaid" ;;
	esac
	if [ -n "$out" ]; then
		printf '%s\n' "$text" | atomic_write "$out" || die "graph: cannot write $out"
	else
		printf '%s\n' "$text"
	fi
}

# lab_report DIR... [--out DIR]: fwdstat's report, then the graph of each topology the
# runs name (meta.json's topology) as topology-NAME.dot (and .svg with graphviz) beside it.
# The graph is drawn from the topology file as it is now.
lab_report() {
	local out="" a prev="" topos t
	report "$@"
	for a in "$@"; do
		[ "$prev" != --out ] || out=$a
		prev=$a
	done
	[ -n "$out" ] || return 0
	topos=$(for a in "$@"; do
		[ -d "$a" ] && find "$a" -name meta.json -exec jq -r '.topology // empty' {} + 2>/dev/null
	done | sort -u)
	for t in $topos; do
		[ -d "$TOP/topologies/$t" ] || continue
		"$LAB_DIR/fwdlab" --topology "$t" graph --out "$out/topology-$t.dot" ||
			{ warn "report: the graph of the $t topology failed"; continue; }
		if command -v dot >/dev/null; then
			dot -Tsvg "$out/topology-$t.dot" -o "$out/topology-$t.svg" ||
				warn "report: dot -Tsvg of the $t topology failed"
		fi
		say "report: $out/topology-$t.dot"
	done
}
