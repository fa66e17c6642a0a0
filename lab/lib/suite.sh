# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # globals of lab/fwdlab, read by its verbs
# Named suites the CSIT way (sourced by lab/fwdlab), and --repeat N on ndr/run:
#   fwdlab suite NAME [--frame-sizes 64,1518,9000,imix] [--cores 1,2,4] [--repeat N]
# A suite sets up the DUT (routes, cross-connect), runs its matrix (cores x frame sizes x
# repeats) as one campaign of lab/lib/experiments.sh (exp_campaign, exp_one: the same
# folders, resume and fault handling as compare and sweep), each run an NDR/PDR search with
# latency at 0/10/50/90 % of the PDR, then prints one table (fwdstat compare: cores are the
# groups, frame sizes the profiles), the 2c/1c and 4c/1c speedups, and writes the HTML report
# (box plots of the repeats, latency percentile curves) into the campaign's report/ folder.

SUITE_NAMES="ip4base ip4scale20k ip4scale200k ip4scale2m ip4scale20k-rnd ip4scale200k-rnd ip4scale2m-rnd l2xcbase ip6base"

# suite_part NAME: CSIT's suite part of the test name (ethip4-ip4base, ethip4-ip4scale20k-rnd...).
suite_part() {
	case "$1" in
	l2xcbase) echo eth-l2xcbase ;;
	ip6base) echo ethip6-ip6base ;;
	*) echo "ethip4-$1" ;;
	esac
}

# suite_nic: CSIT's NIC part for this topology (a vhost-user pair on host, virtio on b2b).
suite_nic() { if [ "$TOPOLOGY" = host ]; then echo 10ge2p1vhost; else echo 10ge2p1virtio; fi; }

# suite_routes N ORDER: N /32 routes 48.0.0.1.. via tgen's side of port1, one CLI line each,
# in address order (incremental) or shuffled with a fixed seed (random, "-rnd").
suite_routes() {
	local n=$1 order=$2
	awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) {
		a = 48 * 16777216 + i
		printf "ip route add %d.%d.%d.%d/32 via 10.0.1.2 port1\n",
			int(a / 16777216) % 256, int(a / 65536) % 256, int(a / 256) % 256, a % 256 } }' |
		if [ "$order" = rnd ]; then
			shuf --random-source=<(yes fwdlab-suite)
		else
			cat
		fi
}

# suite_ip6 NAME: whether the suite sends IPv6 (tgen's udp6 profile).
suite_ip6() { [ "$1" = ip6base ]; }

# The IPv6 plan of ip6base, beside the topology's IPv4 one (setup.cli, which stays as it is):
# tgen's udp6 sends 2001:db8:2::1 -> 2001:db8:1::1 into port0; the neighbours are tgen's side
# of each link, the same MACs as the IPv4 ones.
SUITE_IP6_SETUP="set interface ip address port0 2001:db8::1/64
set interface ip address port1 2001:db8:ff::1/64
set ip neighbor port0 2001:db8::2 02:00:00:00:00:02
set ip neighbor port1 2001:db8:ff::2 02:00:00:00:01:02
ip route add 2001:db8:1::/48 via 2001:db8:ff::2 port1
ip route add 2001:db8:2::/48 via 2001:db8::2 port0"

# suite_scale NAME: the route count of an ip4scale suite (20k, 200k, 2m), else 0.
suite_scale() {
	case "$1" in
	ip4scale20k*) echo 20000 ;;
	ip4scale200k*) echo 200000 ;;
	ip4scale2m*) echo 2000000 ;;
	*) echo 0 ;;
	esac
}

# suite_conf CORES ROUTES: a copy of the topology file with CORES workers (CPUs 1..CORES),
# CORES queues per link (tgen sends each flow on its queue, vfwd spreads the 2 x CORES
# queues over its workers: the multi-queue "RSS" of vhost-user, where the sender picks the
# queue) and, for a big FIB, more EAL memory; prints its path.
suite_conf() {
	local cores=$1 routes=$2 f=$STATE/suite-topology.conf workers=1
	mkdir -p "$STATE"
	if [ "$cores" -gt 1 ]; then workers=1-$cores; fi
	sed -e "s/^vfwd\.workers *=.*/vfwd.workers = $workers/" -e '/^vfwd\.queues *=/d' \
		"$TOPO_CONF" >"$f.tmp"
	echo "vfwd.queues = $cores" >>"$f.tmp"
	if [ "$routes" -gt 100000 ]; then
		sed -i -e 's/^vfwd\.eal_args *=.*/vfwd.eal_args = --no-huge -m 1536/' "$f.tmp"
	fi
	mv "$f.tmp" "$f"
	echo "$f"
}

# suite_dut_setup NAME: the suite's DUT configuration on top of the topology's setup.cli.
suite_dut_setup() {
	local name=$1 n order=inc routes out
	case "$name" in
	ip6base)
		local line words
		while read -r line; do
			read -r -a words <<<"$line"
			dut_ctl "${words[@]}" >/dev/null || die "ip6base: vfwd refused '$line'"
		done <<<"$SUITE_IP6_SETUP"
		grep -q '^2001:db8:1::/48 ' <<<"$(dut_ctl show ip6 fib 2>/dev/null || true)" ||
			die "ip6base: the IPv6 FIB lacks 2001:db8:1::/48 after the setup"
		say "DUT: IPv6 addresses, neighbours and routes 2001:db8:1::/48, 2001:db8:2::/48 (ip6base)"
		;;
	l2xcbase)
		dut_ctl set interface l2 xconnect port0 port1 >/dev/null
		dut_ctl set interface l2 xconnect port1 port0 >/dev/null
		say "DUT: port0 <-> port1 cross-connected (l2xcbase)"
		;;
	ip4scale*)
		n=$(suite_scale "$name")
		if [[ $name == *-rnd ]]; then order=rnd; fi
		routes=$STATE/suite-routes.cli
		suite_routes "$n" "$order" >"$routes"
		# in bulk through vfwd's CLI: one vfwdctl session reads the whole file
		local t0=$SECONDS
		# shellcheck disable=SC2046,SC2091 # the command line is words
		out=$($(vfwdctl_cmd) <"$routes" 2>&1) || die "loading $n routes through vfwdctl failed: $(grep -m1 error <<<"$out")"
		if grep -q '^error' <<<"$out"; then die "loading routes: $(grep -m1 '^error' <<<"$out")"; fi
		dut_ctl show ip fib 48.0.0.$((n % 256 == 0 ? 1 : n % 256)) >/dev/null ||
			die "the FIB lacks the routes just loaded"
		say "DUT: $n /32 routes from 48.0.0.1 loaded ($order order) through the CLI in one session, in $((SECONDS - t0)) s"
		;;
	esac
}

# suite_dut_restore NAME: undoes what suite_dut_setup changed that other verbs would trip on.
suite_dut_restore() {
	if [ "$1" = ip6base ]; then
		dut_ctl ip route del 2001:db8:1::/48 >/dev/null || true
		dut_ctl ip route del 2001:db8:2::/48 >/dev/null || true
	fi
	if [ "$1" = l2xcbase ]; then
		dut_ctl set interface l3 port0 >/dev/null || true
		dut_ctl set interface l3 port1 >/dev/null || true
	fi
}

# suite_cpus: online CPUs of the machine.
suite_cpus() { getconf _NPROCESSORS_ONLN; }

# suite_speedups DIR: median NDR per cores column and frame size, and c/1c ratios.
suite_speedups() {
	local dir=$1
	# shellcheck disable=SC2016 # $1 and $t are the inner shell's and jq's
	find "$dir" -mindepth 2 -maxdepth 2 -name meta.json -print0 | xargs -0 -r -I{} sh -c \
		'd=$(dirname "$1"); [ -s "$d/tgen.json" ] && jq -c --slurpfile t "$d/tgen.json" \
		"select(.status == \"complete\") | {g: .group, p: (if .profile == \"imix\" then \"imix\" else \"\(.frame_size)B\" end), ndr: \$t[0].ndr.rate_pps}" "$1"' _ {} |
		jq -rs '
		def median: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		group_by(.p)[] | . as $rows | ($rows[0].p) as $p |
		([$rows[] | select(.g == "1c") | .ndr] | if length > 0 then median else null end) as $one |
		(group_by(.g)[] | {g: .[0].g, m: ([.[].ndr] | median)}) as $col |
		if $col.g == "1c" then "\($p) 1c: NDR median \($col.m | floor) pps"
		elif $one == null or $one == 0 then "\($p) \($col.g): NDR median \($col.m | floor) pps (no 1c column: no speedup)"
		else "\($p) \($col.g): NDR median \($col.m | floor) pps, speedup \($col.g)/1c \(($col.m / $one * 100 | round) / 100)" end'
}

# fwdlab suite NAME [--frame-sizes LIST] [--cores LIST] [--repeat N] [--resume DIR]
suite() {
	local name=${1:-} sizes=${FRAME_SIZES:-64,1518,9000,imix} cores=${CORES:-1,2,4} resume=$RESUME
	[ $# -le 1 ] || die "suite: one suite at a time ($1, $2)"
	exp_resume suite "$resume"
	[ -n "$name" ] || die "suite: which one? ($SUITE_NAMES)"
	[[ " $SUITE_NAMES " == *" $name "* ]] || die "suite: unknown suite '$name' ($SUITE_NAMES)"
	[ "$TOPOLOGY" = host ] || die "suite: the host topology only for now (its cores columns are vfwd workers on host CPUs)"
	[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "suite: --repeat $REPEAT: a positive number"
	local s c szs=() cols=() ok_cols=() ncpu
	IFS=, read -r -a szs <<<"$sizes"
	for s in "${szs[@]}"; do
		if [ "$s" != imix ] && { ! [[ $s =~ ^[0-9]+$ ]] || [ "$s" -lt 64 ] || [ "$s" -gt 9000 ]; }; then
			die "suite: frame size '$s': 64..9000 or imix"
		fi
		if suite_ip6 "$name" && { [ "$s" = imix ] || [ "$s" -lt 82 ]; }; then
			die "suite $name: frame size '$s': tgen's IPv6 profile (udp6) sends 82..9000 B (Ethernet 14 + IPv6 40 + UDP 8 + signature 16 + FCS 4; imix is IPv4)"
		fi
	done
	IFS=, read -r -a cols <<<"$cores"
	ncpu=$(suite_cpus)
	for c in "${cols[@]}"; do
		[[ $c =~ ^[1-9][0-9]*$ ]] || die "suite: --cores: '$c' is not a number of cores"
		# c workers on CPUs 1..c, and CPU 0 for tgen and vfwd's main thread
		if [ $((c + 1)) -gt "$ncpu" ]; then
			warn "suite: skipping the ${c}c column: it needs $((c + 1)) CPUs ($c vfwd workers, one for tgen and vfwd's main thread), this machine has $ncpu; fwdlab never shares cores silently"
			continue
		fi
		ok_cols+=("$c")
	done
	[ ${#ok_cols[@]} -gt 0 ] || die "suite: no cores column fits this machine's $ncpu CPUs"
	local part long routes
	part=$(suite_part "$name")
	long=2n1l-$(suite_nic)-$part-ndrpdr
	routes=$(suite_scale "$name")
	EXP_VERB=suite
	# CSIT's trials last 1 s (MLRsearch's final trial duration), its latency trials follow
	# the search; the lab's host defaults (10 s, 30 s) would make a matrix last hours
	TRIAL_DURATION=${TRIAL_DURATION:-1} FINAL_DURATION=${FINAL_DURATION:-1}
	LATENCY_LOADS=${LATENCY_LOADS:-0,10,50,90}
	local opts
	mapfile -t opts < <(exp_global_opts)
	exp_campaign suite "$resume" "$long" "$name" --frame-sizes "$sizes" --cores "$cores" \
		--repeat "$REPEAT" "${opts[@]}"
	jq -n --arg s "$name" --arg long "$long" --arg sizes "$sizes" --arg cores "$cores" \
		--arg run "$(IFS=,; echo "${ok_cols[*]}")" --argjson rep "$REPEAT" --argjson cpus "$ncpu" \
		'{suite: $s, test_name: $long, frame_sizes: ($sizes | split(",")),
		  cores_asked: ($cores | split(",") | map(tonumber)),
		  cores_run: ($run | split(",") | map(tonumber)), repeat: $rep, cpus: $cpus}' |
		atomic_write "$EXP_DIR/suite.json"
	trap exp_interrupted INT TERM
	EXP_TOTAL=$((${#ok_cols[@]} * ${#szs[@]} * REPEAT))
	local nrep=$REPEAT r slug
	# CSIT's base suites vary the source over 253 addresses (ip4src253, ip6src253): flows
	# for the workers' queues to spread; the scale suites vary the destination over the routes
	FLOWS=253 FLOW_FIELD=src FLOW_ORDER=inc
	if [ "$routes" -gt 0 ]; then
		FLOWS=$routes FLOW_FIELD=dst
		# CSIT's -rnd: each packet's destination drawn at random over the routes
		if [[ $name == *-rnd ]]; then FLOW_ORDER=rnd; fi
		# 200k and 2M /32 routes need a bigger FIB than vfwd's default (65536 routes)
		if [ "$routes" -gt 60000 ]; then
			export FWDLAB_VFWD_FIB="ip4-max-routes $((routes + 1000))  ip4-tbl8s $((routes / 128 + 1024))"
		fi
	fi
	for c in "${ok_cols[@]}"; do
		TOPO_CONF=$(suite_conf "$c" "$routes")
		export TOPO_CONF
		topo_read "$TOPO_CONF"
		# a column is its own DUT configuration: vfwd restarted with c workers
		(down) >/dev/null 2>&1 || true
		(up) >/dev/null || die "suite: bringing the lab up with ${c} worker(s) failed (fwdlab --topology host up)"
		suite_dut_setup "$name"
		for s in "${szs[@]}"; do
			if [ "$s" = imix ]; then PROFILE=imix slug=imix; else PROFILE=udp FRAME_SIZE=$s slug=${s}b; fi
			if suite_ip6 "$name"; then PROFILE=udp6; fi
			for ((r = 1; r <= nrep; r++)); do
				exp_one "$slug-${c}c-$part-ndrpdr.r$r" "${c}c" "$r" "${c}c $slug repeat $r/$nrep"
			done
		done
		suite_dut_restore "$name"
	done
	trap - INT TERM
	local fs
	fs=$(fwdstat_bin)
	say "suite $long: NDR/PDR per cores column (group) and frame size (profile)"
	local ip=ip4
	if suite_ip6 "$name"; then ip=ip6; fi
	"$fs" compare "$EXP_DIR" --base 1c --node ethernet-input --node $ip-lookup --node $ip-rewrite || true
	"$fs" latency "$EXP_DIR" || true
	suite_speedups "$EXP_DIR"
	"$fs" report "$EXP_DIR" --out "$EXP_DIR/report" --base 1c >/dev/null ||
		die "suite: the report failed (fwdstat report $EXP_DIR)"
	say "report: $EXP_DIR/report/index.html"
	exp_faults_end
}

# repeat_experiment: ndr or run with --repeat N (N > 1) outside a campaign: N runs of the
# same experiment as one campaign (group = the label), then fwdstat's compare table and
# report with the box plots and mean ± stdev of the repeats.
repeat_experiment() {
	local verb=$FWDLAB_VERB nrep=$REPEAT r
	topo_require_up
	EXP_VERB=$verb
	local opts
	mapfile -t opts < <(exp_global_opts)
	exp_campaign "$verb" "" "$LABEL-x$nrep" --repeat "$nrep" "${opts[@]}"
	trap exp_interrupted INT TERM
	EXP_TOTAL=$nrep
	if [ "$verb" = run ]; then RATE=${RATE:?run: --rate is required}; else RATE=""; fi
	for ((r = 1; r <= nrep; r++)); do
		exp_one "$verb-$(profile_slug)-$FRAME_SIZE.r$r" "$LABEL" "$r" "$verb repeat $r/$nrep"
	done
	trap - INT TERM
	local fs
	fs=$(fwdstat_bin)
	"$fs" compare "$EXP_DIR" || true
	"$fs" report "$EXP_DIR" --out "$EXP_DIR/report" >/dev/null || die "the report failed"
	say "report: $EXP_DIR/report/index.html"
	exp_faults_end
}
