/* SPDX-License-Identifier: BSD-3-Clause */
/* Rate units and the TSC pacer. No DPDK here. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tgen.h"

struct unit {
	const char *suffix;
	int kind;
	double mult;
};

static const struct unit units[] = {
	{"mpps", TGEN_RATE_PPS, 1e6}, {"kpps", TGEN_RATE_PPS, 1e3}, {"pps", TGEN_RATE_PPS, 1},
	{"gbps", TGEN_RATE_BPS, 1e9}, {"mbps", TGEN_RATE_BPS, 1e6}, {"kbps", TGEN_RATE_BPS, 1e3},
	{"bps", TGEN_RATE_BPS, 1},    {"%", TGEN_RATE_PCT, 1},	    {"", TGEN_RATE_PPS, 1},
};

int
tgen_rate_parse(const char *s, struct tgen_rate *r)
{
	size_t i, n = strlen(s), sl;
	char *end;
	double v;

	if (strcasecmp(s, "max") == 0) {
		r->unit = TGEN_RATE_MAX;
		r->value = 0;
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		sl = strlen(units[i].suffix);
		if ((size_t)(end - s) + sl == n && strcasecmp(end, units[i].suffix) == 0) {
			r->unit = units[i].kind;
			r->value = v * units[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

int
tgen_bps_parse(const char *s, uint64_t *bps)
{
	struct tgen_rate r;

	if (tgen_rate_parse(s, &r) < 0 || r.unit == TGEN_RATE_PCT || r.unit == TGEN_RATE_MAX)
		return -EINVAL;
	if (strspn(s, "0123456789.") == strlen(s)) /* a bare number is bits per second here */
		r.unit = TGEN_RATE_BPS;
	if (r.unit != TGEN_RATE_BPS)
		return -EINVAL;
	*bps = (uint64_t)r.value;
	return 0;
}

double
tgen_line_rate_pps(double mean_frame, uint64_t link_bps)
{
	return (double)link_bps / ((mean_frame + TGEN_L1_OVERHEAD) * 8);
}

int
tgen_rate_to_pps(const struct tgen_rate *r, double mean_frame, uint64_t link_bps, double *pps)
{
	double line = tgen_line_rate_pps(mean_frame, link_bps);

	switch (r->unit) {
	case TGEN_RATE_MAX:
		*pps = line;
		return 0;
	case TGEN_RATE_PPS:
		*pps = r->value;
		break;
	case TGEN_RATE_BPS: /* L2 frame bits, as the JSON's *_bps */
		*pps = r->value / (mean_frame * 8);
		break;
	case TGEN_RATE_PCT: /* of the L1 line rate */
		if (r->value > 100)
			return -ERANGE;
		*pps = line * r->value / 100;
		break;
	default:
		return -EINVAL;
	}
	if (*pps < 1)
		return -ERANGE;
	if (*pps > line * 1.000001)
		return -ERANGE;
	return 0;
}

uint32_t
tgen_burst_for_rate(double pps)
{
	double b = ceil(pps / 500e3); /* a burst at most every 2 us */

	if (b < 1)
		return 1;
	if (b > 32)
		return 32;
	return (uint32_t)b;
}

void
tgen_pacer_init(struct tgen_pacer *p, double pps, uint64_t tsc_hz, uint64_t now)
{
	memset(p, 0, sizeof(*p));
	p->start_tsc = now;
	p->tsc_per_pkt = pps > 0 ? (double)tsc_hz / pps : 0;
	/* falling more than 1 ms (and 4 bursts) behind is a hiccup: skip, do not burst */
	tgen_pacer_set_burst(p, pps, pps > 0 ? tgen_burst_for_rate(pps) : 32);
}

void
tgen_pacer_set_burst(struct tgen_pacer *p, double pps, uint32_t burst)
{
	p->burst = burst;
	p->max_lag_pkts = pps > 0 ? (uint64_t)(pps / 1000) + 4 * p->burst : 0;
}

void
tgen_pacer_set_max_lag(struct tgen_pacer *p, double pps, double lag_s)
{
	p->max_lag_pkts = pps > 0 ? (uint64_t)(pps * lag_s) + 4 * p->burst : 0;
}

uint64_t
tgen_pacer_next(const struct tgen_pacer *p)
{
	if (p->tsc_per_pkt == 0)
		return UINT64_MAX;
	return p->start_tsc + (uint64_t)ceil((double)(p->sent + p->burst) * p->tsc_per_pkt);
}

/* The slots of the schedule due by TSC `now` (now > start_tsc). */
static uint64_t
pacer_target(const struct tgen_pacer *p, uint64_t now)
{
	return (uint64_t)((double)(now - p->start_tsc) / p->tsc_per_pkt);
}

/* A pacer further behind than it catches up skips all but one burst of what is due. */
static uint64_t
pacer_catch_up(struct tgen_pacer *p, uint64_t due)
{
	if (due > p->max_lag_pkts) {
		p->skipped += due - p->burst;
		p->sent += due - p->burst;
		due = p->burst;
	}
	return due;
}

uint32_t
tgen_pacer_due(struct tgen_pacer *p, uint64_t now)
{
	uint64_t target, due;

	if (p->tsc_per_pkt == 0)
		return p->burst;
	if (now <= p->start_tsc)
		return 0;
	target = pacer_target(p, now);
	if (target <= p->sent)
		return 0;
	due = pacer_catch_up(p, target - p->sent);
	/* send whole bursts only, unless the schedule is behind */
	if (due < p->burst)
		return 0;
	return p->burst;
}

uint64_t
tgen_pacer_slots(const struct tgen_pacer *p, uint64_t elapsed)
{
	if (p->tsc_per_pkt <= 0)
		return 0;
	/* duration * rate is whole for whole rates, but its quotient in doubles may be 1e-12 short */
	return (uint64_t)((double)elapsed / p->tsc_per_pkt + 1e-6);
}

uint64_t
tgen_pacer_end(struct tgen_pacer *p, uint64_t last, uint64_t end)
{
	uint64_t slots, due_last = 0;

	if (p->tsc_per_pkt <= 0 || end <= p->start_tsc)
		return 0;
	slots = tgen_pacer_slots(p, end - p->start_tsc);
	if (last > p->start_tsc)
		due_last = pacer_target(p, last);
	if (due_last > slots)
		due_last = slots;
	if (due_last > p->sent && due_last - p->sent >= p->burst) {
		p->skipped += due_last - p->sent;
		p->sent = due_last;
	}
	if (slots <= p->sent)
		return 0;
	return pacer_catch_up(p, slots - p->sent);
}

bool
tgen_rate_short(double requested_pps, double offered_pps, double duration_s, double tol,
		double slack_pkts)
{
	if (requested_pps <= 0 || duration_s <= 0)
		return false;
	return offered_pps < requested_pps * (1 - tol) - slack_pkts / duration_s;
}
