# shellcheck shell=bash
# shellcheck disable=SC2153 # the run's description and the lab's paths: lab/lib/options.sh
# Reaching the lab's nodes: xml (libvirt XML), console, ssh.

xml() {
	local dir=${1:-$STATE/xml}
	[ "$TOPOLOGY" = b2b ] || die "xml: only VM topologies have libvirt XML"
	topo_xml_all "$dir"
}

console() {
	topo_console "${1:-dut}"
}

ssh() {
	local node=${1:-dut}
	[ $# -eq 0 ] || shift
	topo_ssh "$node" "$@"
}

