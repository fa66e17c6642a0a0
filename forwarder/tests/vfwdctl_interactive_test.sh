#!/usr/bin/env bash
# vfwdctl without a command, on a terminal (a pty driven by python3), is a prompt with
# line editing (libedit): TAB completes command words as vfwd knows them (from its
# `help`), two TABs on an ambiguous word list the choices, the up arrow recalls the last
# command, and the history is kept in $HOME/.vfwdctl_history; `quit` leaves.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vfwd_test_setup "vfwd-ictl-$$"
ctl() { "$vfwdctl" -s "$tmp/cli.sock" "$@"; }

"$vfwd_conf" startup "$tmp/startup.conf" --cli "$tmp/cli.sock" --prefix "vfwd-ictl-$$" --mbufs 2048 \
	--null port0 --null port1
vfwd_start_or_bail

# Each step: bytes to type, then the text the terminal must show before the next step
# (read for up to 30 s; the pass does not depend on speed).
cat >"$tmp/drive.py" <<'PY'
import os, pty, select, sys, time
ctl, sock, log = sys.argv[1], sys.argv[2], sys.argv[3]
steps = [
    (b"", b"vfwd# "),
    (b"sh\t", b"ow "),                        # a unique prefix completes the word:
    (b"ver\t", b"sion "),                     # the terminal echoes what TAB inserted
    (b"\n", b"plugin ABI"),                    # ... and runs
    (b"show ip neigh\t\t", b"neighbor-config"),  # ambiguous: two TABs list the choices
    (b"\x15", b"\x1b[K"),                     # ^U: clear the line
    (b"show errors\n", b"Count"),
    (b"\x1b[A\n", b"Count"),                   # up arrow: the last command again
    (b"quit\n", None),
]
pid, fd = pty.fork()
if pid == 0:
    os.execv(ctl, [ctl, "-s", sock])
out = b""
ok = True
with open(log, "wb") as f:
    for send, want in steps:
        start = len(out)
        if send:
            os.write(fd, send)
        deadline = time.time() + 30
        while want is not None and want not in out[start:] and time.time() < deadline:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        if want is not None and want not in out[start:]:
            print("# step %r: %r not seen" % (send, want))
            ok = False
            break
    f.write(out)
_, status = os.waitpid(pid, 0)
if ok and out.count(b"   Count") < 2:
    print("# the recalled command did not run")
    ok = False
sys.exit(0 if ok and os.WEXITSTATUS(status) == 0 else 1)
PY
export HOME="$tmp"
if timeout 120 python3 "$tmp/drive.py" "$vfwdctl" "$tmp/cli.sock" "$tmp/pty.log"; then
	tap ok tab_completes_command_words_two_tabs_list_choices_up_arrow_recalls
else
	sed 's/^/# /' "$tmp/pty.log" | tail -30
	tap fail tab_completes_command_words_two_tabs_list_choices_up_arrow_recalls
fi
if grep -qx "show errors" "$tmp/.vfwdctl_history" && grep -qx "show version" "$tmp/.vfwdctl_history"; then
	tap ok history_is_kept_in_home
else
	sed 's/^/# /' "$tmp/.vfwdctl_history" 2>/dev/null || true
	tap fail history_is_kept_in_home
fi
# without a terminal, lines are read from stdin as before (scripts)
if printf 'show version\nquit\n' | ctl | grep -q "plugin ABI"; then
	tap ok stdin_without_a_terminal_still_runs_lines
else
	tap fail stdin_without_a_terminal_still_runs_lines
fi
echo "1..$n_tap"
exit "$failed"
