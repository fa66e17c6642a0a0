/* SPDX-License-Identifier: BSD-3-Clause */
/* capdut: a tiny DPDK DUT with a known capacity, for tgen's tests.
 *
 *   capdut [EAL args] -- [--pps N] [--depth D] [--drop-every K] [--drop-all] [--delay-ms D]
 *
 * It forwards port0 <-> port1 unchanged and drops tgen packets beyond a token bucket of N pps
 * (depth D packets). The bucket runs on tgen's schedule, not on the clock: every tgen packet
 * carries its schedule slot (the sequence number) and the slot's TSC (tgen and capdut share
 * the host's TSC), and slots tgen skipped cost tokens as if they had been sent. So the
 * capacity holds exactly however the two processes are scheduled on a busy machine.
 * --drop-every K drops every packet whose sequence number is K-1 mod K (a known share,
 * exactly 1/K); --drop-all drops every tgen packet; other packets (ARP, tgen's warm-up) pass.
 * --delay-ms D holds every forwarded packet D ms (a DUT with a long queue).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "tgen.h"

static volatile int quit;

struct bucket {
	double tokens;
	uint64_t last_tsc;
	uint32_t last_seq;
	uint8_t trial;
	bool started;
};

struct cfg {
	double pps, depth;
	uint64_t drop_every;
	bool drop_all;
	uint64_t hz, delay_tsc;
};

#define DELAY_QN 65536 /* power of two */

struct delay_line {
	struct rte_mbuf *m[DELAY_QN];
	uint64_t at[DELAY_QN];
	uint32_t head, tail;
};

static struct delay_line delay[2];
static uint64_t rx[2], tx[2], drop[2];

static void
fwd_send(uint16_t p, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = rte_eth_tx_burst(p ^ 1, 0, pkts, n);

	tx[p] += sent;
	if (sent < n) {
		drop[p] += n - sent;
		rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	}
}

static void
delay_push(uint16_t p, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	struct delay_line *d = &delay[p];
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (d->tail - d->head == DELAY_QN) {
			drop[p]++;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		d->m[d->tail % DELAY_QN] = pkts[i];
		d->at[d->tail % DELAY_QN] = now;
		d->tail++;
	}
}

static void
delay_release(const struct cfg *c, uint16_t p, uint64_t now)
{
	struct delay_line *d = &delay[p];
	struct rte_mbuf *out[32];
	uint16_t n = 0;

	while (d->head != d->tail && n < 32 && now - d->at[d->head % DELAY_QN] >= c->delay_tsc)
		out[n++] = d->m[d->head++ % DELAY_QN];
	if (n)
		fwd_send(p, out, n);
}

static void
on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

static int
port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_info_get(port, &info);
	if (ret < 0)
		return ret;
	/* virtio-user in server mode takes a new vhost client only from its LSC interrupt */
	if (*info.dev_flags & RTE_ETH_DEV_INTR_LSC)
		conf.intr_conf.lsc = 1;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret < 0)
		return ret;
	ret = rte_eth_rx_queue_setup(port, 0, 4096, rte_eth_dev_socket_id(port), NULL, mp);
	if (ret < 0)
		return ret;
	ret = rte_eth_tx_queue_setup(port, 0, 4096, rte_eth_dev_socket_id(port), NULL);
	if (ret < 0)
		return ret;
	return rte_eth_dev_start(port);
}

/* true: forward */
static bool
admit(const struct cfg *c, struct bucket *b, const struct rte_mbuf *m)
{
	const struct tgen_sig *sig =
		tgen_pkt_parse(rte_pktmbuf_mtod(m, const uint8_t *), m->data_len);

	if (sig == NULL || sig->trial == TGEN_WARMUP_TAG)
		return true; /* ARP, foreign frames and tgen's warm-up pass */
	if (c->drop_all)
		return false;
	if (c->drop_every && sig->seq % c->drop_every == c->drop_every - 1)
		return false;
	if (c->pps <= 0)
		return true;
	if (!b->started || sig->trial != b->trial) {
		b->started = true;
		b->trial = sig->trial;
		b->tokens = c->depth;
		b->last_tsc = sig->tsc;
		b->last_seq = sig->seq;
	} else if (sig->seq > b->last_seq) {
		/* refill for the time between the slots, pay for the slots in between */
		b->tokens += (double)(sig->tsc - b->last_tsc) * c->pps / (double)c->hz;
		b->tokens -= (double)(sig->seq - b->last_seq - 1);
		if (b->tokens < 0)
			b->tokens = 0;
		if (b->tokens > c->depth)
			b->tokens = c->depth;
		b->last_tsc = sig->tsc;
		b->last_seq = sig->seq;
	}
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

int
main(int argc, char **argv)
{
	struct cfg c = {.depth = 64};
	struct bucket b[2];
	struct rte_mempool *mp;
	struct rte_mbuf *pkts[32], *fwd[32];
	double delay_ms = 0;
	uint64_t now;
	uint16_t n, nf, p, i;
	int ret, a;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "capdut: EAL init failed\n");
	argc -= ret;
	argv += ret;
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--pps") == 0 && a + 1 < argc)
			c.pps = atof(argv[++a]);
		else if (strcmp(argv[a], "--depth") == 0 && a + 1 < argc)
			c.depth = atof(argv[++a]);
		else if (strcmp(argv[a], "--drop-every") == 0 && a + 1 < argc)
			c.drop_every = strtoull(argv[++a], NULL, 0);
		else if (strcmp(argv[a], "--delay-ms") == 0 && a + 1 < argc)
			delay_ms = atof(argv[++a]);
		else if (strcmp(argv[a], "--drop-all") == 0)
			c.drop_all = true;
		else
			rte_exit(EXIT_FAILURE, "capdut: unknown argument %s\n", argv[a]);
	}
	c.hz = rte_get_tsc_hz();
	c.delay_tsc = (uint64_t)(delay_ms * (double)c.hz / 1000);
	memset(b, 0, sizeof(b));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (rte_eth_dev_count_avail() < 2)
		rte_exit(EXIT_FAILURE, "capdut: need two ports\n");
	mp = rte_pktmbuf_pool_create("capdut", 16384, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "capdut: no mempool\n");
	for (p = 0; p < 2; p++)
		if (port_init(p, mp) < 0)
			rte_exit(EXIT_FAILURE, "capdut: port %u init failed\n", p);
	printf("capdut: forwarding, pps %.0f depth %.0f drop-every %lu drop-all %d delay %.1f ms\n",
	       c.pps, c.depth, (unsigned long)c.drop_every, c.drop_all, delay_ms);
	fflush(stdout);
	while (!quit) {
		for (p = 0; p < 2; p++) {
			if (c.delay_tsc)
				delay_release(&c, p, rte_rdtsc());
			n = rte_eth_rx_burst(p, 0, pkts, 32);
			if (n == 0)
				continue;
			now = rte_rdtsc(); /* after the burst: never before a packet arrived */
			rx[p] += n;
			for (i = 0, nf = 0; i < n; i++) {
				if (admit(&c, &b[p], pkts[i]))
					fwd[nf++] = pkts[i];
				else
					rte_pktmbuf_free(pkts[i]);
			}
			drop[p] += n - nf;
			if (c.delay_tsc)
				delay_push(p, fwd, nf, now);
			else
				fwd_send(p, fwd, nf);
		}
	}
	for (p = 0; p < 2; p++)
		printf("capdut: port%u rx %lu forwarded %lu dropped %lu\n", p, (unsigned long)rx[p],
		       (unsigned long)tx[p], (unsigned long)drop[p]);
	for (p = 0; p < 2; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_eal_cleanup();
	return 0;
}
