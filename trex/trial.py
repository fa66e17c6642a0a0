#!/usr/bin/python3
"""trex/trial.py: one trial through a running TRex server's STL API, for fwdlab.

  trial.py ping  --trex DIR [--rpc PORT] [--pub PORT] [--timeout S] [--log FILE]
  trial.py check-profile --trex DIR --profile NAME|PATH.py [--tunables 'ARGS'] [--size N]
  trial.py trial --trex DIR --rate PPS --duration S --json FILE
                 [--profile udp|imix|PATH.py] [--tunables 'ARGS'] [--size N] [--bidir]
                 [--rpc PORT] [--pub PORT] [--log FILE] [--pid PID]
  trial.py serve --trex DIR --socket PATH

serve keeps TRex's Python client imported (scapy and all: about a second of CPU natively, tens
of seconds in a TCG guest) and forks a child per request on the unix socket PATH (mode 0600).
With TREX_TRIAL_SOCKET=PATH set, each other verb is such a request: this process hands its
arguments, folder, environment and its stdin/stdout/stderr to a child of the server, forwards
TERM/INT/HUP to it and exits with its status; the child stops its trial (TRex's ports stopped)
when the requester goes away. Without a server answering there, the verb runs here as before.

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
import socket
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


# Latency: TRex measures it with flow-stats latency streams only (its rx core timestamps
# them). Unless the profile brings its own, each sending port gets one, a copy of its first
# stream's packet at --latency-pps (at most a tenth of the port's rate), inside the trial's
# rate: the counters stay those of every packet sent, latency ones included.
LAT_PG_BASE = 0xFAB0


def latency_streams(a, streams, per_port):
    """Adds a latency stream per port (streams changed in place); returns
    ({port: pg_id}, None) or ({}, reason) when latency is not measured."""
    from trex.stl.api import STLStream, STLPktBuilder, STLFlowLatencyStats, STLTXCont
    own = {p: [s.get_pg_id() for s in streams[p]
               if s.has_flow_stats() and s.get_flow_stats_type() == "latency"]
           for p in streams}
    if all(own.values()):
        return {p: own[p] for p in own}, None
    if a.latency_pps <= 0:
        return {}, a.latency_off_reason or "latency streams off (--latency-pps 0)"
    lat = min(a.latency_pps, per_port / 10.0)
    if lat < 1:
        return {}, "the rate (%.0f pps a port) leaves no room for a latency stream" % per_port
    pgs = {}
    a.latency_rate = lat
    for p in sorted(streams):
        pg = LAT_PG_BASE + p
        streams[p].append(STLStream(name="fwdlab-latency-%d" % p,
                                    packet=STLPktBuilder(pkt_buffer=streams[p][0].get_pkt()),
                                    flow_stats=STLFlowLatencyStats(pg_id=pg),
                                    mode=STLTXCont(pps=lat)))
        pgs[p] = [pg]
    return pgs, None


def bucket_us(key):
    """TRex's histogram key (us) -> its bucket [lo, hi): 0 is below 10 us, then one
    significant digit (10-19, ..., 90-99, 100-199, ...)."""
    k = int(key)
    if k == 0:
        return 0, 10
    w = 10 ** (len(str(k)) - 1)
    return k, k + w


def latency_summary(st, pgs):
    """latency_ns of the contract (from TRex's latency of every pg id) and TRex's own
    figures, or (None, reason)."""
    lat = st.get("latency", {})
    tot_min, tot_max, n, wsum, hist, drops, rxs = None, 0, 0, 0.0, {}, 0, 0
    for p, ids in sorted(pgs.items()):
        for pg in ids:
            e = lat.get(pg) or lat.get(str(pg)) or {}
            le = e.get("latency", {})
            h = {k: v for k, v in le.get("histogram", {}).items() if v and k != "0"}
            # TRex's "0" bucket (under 10 us) survives clear_stats (measured: the same 293
            # in every trial of one server): it is what the pg id received minus the rest
            rx = (st.get("flow_stats", {}).get(pg, {}).get("rx_pkts", {}) or {}).get("total")
            if rx is not None and rx > sum(h.values()):
                h["0"] = rx - sum(h.values())
            cnt = sum(h.values())
            if cnt == 0:
                continue
            rxs += cnt
            drops += e.get("err_cntrs", {}).get("dropped", 0)
            tot_min = le["total_min"] if tot_min is None else min(tot_min, le["total_min"])
            tot_max = max(tot_max, le["total_max"])
            wsum += le.get("average", 0) * cnt
            n += cnt
            for k, v in h.items():
                hist[k] = hist.get(k, 0) + v
    if n == 0:
        return None, None, "no latency packet came back"

    def pct(q):
        # the upper bound of the bucket holding the q-quantile, within [min, max]
        need, cum = q * n, 0
        for k in sorted(hist, key=int):
            cum += hist[k]
            if cum >= need:
                return min(max(bucket_us(k)[1], tot_min), tot_max)
        return tot_max

    avg = wsum / n
    ns = {"min": tot_min * 1000, "avg": int(round(avg * 1000)), "max": tot_max * 1000,
          "p50": pct(0.5) * 1000, "p90": pct(0.9) * 1000, "p99": pct(0.99) * 1000,
          "p999": pct(0.999) * 1000}
    info = {"source": "TRex flow-stats latency streams (pg_id %s)" %
            ",".join(str(i) for ids in pgs.values() for i in ids),
            "packets": n, "dropped": drops, "histogram_us": {k: hist[k] for k in sorted(hist, key=int)},
            "resolution": "min/avg/max in 1 us; percentiles are the upper bound of TRex's "
                          "histogram bucket (10 us wide below 100 us, then 1 significant digit)"}
    return ns, info, None


def connect(a):
    from trex.stl.api import STLClient, TRexError
    c = STLClient(server="127.0.0.1", sync_port=a.rpc, async_port=a.pub,
                  verbose_level="error", sync_timeout=a.timeout)
    try:
        c.connect()
    except TRexError as e:
        fail("%s does not answer: %s" % (server_where(a), str(e).strip()))
    return c


def links_up(c):
    """Each port's link as the server sees it now (a memif client whose server went away,
    the DUT swapped or restarted, stays down: DPDK's memif client connects when the port
    starts and does not reconnect)."""
    up = []
    for p in (0, 1):
        c.ports[p].sync()
        up.append(bool(c.ports[p].is_up()))
    return up


def do_ping(a):
    c = connect(a)
    info = c.get_server_version()
    links = links_up(c)
    c.disconnect()
    print(json.dumps({"version": info.get("version"), "build_date": info.get("build_date"),
                      "mode": info.get("mode"), "links_up": links}))


def settled_stats(c, limit):
    """TRex's counters once they stop moving (two reads 0.2 s apart agree, or limit s):
    in low_end mode its rx core, which sleeps between polls, may still be counting the
    last packets after the drain."""
    keys = ("opackets", "ipackets", "obytes", "ibytes")
    full = c.get_stats(ports=[0, 1])
    t_end = time.monotonic() + limit
    while time.monotonic() < t_end:
        time.sleep(0.2)
        nxt = c.get_stats(ports=[0, 1])
        same = all(full[p][k] == nxt[p][k] for p in (0, 1) for k in keys)
        full = nxt
        if same:
            break
    return full


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
        down = [p for p, up in enumerate(links_up(c)) if not up]
        if down:
            c.disconnect()
            fail("TRex's port%s %s link is down (its memif peer, the DUT, went away since the "
                 "server started; `trexctl start` restarts the server and reconnects)" %
                 ("s" if len(down) > 1 else "", " and ".join(map(str, down))))
        c.acquire(ports=[0, 1], force=True)
        c.reset(ports=[0, 1])
        per_port = a.rate / len(ports)
        pgs, lat_why = latency_streams(a, streams, per_port)
        for p in ports:
            c.add_streams(streams[p], ports=[p])
        c.clear_stats()
        t0 = time.monotonic()
        # TRex's mult scales the profile's streams, not latency streams (they keep their rate)
        c.start(ports=ports, mult="%.6fpps" % (per_port - a.latency_rate), duration=a.duration,
                force=True)
        c.wait_on_traffic(ports=ports, timeout=a.duration + 60)
        elapsed = time.monotonic() - t0
        time.sleep(a.drain)
        full = settled_stats(c, a.settle)
        st = {p: full[p] for p in (0, 1)}
        lat_ns, lat_info, why = latency_summary(full, pgs) if pgs else (None, None, lat_why)
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
    # TRex's byte counters count frames with their FCS (1500 B frames: 1500 a packet),
    # as the lab does (HACKING.md "tgen JSON": *_bps are size * 8 * pps).
    tx = sum(st[p]["opackets"] for p in (0, 1))
    rx = sum(st[p]["ipackets"] for p in (0, 1))
    txb = sum(st[p]["obytes"] for p in (0, 1))
    rxb = sum(st[p]["ibytes"] for p in (0, 1))
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
        "latency_ns": lat_ns,
        "latency_trex": lat_info if lat_ns is not None else {"null_because": why},
        "trex_port_stats": {str(p): {k: st[p].get(k) for k in
                                     ("opackets", "ipackets", "obytes", "ibytes",
                                      "oerrors", "ierrors")} for p in (0, 1)},
    }
    tmp = a.json + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f)
        f.write("\n")
    os.replace(tmp, a.json)


def via_server(path, argv):
    """Runs argv in a child of the serve process at path; its exit status, or None when no
    server answers there (the caller runs argv itself)."""
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect(path)
        req = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        socket.send_fds(c, [req + b"\n"], [0, 1, 2])
    except OSError:
        c.close()
        return None
    f = c.makefile("rb")
    line = f.readline().split()
    if len(line) != 2 or line[0] != b"pid":
        return None
    child = int(line[1])
    sent = []

    def forward(sig, frame):
        sent.append(sig)
        try:
            os.kill(child, sig)
        except OSError:
            pass
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    while True:
        line = f.readline()
        if not line:
            if sent:  # the signal ended it: end the same way, as the verb run here would
                signal.signal(sent[-1], signal.SIG_DFL)
                os.kill(os.getpid(), sent[-1])
            fail("the trial server's child (pid %d) ended without a status" % child)
        w = line.split()
        if len(w) == 2 and w[0] == b"rc":
            return int(w[1])


def serve_one(conn):
    """In a child of the server: one request, run as if this process were the requester's."""
    import threading
    msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
    req = json.loads(msg.decode())
    for i, fd in enumerate(fds):
        os.dup2(fd, i)
        os.close(fd)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    conn.sendall(b"pid %d\n" % os.getpid())

    def requester_gone():
        # the requester holds its end open until our status comes: EOF means it died
        try:
            conn.recv(1)
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=requester_gone, daemon=True).start()
    rc = 0
    try:
        main(req["argv"])
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            sys.stderr.write("%s\n" % e.code)
    except BaseException as e:  # noqa: BLE001 -- reported as python would, then status 1
        import traceback
        traceback.print_exc()
        rc = 1
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        conn.sendall(b"rc %d\n" % rc)
    except OSError:
        pass
    os._exit(rc)


def do_serve(a):
    try:
        os.setsid()  # out of the starter's session and group: its Ctrl-C is not ours
    except OSError:
        pass  # already a group leader
    import trex.stl.api  # noqa: F401 -- what every request would import again
    try:
        os.unlink(a.socket)
    except FileNotFoundError:
        pass
    old = os.umask(0o077)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(a.socket)
    os.umask(old)
    srv.listen(16)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(0))
    print("trial server on %s (pid %d)" % (a.socket, os.getpid()), flush=True)
    n = 0
    try:
        while True:
            conn, _ = srv.accept()
            n += 1
            pid = os.fork()
            if pid:
                print("request %d: child %d" % (n, pid), flush=True)
            else:
                srv.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                try:
                    serve_one(conn)
                finally:
                    os._exit(1)
            conn.close()
    finally:
        try:
            os.unlink(a.socket)  # a requester finds no socket and runs its verb itself
        except OSError:
            pass


def main(argv=None):
    if argv is None:
        sock = os.environ.get("TREX_TRIAL_SOCKET", "")
        if sock and sys.argv[1:2] != ["serve"] and os.path.exists(sock):
            rc = via_server(sock, sys.argv[1:])
            if rc is not None:
                sys.exit(rc)
    ap = argparse.ArgumentParser(prog="trial.py")
    ap.add_argument("verb", choices=["ping", "check-profile", "trial", "serve"])
    ap.add_argument("--socket", default="")
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
    ap.add_argument("--settle", type=float, default=5)
    ap.add_argument("--latency-off-reason", default="")
    ap.add_argument("--latency-pps", type=float,
                    default=float(os.environ.get("TREX_LATENCY_PPS", "1000")))
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    a.latency_rate = 0.0
    client_path(a.trex)
    if a.verb == "serve":
        if not a.socket:
            fail("serve needs --socket PATH", 2)
        do_serve(a)
    if a.flows != 1 and a.profile in BUILTIN:
        fail("--flows %d: the built-in TRex profiles send one flow; give a profile "
             "(--profile PATH.py --tunables ...)" % a.flows, 2)
    if a.verb == "ping":
        do_ping(a)
    elif a.verb == "check-profile":
        path, tun, streams = load_streams(a)
        print("profile %s %s: loads" % (path, " ".join(tun)))
        # the frames it sends, FCS counted as the lab counts them (its rates in bit/s)
        # (a stream whose length TRex cannot tell, a field engine's, leaves --size in charge)
        try:
            sizes = sorted({st.get_pkt_len(count_crc=True) for ss in streams.values() for st in ss})
        except Exception as e:  # noqa: BLE001 -- TRex raises its own types
            print("frame_sizes: not known (%s); the run counts --size" % e, file=sys.stderr)
            sizes = []
        if sizes:
            print("frame_sizes %s" % ",".join(map(str, sizes)))
    else:
        if a.rate is None or a.rate <= 0 or a.duration is None or a.duration <= 0 or not a.json:
            fail("trial needs --rate PPS (> 0), --duration S (> 0) and --json FILE", 2)
        do_trial(a)


if __name__ == "__main__":
    main()
