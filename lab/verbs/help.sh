# shellcheck shell=bash
# fwdlab help: every verb and option (one line per verb; lab/README.md has the detail).

usage() {
	cat <<'EOF'
usage: fwdlab [--topology host|b2b|loop] [--instance N] VERB [OPTIONS] [ARGS]

  host-setup [--hugepages N]   install missing packages, start virtlogd/libvirtd when no
                               init system does, reserve N 2 MB hugepages
  plan [--smoke]               print the host CPU -> vCPU plan; refuses an overlap of
                               forwarding cores unless --smoke
  up [--smoke]                 bring the topology up (idempotent), wait until vfwd and tgen
                               answer, print how to reach them
  up --from-snapshot NAME      bring the lab back from a snapshot, no boot (b2b)
  snapshot save NAME | list | rm NAME
                               keep the booted lab (both VMs' memory and disks, the lab's
                               folder) in $FWDLAB_SNAPSHOTS (/var/lib/fwdlab/snapshots) (b2b)
  down                         remove everything `up` made
  cache list|verify|clean [KIND...]
                               the build cache (${FWDLAB_CACHE:-/var/cache/fwdlab}): VM images,
                               TRex, VPP, .debs; each entry keyed by its inputs, checked
                               before use (scripts/cache)
  status                       what runs, and where
  run [--rate R] [--duration S]           one trial at a fixed rate
  ndr [--trial-duration S] [--final-duration S] [--min-rate R] [--max-rate R]
      [--method binary|mlrsearch] [--latency-loads 0,10,50,90]
                               NDR/PDR search; `clear runtime` before and a dump after each trial;
                               latency trials at % of the PDR after it (lab/README.md)
  calibrate [--frame-sizes 64,1500] [--max-rate R]
                               the path's ceiling: an NDR per frame size with the DUT as a
                               wire (vfwd l2 xconnect, back to l3 after); kept with the lab,
                               copied into every run's meta; an NDR at >= 90 % of it is
                               path-bound (no verdict in compare)
  swap DUT                     put a vfwd build folder (build/vfwd/VARIANT) or a .deb holding
                               one in place of the DUT's, restart vfwd, check `show version`
                               names it; or a peer forwarder by name, peer:NAME (testpmd-io,
                               testpmd-mac, l3fwd, l3fwd-graph, ovs-dpdk, linux; host topology
                               only): it takes vfwd's ports, routes and neighbors
                               (peers/README.md); `swap peer:list` lists them; a VPP build,
                               vpp:NAME|vpp:DIR (host; b2b --forwarder vpp)
  swap vpp-plugin:FILE.so [--enable NODE]
                               one VPP plugin into the running VPP (vpp:default first when
                               VPP is not the DUT), VPP restarted, checked: `show plugins` lists
                               it, its node is on the arc; enable lines from FILE.cli beside it
                               or --enable NODE (port0, port1, ip4-unicast); refuses a .so that
                               is not a VPP plugin, has no enable lines, was built for another
                               VPP or does not load (VPP's error), keeping the previous DUT
  dump [DIR]                   show runtime/errors/interfaces/version, xstats, tgen JSON,
                               guest dmesg into DIR (default: the current run's folder)
  xml [DIR]                    write the libvirt XML `up` would define into DIR (b2b)
  graph [--format dot|svg|mermaid] [--out FILE]
                               draw the topology: nodes, ports, links, CPU plan, where each runs
  validate                     run the topology file's validate.N checks: exit 0 all hold,
                               1 one fails, 2 one cannot run (lab down, bad line)
  capture NODE PORT [--count N] [--duration S] [--out FILE]
                               pcap of what crosses NODE's PORT link (vfwd pcap trace)
  netem LINK [--delay D] [--loss P] [--rate R] | netem LINK off | netem show
                               tc netem on the host side of a b2b data link
  console NODE                 serial console of a VM (b2b)
  ssh NODE [CMD...]            shell (or CMD) on a node
  compare A B [--runs 3] [--frame-sizes 64,1500,imix] [--order ABAB|ABBA]
                               A/B of two DUTs (vfwd builds, peer:NAME, vpp:NAME or
                               vpp-plugin:FILE.so): interleaved NDR runs (or --rate R trials)
                               into one campaign, then the fwdstat compare table (peers have
                               rates, no per-node rows; plugins: the plugin node's clocks and
                               vectors/call per build and per dump, and whether DUT-bound)
  sweep [--frame-sizes 64,...,1518] [--link 10G] [--dut A,B]
                               NDR per frame size (per DUT: build or peer:NAME) against
                               line rate
  compare|sweep --resume DIR   finish an interrupted campaign; complete runs are kept
  compare|sweep --on-fault continue|stop
                               a run made invalid by a fault (vfwd died and was restarted,
                               tgen was killed): go on with the next run (default) or stop;
                               either way exit status 3, and --resume redoes invalid runs
  report DIR... [--out DIR]    Markdown tables, gnuplot plots, one HTML page per campaign
  suite NAME [--frame-sizes 64,1518,9000,imix] [--cores 1,2,4] [--repeat N]
                               a CSIT suite (ip4base, ip4scale20k|200k|2m[-rnd], l2xcbase) as one
                               campaign: NDR/PDR and latency at load per cores x size x repeat,
                               table, c/1c speedups, HTML report (lab/README.md, "Suites")
  runtime FILE... --node NAME  one node's clocks/packet per show runtime dump, median
  export --csit DIR... --out OUT [--openmetrics]
                               one CSIT UTI test_case record per run (lab/fwdstat/README.md)
  trend RESULTS... [--node NAME] [--alpha A]
                               runs of each test grouped by build, significant changes marked
  bisect GOOD BAD [--runs 7] [--node NAME] [--alpha A] [--repo DIR]
                               vfwd built at commits between GOOD and BAD, the first that
                               changed as BAD did (trend's rule; host topology)

Experiment options (one spelling each; --size, --sizes, --profiles udp:N are aliases):
  --label L, --profile udp|imix|PATH.py, --frame-size N, --flows N, --bidir,
  --generator tgen|trex (lab/generators/README.md; host topology), --tunables 'ARGS' (words
  for a TRex profile file, e.g. --profile stl/udp_for_benchmarks.py --tunables '--packet_len 1500'),
  --campaign DIR (add the run to an existing campaign folder), --run NAME, --group G,
  --repeat N (ndr/run: N runs as one campaign, with box plots; sweep/suite: every cell N times). Results go to results/<UTC-time>-<topology>-<label>/<run>/ (FWDLAB_RESULTS).
--instance N (1..99, or FWDLAB_INSTANCE): a lab of its own beside others (lab/README.md).
--forwarder vfwd|vpp (or FWDLAB_FORWARDER; b2b, at up): the DUT VM runs vfwd (images/out/dut)
  or VPP (images/out/dut-vpp; make lab DUT=vpp); then swap vpp:NAME|vpp:DIR installs a VPP build.
Environment: TOPOLOGY, LABEL, VARIANT (vfwd build for the host topology), FWDLAB_STATE
  (lab state folder, default .lab/<topology>), FWDLAB_NAME (prefix of libvirt objects).
EOF
}

