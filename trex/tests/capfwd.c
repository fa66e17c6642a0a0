/* SPDX-License-Identifier: BSD-3-Clause */
/* capfwd: a DUT with a known capacity for any generator (TRex's frames carry no tgen tag, so
 * tgen's capdut cannot cap them). It forwards port0 -> port1 and port1 -> port0 unchanged
 * and lets through at most N packets a second: a token bucket on the TSC with a depth of
 * D packets (default N / 20: 50 ms). A trial of T seconds at rate R passes when
 * (R - N) * T <= D: NDR lies in [N, N (1 + D / (N T))], 1 % above N at most for 5 s final
 * trials.
 * The depth caps the bucket only while both rx rings are empty. A busy host that
 * deschedules capfwd for longer than D / N leaves packets waiting in the memif rings; the
 * tokens of that gap keep accruing until the backlog is read, so packets offered at or
 * under the cap are never dropped for capfwd's own absence, and packets offered above it
 * still find only N tokens a second.
 * With --trial-signal, SIGUSR1 (the search's pre-trial hook) starts a trial: the bucket is
 * refilled to D and capped to D until the trial's first packet, then never capped until
 * the next SIGUSR1. A trial of T seconds then passes exactly when it sends at most D + N T
 * packets, whenever they come, so a generator that the host deschedules and that catches
 * up in a burst is not punished for it either. (Capping only until the first packet
 * matters: a generator may take seconds from the hook to its first packet.)
 *
 *   capfwd [EAL args] -- --pps N [--depth D] [--trial-signal]
 * Counters (forwarded, dropped) are printed when it ends (SIGINT/SIGTERM).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#define BURST 32

static volatile sig_atomic_t quit, refill;

static void
on_signal(int sig)
{
	if (sig == SIGUSR1)
		refill = 1;
	else
		quit = 1;
}

static int
port_init(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, 1, 1, &conf) < 0 ||
	    rte_eth_rx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL, mp) < 0 ||
	    rte_eth_tx_queue_setup(port, 0, 1024, rte_eth_dev_socket_id(port), NULL) < 0 ||
	    rte_eth_dev_start(port) < 0)
		return -1;
	rte_eth_promiscuous_enable(port);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_mbuf *pkts[BURST];
	struct rte_mempool *mp;
	double pps = 0, depth = 0, tokens, per_tsc;
	uint64_t last, now, fwd = 0, drop = 0;
	uint16_t p, n, i, ok, sent;
	int ret, idle, per_trial = 0, started = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "capfwd: EAL init failed\n");
		return 1;
	}
	for (i = ret + 1; i < argc; i++) {
		if (strcmp(argv[i], "--pps") == 0 && i + 1 < argc)
			pps = atof(argv[++i]);
		else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc)
			depth = atof(argv[++i]);
		else if (strcmp(argv[i], "--trial-signal") == 0)
			per_trial = 1;
		else {
			fprintf(stderr, "capfwd: unknown argument %s (-- --pps N [--depth D] "
				"[--trial-signal])\n", argv[i]);
			return 2;
		}
	}
	if (pps <= 0 || rte_eth_dev_count_avail() < 2) {
		fprintf(stderr, "capfwd: need --pps N > 0 and two ports\n");
		return 2;
	}
	if (depth <= 0)
		depth = pps / 20;
	mp = rte_pktmbuf_pool_create("capfwd", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL || port_init(0, mp) < 0 || port_init(1, mp) < 0) {
		fprintf(stderr, "capfwd: port set-up failed\n");
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	printf("capfwd: %.0f pps, depth %.0f packets%s\n", pps, depth,
	       per_trial ? ", refilled by SIGUSR1 before each trial" : "");
	fflush(stdout);
	per_tsc = pps / (double)rte_get_tsc_hz();
	tokens = depth;
	last = rte_rdtsc();
	while (!quit) {
		if (refill) {
			refill = 0;
			started = 0;
			tokens = depth;
		}
		idle = 1;
		for (p = 0; p < 2; p++) {
			n = rte_eth_rx_burst(p, 0, pkts, BURST);
			now = rte_rdtsc();
			tokens += (double)(now - last) * per_tsc;
			last = now;
			if (n == 0)
				continue;
			idle = 0;
			ok = tokens >= n ? n : (uint16_t)tokens;
			tokens -= ok;
			sent = rte_eth_tx_burst(p ^ 1, 0, pkts, ok);
			fwd += sent;
			drop += n - sent;
			for (i = sent; i < n; i++)
				rte_pktmbuf_free(pkts[i]);
		}
		/* no backlog (and, per trial, no packet yet): the bucket holds at most its depth */
		if (!idle)
			started = 1;
		if (idle && tokens > depth && !(per_trial && started))
			tokens = depth;
	}
	printf("capfwd: forwarded %lu dropped %lu\n", (unsigned long)fwd, (unsigned long)drop);
	fflush(stdout);
	rte_eth_dev_stop(0);
	rte_eth_dev_stop(1);
	rte_eal_cleanup();
	return 0;
}
