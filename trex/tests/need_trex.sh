# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # trex_home is for the sourcing test, which sets top
# Sourced first by every test that runs TRex (reads top): sets trex_home to the cached TRex
# build, or skips the test (exit 77) when there is none.
if ! trex_home=$("$top/trex/build.sh" --print 2>/dev/null); then
	echo "1..0 # SKIP no cached TRex build (make -C trex build; TREX_TARBALL=PATH, trex/README.md)"
	exit 77
fi
