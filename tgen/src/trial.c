/* SPDX-License-Identifier: BSD-3-Clause */
/* One trial: paced transmit on port0 (and port1 with --bidir), receive on both, then a drain
 * window; packets of an earlier trial that arrive late are counted apart. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "dp.h"

#define RX_BURST 32

struct trial_state {
	uint8_t tag;
	double ns_per_tsc;
	uint64_t tx_packets[TGEN_NDIR], tx_bytes, tx_refused, dir_refused[TGEN_NDIR];
	uint64_t rx_bytes, late, other;
	struct tgen_pacer pacer[TGEN_NDIR];
	struct tgen_idle idle;
};

/* Returns the number of packets received. */
static unsigned
rx_poll(struct tgen_ctx *c, struct trial_state *t)
{
	struct rte_mbuf *pkts[RX_BURST];
	const struct tgen_sig *sig;
	uint64_t now;
	uint16_t n, j;
	unsigned got = 0;
	int p, pq;

	/* every queue of both ports, port0 and port1 in turn */
	for (pq = 0; pq < TGEN_NDIR * c->nq; pq++) {
		p = pq % TGEN_NDIR;
		n = rte_eth_rx_burst(c->port[p].id, (uint16_t)(pq / TGEN_NDIR), pkts, RX_BURST);
		if (n == 0)
			continue;
		got += n;
		now = rte_rdtsc();
		for (j = 0; j < n; j++) {
			const uint8_t *d = rte_pktmbuf_mtod(pkts[j], const uint8_t *);

			if (j + 1 < n)
				rte_prefetch0(rte_pktmbuf_mtod(pkts[j + 1], void *));
			sig = tgen_pkt_parse(d, pkts[j]->data_len);
			if (sig == NULL) {
				if (!tgen_arp_input(c, p, d, pkts[j]->data_len))
					t->other++;
				continue;
			}
			if (sig->trial != t->tag) {
				t->late++;
				continue;
			}
			tgen_seq_add(&c->seq[sig->dir], sig->seq);
			t->rx_bytes += pkts[j]->pkt_len + TGEN_FCS_LEN;
			if (now > sig->tsc) {
				uint64_t ns = (uint64_t)((double)(now - sig->tsc) * t->ns_per_tsc);

				tgen_lat_add(&c->lat, ns);
				if (c->hdr[sig->dir & 1].counts != NULL)
					tgen_hdr_record(&c->hdr[sig->dir & 1], (ns + 500) / 1000);
			}
		}
		rte_pktmbuf_free_bulk(pkts, n);
	}
	return got;
}

/* Sleeping pacing: receive now, then sleep until the earliest of deadline, the next burst of
 * each direction and the next receive poll (which adapts: it comes sooner while packets do). */
static void
idle_step(struct tgen_ctx *c, struct trial_state *t, int ndir, uint64_t now, uint64_t deadline)
{
	uint64_t wake;
	int d;

	tgen_idle_rx(&t->idle, now, rx_poll(c, t));
	if (!t->idle.sleep)
		return;
	for (d = 0; d < ndir; d++) {
		uint64_t next = tgen_pacer_next(&t->pacer[d]);

		if (next < deadline)
			deadline = next;
	}
	now = rte_rdtsc();
	wake = tgen_idle_wake(&t->idle, now, deadline);
	if (wake != 0)
		tgen_idle_sleep_until(&t->idle, wake, now);
}

/* --queues N: each packet leaves on its flow's queue (flow % N), as a NIC's RSS would hash
 * it on the far side; a vhost-user port delivers queue q to the virtio side's queue q, so the
 * DUT's workers see the flows spread over their queues. Order is kept within a flow. */
static void
tx_spread(struct tgen_ctx *c, struct trial_state *t, int d, struct rte_mbuf **pkts, uint32_t n,
	  uint32_t seq0)
{
	struct rte_mbuf *q_pkts[TGEN_MAX_QUEUES][32];
	uint16_t q_n[TGEN_MAX_QUEUES] = {0}, q, sent;
	uint32_t i;

	for (i = 0; i < n; i++) {
		q = (uint16_t)(tgen_flow_of(&c->stream[d], seq0 + i) % c->nq);
		q_pkts[q][q_n[q]++] = pkts[i];
	}
	for (q = 0; q < c->nq; q++) {
		if (q_n[q] == 0)
			continue;
		sent = rte_eth_tx_burst(c->port[d].id, q, q_pkts[q], q_n[q]);
		if (sent < q_n[q]) {
			rte_pktmbuf_free_bulk(q_pkts[q] + sent, q_n[q] - sent);
			t->tx_refused += q_n[q] - sent;
			t->dir_refused[d] += q_n[q] - sent;
		}
	}
}

/* Packet k of a direction is the k-th slot of the pacer's schedule and carries the TSC of
 * that slot: slots the pacer skipped (tgen descheduled) leave gaps in the sequence, so a DUT
 * and the receive side see the schedule tgen meant to offer, not how the host ran tgen. */
static void
tx_slots(struct tgen_ctx *c, struct trial_state *t, int d, uint32_t n, uint64_t now)
{
	struct tgen_pacer *pc = &t->pacer[d];
	struct rte_mbuf *pkts[32];
	uint64_t slot = pc->sent, tsc;
	uint32_t i;
	uint16_t sent;
	bool imix;

	if (n == 0)
		return;
	if (rte_pktmbuf_alloc_bulk(c->tx_pool, pkts, n) != 0)
		return; /* the pacer falls behind and says so */
	imix = c->profile.kind == TGEN_PROFILE_IMIX;
	for (i = 0; i < n; i++) {
		uint32_t seq = (uint32_t)(slot + i);
		const struct tgen_tmpl *tm = &c->tmpl[d][imix ? seq % TGEN_IMIX_PERIOD : 0];

		tsc = pc->tsc_per_pkt > 0
			      ? pc->start_tsc + (uint64_t)((double)(slot + i) * pc->tsc_per_pkt)
			      : now;
		tgen_tmpl_build(rte_pktmbuf_mtod(pkts[i], uint8_t *), tm, &c->stream[d], seq,
				t->tag, tsc);
		pkts[i]->data_len = pkts[i]->pkt_len = tm->frame_size - TGEN_FCS_LEN;
		t->tx_bytes += tm->frame_size;
	}
	if (c->nq == 1) {
		sent = rte_eth_tx_burst(c->port[d].id, 0, pkts, n);
		if (sent < n) {
			rte_pktmbuf_free_bulk(pkts + sent, n - sent);
			t->tx_refused += n - sent;
			t->dir_refused[d] += n - sent;
		}
	} else {
		tx_spread(c, t, d, pkts, n, (uint32_t)slot);
	}
	t->tx_packets[d] += n;
	pc->sent += n;
}

static void
tx_dir(struct tgen_ctx *c, struct trial_state *t, int d, uint64_t now)
{
	tx_slots(c, t, d, tgen_pacer_due(&t->pacer[d], now), now);
}

/* The loop ends at the trial's end, where the schedule's last slots are due: the partial burst
 * the pacer held back, and the slots that fell due after the loop's last pass (a wake-up a few
 * microseconds late does not reach them before the end). They go out now, so a trial that kept
 * its schedule offers exactly duration x rate; tgen_pacer_end skips what the generator or the
 * host really fell behind by. */
static void
tx_end(struct tgen_ctx *c, struct trial_state *t, int d, uint64_t last, uint64_t end)
{
	struct tgen_pacer *pc = &t->pacer[d];
	uint64_t n = tgen_pacer_end(pc, last, end), before;
	uint32_t k;

	while (n > 0) {
		k = n > 32 ? 32 : (uint32_t)n;
		before = pc->sent;
		tx_slots(c, t, d, k, rte_rdtsc());
		if (pc->sent == before)
			break; /* no mbufs: the rest is counted skipped */
		n -= k;
	}
}

static int
seq_prepare(struct tgen_ctx *c, double pps, double duration_s)
{
	uint64_t want;
	int d, ret;

	if (pps <= 0)
		pps = tgen_line_rate_pps(tgen_profile_mean_frame(&c->profile), c->link_bps);
	want = (uint64_t)(pps * duration_s * 1.05) + 65536;
	if (want > UINT32_MAX)
		want = (uint64_t)UINT32_MAX + 1;
	for (d = 0; d < TGEN_NDIR; d++) {
		if (c->seq[d].bits != NULL && c->seq[d].nbits >= want) {
			tgen_seq_reset(&c->seq[d]);
			continue;
		}
		tgen_seq_free(&c->seq[d]);
		ret = tgen_seq_init(&c->seq[d], want);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void
progress_line(struct tgen_ctx *c, struct trial_state *t, double secs, uint64_t *last_tx,
	      uint64_t *last_rx)
{
	uint64_t tx = t->tx_packets[0] + t->tx_packets[1];
	uint64_t rx = c->seq[0].unique + c->seq[1].unique;
	uint64_t dtx = tx - *last_tx, drx = rx - *last_rx;

	printf("  %4.0fs  tx %10" PRIu64 " pps  rx %10" PRIu64 " pps  refused %" PRIu64
	       "  lat avg %.1f us\n",
	       secs, dtx, drx, t->tx_refused,
	       c->lat.count ? c->lat.sum / (double)c->lat.count / 1000 : 0.0);
	fflush(stdout);
	*last_tx = tx;
	*last_rx = rx;
}

/* The pacer sends whole bursts: a trial on schedule may end up to a burst per direction short. */
static double
slack_pkts(const struct tgen_ctx *c, const struct trial_state *t)
{
	int ndir = c->profile.bidir ? 2 : 1;

	return (double)(ndir * t->pacer[0].burst);
}

static void
result_fill(struct tgen_ctx *c, struct trial_state *t, double pps, double dur,
	    struct tgen_result *r)
{
	uint64_t rx = 0;
	int d;

	r->tx_packets = t->tx_packets[0] + t->tx_packets[1];
	r->tx_bytes = t->tx_bytes;
	r->reordered = r->duplicates = 0;
	for (d = 0; d < TGEN_NDIR; d++) {
		r->dir_tx[d] = t->tx_packets[d];
		r->dir_rx[d] = c->seq[d].unique;
		rx += c->seq[d].unique;
		r->reordered += c->seq[d].reordered;
		r->duplicates += c->seq[d].duplicates;
	}
	r->rx_packets = rx;
	r->rx_bytes = t->rx_bytes;
	r->loss_packets = r->tx_packets > rx ? r->tx_packets - rx : 0;
	r->loss_ratio = r->tx_packets ? (double)r->loss_packets / (double)r->tx_packets : 0;
	r->rate_pps_requested = pps;
	r->duration_s = dur;
	r->tx_pps = dur > 0 ? (double)r->tx_packets / dur : 0;
	r->rx_pps = dur > 0 ? (double)rx / dur : 0;
	r->tx_bps = dur > 0 ? (double)r->tx_bytes * 8 / dur : 0;
	r->rx_bps = dur > 0 ? (double)r->rx_bytes * 8 / dur : 0;
	r->tx_refused = t->tx_refused;
	r->late_packets = t->late;
	r->rx_other = t->other;
	r->pacer_skipped = t->pacer[0].skipped + t->pacer[1].skipped;
	r->rate_pps_offered = r->tx_pps;
	r->generator_limited = tgen_rate_short(pps, r->tx_pps, dur, c->rate_tol, slack_pkts(c, t));
	r->pacing_sleep = t->idle.sleep;
	r->burst = t->pacer[0].burst;
	r->sleeps = t->idle.sleeps;
	r->slept_ns = t->idle.slept_ns;
	r->lat_min = c->lat.min;
	r->lat_max = c->lat.max;
	r->lat_avg = c->lat.count ? (uint64_t)(c->lat.sum / (double)c->lat.count) : 0;
	r->lat_p50 = tgen_lat_percentile(&c->lat, 0.50);
	r->lat_p90 = tgen_lat_percentile(&c->lat, 0.90);
	r->lat_p99 = tgen_lat_percentile(&c->lat, 0.99);
	r->lat_p999 = tgen_lat_percentile(&c->lat, 0.999);
	for (int d = 0; d < TGEN_NDIR; d++)
		tgen_dir_lat_fill(&r->dlat[d], &c->hdr[d]);
}

int
tgen_trial_run(struct tgen_ctx *c, double pps, double duration_s, const char *phase, bool progress,
	       struct tgen_result *res)
{
	struct trial_state t;
	struct tgen_thread_cpu cpu0[TGEN_MAX_THREADS];
	uint64_t now, start, end, drain_end, next_progress, last_tx = 0, last_rx = 0, dl, last;
	double per_dir = c->profile.bidir ? pps / 2 : pps;
	int d, ndir = c->profile.bidir ? 2 : 1, ret;
	bool sleep = tgen_pacing_sleeps(c->pacing, per_dir);
	unsigned ncpu0;

	ret = seq_prepare(c, per_dir, duration_s);
	if (ret < 0)
		return ret;
	memset(&t, 0, sizeof(t));
	c->trial_index++;
	t.tag = (uint8_t)c->trial_index;
	t.ns_per_tsc = 1e9 / (double)c->tsc_hz;
	tgen_lat_reset(&c->lat);
	for (d = 0; d < TGEN_NDIR; d++)
		if (c->hdr[d].counts != NULL)
			tgen_hdr_reset(&c->hdr[d]);
	ncpu0 = tgen_cpu_sample(cpu0, TGEN_MAX_THREADS);
	start = rte_rdtsc();
	end = start + (uint64_t)(duration_s * (double)c->tsc_hz);
	next_progress = start + c->tsc_hz;
	tgen_idle_init(&t.idle, sleep, c->tsc_hz, start);
	for (d = 0; d < ndir; d++) {
		tgen_pacer_init(&t.pacer[d], per_dir, c->tsc_hz, start);
		tgen_pacer_set_burst(&t.pacer[d], per_dir, tgen_burst_for_pacing(per_dir, sleep));
		if (sleep)
			tgen_pacer_set_max_lag(&t.pacer[d], per_dir, TGEN_SLEEP_MAX_LAG_S);
	}
	for (now = last = start; now < end && !tgen_quit; now = rte_rdtsc()) {
		for (d = 0; d < ndir; d++)
			tx_dir(c, &t, d, now);
		last = now;
		dl = progress && next_progress < end ? next_progress : end;
		idle_step(c, &t, ndir, now, dl);
		if (progress && now >= next_progress) {
			progress_line(c, &t, (double)(now - start) / c->tsc_hz, &last_tx, &last_rx);
			next_progress += c->tsc_hz;
		}
	}
	if (now < end)
		end = now; /* interrupted */
	/* slots of the schedule the host did not let tgen send before the end were skipped */
	for (d = 0; d < ndir; d++) {
		struct tgen_pacer *pc = &t.pacer[d];
		uint64_t slots = tgen_pacer_slots(pc, end - start);

		if (pc->tsc_per_pkt <= 0)
			continue;
		if (!tgen_quit)
			tx_end(c, &t, d, last, end);
		if (slots > pc->sent)
			pc->skipped += slots - pc->sent;
	}
	drain_end = rte_rdtsc() + (uint64_t)(c->drain_s * (double)c->tsc_hz);
	while ((now = rte_rdtsc()) < drain_end && !tgen_quit)
		idle_step(c, &t, 0, now, drain_end);
	memset(res, 0, sizeof(*res));
	result_fill(c, &t, pps, (double)(end - start) / (double)c->tsc_hz, res);
	res->n_threads = tgen_cpu_sample(res->threads, TGEN_MAX_THREADS);
	tgen_cpu_delta(res->threads, res->n_threads, cpu0, ncpu0);
	res->index = c->trial_index - 1;
	res->phase = phase;
	return tgen_quit ? -EINTR : 0;
}

/* Sends a packet every 10 ms until one comes back (the DUT forwards) or timeout_s passes,
 * then lets the rest drain: the first trial then does not measure a DUT still starting up. */
int
tgen_warmup(struct tgen_ctx *c, double timeout_s)
{
	struct trial_state t;
	uint64_t now = rte_rdtsc(), end = now + (uint64_t)(timeout_s * (double)c->tsc_hz);
	uint64_t next = now, drain_end;
	int d, ndir = c->profile.bidir ? 2 : 1, ret;

	if (timeout_s <= 0)
		return 0;
	ret = seq_prepare(c, 1000, timeout_s + 1);
	if (ret < 0)
		return ret;
	memset(&t, 0, sizeof(t));
	t.tag = TGEN_WARMUP_TAG;
	t.ns_per_tsc = 1e9 / (double)c->tsc_hz;
	tgen_lat_reset(&c->lat);
	tgen_idle_init(&t.idle, c->pacing != TGEN_PACING_BUSY, c->tsc_hz, now);
	for (; now < end && !tgen_quit; now = rte_rdtsc()) {
		if (now >= next) {
			for (d = 0; d < ndir; d++) {
				tgen_pacer_init(&t.pacer[d], 0, c->tsc_hz, now);
				t.pacer[d].burst = 1;
				tx_dir(c, &t, d, now);
			}
			next = now + c->tsc_hz / 100;
		}
		idle_step(c, &t, 0, now, next);
		if (c->seq[0].unique + c->seq[1].unique > 0)
			break;
	}
	c->warmup_s = (double)(rte_rdtsc() - (end - (uint64_t)(timeout_s * (double)c->tsc_hz))) /
		      (double)c->tsc_hz;
	if (c->seq[0].unique + c->seq[1].unique > 0) {
		drain_end = rte_rdtsc() + c->tsc_hz / 10;
		while ((now = rte_rdtsc()) < drain_end && !tgen_quit)
			idle_step(c, &t, 0, now, drain_end);
	}
	for (d = 0; d < TGEN_NDIR; d++)
		c->warmup_tx[d] = t.tx_packets[d] - t.dir_refused[d]; /* those that left */
	c->warmup_rx = c->seq[0].unique + c->seq[1].unique;
	return c->warmup_rx > 0 ? 0 : -ETIMEDOUT;
}
