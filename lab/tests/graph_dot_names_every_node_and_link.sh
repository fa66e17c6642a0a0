#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154,SC2034 # eval checks expand later (and read out, rc)
# fwdlab graph draws a topology from its file, lab up or not: graphviz itself reads the dot
# output (dot -Tjson) and finds one graph node per topology node and one edge per data link,
# each edge between the link's two nodes and labelled with both ends; the mermaid output
# names the same; --format svg is an SVG with those nodes; a bad --format is refused.
# The expected nodes and links come from the topology reader (fwdstat topology get), not
# from graph's own code.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_STATE=$tmp/state FWDLAB_NO_INSTALL=1 FWDLAB_NAME=graphtst
fs=$top/build/lab/bin/fwdstat
command -v dot >/dev/null || { echo "1..0 # SKIP graphviz's dot is not installed (lab/apt-packages.txt)"; exit 0; }

# graph_edges DOT: "TAIL HEAD LABEL-FIRST-LINE" per edge, as graphviz reads the file.
graph_edges() {
	dot -Tjson "$1" | jq -r '.objects as $o | .edges[]? |
		"\($o[.tail].name) \($o[.head].name) \(.label | split("\\n")[0])"'
}
graph_nodes() { dot -Tjson "$1" | jq -r '.objects[]?.name'; }

for topo in b2b host; do
	"$top/lab/fwdlab" --topology "$topo" graph >"$tmp/$topo.dot" 2>"$tmp/$topo.err" || cat "$tmp/$topo.err"
	check "$topo: dot output is a graph graphviz reads" dot -Tjson -o /dev/null "$tmp/$topo.dot"
	conf=$top/topologies/$topo/topology.conf
	if [ "$topo" = b2b ]; then
		nodes=$("$fs" topology get "$conf" nodes)
		links=$("$fs" topology get "$conf" links)
	else
		nodes="vfwd tgen" # the host topology's two processes (topologies/host/topology.conf)
		links="tgen.port0-vfwd.port0 tgen.port1-vfwd.port1"
	fi
	graph_nodes "$tmp/$topo.dot" >"$tmp/$topo.nodes"
	graph_edges "$tmp/$topo.dot" >"$tmp/$topo.edges"
	for node in $nodes; do
		check "$topo: node $node is a graph node" grep -qx "$node" "$tmp/$topo.nodes"
	done
	for l in $links; do
		a=${l%%-*} b=${l#*-}
		check "$topo: link $l is an edge ${a%%.*} -- ${b%%.*} labelled $a - $b" \
			grep -qxF "${a%%.*} ${b%%.*} $a - $b" "$tmp/$topo.edges"
	done
	nl=$(wc -w <<<"$links")
	check "$topo: no edge but the $nl links (and mgmt attachments)" \
		[ "$(grep -vc ' mgmt ' "$tmp/$topo.edges" || true)" -eq "$nl" ]
	"$top/lab/fwdlab" --topology "$topo" graph --format mermaid >"$tmp/$topo.mmd"
	check "$topo: mermaid output starts a graph" grep -qx 'graph LR' "$tmp/$topo.mmd"
	for l in $links; do
		a=${l%%-*} b=${l#*-}
		check "$topo: mermaid has link $l" grep -qF "${a%%.*} ---|\"$a - $b" "$tmp/$topo.mmd"
	done
	"$top/lab/fwdlab" --topology "$topo" graph --format svg --out "$tmp/$topo.svg"
	for node in $nodes; do
		check "$topo: svg has node $node" grep -q "<title>$node</title>" "$tmp/$topo.svg"
	done
done
check "b2b: the CPU plan is in the graph (vCPU to host CPU)" grep -q 'vcpu1->cpu[0-9]*(fwd)' "$tmp/b2b.dot"
check "b2b: where each node runs (libvirt URI, domain of this lab's prefix)" \
	grep -q 'qemu:///system, domain graphtst-dut' "$tmp/b2b.dot"
check "b2b: data links name their bridge" grep -q 'bridge graphtst-l0' "$tmp/b2b.dot"
check "host: the CPU plan is in the graph (vfwd's workers, tgen's lcore)" \
	eval 'grep -q "workers 1 (rx-mode" "$tmp/host.dot" && grep -q "lcore 0 (pacing" "$tmp/host.dot"'
check "host: with the lab down, the graph says so" grep -q 'lab down' "$tmp/host.dot"
check "graph made no lab folder" [ ! -e "$FWDLAB_STATE" ]
rc=0
out=$("$top/lab/fwdlab" --topology host graph --format png 2>&1) || rc=$?
check "a bad --format is refused by name" eval '[ "$rc" -ne 0 ] && grep -q "format png: dot, svg or mermaid" <<<"$out"'
echo "1..$n"
