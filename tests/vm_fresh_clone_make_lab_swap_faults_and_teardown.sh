#!/usr/bin/env bash
# The b2b lab as a new user meets it on a fresh machine, under TCG when KVM cannot run
# guests, and the faults it must survive (issue 9), all on the one lab that `make lab`
# brings up:
#   a fresh clone             -> `git clone` of the tree into an empty folder: no images/out,
#                                build/, .lab/ or results/ (HEAD: uncommitted changes are
#                                not in it); libvirtd stopped and its state and runtime
#                                folders removed (when no other guest runs), as on a machine
#                                where libvirt never ran and no init system runs
#   make lab (smoke profile)  -> builds vfwd, tgen and both images, starts libvirtd, both VMs
#                                up, NDR search with short trials, results folder
#   fwdlab up again           -> a no-op: same domains (UUIDs), networks, guest boot ids
#   least privilege           -> lab key 0600 in a folder others cannot list; guests refuse
#                                passwords and other keys; isolated mgmt network (no forward,
#                                no NAT, no DHCP/DNS: static addresses); no lab listener on a
#                                non-loopback host address (each listener named by process)
#   a bidirectional trial     -> packets cross the DUT both ways
#   make swap                 -> a second vfwd build replaces the first; show version names it
#   vfwd killed mid-NDR       -> vfwd.service restarts it, the run is invalid, the trial dumps
#                                taken before the kill are kept, the next run is valid
#   DUT destroyed mid-run     -> the run stops naming the VM, keeps its files, is not
#                                complete; fwdlab status says the DUT is down
#   lab-down killed halfway   -> the second lab-down finishes
#   (end state)               -> no domain, network, bridge, hugepage reservation, process,
#                                ssh master or lab file left, in the clone or outside it
#                                (libvirt's configs, logs and runtime files of the lab)
# Prints how long each stage took. Uses its own lab name, folder and subnet, so it does not
# touch a user's lab.
# shellcheck disable=SC2016,SC2034,SC2317 # checks are eval'd later, by check()
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
chmod 0755 "$tmp" # QEMU runs as libvirt-qemu and must reach the lab's disks
src=$top
top=$tmp/fwdlab # the fresh clone: every command below runs there
git clone -q "$src" "$top"
echo "# fresh clone of $src at $(git -C "$top" rev-parse --short HEAD) in $top"
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	echo "# note: $src has uncommitted changes; the clone (and so this test) has HEAD only"
fi
# ../shared (third-party sources, reference data) beside the clone as beside the tree.
if [ -d "$src/../shared" ]; then ln -s "$(cd "$src/../shared" && pwd)" "$tmp/shared"; fi
# The defaults of a user's lab in the clone; only the names and the subnet are the test's,
# so that a user's own lab on this machine is left alone.
export FWDLAB_NAME=fwsmoke FWDLAB_STATE=$top/.lab/b2b FWDLAB_RESULTS=$top/results
unset FWDLAB_NO_INSTALL FWDLAB_ACCEL FWDLAB_TOPOLOGY_CONF FWDLAB_VFWD_BUILD FWDSTAT
export FWDLAB_MGMT_SUBNET=${FWDLAB_MGMT_SUBNET:-192.168.157} TOPOLOGY=b2b
subnet=$FWDLAB_MGMT_SUBNET
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
hp_before=$(cat "$hp")
job="" # a background fwdlab of ours, stopped (by its pid) if the test ends early
cleanup() {
	if [ -n "$job" ]; then kill -TERM "$job" 2>/dev/null || true; fi
	make -s -C "$top" lab-down >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
lab() { "$top/lab/fwdlab" "$@"; }

# listeners: "PROTO ADDRESS:PORT PROCESS[PID]" for each listening TCP or bound UDP socket of
# the host that is not on loopback ("?" when ss cannot see the process).
listeners() {
	ss -H -tulnp | awk '{
		p = "?"
		if (match($0, /users:\(\("[^"]+",pid=[0-9]+/)) {
			p = substr($0, RSTART + 9, RLENGTH - 9); sub(/",pid=/, "[", p); p = p "]"
		}
		print $1, $5, p }' |
		grep -Ev '^[a-z0-9]+ (127\.|\[::1\]|\[::ffff:127\.)' | sort -u || true
}
# lab_pids: libvirtd, virtlogd, the lab's QEMUs and any dnsmasq naming the lab, one a line.
lab_pids() {
	pgrep -x libvirtd || true
	pgrep -x virtlogd || true
	pgrep -f "guest=$FWDLAB_NAME-" || true
	pgrep -f "dnsmasq.*$FWDLAB_NAME-" || true
}
guest_boot_ids() { lab ssh tg cat /proc/sys/kernel/random/boot_id && lab ssh dut cat /proc/sys/kernel/random/boot_id; }
lab_objects() { # domains and networks of the lab, with their UUIDs
	local d
	for d in $(virsh -q list --all --name | grep "^$FWDLAB_NAME-" | sort); do
		echo "domain $d $(virsh domuuid "$d")"
	done
	for d in $(virsh -q net-list --all --name | grep "^$FWDLAB_NAME-" | sort); do
		echo "network $d $(virsh net-uuid "$d")"
	done
}
# guest_dir_count: the trial counter of the experiment tgen runs in the TG now (0 when none).
trial_count() {
	local g
	g=$(cat "$FWDLAB_STATE/tgen-guest-dir" 2>/dev/null) || { echo 0; return; }
	lab ssh tg "cat $g/trials/.count 2>/dev/null || echo 0" 2>/dev/null || echo 0
}
# trial_sending_or_over N: tgen's Nth trial in the TG is sending (the trial hook that counts it
# and clears the DUT's runtime before it has ended there: it runs as "[/bin/]sh [-c ]PATH/
# trial-hook pre DIR ...", a pattern that does not match tgen, whose arguments name it), or the
# background fwdlab ended.
trial_sending_or_over() {
	local g
	kill -0 "$job" 2>/dev/null || return 0
	[ "$(trial_count)" -ge "$1" ] || return 1
	g=$(cat "$FWDLAB_STATE/tgen-guest-dir" 2>/dev/null) || return 1
	! lab ssh tg "pgrep -f '^[^ ]*sh( -c)? [^ ]*trial-hook pre $g/trials'" >/dev/null 2>&1
}
# wait_trials N SECONDS: until tgen's Nth trial is sending (false after SECONDS, saying what
# it waited for, or when the background fwdlab ended).
wait_trials() {
	poll_until "$2" "tgen's trial $1 to be sending in the TG (its pre-trial hook ended)" \
		trial_sending_or_over "$1" && kill -0 "$job" 2>/dev/null
}
comment() { sed "s/^/#   $1/"; } # PREFIX: stdin as TAP comment lines
# fault_wait STAGE LOG LINES: waits for the background fwdlab ($job, started at $t0), prints
# the stage's time and the last LINES of its LOG; rc is fwdlab's exit status.
fault_wait() {
	rc=0
	wait "$job" || rc=$?
	job=""
	echo "# stage $1: $(($(date +%s) - t0)) s (fwdlab exit $rc)"
	sed 's/^/#   /' "$2" | grep -Ev '^#   (EAL|VIRTIO|VHOST|TELEMETRY)' | tail -n "$3"
}

# ---- a machine where libvirt never ran -----------------------------------------------------
# libvirt's state and runtime folders that only an init system (or fwdlab host-setup) makes.
LIBVIRT_FRESH=(/var/lib/libvirt/dnsmasq /var/lib/libvirt/network /run/libvirt)
# libvirt_fresh: stops libvirtd and virtlogd and removes those folders; false (and says why)
# where that would touch more than this test: an init system runs libvirt, or guests run.
libvirt_fresh() {
	local others p
	if [ "$(ps -p 1 -o comm= 2>/dev/null)" = systemd ]; then
		echo "# an init system runs libvirt here: its state folders are left as they are"
		return 1
	fi
	others=$(virsh -q list --name 2>/dev/null | grep -v '^$' || true)
	if [ -n "$others" ]; then
		echo "# guests run (${others//$'\n'/ }): libvirt is left running, its folders kept"
		return 1
	fi
	for p in libvirtd virtlogd; do
		pkill -TERM -x "$p" || true
		poll_until 10 "$p to exit after SIGTERM" eval "! pgrep -x '$p'" || true
		pkill -KILL -x "$p" || true
		rm -f "/run/$p.pid"
	done
	rm -rf "${LIBVIRT_FRESH[@]}"
}
fresh=0
libvirt_fresh && fresh=1
if [ "$fresh" = 1 ]; then
	check "libvirtd and virtlogd stopped, libvirt's dnsmasq, network and run folders gone" \
		eval '! pgrep -x libvirtd >/dev/null && ! pgrep -x virtlogd >/dev/null &&
			! ls -d "${LIBVIRT_FRESH[@]}" 2>/dev/null'
else
	echo "ok $((TAP_N += 1)) - libvirt reset to a fresh machine's state # SKIP guests or an init system run here"
fi
check "the clone has no images/out, build/, .lab/ or results/" \
	eval '! ls -d "$top/images/out" "$top/build" "$top/.lab" "$top/results" 2>/dev/null'
listeners_before=$(listeners)
# A bridge an earlier lab left behind with its libvirt state gone (a killed run): up must
# clear it, not stop at "Network is already in use by interface".
stale_br=""
if [ "$fresh" = 1 ]; then
	stale_br="$FWDLAB_NAME-m"
	ip link show "$stale_br" >/dev/null 2>&1 || ip link add "$stale_br" type bridge || stale_br=""
fi

args="--smoke --label smoke"
make_lab() { # its output also in $tmp/make-lab.out
	make -s -C "$top" lab LAB_ARGS="$args --trial-duration 1 --final-duration 2" 2>&1 |
		tee "$tmp/make-lab.out"
	return "${PIPESTATUS[0]}"
}
stage "make lab (up + reference NDR, smoke profile)" make_lab || {
	for n in tg dut; do
		echo "# --- $n console (last 30 lines)"
		tail -n 30 "$FWDLAB_STATE/$n-console.log" 2>/dev/null | sed 's/^/# /'
	done
	exit 1
}
if [ -n "$stale_br" ]; then
	check "up removed the bridge an earlier lab left ($stale_br, no network owned it)" \
		grep -q "removed bridge $stale_br, a leftover" "$tmp/make-lab.out"
fi
check "both VMs run" eval '[ "$(virsh -q list --name | grep -c "^fwsmoke-")" -eq 2 ]'
if [ "$fresh" = 1 ]; then
	check "up made libvirt's folders again, with Debian's owners and modes" \
		eval '[ "$(stat -c "%U %a" /var/lib/libvirt/dnsmasq)" = "root 755" ] &&
			[ "$(stat -c "%U %a" /var/lib/libvirt/network)" = "root 700" ] &&
			[ -d /run/libvirt/qemu ] && pgrep -x libvirtd >/dev/null && pgrep -x virtlogd >/dev/null'
fi
check "make lab built vfwd, tgen and both images in the clone" \
	eval '[ -x "$top/build/vfwd/default/bin/vfwd" ] && [ -x "$top/build/tgen/bin/tgen" ] &&
		[ -s "$top/images/out/dut.qcow2" ] && [ -s "$top/images/out/tg.qcow2" ]'
run=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'ndr-udp-1500*' -print -quit)
check "results folder is results/<UTC>-b2b-smoke/ndr-udp-1500" \
	eval '[[ $(basename "$(dirname "$run")") =~ ^[0-9]{8}T[0-9]{6}Z-b2b-smoke$ ]]'
check "ndr run is complete" eval '[ "$(jq -r .status "$run/meta.json")" = complete ]'
for node in ethernet-input ip4-lookup ip4-rewrite; do
	check "show_runtime.txt: $node has vectors > 0" \
		eval '[ "$(runtime_vectors "$run/show_runtime.txt" "$node")" -gt 0 ]'
done
# sums DIR: every file of a run folder with its sha256 (a finished run is never rewritten).
sums() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
ndr_sums=$(sums "$run")
check "ndr trials each have a runtime dump" \
	eval '[ "$(find "$run/trials" -name show_runtime.txt | wc -l)" -eq "$(jq ".trials | length" "$run/tgen.json")" ]'

# ---- fwdlab up, a second time: a quick no-op -------------------------------------------
objects_before=$(lab_objects)
boot_before=$(guest_boot_ids) || boot_before="(ssh failed)"
t0=$(date +%s)
stage "fwdlab up again (the lab is up)" quiet lab up --smoke || true
up2_s=$(($(date +%s) - t0))
objects_after=$(lab_objects)
check "second up: same domains and networks, same UUIDs, no new object" \
	eval '[ "$objects_after" = "$objects_before" ] && [ "$(grep -c "^network" <<<"$objects_after")" -eq 3 ]'
check "second up: neither guest rebooted (same boot ids)" \
	eval '[ "$(guest_boot_ids)" = "$boot_before" ]'
check "second up took under 180 s ($up2_s s; a guest reboot takes minutes)" [ "$up2_s" -lt 180 ]

# ---- snapshots: the booted lab saved, down, and back without a boot (issue 16) -----------
# The boot it saves: the DUT's monotonic clock when vfwd.service became active (its boot to
# a forwarding vfwd; under TCG the guest's clock follows the host's).
export FWDLAB_SNAPSHOTS=$tmp/snapshots
boot_us=$(lab ssh dut systemctl show vfwd -p ActiveEnterTimestampMonotonic --value 2>/dev/null) || boot_us=0
boot_s=$((boot_us / 1000000))
boot_before=$(guest_boot_ids) || boot_before="(ssh failed)"
t0=$(date +%s)
stage "fwdlab snapshot save booted" quiet lab snapshot save booted || true
save_s=$(($(date +%s) - t0))
snap=$FWDLAB_SNAPSHOTS/fwsmoke/booted
check "snapshot save: both domains' memory, the lab folder, snapshot.json with the images' sha256" \
	eval '[ -s "$snap/tg.save" ] && [ -s "$snap/dut.save" ] && [ -s "$snap/state/dut.qcow2" ] &&
		jq -e --arg d "$(sha256sum "$top/images/out/dut.qcow2" | cut -d" " -f1)" \
			".nodes == [\"tg\", \"dut\"] and .images_sha256.dut == \$d and .save_seconds > 0" \
			"$snap/snapshot.json" >/dev/null'
check "the lab ran on after the save: same boot ids, vfwd answers" \
	eval '[ "$(guest_boot_ids)" = "$boot_before" ] && lab ssh dut /opt/vfwd/bin/vfwdctl -s /run/vfwd/cli.sock show version >/dev/null'
check "snapshot list names it" eval 'lab snapshot list | grep -q "^booted .* b2b "'
stage "fwdlab down (the snapshot stays)" quiet lab down || true
check "down removed the domains, the snapshot is kept" \
	eval '! virsh -q list --all --name | grep -q "^fwsmoke-" && [ -s "$snap/dut.save" ]'
t0=$(date +%s)
stage "fwdlab up --from-snapshot booted" quiet lab up --smoke --from-snapshot booted || true
restore_s=$(($(date +%s) - t0))
check "restore: neither guest booted (the boot ids of the save)" eval '[ "$(guest_boot_ids)" = "$boot_before" ]'
check "restore: vfwd answers, with its routes" \
	eval 'grep -q 48.0.0.0/8 <<<"$(lab ssh dut /opt/vfwd/bin/vfwdctl -s /run/vfwd/cli.sock show ip fib)"'
echo "# DUT boot to vfwd active: ${boot_s} s; snapshot save: ${save_s} s; up --from-snapshot to vfwd answering: ${restore_s} s"
check "restore to vfwd answering ($restore_s s) is faster than the boot it saves ($boot_s s)" \
	[ "$restore_s" -lt "$boot_s" ]
check "restored domains are persistent (down treats them as any other)" \
	eval '[ "$(virsh dominfo fwsmoke-dut | awk "/^Persistent:/ {print \$2}")" = yes ]'
stage "a run after the restore" quiet lab run --smoke --label smoke --rate 1000 --duration 2 --run after-restore || true
ar=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'after-restore*' -print -quit)
check "after-restore: run complete, vfwd forwarded (tgen rx > 0, at least 99 % of tx)" \
	eval '[ "$(jq -r .status "$ar/meta.json")" = complete ] &&
		jq -e ".trial.rx_packets > 0 and .trial.rx_packets >= 0.99 * .trial.tx_packets" "$ar/tgen.json" >/dev/null'
stage "fwdlab snapshot rm booted" quiet lab snapshot rm booted || true
check "snapshot rm: gone" [ ! -e "$snap" ]

# ---- least privilege ---------------------------------------------------------------------
key=$FWDLAB_STATE/id_ed25519
check "lab ssh key is mode 0600 ($(stat -c %a "$key"))" [ "$(stat -c %a "$key")" = 600 ]
mode=$(stat -c %a "$FWDLAB_STATE")
check "lab folder is not readable by others (mode $mode)" [ $((8#$mode & 4)) -eq 0 ]
check "the TG's copy of the key (for the trial hooks) is mode 0600" \
	eval '[ "$(lab ssh tg stat -c %a /root/.ssh/fwdlab_lab)" = 600 ]'
ssh_try() { # IP SSH-OPTIONS...: an ssh login attempt that must not use the lab's key
	local ip=$1
	shift
	SSH_AUTH_SOCK="" ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=20 "$@" \
		"root@$ip" true 2>&1
}
for n in tg:10 dut:11; do
	out=$(ssh_try "$subnet.${n#*:}" -o PubkeyAuthentication=no \
		-o PreferredAuthentications=password,keyboard-interactive) && rc=0 || rc=$?
	comment "${n%:*} without a key: " <<<"$out"
	check "${n%:*}: password login refused, the server offers publickey only" \
		eval '[ "$rc" -ne 0 ] && grep -q "Permission denied (publickey)" <<<"$out"'
done
password_accounts() { lab ssh "$1" "awk -F: '\$2 !~ /^[!*]/ { print \$1 }' /etc/shadow"; }
ssh-keygen -q -t ed25519 -N '' -C other -f "$tmp/other_key"
out=$(ssh_try "$subnet.11" -i "$tmp/other_key" -o IdentitiesOnly=yes) && rc=0 || rc=$?
check "dut: a key other than the lab's is refused" \
	eval '[ "$rc" -ne 0 ] && grep -q "Permission denied" <<<"$out"'
for n in tg dut; do
	check "$n: no account has a usable password (shadow: ! or *)" \
		eval '[ -z "$(password_accounts "$n")" ]'
	check "$n: no default route (the mgmt network leads nowhere)" \
		eval '[ -z "$(lab ssh $n ip -4 route show default)" ]'
done
mgmt_xml=$(virsh net-dumpxml "$FWDLAB_NAME-mgmt")
check "mgmt network: isolated (no <forward>), no DHCP, DNS disabled" \
	eval '! grep -q "<forward" <<<"$mgmt_xml" && ! grep -q "<dhcp" <<<"$mgmt_xml" &&
		grep -q "<dns enable=.no./>" <<<"$mgmt_xml"'
check "data networks: no <ip>, no <forward>" \
	eval '! virsh net-dumpxml "$FWDLAB_NAME-link0" | grep -Eq "<ip|<forward" &&
		! virsh net-dumpxml "$FWDLAB_NAME-link1" | grep -Eq "<ip|<forward"'
rules=$(iptables-save 2>/dev/null || true)
check "libvirt's firewall rejects forwarding into and out of the mgmt bridge" \
	eval 'grep -q -- "-A LIBVIRT_FWO -i $FWDLAB_NAME-m -j REJECT" <<<"$rules" &&
		grep -q -- "-A LIBVIRT_FWI -o $FWDLAB_NAME-m -j REJECT" <<<"$rules"'
check "no NAT rule for the mgmt subnet" eval '! grep -E "MASQUERADE|SNAT" <<<"$rules" | grep -qF "$subnet."'
check "no dnsmasq serves the lab" eval '! pgrep -f "dnsmasq.*$FWDLAB_NAME-" >/dev/null'
for n in tg dut; do
	qpid=$(pgrep -f "guest=$FWDLAB_NAME-$n," | head -n1)
	qargs=$(tr '\0' ' ' <"/proc/$qpid/cmdline" 2>/dev/null || true)
	check "$n: QEMU has no VNC or SPICE (no <graphics>, -display none)" \
		eval '! virsh dumpxml "$FWDLAB_NAME-$n" | grep -q "<graphics" &&
			[[ $qargs == *"-display none"* ]] && [[ $qargs != *"-vnc"* ]] &&
			[[ $qargs != *"-spice"* ]]'
done
listeners_now=$(listeners)
echo "# non-loopback listeners on the host now (new since before make lab marked +):"
while read -r l; do
	[ -n "$l" ] || continue
	if grep -qxF -- "$l" <<<"$listeners_before"; then echo "#   $l"; else echo "# + $l"; fi
done <<<"$listeners_now"
pids=$(lab_pids | sort -u)
ours=$(while read -r proto addr proc; do
	pid=${proc##*[}
	pid=${pid%]}
	if grep -qxF -- "$pid" <<<"$pids" || [[ $addr == "$subnet".* ]]; then
		echo "$proto $addr $proc"
	fi
done <<<"$listeners_now")
check "no listener of libvirtd, virtlogd, dnsmasq or the lab's QEMUs, none on $subnet.1 (found: ${ours:-none})" \
	[ -z "$ours" ]

stage "bidirectional trial" lab run --smoke --label smoke --bidir --rate 2000 --duration 3 --run bidir || true
bidir=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'bidir*' -print -quit)
for node in port0-rx port1-rx port0-tx port1-tx; do
	check "bidir: $node has vectors > 0 (packets cross the DUT both ways)" \
		eval '[ "$(runtime_vectors "$bidir/show_runtime.txt" "$node")" -gt 0 ]'
done
check "bidir: tgen received packets" \
	eval '[ "$(jq -r ".trial.rx_packets // 0" "$bidir/tgen.json")" -gt 0 ]'

label=swap-$(date +%s)
stage "build a second vfwd (debug variant, label $label)" \
	quiet make -s -C "$top/forwarder" TOP="$tmp/b" VARIANT=debug LABEL="$label" || true
stage "make swap" make -s -C "$top" swap DUT_BUILD="$tmp/b/build/vfwd/debug" || true
check "show version names the swapped build" \
	eval 'lab ssh dut /opt/vfwd/bin/vfwdctl show version | grep -qF "$label"'
stage "make dump" make -s -C "$top" dump || true
d=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'dump*' -print -quit)
check "dump after swap records the new build in meta.json" \
	eval '[ "$(jq -r .dut.build_label "$d/meta.json")" = "$label" ]'
for f in show_runtime.txt show_errors.txt show_interfaces.txt show_version.txt xstats.txt dmesg.txt; do
	check "dump has $f" [ -s "$d/$f" ]
done

# ---- vfwd killed in the DUT during an NDR search -----------------------------------------
vfwd_unit() { lab ssh dut systemctl show -p "$1" --value vfwd.service; }
pid0=$(vfwd_unit MainPID) restarts0=$(vfwd_unit NRestarts)
t0=$(date +%s)
echo "# stage vfwd killed mid-NDR: start $(date -u +%H:%M:%S)"
lab ndr --smoke --label smoke --trial-duration 2 --final-duration 2 --run vfwd-killed \
	>"$tmp/killed.log" 2>&1 &
job=$!
killed=0
if wait_trials 2 300; then
	lab ssh dut 'kill -KILL $(systemctl show -p MainPID --value vfwd.service)' && killed=1
fi
fault_wait "vfwd killed mid-NDR" "$tmp/killed.log" 12
killed_run=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'vfwd-killed*' -print -quit)
check "vfwd was killed with SIGKILL in the DUT once the second trial had begun" [ "$killed" = 1 ]
check "fwdlab ndr exits with status 3 (a fault made the run invalid), not 0 ($rc)" [ "$rc" -eq 3 ]
check "vfwd-killed: meta.json status invalid, failure names the restart and SIGKILL" \
	eval '[ "$(jq -r .status "$killed_run/meta.json")" = invalid ] &&
		jq -r .failure "$killed_run/meta.json" | grep -q "restarted.*KILL"'
check "vfwd-killed: meta.json faults records vfwd's exit (pid $pid0)" \
	eval '[ "$(jq -r "[.faults[] | select(.event == \"exit\")][0].pid" "$killed_run/meta.json")" = "$pid0" ]'
check "vfwd-killed: the first trial's dump (taken before the kill) is kept, with packets" \
	eval '[ "$(runtime_vectors "$killed_run/trials/000/show_runtime.txt" ethernet-input)" -gt 0 ]'
check "vfwd.service restarted vfwd (NRestarts $restarts0 -> $(vfwd_unit NRestarts), new pid)" \
	eval '[ "$(vfwd_unit NRestarts)" -gt "$restarts0" ] && [ "$(vfwd_unit MainPID)" != "$pid0" ]'
check "the restarted vfwd answers and runs the swapped build" \
	eval 'lab ssh dut /opt/vfwd/bin/vfwdctl show version | grep -qF "$label"'
stage "the next run, after the restart" \
	lab run --smoke --label smoke --rate 2000 --duration 3 --run after-kill || true
after=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'after-kill*' -print -quit)
after_sums=$(sums "$after")
check "after-kill: run complete, vfwd forwards again (ip4-rewrite vectors > 0, tgen rx > 0)" \
	eval '[ "$(jq -r .status "$after/meta.json")" = complete ] &&
		[ "$(runtime_vectors "$after/show_runtime.txt" ip4-rewrite)" -gt 0 ] &&
		[ "$(jq -r ".trial.rx_packets // 0" "$after/tgen.json")" -gt 0 ]'

# ---- the DUT VM destroyed during a run ---------------------------------------------------
t0=$(date +%s)
echo "# stage DUT destroyed mid-run: start $(date -u +%H:%M:%S)"
lab run --smoke --label smoke --rate 2000 --duration 12 --run dut-destroyed \
	>"$tmp/destroyed.log" 2>&1 &
job=$!
destroyed=0
if wait_trials 1 300; then
	virsh destroy "$FWDLAB_NAME-dut" >/dev/null && destroyed=1
fi
fault_wait "DUT destroyed mid-run" "$tmp/destroyed.log" 8
gone=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'dut-destroyed*' -print -quit)
check "the DUT VM was destroyed during the trial" [ "$destroyed" = 1 ]
check "fwdlab run fails ($rc) with a message naming the VM ($FWDLAB_NAME-dut)" \
	eval '[ "$rc" -ne 0 ] && grep -q "$FWDLAB_NAME-dut" "$tmp/destroyed.log"'
check "dut-destroyed: run not complete, meta.json failure names the VM" \
	eval '[ "$(jq -r .status "$gone/meta.json")" != complete ] &&
		jq -r .failure "$gone/meta.json" | grep -q "$FWDLAB_NAME-dut"'
check "dut-destroyed: what it collected is kept (tgen.log with tgen's start line)" \
	eval 'grep -q "^tgen run:" "$gone/tgen.log"'
status_out=$(lab status 2>&1 || true)
comment "" <<<"$status_out"
check "fwdlab status says the DUT is down" \
	eval 'grep -Eq "^ +dut +$FWDLAB_NAME-dut +DOWN" <<<"$status_out"'
check "finished runs (the NDR, after-kill) kept every file unchanged through the faults" \
	eval '[ "$(sums "$run")" = "$ndr_sums" ] && [ "$(sums "$after")" = "$after_sums" ] &&
		[ "$(jq -r .status "$run/meta.json")" = complete ]'

# ---- fwdlab down killed halfway, then run again ------------------------------------------
setsid "$top/lab/fwdlab" down >"$tmp/down1.log" 2>&1 &
job=$!
for ((i = 0; i < 600; i++)); do
	grep -q "removed domain" "$tmp/down1.log" && break
	kill -0 "$job" 2>/dev/null || break
	sleep 0.05
done
kill -KILL -- "-$job" 2>/dev/null || true
wait "$job" 2>/dev/null || true
job=""
comment "interrupted down: " <"$tmp/down1.log"
left=$(lab_objects)
comment "left after the kill: " <<<"$left"
check "the interrupted down left part of the lab (networks) for the second run" \
	eval 'grep -q "^network" <<<"$left"'
stage "make lab-down" make -s -C "$top" lab-down || true
check "no domain left" eval '! virsh -q list --all --name | grep -q "^fwsmoke-"'
check "no network left" eval '! virsh -q net-list --all --name | grep -q "^fwsmoke-"'
check "no bridge left" eval '! ip -o link show | grep -q "fwsmoke-"'
check "hugepage reservation given back" [ "$(cat "$hp")" -eq "$hp_before" ]
check "no qemu process of the lab left" eval '! pgrep -f "guest=fwsmoke-" >/dev/null'
check "no ssh master connection of the lab left" eval '! pgrep -f "$FWDLAB_STATE/ssh-" >/dev/null'
left=$(find "$FWDLAB_STATE" -type f 2>/dev/null || true)
comment "left in the lab folder: " <<<"${left:-nothing}"
check "lab folder holds no disk, seed, key or XML" [ -z "$left" ]
outside=$(find /etc/libvirt /var/log/libvirt /var/lib/libvirt /run/libvirt /dev/hugepages \
	-name "*fwsmoke-*" 2>/dev/null || true)
comment "left outside the clone: " <<<"${outside:-nothing}"
check "nothing of the lab left outside the clone (libvirt configs, logs, runtime, hugepage files)" \
	[ -z "$outside" ]
exit "$TAP_FAILED"
