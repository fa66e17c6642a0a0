# shellcheck shell=bash
# shellcheck disable=SC2034 # the description is read by the verbs, results.sh, generators
# The run's description and the one option parser of every verb (lab/fwdlab calls opts_parse
# once; compare, sweep, suite, bisect and repeat read what it set, they parse no options of
# their own). One spelling per option; the older spellings are aliases:
#   --size N              = --frame-size N
#   --sizes LIST          = --frame-sizes LIST
#   --profiles udp:N,imix = --frame-sizes N,imix
#
# The run description: TOPOLOGY, VARIANT (the DUT build), GENERATOR, FORWARDER (the b2b
# DUT VM's forwarder: vfwd or vpp), PLUGIN_ENABLE (--enable NODE: a vpp-plugin:'s feature
# when no FILE.cli gives it), PROFILE, FRAME_SIZE,
# RATE, DURATION (and the search's TRIAL_DURATION, FINAL_DURATION, MIN_RATE, MAX_RATE,
# METHOD, LATENCY_LOADS), FLOWS, BIDIR, LABEL, CAMPAIGN, RUN_NAME, GROUP, REPEAT. A campaign
# adds FRAME_SIZES, RUNS, ORDER, DUTS, LINK, CORES and RESUME.

opts_defaults() {
	TOPOLOGY=${TOPOLOGY:-b2b} LABEL=${LABEL:-} SMOKE=${SMOKE:-0} VARIANT=${VARIANT:-default}
	PROFILE=udp FRAME_SIZE=1500 FRAME_SIZE_GIVEN=0 FLOWS=1 BIDIR=0 RATE="" DURATION="" TRIAL_DURATION=""
	FINAL_DURATION="" MAX_RATE="" MIN_RATE="" CAMPAIGN="" RUN_NAME="" GROUP="" REPEAT=1
	METHOD="" LATENCY_LOADS="" TUNABLES="" GENERATOR=${FWDLAB_GENERATOR:-}
	FORWARDER=${FWDLAB_FORWARDER:-} PLUGIN_ENABLE=""
	FRAME_SIZES="" RUNS="" ORDER="" DUTS="" LINK="" CORES="" RESUME="" FROM_SNAPSHOT=""
	HUGEPAGES=0 NO_INSTALL=${FWDLAB_NO_INSTALL:-0} ON_FAULT=${FWDLAB_ON_FAULT:-continue}
	VERB="" VERB_ARGS=()
}

# opts_profiles LIST: compare's udp:N,imix list as frame sizes (N,imix).
opts_profiles() {
	local p out=() prof=()
	IFS=, read -r -a prof <<<"$1"
	for p in "${prof[@]}"; do
		case "$p" in
		imix) out+=(imix) ;;
		udp:[0-9]*) out+=("${p#udp:}") ;;
		*) die "compare: profile '$p': udp:SIZE or imix" ;;
		esac
	done
	(IFS=,; printf '%s' "${out[*]}")
}

# opts_parse ARGS...: the command line -> the description above, VERB and VERB_ARGS (the
# verb's own words: positional arguments, and options that only that verb reads).
opts_parse() {
	opts_defaults
	while [ $# -gt 0 ]; do
		case "$1" in
		--topology) TOPOLOGY=$2; shift 2 ;;
		--topology=*) TOPOLOGY=${1#*=}; shift ;;
		--label) LABEL=$2; shift 2 ;;
		--smoke) SMOKE=1; shift ;;
		--variant) VARIANT=$2; shift 2 ;;
		--profile) PROFILE=$2; shift 2 ;;
		--frame-size | --size) FRAME_SIZE=$2 FRAME_SIZE_GIVEN=1; shift 2 ;;
		--frame-sizes | --sizes) FRAME_SIZES=$2; shift 2 ;;
		--profiles) FRAME_SIZES=$(opts_profiles "$2"); shift 2 ;;
		--flows) FLOWS=$2; shift 2 ;;
		--bidir) BIDIR=1; shift ;;
		--rate) RATE=$2; shift 2 ;;
		--duration) DURATION=$2; shift 2 ;;
		--trial-duration) TRIAL_DURATION=$2; shift 2 ;;
		--final-duration) FINAL_DURATION=$2; shift 2 ;;
		--max-rate) MAX_RATE=$2; shift 2 ;;
		--min-rate) MIN_RATE=$2; shift 2 ;;
		--method) METHOD=$2; shift 2 ;;
		--latency-loads) LATENCY_LOADS=$2; shift 2 ;;
		--campaign) CAMPAIGN=$2; shift 2 ;;
		--run) RUN_NAME=$2; shift 2 ;;
		--group) GROUP=$2; shift 2 ;;
		--repeat) REPEAT=$2; shift 2 ;;
		--runs) RUNS=$2; shift 2 ;;
		--order) ORDER=$2; shift 2 ;;
		--dut) DUTS=$2; shift 2 ;;
		--link) LINK=$2; shift 2 ;;
		--cores) CORES=$2; shift 2 ;;
		--resume) RESUME=$2; shift 2 ;;
		--from-snapshot) FROM_SNAPSHOT=$2; shift 2 ;;
		--hugepages) HUGEPAGES=$2; shift 2 ;;
		--no-install) NO_INSTALL=1; shift ;;
		--on-fault) ON_FAULT=$2; shift 2 ;;
		--generator) GENERATOR=$2; shift 2 ;;
		--forwarder) FORWARDER=$2; shift 2 ;;
		--enable) PLUGIN_ENABLE=$2; shift 2 ;; # swap/compare vpp-plugin:FILE.so: its feature node
		--tunables) TUNABLES=$2; shift 2 ;;
		--instance) INSTANCE=$2; shift 2 ;;
		--count) CAPTURE_COUNT=$2; shift 2 ;;
		# the verb's own options (graph, netem, capture, report, runtime, trend, bisect, export)
		--format | --delay | --loss | --node | --out | --base | --thread | --min-delta | \
			--alpha | --repo) VERB_ARGS+=("$1" "$2"); shift 2 ;;
		--dry-run | --json | --csit | --openmetrics) VERB_ARGS+=("$1"); shift ;;
		-h | --help | help) VERB=help; shift ;;
		--) shift; VERB_ARGS+=("$@"); break ;;
		-*) die "unknown option $1 (fwdlab help)" ;;
		*)
			if [ -z "$VERB" ]; then VERB=$1; else VERB_ARGS+=("$1"); fi
			shift
			# ssh NODE CMD...: the command's words are the command's, not ours.
			if [ "$VERB" = ssh ] && [ ${#VERB_ARGS[@]} -eq 1 ]; then
				VERB_ARGS+=("$@")
				break
			fi
			;;
		esac
	done
	case "$ON_FAULT" in
	continue | stop) ;;
	*) die "--on-fault $ON_FAULT: continue or stop" ;;
	esac
	[ -n "$LABEL" ] || LABEL=$VARIANT
}
