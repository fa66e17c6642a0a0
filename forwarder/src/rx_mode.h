/* SPDX-License-Identifier: BSD-3-Clause
 * Worker rx modes, as VPP's: poll (spin on the rx queues), adaptive (after empty polls,
 * sleep with a doubling back-off bounded by RX_MODE_MAX_SLEEP_US, back to polling on the
 * first packet) and interrupt (wait on the PMD's rx interrupt, with the same bound).
 */
#ifndef VFWD_RX_MODE_H
#define VFWD_RX_MODE_H

#include <stdbool.h>
#include <stdint.h>

#include "state.h"

enum rx_mode { RX_MODE_POLL, RX_MODE_ADAPTIVE, RX_MODE_INTERRUPT, RX_MODE_N };

#define RX_MODE_IDLE_POLLS 64	/* empty walks in a row before the first sleep */
#define RX_MODE_MIN_SLEEP_US 1	/* the first sleep; each empty wake-up doubles it ... */
#define RX_MODE_MAX_SLEEP_US 50 /* ... up to this: the longest a packet waits for a worker */
/* cpu { adaptive-max-sleep-us N } sets another bound, up to this one: under TCG a guest's
 * wake-up costs the host tens of us, and 50 us sleeps kept an idle DUT at one host CPU */
#define RX_MODE_MAX_SLEEP_US_LIMIT 100000
#define RX_MODE_INTR_TIMEOUT_MS 1 /* interrupt mode: wake up at least this often */

struct rx_mode_worker {
	uint8_t mode; /* what the worker runs (written by the CLI, read by the worker) */
	uint8_t ran;  /* bit per mode that ran since the last clear runtime */
	uint32_t idle;
	uint32_t sleep_us;
	uint64_t last_objs;
	unsigned n_rx;
	struct rte_node *rx[MAX_PORTS]; /* this worker's <port>-rx nodes */
	uint64_t sleeps, slept_ns, intr_wakeups;
	uint64_t base_sleeps, base_slept_ns, base_cpu_ns, base_intr_wakeups;
	int cpu_clock_ok;
	clockid_t cpu_clock;
	bool intr_armed;
} __rte_cache_aligned;

extern struct rx_mode_worker rx_mode_workers[MAX_WORKERS];

int rx_mode_parse(const char *s, enum rx_mode *m);
const char *rx_mode_name(enum rx_mode m);
/* Workers start in the startup file's mode (cpu { rx-mode ... }); registers the CLI. */
void rx_mode_init(void);
/* Whether ports must be configured with rx interrupts (interrupt mode at start-up). */
bool rx_mode_wants_intr(void);
/* Interrupt mode: -ENOTSUP (and a log line naming the port) when the port's PMD has no rx
 * interrupts. */
int rx_mode_port_check(const struct port *p);
/* Called by worker w on its own thread before its first walk. */
void rx_mode_worker_start(unsigned w);
void rx_mode_idle_slow(unsigned w);

/* After each graph walk: nothing but a load and a branch in poll mode. */
static inline void
rx_mode_after_walk(unsigned w)
{
	if (likely(rx_mode_workers[w].mode == RX_MODE_POLL))
		return;
	rx_mode_idle_slow(w);
}

/* show runtime: one indented line per worker (text), or JSON fields (json). */
void rx_mode_show(struct vfwd_cli_out *out, unsigned w, bool json);
void rx_mode_clear(void);
/* The rx node's State column: VPP's "polling" or "interrupt wait". */
const char *rx_mode_node_state(unsigned w);

#endif
