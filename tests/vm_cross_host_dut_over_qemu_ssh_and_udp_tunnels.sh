#!/usr/bin/env bash
# A lab across two libvirt hosts (issue 16), without a second machine: the DUT's "host" is
# this machine's libvirt reached over qemu+ssh://root@127.0.0.1:PORT/system, through an sshd
# of the test's own (loopback only, a key the test makes, stopped at the end); the TG stays
# on qemu:///system. What crosses the "hosts" is real:
#   the copy        -> up copies the DUT's image, kernel, initrd and seed over ssh into the
#                      test's remote_dir, each checked by sha256 there; the DUT's overlay disk
#                      is made there on the copy; the domain XML names the remote paths only
#   the remote plan -> the plan is made per host (libvirt over ssh answers for the DUT's);
#                      the DUT's hugepages are reserved over ssh
#   the tunnels     -> both data links are libvirt UDP tunnels on 127.0.0.1 (no link network
#                      or bridge of the lab exists, each QEMU holds its two UDP ports); a run
#                      through them gets its frames back, and vfwd's graph routed them
#   down            -> removes the DUT's files on its host and gives its hugepages back, keeps
#                      the shared images/ folder; no domain, network or bridge is left
# Its own lab name, folders, subnet and UDP ports, so a user's lab is left alone.
# shellcheck disable=SC2016,SC2034,SC2001 # checks are eval'd by check(), which reads the variables
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/tap.sh
. "$top/tests/tap.sh"
lab() { "$top/lab/fwdlab" "$@"; }
[ -x /usr/sbin/sshd ] || skip_all "no /usr/sbin/sshd (openssh-server, in tests/apt-packages.txt)"
tmp=$(mktemp -d)
chmod 0755 "$tmp" # QEMU runs as libvirt-qemu and must reach the lab's disks
export FWDLAB_NAME=fwxhost FWDLAB_STATE=$tmp/lab FWDLAB_RESULTS=$tmp/results TOPOLOGY=b2b
export FWDLAB_MGMT_SUBNET=${FWDLAB_MGMT_SUBNET:-192.168.158} FWDLAB_TOPOLOGY_CONF=$tmp/topo.conf
unset FWDLAB_ACCEL FWDLAB_VFWD_BUILD
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
hp_before=$(cat "$hp")
port=$((22000 + $$ % 5000)) tport=$((52000 + $$ % 5000 * 2))
remote=$tmp/remote
cleanup() {
	lab --topology b2b down >/dev/null 2>&1 || true
	if [ -s "$tmp/sshd.pid" ]; then kill "$(cat "$tmp/sshd.pid")" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# ---- the second "host": sshd on loopback, libvirt over qemu+ssh --------------------------
ssh-keygen -q -t ed25519 -N '' -C fwxhost-test -f "$tmp/client_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
cat >"$tmp/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/client_key.pub
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -f "$tmp/sshd_config" -E "$tmp/sshd.log"
FWDLAB_NO_INSTALL=1 lab host-setup >/dev/null 2>&1 || true
uri="qemu+ssh://root@127.0.0.1:$port/system?keyfile=$tmp/client_key&no_verify=1"
for _ in $(seq 50); do virsh -c "$uri" version >/dev/null 2>&1 && break; sleep 0.2; done
check "libvirt answers over qemu+ssh through the test's sshd on 127.0.0.1:$port" \
	eval 'virsh -c "$uri" version >/dev/null'
check "the test's sshd listens on loopback only" \
	eval '[ "$(ss -H -tlnp | grep "sshd" | grep ":$port " | awk "{print \$4}")" = "127.0.0.1:$port" ]'

grep -v '^dut.uri = ' "$top/topologies/b2b/topology.conf" >"$tmp/topo.conf"
cat >>"$tmp/topo.conf" <<EOF
# the test's: the DUT on the "remote" host, both data links UDP tunnels over loopback
dut.uri = $uri
dut.remote_dir = $remote
tg.underlay = 127.0.0.1
dut.underlay = 127.0.0.1
tunnel_port = $tport
EOF

# ---- up ------------------------------------------------------------------------------------
stage "fwdlab up (TG here, DUT over qemu+ssh)" eval 'lab --topology b2b up --smoke >"$tmp/up.out" 2>&1' || {
	tail -n 40 "$tmp/up.out" | sed 's/^/# /'
	tail -n 30 "$remote/$FWDLAB_NAME/dut-console.log" 2>/dev/null | sed 's/^/# dut console: /'
	exit 1
}
grep -E 'copied|is there|UDP tunnel|reserved|started' "$tmp/up.out" | sed 's/^/#   /'
img=$top/images/out/dut.qcow2
sum=$(sha256sum "$img" | cut -d' ' -f1)
rimg=$remote/images/${sum:0:16}-dut.qcow2
check "the DUT's image is on its host under its sha256 (images/${sum:0:16}-dut.qcow2), the same bytes" \
	eval '[ "$(sha256sum "$rimg" | cut -d" " -f1)" = "$sum" ]'
check "its kernel and initrd too" \
	eval 'for f in vmlinuz initrd; do
		s=$(sha256sum "$top/images/out/dut.$f" | cut -d" " -f1)
		[ "$(sha256sum "$remote/images/${s:0:16}-dut.$f" | cut -d" " -f1)" = "$s" ] || exit 1
	done'
check "up said each copy was checked by sha256 there" \
	eval '[ "$(grep -c "sha256 .* checked there" "$tmp/up.out")" -ge 4 ]'
check "the DUT's seed on its host is the one made here" \
	eval 'cmp -s "$remote/$FWDLAB_NAME/dut-seed/seed.iso" "$FWDLAB_STATE/dut-seed/seed.iso"'
check "the DUT's overlay disk is on its host, backed by the copy" \
	eval '[ "$(qemu-img info -U --output=json "$remote/$FWDLAB_NAME/dut.qcow2" | jq -r ".\"backing-filename\"")" = "$rimg" ]'
check "no overlay disk of the DUT here" [ ! -e "$FWDLAB_STATE/dut.qcow2" ]
dutxml=$(virsh -c "$uri" dumpxml "$FWDLAB_NAME-dut")
check "the DUT's domain (over qemu+ssh) names only its host's paths for disk, seed, kernel, initrd, log" \
	eval '[ "$(grep -E "source file=|<kernel>|<initrd>|log file=" <<<"$dutxml" | grep -c "$remote/")" -ge 5 ] &&
		! grep -q "$top/images" <<<"$dutxml" && ! grep -q "$FWDLAB_STATE/" <<<"$dutxml"'
check "both nodes' data NICs are UDP tunnels (2 each), no link network or bridge exists" \
	eval '[ "$(grep -c "<interface type=.udp.>" <<<"$dutxml")" -eq 2 ] &&
		[ "$(virsh dumpxml "$FWDLAB_NAME-tg" | grep -c "<interface type=.udp.>")" -eq 2 ] &&
		! virsh -q net-list --all --name | grep -q "^$FWDLAB_NAME-link" &&
		! ip -o link show | grep -q "$FWDLAB_NAME-l[0-9]"'
udp=$(ss -H -uanp | grep -E "127\.0\.0\.1:($tport|$((tport + 1))|$((tport + 2))|$((tport + 3))) " || true)
sed 's/^/#   /' <<<"$udp"
check "the QEMUs hold the tunnels' 4 UDP ports on 127.0.0.1 ($tport-$((tport + 3)))" \
	eval '[ "$(grep -c qemu-system <<<"$udp")" -eq 4 ]'
check "up and status print each tunnel with its MTU (1458 without fragments)" \
	eval '[ "$(grep -c "UDP tunnel .* IP MTU 1458" "$tmp/up.out")" -eq 2 ] &&
		[ "$(lab --topology b2b status | grep -c "UDP tunnel .* IP MTU 1458")" -eq 2 ]'
check "the DUT's hugepages were reserved over ssh, on its host" \
	eval '[ -s "$remote/$FWDLAB_NAME/dut.hugepages" ] && grep -q "hugepages of 2 MB on root@127.0.0.1" "$tmp/up.out"'

check "graph draws both links as UDP tunnels" \
	eval '[ "$(lab --topology b2b graph --format dot | grep -c "UDP tunnel 127.0.0.1:")" -eq 2 ]'

# ---- traffic through the tunnels ---------------------------------------------------------
# The kernel's count of UDP datagrams dropped because a socket's receive buffer was full
# (QEMU's socket netdev reads a tunnel only when its guest has room: under TCG a guest can
# fall behind by more than the default 208 KiB buffer, about 140 frames of 1500 bytes).
rcvbuf_errors() { awk '$1 == "Udp:" && $2 ~ /^[0-9]+$/ { print $6 }' /proc/net/snmp; }
rb0=$(rcvbuf_errors)
stage "a run through the tunnels" eval 'lab --topology b2b run --smoke --label xhost --rate 1000 \
	--duration 3 --run tunnel >"$tmp/run.out" 2>&1' || tail -n 20 "$tmp/run.out" | sed 's/^/# /'
rb=$(($(rcvbuf_errors) - rb0))
run=$(find "$FWDLAB_RESULTS" -mindepth 2 -maxdepth 2 -type d -name 'tunnel*' -print -quit)
read -r tx rx < <(jq -r '"\(.trial.tx_packets) \(.trial.rx_packets)"' "$run/tgen.json" 2>/dev/null || echo "0 0")
echo "#   tgen tx $tx, rx $rx, lost $((tx - rx)); the kernel's UDP receive-buffer drops in the run: $rb"
# (lost here: 45 of 2994 and 173 of 2993 in two runs under TCG, each one a receive-buffer drop)
check "the run is complete and tgen got its frames back (rx $rx > 0, at least half of tx $tx)" \
	eval '[ "$(jq -r .status "$run/meta.json")" = complete ] && [ "$rx" -gt 0 ] && [ $((rx * 2)) -ge "$tx" ]'
check "every frame lost ($((tx - rx))) was one the kernel dropped from a full tunnel socket buffer ($rb)" \
	[ $((tx - rx)) -le "$rb" ]
check "vfwd's graph routed them (ip4-rewrite vectors >= tgen rx)" \
	eval '[ "$(runtime_vectors "$run/show_runtime.txt" ip4-rewrite)" -ge "$(jq .trial.rx_packets "$run/tgen.json")" ]'

# ---- down ----------------------------------------------------------------------------------
stage "fwdlab down" eval 'lab --topology b2b down >"$tmp/down.out" 2>&1' || tail -n 20 "$tmp/down.out" | sed 's/^/# /'
check "no domain of the lab on either \"host\"" \
	eval '! virsh -q list --all --name | grep -q "^$FWDLAB_NAME-" &&
		! virsh -q -c "$uri" list --all --name | grep -q "^$FWDLAB_NAME-"'
check "no network or bridge of the lab left" \
	eval '! virsh -q net-list --all --name | grep -q "^$FWDLAB_NAME-" && ! ip -o link show | grep -q "$FWDLAB_NAME-"'
check "the DUT's files on its host are gone, the shared images/ stays" \
	eval '[ ! -e "$remote/$FWDLAB_NAME" ] && [ -s "$rimg" ]'
check "hugepages given back on both \"hosts\" (pool $(cat "$hp"), was $hp_before)" [ "$(cat "$hp")" -eq "$hp_before" ]
check "no qemu of the lab left" eval '! pgrep -f "guest=$FWDLAB_NAME-" >/dev/null'
tap_done
