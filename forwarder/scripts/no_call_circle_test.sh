#!/usr/bin/env bash
# TAP: no call circle among forwarder/src's files, read from the object files' symbols
# (a file uses another when it leaves undefined a function or variable the other defines).
#   scripts/no_call_circle_test.sh [OBJDIR]    (default: $VFWD_OBJ or build/vfwd-obj/default)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
obj=${1:-${VFWD_OBJ:-$top/build/vfwd-obj/default}}
exec python3 "$here/call-circles.py" "$obj/src" no_call_circle_among_forwarder_src_files
