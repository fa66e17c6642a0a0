#!/usr/bin/python3
"""trex/trial.py: one trial through a running TRex server's STL API, for fwdlab.

  trial.py ping  --trex DIR [--rpc PORT] [--pub PORT] [--timeout S] [--log FILE]
  trial.py check-profile --trex DIR --profile NAME|PATH.py [--tunables 'ARGS'] [--size N]
  trial.py trial --trex DIR --rate PPS --duration S --json FILE
                 [--profile udp|imix|PATH.py] [--tunables 'ARGS'] [--size N] [--bidir]
                 [--rpc PORT] [--pub PORT] [--log FILE] [--pid PID]

DIR is the cached TRex tree (trex/build.sh); its own Python client is used under Debian's
python3. The trial JSON holds the raw counters of lab/generators/README.md ("trial"); the lab
derives loss, rates and the generator-bound mark from them, the same way for every
generator. A profile TRex cannot load is refused (exit 2) with TRex's error and the file's
name before the server is touched; a server that does not answer or goes away is named with
its log (exit 1).
"""
import argparse
import json
import os
import shlex
import signal
import sys
import time
import warnings

warnings.filterwarnings("ignore")

# built-in profile names -> the TRex profile each imitates (tgen/README.md "Profiles")
BUILTIN = {
    "udp": ("stl/udp_for_benchmarks.py", lambda a: ["--packet_len", str(a.size)]),
    "imix": ("stl/imix.py", lambda a: []),
}


def fail(msg, rc=1):
    sys.stderr.write("trex: %s\n" % msg)
    sys.exit(rc)


def client_path(trex):
    p = os.path.join(trex, "scripts", "automation", "trex_control_plane", "interactive")
    if not os.path.isdir(p):
        fail("%s holds no TRex Python client (%s): is it a trex/build.sh cache folder?" % (trex, p))
    sys.path.insert(0, p)


def server_where(a):
    s = "TRex server at tcp://127.0.0.1:%d" % a.rpc
    if a.pid:
        s += " (pid %s)" % a.pid
    if a.log:
        s += ", log %s" % a.log
    return s


def profile_file(a):
    """The profile file and its tunables (a list of words)."""
    tun = shlex.split(a.tunables or "")
    if a.profile in BUILTIN:
        rel, extra = BUILTIN[a.profile]
        return os.path.join(a.trex, "scripts", rel), extra(a) + tun
    return os.path.abspath(a.profile), tun


def load_streams(a):
    """Streams per port: {port: [streams]}; refuses (exit 2) what TRex cannot load."""
    from trex.stl.api import STLProfile, TRexError
    path, tun = profile_file(a)
    if not os.path.isfile(path):
        fail("profile %s: no such file" % path, 2)
    ports = [0, 1] if a.bidir else [0]
    out = {}
    for p in ports:
        try:
            sys.argv[0] = os.path.basename(path)  # a profile's argparse usage names it
            prof = STLProfile.load(path, direction=p, port_id=p, tunables=tun)
            out[p] = prof.get_streams() if prof is not None else None
        except TRexError as e:
            fail("profile %s refused by TRex: %s" % (path, str(e).strip()), 2)
        except SystemExit:
            fail("profile %s refused by TRex: its tunables %s were rejected (see above)"
                 % (path, tun), 2)
        except Exception as e:  # a profile is user code: any error refuses it
            fail("profile %s refused by TRex: %s: %s" % (path, type(e).__name__, e), 2)
        if out[p] is None:
            fail("profile %s refused by TRex: its tunables %s were rejected (usage above)"
                 % (path, tun), 2)
        if not out[p]:
            fail("profile %s refused: it gives no stream for port %d" % (path, p), 2)
    return path, tun, out


def connect(a):
    from trex.stl.api import STLClient, TRexError
    c = STLClient(server="127.0.0.1", sync_port=a.rpc, async_port=a.pub,
                  verbose_level="error", sync_timeout=a.timeout)
    try:
        c.connect()
    except TRexError as e:
        fail("%s does not answer: %s" % (server_where(a), str(e).strip()))
    return c


def do_ping(a):
    c = connect(a)
    info = c.get_server_version()
    c.disconnect()
    print(json.dumps({"version": info.get("version"), "build_date": info.get("build_date"),
                      "mode": info.get("mode")}))


def stats_of(c, ports):
    st = c.get_stats(ports=[0, 1])
    return {p: st[p] for p in (0, 1)}


def do_trial(a):
    path, tun, streams = load_streams(a)
    from trex.stl.api import TRexError
    c = connect(a)
    ports = sorted(streams)
    stopping = {"sig": None}

    def on_signal(sig, frame):
        stopping["sig"] = sig
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        c.acquire(ports=[0, 1], force=True)
        c.reset(ports=[0, 1])
        for p in ports:
            c.add_streams(streams[p], ports=[p])
        c.clear_stats()
        per_port = a.rate / len(ports)
        t0 = time.monotonic()
        c.start(ports=ports, mult="%.6fpps" % per_port, duration=a.duration, force=True)
        c.wait_on_traffic(ports=ports, timeout=a.duration + 60)
        elapsed = time.monotonic() - t0
        time.sleep(a.drain)
        st = stats_of(c, ports)
        c.remove_all_streams(ports=[0, 1])
        c.release(ports=[0, 1])
        c.disconnect()
    except KeyboardInterrupt:
        try:
            c.stop(ports=ports)
            c.disconnect()
        except Exception:
            pass
        fail("trial interrupted (signal %s); TRex's ports stopped" % stopping["sig"], 130)
    except TRexError as e:
        fail("%s failed during the trial: %s" % (server_where(a), str(e).strip()))
    # TRex's byte counters leave out the 4-byte FCS; the lab counts frames with it
    # (HACKING.md "tgen JSON": *_bps are size * 8 * pps).
    tx = sum(st[p]["opackets"] for p in (0, 1))
    rx = sum(st[p]["ipackets"] for p in (0, 1))
    txb = sum(st[p]["obytes"] for p in (0, 1)) + 4 * tx
    rxb = sum(st[p]["ibytes"] for p in (0, 1)) + 4 * rx
    # port p's traffic leaves the DUT on the other port
    dirs = [{"tx_packets": st[0]["opackets"], "rx_packets": st[1]["ipackets"]},
            {"tx_packets": st[1]["opackets"], "rx_packets": st[0]["ipackets"]}]
    out = {
        "generator": {"name": "trex", "version": a.version},
        "profile": {"file": path, "tunables": tun},
        "rate_pps_requested": a.rate,
        "duration_s": a.duration,
        "elapsed_s": round(elapsed, 6),
        "tx_packets": tx, "rx_packets": rx, "tx_bytes": txb, "rx_bytes": rxb,
        "directions": dirs,
        "latency_ns": None,
        "trex_port_stats": {str(p): {k: st[p].get(k) for k in
                                     ("opackets", "ipackets", "obytes", "ibytes",
                                      "oerrors", "ierrors")} for p in (0, 1)},
    }
    tmp = a.json + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f)
        f.write("\n")
    os.replace(tmp, a.json)


def main():
    ap = argparse.ArgumentParser(prog="trial.py")
    ap.add_argument("verb", choices=["ping", "check-profile", "trial"])
    ap.add_argument("--trex", required=True)
    ap.add_argument("--rpc", type=int, default=4511)
    ap.add_argument("--pub", type=int, default=4510)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--log", default="")
    ap.add_argument("--pid", default="")
    ap.add_argument("--version", default="")
    ap.add_argument("--profile", default="udp")
    ap.add_argument("--tunables", default="")
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--flows", type=int, default=1)
    ap.add_argument("--bidir", action="store_true")
    ap.add_argument("--rate", type=float)
    ap.add_argument("--duration", type=float)
    ap.add_argument("--drain", type=float, default=0.5)
    ap.add_argument("--json")
    a = ap.parse_args()
    client_path(a.trex)
    if a.flows != 1 and a.profile in BUILTIN:
        fail("--flows %d: the built-in TRex profiles send one flow; give a profile "
             "(--profile PATH.py --tunables ...)" % a.flows, 2)
    if a.verb == "ping":
        do_ping(a)
    elif a.verb == "check-profile":
        path, tun, _ = load_streams(a)
        print("profile %s %s: loads" % (path, " ".join(tun)))
    else:
        if a.rate is None or a.rate <= 0 or a.duration is None or a.duration <= 0 or not a.json:
            fail("trial needs --rate PPS (> 0), --duration S (> 0) and --json FILE", 2)
        do_trial(a)


if __name__ == "__main__":
    main()
