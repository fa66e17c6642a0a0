#!/usr/bin/env bash
# provisioning/make-seed and the in-guest fwdlab-dataplane, without a VM: the seed is
# reproducible and holds what the lab asked for, bad arguments are refused with a clear
# message, and the guest side parses its config (FILE:LINE errors) and renders the vfwd
# startup file (a `dev MAC` becomes the NIC's PCI address). TAP output.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prov=$(cd "$here/.." && pwd)
seed=$prov/make-seed
dataplane=$prov/guest/fwdlab-dataplane
tmp=$(mktemp -d /tmp/fwdlab-seed-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0
tap() { # ok|fail NAME [why]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2${3:+ # $3}"; fi
}

ssh-keygen -q -t ed25519 -N '' -C seed-test -f "$tmp/id" </dev/null
args=(--role dut --hostname dut1 --ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:AA:00:01
	--data-mac 52:54:00:00:10:01 --data-mac 52:54:00:00:10:02 --isolate 1-2 --hugepages 300)
"$seed" "${args[@]}" --out "$tmp/a" >/dev/null
# the subject, not a wait: the second seed is made in a later second, so that a timestamp
# (file mtimes, the ISO's dates) that leaked into the image would make the two differ
sleep 1.1
"$seed" "${args[@]}" --out "$tmp/b" >/dev/null
a=$(sha256sum <"$tmp/a/seed.iso") b=$(sha256sum <"$tmp/b/seed.iso")
if [ "$a" = "$b" ]; then tap ok same_arguments_give_a_byte_identical_seed
else tap fail same_arguments_give_a_byte_identical_seed "$a vs $b"; fi

mkdir -p "$tmp/x"
xorriso -osirrox on -indev "$tmp/a/seed.iso" -extract / "$tmp/x" >/dev/null 2>&1
label=$(xorriso -indev "$tmp/a/seed.iso" -pvd_info 2>/dev/null | awk -F': ' '/^Volume Id/ { print $2 }')
if [ "$label" = cidata ] && cmp -s "$tmp/x/user-data" "$tmp/a/user-data" &&
	cmp -s "$tmp/x/meta-data" "$tmp/a/meta-data" && cmp -s "$tmp/x/network-config" "$tmp/a/network-config"; then
	tap ok seed_is_a_cidata_volume_with_user_data_meta_data_network_config
else
	tap fail seed_is_a_cidata_volume_with_user_data_meta_data_network_config "label '$label'"
fi

ud=$(tail -n +2 "$tmp/a/user-data")
if [ "$(head -n 1 "$tmp/a/user-data")" = "#cloud-config" ] &&
	jq -e --arg k "$(cat "$tmp/id.pub")" '.ssh_authorized_keys == [$k] and .ssh_pwauth == false
		and .hostname == "dut1" and (has("password") | not) and (has("chpasswd") | not)' \
		<<<"$ud" >/dev/null; then
	tap ok user_data_carries_the_lab_key_and_no_password
else
	tap fail user_data_carries_the_lab_key_and_no_password
fi

file_of() { jq -r --arg p "$1" '.write_files[] | select(.path == $p) | .content' <<<"$ud" | base64 -d; }
dp=$(file_of /etc/fwdlab/dataplane.conf)
if grep -qx 'port port0 52:54:00:00:10:01' <<<"$dp" && grep -qx 'port port1 52:54:00:00:10:02' <<<"$dp" &&
	grep -qx 'driver uio_pci_generic' <<<"$dp" && grep -qx 'hugepages 300' <<<"$dp" &&
	grep -qx 'start vfwd' <<<"$dp"; then
	tap ok dataplane_conf_names_data_nics_by_mac_in_port_order
else
	tap fail dataplane_conf_names_data_nics_by_mac_in_port_order "${dp//$'\n'/; }"
fi

if jq -e '.ethernets | length == 1 and .mgmt.match.macaddress == "52:54:00:aa:00:01"' \
	"$tmp/a/network-config" >/dev/null; then
	tap ok network_config_matches_only_the_management_nic
else
	tap fail network_config_matches_only_the_management_nic
fi

cl=$(cat "$tmp/a/cmdline")
want="root=LABEL=fwdlab-root rw console=ttyS0 default_hugepagesz=2M hugepagesz=2M hugepages=300 isolcpus=1-2 nohz_full=1-2 rcu_nocbs=1-2 tsc=reliable"
if [ "$cl" = "$want" ]; then tap ok cmdline_has_hugepages_isolated_cpus_and_tsc_reliable
else tap fail cmdline_has_hugepages_isolated_cpus_and_tsc_reliable "got '$cl'"; fi

"$seed" --role tg --hostname tg1 --ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:aa:00:02 \
	--data-mac 52:54:00:00:20:01 --driver vfio-pci --hugepagesz 1G --hugepages 2 --out "$tmp/t" >/dev/null
cl=$(cat "$tmp/t/cmdline")
tud=$(tail -n +2 "$tmp/t/user-data")
if grep -q 'intel_iommu=on iommu=pt' <<<"$cl" && grep -q 'hugepagesz=1G hugepages=2' <<<"$cl" &&
	! jq -e '.write_files[] | select(.path | startswith("/etc/vfwd"))' <<<"$tud" >/dev/null; then
	tap ok tg_seed_with_vfio_asks_for_an_iommu_and_has_no_vfwd_files
else
	tap fail tg_seed_with_vfio_asks_for_an_iommu_and_has_no_vfwd_files "cmdline '$cl'"
fi

refused() { # NAME EXPECTED-MESSAGE ARGS...
	local name=$1 msg=$2 err rc=0
	shift 2
	err=$("$seed" "$@" --out "$tmp/r" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" -ne 0 ] && grep -qF -- "$msg" <<<"$err"; then tap ok "$name"
	else tap fail "$name" "exit $rc, '$err'"; fi
}
base=(--role dut --hostname d --ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:aa:00:01)
refused a_private_key_is_refused "is a private key" --role dut --hostname d --ssh-key "$tmp/id" \
	--mgmt-mac 52:54:00:aa:00:01
refused a_bad_mac_is_refused "'52:54:00:zz:00:01' is not a MAC address" "${base[@]}" \
	--data-mac 52:54:00:zz:00:01
refused the_management_mac_cannot_be_a_data_mac "is given twice" "${base[@]}" \
	--data-mac 52:54:00:AA:00:01
refused cpu_0_cannot_be_isolated "CPU 0" "${base[@]}" --isolate 0-1
refused a_bad_role_is_refused "--role is dut or tg" --role x --hostname d --ssh-key "$tmp/id.pub" \
	--mgmt-mac 52:54:00:aa:00:01
refused max_sleep_needs_adaptive "--adaptive-max-sleep-us goes with --rx-mode adaptive" \
	"${base[@]}" --rx-mode poll --adaptive-max-sleep-us 1000
refused max_sleep_is_a_bounded_number "not a number of microseconds in 1..100000" "${base[@]}" \
	--rx-mode adaptive --adaptive-max-sleep-us 0
refused a_bad_hostname_is_refused "not a valid host name" --role tg --hostname Bad_Name \
	--ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:aa:00:01

# TRex's settings for the TG image with TRex (--trex-env): installed as /etc/fwdlab/trex.env,
# byte for byte; a line that is not KEY=VALUE is refused with FILE:LINE; not for a DUT.
printf '# TRex in the TG\nFWDLAB_GEN_DIR=/run/fwdlab/gen-trex\nFWDLAB_GEN_PCI0=0000:00:04.0\nFWDLAB_GEN_GW0=10.0.0.1\n' \
	>"$tmp/trex.env"
tg=(--role tg --hostname tg1 --ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:aa:00:02)
"$seed" "${tg[@]}" --data-mac 52:54:00:00:20:01 --trex-env "$tmp/trex.env" --out "$tmp/te" >/dev/null
teud=$(tail -n +2 "$tmp/te/user-data")
if [ "$(ud=$teud file_of /etc/fwdlab/trex.env)" = "$(cat "$tmp/trex.env")" ] &&
	[ "$(jq -r '.write_files[] | select(.path == "/etc/fwdlab/trex.env") | .permissions' <<<"$teud")" = 0644 ]; then
	tap ok tg_seed_installs_the_trex_env_file_as_given
else
	tap fail tg_seed_installs_the_trex_env_file_as_given
fi
printf 'FWDLAB_GEN_DIR=/run/x\nFWDLAB_GEN_IP0="10.0.0.2 x"\n' >"$tmp/bad.env"
refused a_trex_env_line_that_is_not_key_value_is_refused_with_file_and_line "$tmp/bad.env:2: not KEY=VALUE" \
	"${tg[@]}" --trex-env "$tmp/bad.env"
refused trex_env_is_for_the_tg "--trex-env is for --role tg" "${base[@]}" --trex-env "$tmp/trex.env"

# The guest side: a bad line in dataplane.conf is refused with FILE:LINE.
printf 'driver uio_pci_generic\nhugepages 0\nbogus 1\n' >"$tmp/bad.conf"
err=$(FWDLAB_DATAPLANE_CONF=$tmp/bad.conf FWDLAB_STATE=$tmp/state "$dataplane" 2>&1) && rc=0 || rc=$?
if [ "$rc" -ne 0 ] && grep -qF "$tmp/bad.conf:3: unknown setting 'bogus'" <<<"$err"; then
	tap ok guest_setup_refuses_a_bad_config_line_with_file_and_line
else
	tap fail guest_setup_refuses_a_bad_config_line_with_file_and_line "exit $rc, '$err'"
fi

# The guest side renders the startup file: `dev MAC` -> `dev PCI` (ports already bound).
mkdir -p "$tmp/state"
printf 'port0 52:54:00:00:10:01 0000:00:03.0 uio_pci_generic\nport1 52:54:00:00:10:02 0000:00:04.0 uio_pci_generic\n' \
	>"$tmp/state/ports"
file_of /etc/vfwd/startup.conf.in >"$tmp/startup.conf.in"
printf 'driver uio_pci_generic\nhugepages 0\nstart none\n' >"$tmp/ok.conf"
if FWDLAB_DATAPLANE_CONF=$tmp/ok.conf FWDLAB_STATE=$tmp/state FWDLAB_VFWD_TEMPLATE=$tmp/startup.conf.in \
	FWDLAB_VFWD_CONF=$tmp/startup.conf "$dataplane" >/dev/null 2>&1 &&
	grep -q 'dev 0000:00:03.0 { name port0 }' "$tmp/startup.conf" &&
	grep -q 'dev 0000:00:04.0 { name port1 }' "$tmp/startup.conf" &&
	grep -q 'corelist-workers 1-2' "$tmp/startup.conf"; then
	tap ok guest_setup_rewrites_dev_mac_to_the_pci_address
else
	tap fail guest_setup_rewrites_dev_mac_to_the_pci_address "$(tr '\n' ';' <"$tmp/startup.conf" 2>/dev/null)"
fi
# ...and if vfwd is in the tree, vfwd itself accepts the rendered file.
vfwd=${VFWD:-$prov/../build/vfwd/default/bin/vfwd}
if [ -x "$vfwd" ]; then
	# --check also refuses cores this host's process may not use: the file is the guest's
	# (workers 1-2 of its 3 vCPUs), so its worker list becomes one this host has; every
	# other line is checked as rendered.
	sed 's/corelist-workers 1-2/corelist-workers 1/' "$tmp/startup.conf" >"$tmp/startup.host.conf"
	if err=$("$vfwd" --check -c "$tmp/startup.host.conf" 2>&1); then
		tap ok vfwd_accepts_the_default_startup_file
	else
		tap fail vfwd_accepts_the_default_startup_file "${err//$'\n'/; }"
	fi
else
	tap ok "vfwd_accepts_the_default_startup_file # SKIP no vfwd build at $vfwd"
fi

# An adaptive DUT's sleep bound (the b2b lab under TCG): on the startup file's cpu line, and
# vfwd accepts it.
"$seed" "${base[@]}" --data-mac 52:54:00:00:10:01 --rx-mode adaptive --adaptive-max-sleep-us 1000 \
	--out "$tmp/ms" >/dev/null
ud=$(tail -n +2 "$tmp/ms/user-data")
cpu=$(file_of /etc/vfwd/startup.conf.in | grep '^cpu ')
printf '%s\n' "$cpu" >"$tmp/cpu.conf"
if [[ $cpu == *"corelist-workers 1  rx-mode adaptive  adaptive-max-sleep-us 1000 }" ]] &&
	{ [ ! -x "$vfwd" ] || "$vfwd" --check -c "$tmp/cpu.conf" >/dev/null 2>&1; }; then
	tap ok dut_seed_carries_the_adaptive_sleep_bound
else
	tap fail dut_seed_carries_the_adaptive_sleep_bound "cpu line '$cpu'"
fi
# guest setup on a template whose dev MAC is no data NIC: NAME STATE MAC RC ("1": exit 1,
# "fail": any non-zero exit); the error names the template's file and line.
dev_mac_is_refused() {
	local name=$1 state=$2 mac=$3 want=$4 err rc
	printf 'dpdk { dev %s }\n' "$mac" >"$tmp/$name.in"
	err=$(FWDLAB_DATAPLANE_CONF=$tmp/ok.conf FWDLAB_STATE=$state FWDLAB_VFWD_TEMPLATE=$tmp/$name.in \
		FWDLAB_VFWD_CONF=$tmp/$name.conf "$dataplane" 2>&1) && rc=0 || rc=$?
	case $want:$rc in
	fail:0) ;;
	fail:* | 1:1) grep -qF "$tmp/$name.in:1: no data NIC has MAC $mac" <<<"$err" && return 0 ;;
	esac
	echo "exit $rc, '$err'"
	return 1
}
# First boot: no ports recorded yet (/run/fwdlab/ports absent) must not crash the lookup.
rm -rf "$tmp/state0"
if why=$(dev_mac_is_refused first "$tmp/state0" 52:54:00:00:99:98 1); then
	tap ok guest_setup_without_recorded_ports_reports_the_missing_nic
else
	tap fail guest_setup_without_recorded_ports_reports_the_missing_nic "$why"
fi
if why=$(dev_mac_is_refused unknown "$tmp/state" 52:54:00:00:99:99 fail); then
	tap ok guest_setup_refuses_a_dev_mac_that_is_no_data_nic
else
	tap fail guest_setup_refuses_a_dev_mac_that_is_no_data_nic "$why"
fi

# --dut vpp (the dut-vpp image): the NICs stay the kernel's (af_packet), VPP starts, no
# hugepages, VPP's startup file and the given setup file, no vfwd files.
printf 'set interface ip address port0 10.0.0.1/24\nip route add 48.0.0.0/8 via 10.0.1.2 port1\n' >"$tmp/vpp.cli"
"$seed" --role dut --hostname dut2 --ssh-key "$tmp/id.pub" --mgmt-mac 52:54:00:aa:00:02 \
	--data-mac 52:54:00:00:20:01 --data-mac 52:54:00:00:20:02 --isolate 1 --dut vpp \
	--vpp-setup "$tmp/vpp.cli" --out "$tmp/v" >/dev/null
ud=$(tail -n +2 "$tmp/v/user-data")
dp=$(file_of /etc/fwdlab/dataplane.conf)
vs=$(file_of /etc/vpp/startup.conf)
if grep -qx 'driver kernel' <<<"$dp" && grep -qx 'start vpp' <<<"$dp" && grep -qx 'hugepages 0' <<<"$dp" &&
	grep -qx 'port port1 52:54:00:00:20:02' <<<"$dp" &&
	grep -q 'corelist-workers 1 ' <<<"$vs" && grep -q 'exec /run/fwdlab/vpp-setup.cli' <<<"$vs" &&
	grep -q 'af_packet_plugin.so { enable }' <<<"$vs" && grep -q 'page-size 4k' <<<"$vs" &&
	[ "$(file_of /etc/vpp/setup.cli)" = "$(cat "$tmp/vpp.cli")" ] &&
	[ -z "$(file_of /etc/vfwd/startup.conf.in)" ] && ! grep -q hugepages "$tmp/v/cmdline"; then
	tap ok vpp_seed_leaves_the_nics_to_the_kernel_and_starts_vpp_with_its_files
else
	tap fail vpp_seed_leaves_the_nics_to_the_kernel_and_starts_vpp_with_its_files "${dp//$'\n'/; } | ${vs//$'\n'/; }"
fi
refused vpp_with_a_dpdk_driver_is_refused "--driver kernel, not 'vfio-pci'" "${base[@]}" --dut vpp \
	--driver vfio-pci
refused vfwd_files_for_a_vpp_dut_are_refused "are for --dut vfwd" "${base[@]}" --dut vpp \
	--vfwd-setup "$tmp/vpp.cli"
refused a_vpp_setup_for_a_vfwd_dut_is_refused "need --dut vpp" "${base[@]}" --vpp-setup "$tmp/vpp.cli"
refused a_kernel_driver_for_vfwd_is_refused "is for --dut vpp" "${base[@]}" --driver kernel

# The guest side with driver kernel: VPP's setup file gets one af_packet interface per
# recorded port (its kernel name), renamed to the port, then the seed's setup file, then
# the ports up (VPP stops an exec file at its first bad line: the ports stay down then).
mkdir -p "$tmp/vstate"
printf 'port0 52:54:00:00:20:01 0000:00:03.0 kernel ens3\nport1 52:54:00:00:20:02 0000:00:04.0 kernel ens4\n' \
	>"$tmp/vstate/ports"
printf 'driver kernel\nhugepages 0\nstart none\n' >"$tmp/vpp.conf"
want=$(printf '%s\n' 'create host-interface name ens3 hw-addr 52:54:00:00:20:01' \
	'set interface name host-ens3 port0' 'create host-interface name ens4 hw-addr 52:54:00:00:20:02' \
	'set interface name host-ens4 port1' "$(cat "$tmp/vpp.cli")" 'set interface state port0 up' \
	'set interface state port1 up')
if FWDLAB_DATAPLANE_CONF=$tmp/vpp.conf FWDLAB_STATE=$tmp/vstate FWDLAB_VPP_SETUP=$tmp/vpp.cli \
	FWDLAB_VFWD_TEMPLATE=$tmp/none.in "$dataplane" >/dev/null 2>&1 &&
	[ "$(grep -v '^#' "$tmp/vstate/vpp-setup.cli")" = "$want" ] && [ -f "$tmp/vstate/ready" ]; then
	tap ok guest_setup_writes_vpp_af_packet_ports_named_as_the_ports_then_the_seed_setup
else
	tap fail guest_setup_writes_vpp_af_packet_ports_named_as_the_ports_then_the_seed_setup \
		"$(tr '\n' ';' <"$tmp/vstate/vpp-setup.cli" 2>/dev/null)"
fi
echo "1..$n"
