#!/usr/bin/env bash
# shellcheck disable=SC2016,SC1091,SC2154 # eval checks expand later
# Two b2b labs on one host (--instance 1, FWDLAB_INSTANCE=2) and the lab without an
# instance: `fwdlab xml` of each writes libvirt XML that libvirt's schema accepts, and no two
# have a domain or network name, bridge, MAC address, management subnet or writable path
# (disk overlay, seed, console log) in common. What they may share is read-only: the image's
# kernel and initrd, QEMU's binary and /dev/urandom.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
export FWDLAB_NO_INSTALL=1 FWDLAB_STATE=$tmp/state
unset FWDLAB_NAME FWDLAB_MGMT_SUBNET FWDLAB_INSTANCE
"$top/lab/fwdlab" --topology b2b --instance 1 xml "$tmp/x1" >/dev/null 2>&1
FWDLAB_INSTANCE=2 "$top/lab/fwdlab" --topology b2b xml "$tmp/x2" >/dev/null 2>&1
"$top/lab/fwdlab" --topology b2b xml "$tmp/x0" >/dev/null 2>&1
for i in 0 1 2; do
	for f in "$tmp/x$i"/*.xml; do
		check "instance $i: $(basename "$f") validates against libvirt's schema" virt-xml-validate "$f"
	done
done
# things DIR KIND: the values of one kind, one a line, sorted.
things() {
	local d=$1
	case $2 in
	name) grep -ho '<name>[^<]*</name>' "$d"/*.xml ;;
	bridge) grep -ho "<bridge name='[^']*'" "$d"/*.xml ;;
	mac) grep -ho "<mac address='[^']*'" "$d"/*.xml ;;
	subnet) grep -ho "<ip address='[0-9.]*'" "$d"/*.xml | sed -E "s/\.[0-9]+'$//" ;;
	network) grep -ho "<source network='[^']*'" "$d"/*.xml ;;
	path) grep -hoE "(file='|>)/[^'<]*" "$d"/*.xml | sed -E "s/^(file='|>)//" ;;
	esac | sort -u
}
shared_ok="/usr/bin/qemu-system-x86_64 /dev/urandom $top/images/out/dut.vmlinuz $top/images/out/dut.initrd $top/images/out/tg.vmlinuz $top/images/out/tg.initrd"
for kind in name bridge mac subnet network path; do
	for pair in "0 1" "0 2" "1 2"; do
		read -r a b <<<"$pair"
		common=$(comm -12 <(things "$tmp/x$a" "$kind") <(things "$tmp/x$b" "$kind"))
		if [ "$kind" = path ]; then
			for p in $shared_ok; do common=$(grep -vxF -- "$p" <<<"$common" || true); done
		fi
		[ -z "$common" ] || printf '# %s shared by %s and %s: %s\n' "$kind" "$a" "$b" "$common"
		check "no $kind in common between instance $a and $b ($(things "$tmp/x$a" "$kind" | wc -l) each)" \
			[ -z "$common" ]
	done
done
check "instance 1's names carry its prefix fwdlab1" grep -q '<name>fwdlab1-dut</name>' "$tmp/x1/dut.xml"
check "instance 2's bridges carry its prefix" grep -q "<bridge name='fwdlab2-l0'" "$tmp/x2/link0.xml"
check "instance 1's management subnet is the file's plus 1 (192.168.151)" \
	grep -q "<ip address='192.168.151.1'" "$tmp/x1/mgmt.xml"
check "instance 2's console log lives in its own folder" grep -q "<log file='$tmp/state-2/dut-console.log'" "$tmp/x2/dut.xml"
check "the lab without an instance keeps the file's subnet and prefix" \
	eval 'grep -q "<ip address=.192.168.150.1." "$tmp/x0/mgmt.xml" && grep -q "<name>fwdlab-dut</name>" "$tmp/x0/dut.xml"'
