# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154,SC2016 # tmp, BG are read by the sourcing test; top is set by it; bash -c and perl programs are in single quotes
# Set-up shared by the fault-injection tests on the host topology (tests/faults_host_*.sh;
# source after tests/tap.sh): a private lab folder and results folder under $tmp, `lab` =
# fwdlab --topology host, an EXIT trap that stops what the test started in the background
# (bg_pids, by process group), takes the lab down, unmounts $tmp/results when the test
# mounted it, and removes $tmp.
HOST_LAB_KEEP=${FAULTS_KEEP:-0}
# shellcheck source=tests/host_lab.sh
. "$top/tests/host_lab.sh"
unset FWDLAB_FAULT FWDLAB_ON_FAULT
bg_pids=()
host_lab_extra_cleanup() {
	local p
	for p in "${bg_pids[@]}"; do kill -TERM -- -"$p" 2>/dev/null || true; done
}
fwdstat=$top/build/lab/bin/fwdstat

# bg NAME CMD...: CMD in its own process group (as a terminal job), output in $tmp/NAME.out,
# exit status in $tmp/NAME.rc when it ends; sets BG (its pid, the group's id). bash starts
# `&` jobs with SIGINT ignored, and an ignored signal stays ignored in every program below;
# perl (perl-base is essential in Debian) puts SIGINT back to default, as a terminal has it.
bg() {
	local name=$1
	shift
	setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
		bash -c '"$@" >"$0.out" 2>&1; echo $? >"$0.rc"' "$tmp/$name" "$@" &
	BG=$!
	bg_pids+=("$BG")
}

# bg_wait NAME SECONDS: waits for bg NAME to end, prints its exit status (999: still runs).
bg_wait() {
	if poll_until "$2" "the background $1 to end ($tmp/$1.rc)" test -s "$tmp/$1.rc"; then
		cat "$tmp/$1.rc"
	else
		echo 999
	fi
}

# wait_for SECONDS CMD...: poll_until (tests/lib/tap.sh) with CMD as what it waits for.
wait_for() {
	local secs=$1
	shift
	poll_until "$secs" "$*" "$@"
}

# campaign KIND: the campaign folder of that kind under $tmp/results (the newest).
campaign() {
	find "$tmp/results" -mindepth 1 -maxdepth 1 -type d -name "*-host-$1-*" 2>/dev/null |
		sort | tail -n1
}

# run_dir NAME: a run folder NAME under any campaign (the newest).
run_dir() {
	find "$tmp/results" -mindepth 2 -maxdepth 2 -type d -name "$1" 2>/dev/null | sort | tail -n1
}

# trial_started NAME: run NAME's first trial has begun (trial-hook pre has counted it).
trial_started() {
	local d
	d=$(run_dir "$1")
	[ -n "$d" ] && [ -s "$d/trials/.count" ]
}

# trial_sending NAME: run NAME's first trial is sending: trial-hook pre, which counts the trial
# and clears vfwd's runtime and errors before it, has ended (tgen starts the trial as it returns).
# The hook runs as "[/bin/]sh [-c ]PATH/trial-hook pre DIR ..."; the pattern is anchored so that
# it does not match tgen itself, whose arguments name the hook too (--pre-trial).
trial_sending() {
	local d
	d=$(run_dir "$1")
	[ -n "$d" ] && [ -s "$d/trials/.count" ] &&
		! pgrep -f "^[^ ]*sh( -c)? [^ ]*trial-hook pre $d/trials" >/dev/null
}

# trial_sent_1s NAME: run NAME's trial (fwdlab run) has sent for a second: tgen printed its
# progress line for second 1 (it prints one a second of the trial, flushed, into tgen.log.tmp).
trial_sent_1s() {
	local d
	d=$(run_dir "$1")
	[ -n "$d" ] && grep -qsE '^ +1s +tx ' "$d/tgen.log.tmp" "$d/tgen.log"
}

status_of() { jq -r .status "$1/meta.json" 2>/dev/null || echo none; }

# sums DIR...: sha256 of every file under the run folders, with paths, sorted.
sums() {
	local d
	for d in "$@"; do
		find "$d" -type f -print0 | sort -z | xargs -0 sha256sum
	done
}

# our_procs: pids whose command line names this test's folder (the lab's processes).
our_procs() {
	grep -laF -- "$tmp/" /proc/[0-9]*/cmdline 2>/dev/null | cut -d/ -f3 |
		grep -vx -e "$$" -e "$BASHPID" || true
}

# leftovers: what the lab left of itself, after up to 5 s for processes on their way out.
nothing_left() { [ -z "$(leftovers_now)" ]; }
leftovers() {
	poll_until 5 "the lab's processes, sockets and files to be gone" nothing_left || true
	leftovers_now
}

# leftovers_now: what the lab left of itself: processes, sockets, DPDK runtime and hugepage
# files of its file prefix, its state folder. Empty when nothing is left.
leftovers_now() {
	local prefix procs
	prefix=$(printf '%s' "$FWDLAB_STATE" | md5sum | cut -c1-8)
	procs=$(our_procs | while read -r p; do
		c=$({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | cut -c1-100) || continue
		[ -n "$c" ] && printf 'process %s: %s\n' "$p" "$c"
	done)
	[ -z "$procs" ] || printf '%s\n' "$procs"
	find "$tmp" -type s -printf 'socket %p\n' 2>/dev/null || true
	if [ -e "$FWDLAB_STATE" ]; then echo "state folder $FWDLAB_STATE"; fi
	find /var/run/dpdk -maxdepth 1 \( -name "vfwd-$prefix" -o -name "tgen-$prefix" \) \
		-printf 'dpdk runtime %p\n' 2>/dev/null || true
	find /dev/hugepages -maxdepth 1 \( -name "vfwd-${prefix}*" -o -name "tgen-${prefix}*" \) \
		-printf 'hugepage file %p\n' 2>/dev/null || true
}
