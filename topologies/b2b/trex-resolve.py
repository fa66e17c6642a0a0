#!/usr/bin/python3
"""trex-resolve.py: TRex's ports resolve their gateways (the DUT's addresses) by ARP.

  trex-resolve.py [--cfg /etc/trex_cfg.yaml] [--trex /opt/trex] [--retries N]

Run in the TG VM by topologies/b2b/driver.sh once the TRex server and vfwd both answer: the
ports of /etc/trex_cfg.yaml that have `ip` and `default_gw` send ARP requests for their
gateway (TRex's client in service mode), which also teaches vfwd the TG's addresses (it
learns the sender of a request for its own address). Prints "port N: IP -> GW is MAC" per
port; exit 0 when every such port resolved, 1 otherwise (naming the port).
"""
import argparse
import os
import sys
import warnings

import yaml

warnings.filterwarnings("ignore")


def main():
    ap = argparse.ArgumentParser(prog="trex-resolve.py")
    ap.add_argument("--cfg", default="/etc/trex_cfg.yaml")
    ap.add_argument("--trex", default=os.environ.get("TREX_HOME", "/opt/trex"))
    ap.add_argument("--retries", type=int, default=20)
    a = ap.parse_args()
    with open(a.cfg) as f:
        cfg = yaml.safe_load(f)[0]
    l3 = [p for p, info in enumerate(cfg.get("port_info", [])) if "default_gw" in info]
    if not l3:
        print("trex-resolve: no port of %s has a default_gw (dest_mac mode): nothing to resolve"
              % a.cfg)
        return 0
    sys.path.insert(0, os.path.join(a.trex, "scripts", "automation", "trex_control_plane",
                                    "interactive"))
    from trex.stl.api import STLClient, TRexError
    c = STLClient(server="127.0.0.1", sync_port=cfg["zmq_rpc_port"],
                  async_port=cfg["zmq_pub_port"], verbose_level="error")
    bad = []
    try:
        c.connect()
        c.acquire(ports=l3, force=True)
        c.set_service_mode(ports=l3, enabled=True)
        try:
            c.resolve(ports=l3, retries=a.retries, verbose=False)
        except TRexError as e:
            sys.stderr.write("trex-resolve: %s\n" % str(e).strip())
        c.set_service_mode(ports=l3, enabled=False)
        for p in l3:
            attr = c.get_port_attr(p)
            if attr.get("arp") in (None, "unresolved", "-"):
                bad.append(p)
            print("port %d: %s -> %s is %s" % (p, attr.get("src_ipv4"), attr.get("dest"),
                                               attr.get("arp")))
        c.release(ports=l3)
        c.disconnect()
    except TRexError as e:
        sys.stderr.write("trex-resolve: the TRex server (RPC port %s): %s\n"
                         % (cfg["zmq_rpc_port"], str(e).strip()))
        return 1
    if bad:
        sys.stderr.write("trex-resolve: port(s) %s did not resolve their gateway by ARP\n"
                         % ", ".join(map(str, bad)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
