#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154,SC2034 # eval checks expand later (and read out, rc)
# fwdlab netem LINK on a b2b link, without VMs: a network namespace made here holds the
# link's bridge (FWDLAB_NAME=nt: nt-l0, as libvirt would name it) with two veth ports in
# place of the two VMs' taps. --dry-run prints one `tc qdisc replace ... netem` per port,
# with the options as given; the link is found by index, by network name and by its ends;
# bad values, unknown links, a link with no bridge and the host topology are refused by
# name. Then real tc on the veths: where the kernel has sch_netem, `tc qdisc show` has the
# netem qdisc on both ports, `netem show` lists them and `netem LINK off` removes them; a
# kernel without it (this CI machine's) makes `netem` fail naming the tc command, with no
# record left. Not run here: netem on a running b2b lab's taps, `status` and `down` of it
# (they need libvirt).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
ns=fwdlab-netem-$$
trap 'ip netns del "$ns" 2>/dev/null || true; rm -rf "$tmp"' EXIT
ip netns add "$ns"
ip -n "$ns" link add nt-l0 type bridge
for p in a b; do
	ip -n "$ns" link add "vnet-$p" type veth peer name "peer-$p"
	ip -n "$ns" link set "vnet-$p" master nt-l0
	ip -n "$ns" link set "vnet-$p" up
done
ip -n "$ns" link set nt-l0 up
lab() {
	ip netns exec "$ns" env FWDLAB_NAME=nt FWDLAB_STATE="$tmp/state" FWDLAB_NO_INSTALL=1 \
		"$top/lab/fwdlab" --topology b2b netem "$@"
}
# run_lab ARGS...: sets out (stdout and stderr) and rc
run_lab() { rc=0; out=$(lab "$@" 2>&1) || rc=$?; }

run_lab link0 --delay 10ms --loss 1% --rate 100mbit --dry-run
printf '%s\n' "$out" | sed 's/^/# /'
check "dry run: one tc command per port of the link's bridge, as given" \
	eval '[ "$rc" -eq 0 ] && grep -qx "tc qdisc replace dev vnet-a root netem delay 10ms loss 1% rate 100mbit" <<<"$out" &&
		grep -qx "tc qdisc replace dev vnet-b root netem delay 10ms loss 1% rate 100mbit" <<<"$out"'
run_lab 0 --delay 5ms --dry-run
check "link by index: delay only" grep -qx "tc qdisc replace dev vnet-a root netem delay 5ms" <<<"$out"
run_lab nt-link0 --loss 0.5% --dry-run
check "link by network name: loss only" grep -qx "tc qdisc replace dev vnet-b root netem loss 0.5%" <<<"$out"
run_lab tg.port0-dut.port0 --rate 1gbit --dry-run
check "link by its ends (as links writes them): rate only" grep -qx "tc qdisc replace dev vnet-a root netem rate 1gbit" <<<"$out"
check "dry run changes nothing" eval '! ip netns exec "$ns" tc qdisc show dev vnet-a | grep -q netem && [ ! -e "$tmp/state/netem" ]'

refused() { # NAME PATTERN ARGS...
	local name=$1 pat=$2
	shift 2
	run_lab "$@"
	check "$name" eval '[ "$rc" -ne 0 ] && grep -q -- "$pat" <<<"$out"'
}
refused "delay without a unit is refused" "delay 10: a time with its unit" link0 --delay 10
refused "loss over 100% is refused" "loss 150%: a percentage" link0 --loss 150%
refused "a rate without tc's unit is refused" "rate fast: a rate with tc's unit" link0 --rate fast
refused "no impairment asked is refused" "say what to impair" link0
refused "an unknown link is refused with the links there are" "no link 'link7'.*tg.port0-dut.port0" link7 --delay 1ms
refused "a link whose bridge does not exist is refused" "bridge nt-l1 of link 1 does not exist" link1 --delay 1ms
refused "no link named is refused" "which link" --delay 1ms
rc=0
out=$(FWDLAB_NO_INSTALL=1 FWDLAB_STATE=$tmp/hstate "$top/lab/fwdlab" --topology host netem link0 --delay 1ms 2>&1) || rc=$?
check "the host topology (vhost-user sockets) is refused, saying why" \
	eval '[ "$rc" -ne 0 ] && grep -q "vhost-user sockets between two processes" <<<"$out"'

# real tc netem, where the kernel has it
if ip netns exec "$ns" tc qdisc add dev peer-a root netem delay 1ms 2>/dev/null; then
	ip netns exec "$ns" tc qdisc del dev peer-a root
	run_lab link0 --delay 10ms --loss 1% --rate 100mbit
	check "netem on link 0 succeeds" [ "$rc" -eq 0 ]
	for p in a b; do
		q=$(ip netns exec "$ns" tc qdisc show dev "vnet-$p" root)
		echo "# vnet-$p: $q"
		check "tc qdisc show: vnet-$p has netem delay 10ms loss 1% rate 100Mbit" \
			eval 'grep -q "qdisc netem" <<<"$q" && grep -q "delay 10ms" <<<"$q" && grep -q "loss 1%" <<<"$q" && grep -qi "rate 100Mbit" <<<"$q"'
	done
	run_lab show
	check "netem show lists both ports with what tc runs" \
		eval 'grep -q "netem link 0 nt-link0 dev vnet-a: delay 10ms loss 1% rate 100mbit (tc: qdisc netem" <<<"$out" && grep -q "dev vnet-b" <<<"$out"'
	run_lab link0 off
	check "netem link0 off removes both" \
		eval '! ip netns exec "$ns" tc qdisc show dev vnet-a | grep -q netem && ! ip netns exec "$ns" tc qdisc show dev vnet-b | grep -q netem'
	run_lab show
	check "netem show is empty after off" [ -z "$out" ]
else
	run_lab link0 --delay 10ms
	echo "# this kernel has no sch_netem: $(ip netns exec "$ns" tc qdisc add dev peer-a root netem delay 1ms 2>&1)"
	check "without sch_netem, netem fails naming the tc command" \
		eval '[ "$rc" -ne 0 ] && grep -q "netem: tc qdisc replace dev vnet-a root netem delay 10ms failed" <<<"$out"'
	check "without sch_netem, no impairment is recorded" eval '[ -z "$(ls "$tmp/state/netem" 2>/dev/null)" ]'
	for what in "tc qdisc show has netem on both ports" "netem show lists them" "netem off removes them"; do
		n=$((n + 1))
		echo "ok $n - $what # SKIP the kernel has no sch_netem"
	done
fi
