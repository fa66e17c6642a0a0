#!/usr/bin/env bash
# CLI socket least privilege: the socket is mode 0600 owned by vfwd's user, and
# anything but a documented command (garbage words, binary bytes, a NUL inside
# a line, a line over 1 KiB, more clients than the server serves) gets an
# "error:" reply and changes nothing; vfwd keeps serving afterwards.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-sock-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }
state() { ctl show ip fib; ctl show ip neighbors; ctl show features; }

"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --prefix "vfwd-sock-$$" --mbufs 2048 \
	--null port0 --null port1 --plugins "$build/plugins"
vfwd_start_or_bail
ctl set interface ip address port1 10.0.1.1/24 >/dev/null
ctl ip route add 48.0.0.0/8 via 10.0.1.2 port1 >/dev/null

if [ "$(stat -c '%a %u' "$tmp/cli.sock")" = "600 $(id -u)" ]; then
	tap ok cli_socket_is_mode_0600_owned_by_vfwds_user
else
	tap fail "cli_socket_is_mode_0600_owned_by_vfwds_user ($(stat -c '%a %u' "$tmp/cli.sock"))"
fi
state >"$tmp/before.txt"

# one python client per class of bad input; each prints "ok NAME" or "bad NAME: why"
python3 - "$tmp/cli.sock" >"$tmp/probe.txt" 2>&1 <<'PY' || true
import random, socket, sys, time
path = sys.argv[1]

def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    return s

def reply(s):
    buf = b""
    while not buf.endswith(b"\0"):
        d = s.recv(65536)
        if not d:
            break
        buf += d
    return buf

def expect_error(name, payload):
    s = conn()
    s.sendall(payload)
    r = reply(s)
    s.close()
    print(("ok " if r.startswith(b"error:") else "bad ") + name + ("" if r.startswith(b"error:") else ": %r" % r[:80]))

rnd = random.Random(4)
expect_error("unknown_words", b"frobnicate the router\n")
expect_error("known_verb_bad_args", b"ip route add 1.0.0.0/8 via nowhere port9\n")
expect_error("bad_prefix", b"ip route add 300.0.0.0/40 via 10.0.1.2 port1\n")
expect_error("binary_bytes", bytes(rnd.randrange(0x80, 0x100) for _ in range(200)) + b"\n")
expect_error("nul_hides_a_route_add", b"ip route add 1.0.0.0/8 via 10.0.1.2 port1\0 junk\n")
expect_error("nul_first", b"\0ip route del 48.0.0.0/8\n")
expect_error("too_many_words", b" ".join([b"show"] * 300) + b"\n")

# over-long line: an error, then the server hangs up
s = conn()
try:
    s.sendall(b"ip route add 2.0.0.0/8 via 10.0.1.2 port1 " + b"A" * 5000 + b"\n")
except OSError:
    pass
r = reply(s)
s.close()
print(("ok" if r.startswith(b"error: line too long") else "bad") + " overlong_line" +
      ("" if r.startswith(b"error:") else ": %r" % r[:80]))

# many clients: the ones past the server's limit are told so and closed;
# the others still work, and every slot is free again once they leave
held = []
for _ in range(40):
    for attempt in range(50):  # the listen backlog is short: let the server accept
        try:
            held.append(conn())
            break
        except (BlockingIOError, ConnectionRefusedError, socket.timeout):
            time.sleep(0.05)
    time.sleep(0.02)
time.sleep(1)
refused = 0
for s in held:
    s.setblocking(False)
    try:
        d = s.recv(200)
        if d.startswith(b"error: too many CLI clients"):
            refused += 1
    except BlockingIOError:
        pass
    s.setblocking(True)
    s.settimeout(10)
print(("ok" if refused > 0 and len(held) > 16 else "bad") +
      " many_clients_past_the_limit_are_refused: %d of %d" % (refused, len(held)))
for s in held:
    s.close()
time.sleep(0.5)
s = conn()
s.sendall(b"show version\n")
r = reply(s)
s.close()
print(("ok" if b"vfwd" in r and not r.startswith(b"error:") else "bad") + " served_after_the_flood")

# a client that sends many commands and never reads its replies: another
# client is still served at once, and the first gets every reply, in full,
# when it finally reads (the server buffers; it neither blocks nor hangs up)
slow = conn()
n_cmds = 400
slow.sendall(b"help\n" * n_cmds)
time.sleep(0.5)
t0 = time.time()
s = conn()
s.sendall(b"show version\n")
r = reply(s)
s.close()
dt = time.time() - t0
print(("ok" if b"vfwd" in r else "bad") + " other_client_served_while_one_never_reads (%.2f s)" % dt)
got = b""
slow.settimeout(20)
while got.count(b"\0") < n_cmds:
    d = slow.recv(1 << 20)
    if not d:
        break
    got += d
slow.close()
print(("ok" if got.count(b"\0") == n_cmds else "bad") +
      " slow_reader_gets_every_reply: %d of %d" % (got.count(b"\0"), n_cmds))
PY
sed 's/^/# /' "$tmp/probe.txt"
for name in unknown_words known_verb_bad_args bad_prefix binary_bytes nul_hides_a_route_add \
	nul_first too_many_words overlong_line; do
	if grep -q "^ok $name" "$tmp/probe.txt"; then
		tap ok "${name}_gets_an_error_reply"
	else
		tap fail "${name}_gets_an_error_reply"
	fi
done
for name in many_clients_past_the_limit_are_refused served_after_the_flood \
	other_client_served_while_one_never_reads slow_reader_gets_every_reply; do
	if grep -q "^ok $name" "$tmp/probe.txt"; then tap ok "$name"; else tap fail "$name"; fi
done
# a command that takes no arguments refuses one
if out=$(ctl show errors foo 2>&1); then
	tap fail "show_errors_with_an_argument_is_refused ($out)"
elif echo "$out" | grep -q "^error: show errors takes no arguments, not 'foo'"; then
	tap ok show_errors_with_an_argument_is_refused
else
	tap fail "show_errors_with_an_argument_is_refused ($out)"
fi
state >"$tmp/after.txt"
if cmp -s "$tmp/before.txt" "$tmp/after.txt"; then
	tap ok refused_input_changes_nothing
else
	diff "$tmp/before.txt" "$tmp/after.txt" | sed 's/^/# /'
	tap fail refused_input_changes_nothing
fi
# a reply that cannot be written (a full disk) is an error that names it, never exit 0
rc=0
ctl show version >/dev/full 2>"$tmp/full.err" || rc=$?
if [ "$rc" = 2 ] && grep -q "^vfwdctl: writing the reply to 'show version' to stdout: No space" \
	"$tmp/full.err"; then
	tap ok unwritable_reply_exits_2_and_says_why
else
	tap fail "unwritable_reply_exits_2_and_says_why (rc $rc: $(head -c 200 "$tmp/full.err"))"
fi
if kill -0 "$pid" 2>/dev/null; then tap ok vfwd_stays_alive; else tap fail vfwd_stays_alive; fi
echo "1..$n_tap"
exit "$failed"
