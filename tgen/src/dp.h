/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen's DPDK side: ports, ARP, trials. */
#ifndef TGEN_DP_H
#define TGEN_DP_H

#include <rte_mempool.h>

#include "tgen.h"

struct tgen_port {
	uint16_t id;
	uint8_t mac[6];
	uint8_t dst_mac[6];
	bool dst_known;
	uint32_t ip; /* ours, answered in ARP; 0: none */
	uint32_t gw; /* resolved by ARP when dst_mac is not given; 0: none */
};

struct tgen_ctx {
	struct tgen_port port[TGEN_NDIR];
	struct rte_mempool *tx_pool, *rx_pool;
	struct tgen_profile profile;
	struct tgen_stream stream[TGEN_NDIR];
	struct tgen_tmpl tmpl[TGEN_NDIR][TGEN_IMIX_PERIOD]; /* udp: [d][0] */
	uint64_t link_bps;
	uint64_t tsc_hz;
	double drain_s;
	double rate_tol; /* a trial offering less than requested by more is generator_limited */
	enum tgen_pacing pacing; /* busy, sleep, or auto (sleep when bursts are far apart) */
	bool quiet;
	uint32_t trial_index;
	struct tgen_seq seq[TGEN_NDIR];
	struct tgen_lat lat;
	struct tgen_hdr hdr[TGEN_NDIR]; /* latency per direction, microseconds */
	uint64_t arp_replies_sent;
	uint64_t warmup_tx[TGEN_NDIR], warmup_rx; /* packets of the warm-up */
	double warmup_s;
	uint16_t nq; /* queues per port (--queues): flow f leaves on queue f % nq, all polled */
};

#define TGEN_MAX_QUEUES 8

extern volatile int tgen_quit;

int tgen_ports_setup(struct tgen_ctx *c, uint16_t nb_desc);
int tgen_ports_wait_link(struct tgen_ctx *c, double timeout_s);
int tgen_ports_resolve(struct tgen_ctx *c, double timeout_s);
void tgen_ports_close(struct tgen_ctx *c);
/* Handles an ARP packet for port p (answers requests for our address, learns the gateway).
 * Returns 1 when the packet was ARP. */
int tgen_arp_input(struct tgen_ctx *c, int p, const uint8_t *buf, uint32_t len);
/* stream.c: (re)builds both streams and their templates (after ARP learned a MAC). */
void tgen_streams_init(struct tgen_ctx *c);

/* Runs one trial at pps (0: unpaced) for duration_s, then drains. */
int tgen_trial_run(struct tgen_ctx *c, double pps, double duration_s, const char *phase,
		   bool progress, struct tgen_result *res);

int tgen_warmup(struct tgen_ctx *c, double timeout_s);

#endif
