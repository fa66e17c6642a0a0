/* SPDX-License-Identifier: BSD-3-Clause */
/* Pacing that yields the CPU: when the next burst of the schedule (or the next receive poll)
 * is far enough away, tgen sleeps until it on an absolute CLOCK_MONOTONIC time instead of
 * spinning, so that a DUT sharing tgen's CPU gets it meanwhile. The receive side polls
 * adaptively: soon after packets came, less and less often while none do. No DPDK here. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "tgen.h"

int
tgen_pacing_parse(const char *s, enum tgen_pacing *m)
{
	if (strcmp(s, "auto") == 0)
		*m = TGEN_PACING_AUTO;
	else if (strcmp(s, "busy") == 0)
		*m = TGEN_PACING_BUSY;
	else if (strcmp(s, "sleep") == 0)
		*m = TGEN_PACING_SLEEP;
	else
		return -EINVAL;
	return 0;
}

const char *
tgen_pacing_name(bool sleep)
{
	return sleep ? "sleep" : "busy";
}

/* auto sleeps when the busy pacer's own bursts are TGEN_SLEEP_GAP_NS or more apart */
bool
tgen_pacing_sleeps(enum tgen_pacing m, double pps_per_dir)
{
	if (pps_per_dir <= 0)
		return false; /* unpaced: always busy */
	if (m != TGEN_PACING_AUTO)
		return m == TGEN_PACING_SLEEP;
	return (double)tgen_burst_for_rate(pps_per_dir) / pps_per_dir * 1e9 >= TGEN_SLEEP_GAP_NS;
}

/* Sleeping pacing sends bursts at least TGEN_SLEEP_GAP_NS apart (up to 32 packets), so that
 * a wake-up is paid for by a few packets rather than one. */
uint32_t
tgen_burst_for_pacing(double pps, bool sleep)
{
	uint32_t b = tgen_burst_for_rate(pps);
	double want;

	if (!sleep || pps <= 0)
		return b;
	want = ceil(pps * TGEN_SLEEP_GAP_NS / 1e9 - 1e-9);
	if (want > 32)
		want = 32;
	return want > b ? (uint32_t)want : b;
}

static int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
tgen_idle_init(struct tgen_idle *w, bool sleep, uint64_t tsc_hz, uint64_t now)
{
	memset(w, 0, sizeof(*w));
	w->sleep = sleep;
	w->tsc_hz = tsc_hz;
	w->min_sleep = (uint64_t)((double)tsc_hz * TGEN_SLEEP_MIN_NS / 1e9);
	w->rx_min = (uint64_t)((double)tsc_hz * TGEN_RX_MIN_NS / 1e9);
	w->rx_max = (uint64_t)((double)tsc_hz * TGEN_RX_MAX_NS / 1e9);
	w->rx_gap = w->rx_min;
	w->rx_next = now + w->rx_gap;
	/* the default timer slack (50 us) would make every wake-up that much late */
	if (sleep)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

void
tgen_idle_rx(struct tgen_idle *w, uint64_t now, unsigned n)
{
	if (n > 0)
		w->rx_gap = w->rx_min;
	else if (w->rx_gap < w->rx_max)
		w->rx_gap = w->rx_gap * 2 > w->rx_max ? w->rx_max : w->rx_gap * 2;
	w->rx_next = now + w->rx_gap;
}

uint64_t
tgen_idle_wake(const struct tgen_idle *w, uint64_t now, uint64_t deadline)
{
	uint64_t wake = deadline < w->rx_next ? deadline : w->rx_next;

	if (!w->sleep || wake <= now || wake - now < w->min_sleep)
		return 0;
	return wake;
}

/* The absolute CLOCK_MONOTONIC time of wake_tsc is anchored on a (TSC, clock) pair read now:
 * the pacer's TSC rate (rte_get_tsc_hz) may be off the clock's by a fraction of a percent in a
 * VM, which over a trial of seconds would put every target in the past. */
void
tgen_idle_sleep_until(struct tgen_idle *w, uint64_t wake_tsc, uint64_t now_tsc)
{
	int64_t before = mono_ns();
	int64_t ns = before + (int64_t)((double)(wake_tsc - now_tsc) * 1e9 / (double)w->tsc_hz);
	struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	w->sleeps++;
	w->slept_ns += (uint64_t)(mono_ns() - before);
}
