# shellcheck shell=bash
# The optional half of the topology-driver contract (topologies/CONTRACT.md): what a driver
# may provide, with the default every topology gets. lab/fwdlab sources this file, then the
# driver, so that a driver's own definition replaces the default; nothing in the lab asks
# whether a function exists. The generator side of the lab (lab/generators/lib.sh) comes
# with it: every topology's traffic goes through a generator of lab/generators.

# shellcheck source=lab/generators/lib.sh
. "$TOP/lab/generators/lib.sh"

# topo_dut_events: the DUT forwarder's life since the lab came up, one JSON object a line:
# {"event": "exit", "at", "pid", "how"}, {"event": "restarted", "at", "pid", "ready"},
# {"event": "gave-up", "at"}. The driver reports; lab/lib/results.sh counts (a fault is an
# exit or a gave-up). Default: no forwarder that can die (nothing to report).
topo_dut_events() { :; }

# topo_gen_env NAME: exports generator NAME's FWDLAB_GEN_* (lab/generators/README.md) for
# its verbs on this host. Default: none here (b2b: the TG's seed has them, its gen_do).
topo_gen_env() { die "the $TOPOLOGY topology runs generator $1 on no host process here"; }

# node_by_role ROLE: the node of a VM topology that has ROLE (dut, tg). Default: none.
node_by_role() { return 1; }

# topo_dut_settle: wait until a DUT being restarted answers again; false when it will not.
topo_dut_settle() { :; }

# topo_dut_pid: the DUT forwarder's pid on this host (threads.json); false when not here.
topo_dut_pid() { return 1; }

# topo_nodes_down: prints "NAME is STATE" per node that is not running and fails when one
# is down. Default: the topology has no nodes that go down on their own.
topo_nodes_down() { :; }

# topo_node_value NODE KEY: a value of NODE that replaces the topology file's KEY (plan.sh
# node_get); false: the file's value stands.
topo_node_value() { return 1; }

# topo_has_peers: the topology runs peer backends (peers/) as its DUT; then it provides
# topo_peer_swap NAME and topo_peer_dump DIR. Default: vfwd only.
topo_has_peers() { return 1; }
topo_peer_swap() { die "the $TOPOLOGY topology runs no peer backends"; }
topo_peer_dump() { die "the $TOPOLOGY topology runs no peer backends"; }

# peer_current: the peer backend that is the DUT (nothing: vfwd); peer_is_dut: one is.
peer_current() { :; }
peer_is_dut() { return 1; }
peer_running() { return 1; }

# dut_answers: the DUT's forwarder answers its CLI (validate). Default: vfwd's (the driver's
# vfwd_answers).
dut_answers() { vfwd_answers; }

# topo_dut_dump DIR: a DUT that is not vfwd (DUT_BACKEND) writes its own dump into DIR,
# backend.json first. Default: the peer backend's (topo_peer_dump).
topo_dut_dump() { topo_peer_dump "$@"; }

# topo_gen_loop_search DIR ARGS...: the generator alone, its ports looped to each other, the
# search ARGS into DIR/tgen.json (fwdlab calibrate). Default: 2, this topology cannot loop them.
topo_gen_loop_search() { return 2; }

# topo_xml_all DIR: the libvirt XML `up` would define. Default: none (no VMs).
topo_xml_all() { die "xml: the $TOPOLOGY topology has no libvirt XML (no VMs)"; }

# topo_snapshot_save DIR, topo_snapshot_restore DIR: keep the booted lab in DIR and bring it
# back without a boot (lab/verbs/snapshot.sh; b2b: topologies/b2b/snapshot.sh). Default:
# the topology has no snapshots (the host topology's processes start in seconds anyway).
topo_snapshot_save() { die "the $TOPOLOGY topology has no snapshots (b2b has: its VMs' boot is what they save)"; }
topo_snapshot_restore() { die "the $TOPOLOGY topology has no snapshots (b2b has: its VMs' boot is what they save)"; }
