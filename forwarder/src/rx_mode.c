/* SPDX-License-Identifier: BSD-3-Clause
 * Worker rx modes (rx_mode.h): the back-off of adaptive mode, the rx interrupts of interrupt
 * mode, `set interface rx-mode IFACE poll|adaptive|interrupt` and what `show runtime` says
 * about them (the mode that ran, sleeps, time asleep, the worker's CPU time), so that clocks
 * per packet of a sleeping worker are never read as those of a polling one.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_log.h>

#include "cli.h"
#include "graph.h"
#include "rx_mode.h"

struct rx_mode_worker rx_mode_workers[MAX_WORKERS];
static enum rx_mode port_mode[MAX_PORTS]; /* per port, as set; a worker runs the least idle */

static const char *const rx_mode_names[RX_MODE_N] = {"poll", "adaptive", "interrupt"};

int
rx_mode_parse(const char *s, enum rx_mode *m)
{
	for (int i = 0; i < RX_MODE_N; i++)
		if (strcmp(s, rx_mode_names[i]) == 0 ||
		    (i == RX_MODE_POLL && strcmp(s, "polling") == 0)) {
			*m = (enum rx_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *
rx_mode_name(enum rx_mode m)
{
	return m < RX_MODE_N ? rx_mode_names[m] : "?";
}

bool
rx_mode_wants_intr(void)
{
	return vfwd.conf.rx_mode == RX_MODE_INTERRUPT;
}

int
rx_mode_port_check(const struct port *p)
{
	for (uint16_t q = 0; q < p->nb_rxq; q++) {
		int rc = rte_eth_dev_rx_intr_enable(p->port_id, q);

		if (rc < 0) {
			RTE_LOG(ERR, USER1,
				"%s (%s): rx-mode interrupt: the PMD has no rx interrupts (%s); "
				"use "
				"adaptive\n",
				p->name, p->driver, strerror(-rc));
			return -ENOTSUP;
		}
		rte_eth_dev_rx_intr_disable(p->port_id, q);
	}
	return 0;
}

static uint64_t
thread_cpu_ns(const struct rx_mode_worker *st)
{
	struct timespec ts;

	if (!st->cpu_clock_ok || clock_gettime(st->cpu_clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The mode worker w runs: poll when any of its ports polls, interrupt when all want
 * interrupts, else adaptive. */
static enum rx_mode
worker_mode(unsigned w)
{
	enum rx_mode m = RX_MODE_INTERRUPT;
	bool any = false;

	for (unsigned i = 0; i < vfwd.n_ports; i++)
		for (unsigned q = 0; q < vfwd.ports[i].nb_rxq; q++) {
			if (rxq_worker[i][q] != (int)w)
				continue;
			any = true;
			if (port_mode[i] < m)
				m = port_mode[i];
		}
	return any ? m : RX_MODE_POLL;
}

static void
intr_queues(unsigned w, int op)
{
	for (unsigned i = 0; i < vfwd.n_ports; i++)
		for (unsigned q = 0; q < vfwd.ports[i].nb_rxq; q++) {
			if (rxq_worker[i][q] != (int)w)
				continue;
			if (op == 0)
				rte_eth_dev_rx_intr_ctl_q(vfwd.ports[i].port_id, (uint16_t)q,
							  RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
							  NULL);
			else if (op > 0)
				rte_eth_dev_rx_intr_enable(vfwd.ports[i].port_id, (uint16_t)q);
			else
				rte_eth_dev_rx_intr_disable(vfwd.ports[i].port_id, (uint16_t)q);
		}
}

void
rx_mode_worker_start(unsigned w)
{
	struct rx_mode_worker *st = &rx_mode_workers[w];
	struct rte_graph *g = vfwd.graph[w];
	struct rte_node *node;
	rte_graph_off_t off;
	rte_node_t count;

	st->n_rx = 0;
	if (g != NULL)
		rte_graph_foreach_node(count, off, g, node)
		{
			size_t n = strlen(node->name);

			if (n > 3 && strcmp(node->name + n - 3, "-rx") == 0 && st->n_rx < MAX_PORTS)
				st->rx[st->n_rx++] = node;
		}
	st->cpu_clock_ok = pthread_getcpuclockid(pthread_self(), &st->cpu_clock) == 0;
	/* the default 50 us of timer slack would make every short sleep 50 us longer */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (rx_mode_wants_intr())
		intr_queues(w, 0);
	__atomic_or_fetch(&st->ran, (uint8_t)(1u << st->mode), __ATOMIC_RELAXED);
}

static void
sleep_us(struct rx_mode_worker *st, uint32_t us)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)us * 1000}, t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	nanosleep(&ts, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st->sleeps++;
	st->slept_ns +=
		(uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec));
}

static void
intr_wait(unsigned w, struct rx_mode_worker *st)
{
	struct rte_epoll_event ev[MAX_PORTS * MAX_RXQ];
	struct timespec t0, t1;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	intr_queues(w, 1);
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, (int)RTE_DIM(ev), RX_MODE_INTR_TIMEOUT_MS);
	intr_queues(w, -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st->sleeps++;
	st->intr_wakeups += n > 0;
	st->slept_ns +=
		(uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec));
}

void
rx_mode_idle_slow(unsigned w)
{
	struct rx_mode_worker *st = &rx_mode_workers[w];
	uint64_t objs = 0;

	for (unsigned i = 0; i < st->n_rx; i++)
		objs += __atomic_load_n(&st->rx[i]->total_objs, __ATOMIC_RELAXED);
	if (objs != st->last_objs) {
		st->last_objs = objs;
		st->idle = 0;
		st->sleep_us = 0;
		return;
	}
	if (++st->idle < RX_MODE_IDLE_POLLS)
		return;
	if (!(st->ran & (1u << st->mode)))
		__atomic_or_fetch(&st->ran, (uint8_t)(1u << st->mode), __ATOMIC_RELAXED);
	if (st->mode == RX_MODE_INTERRUPT) {
		intr_wait(w, st);
		return;
	}
	st->sleep_us = st->sleep_us == 0 ? RX_MODE_MIN_SLEEP_US : st->sleep_us * 2;
	if (st->sleep_us > vfwd.conf.adaptive_max_sleep_us)
		st->sleep_us = vfwd.conf.adaptive_max_sleep_us;
	sleep_us(st, st->sleep_us);
}

const char *
rx_mode_node_state(unsigned w)
{
	return rx_mode_workers[w].mode == RX_MODE_INTERRUPT ? "interrupt wait" : "polling";
}

static void
ran_names(uint8_t ran, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < RX_MODE_N; i++)
		if (ran & (1u << i))
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "+" : "",
					      rx_mode_names[i]);
}

void
rx_mode_show(struct vfwd_cli_out *out, unsigned w, bool json)
{
	struct rx_mode_worker *st = &rx_mode_workers[w];
	uint64_t sleeps = st->sleeps - st->base_sleeps;
	double slept = (double)(st->slept_ns - st->base_slept_ns) / 1e9;
	double cpu = (double)(thread_cpu_ns(st) - st->base_cpu_ns) / 1e9;
	char ran[64];

	ran_names(__atomic_load_n(&st->ran, __ATOMIC_RELAXED), ran, sizeof(ran));
	if (json) {
		vfwd_cli_printf(
			out,
			", \"rx_mode\": \"%s\", \"rx_modes_ran\": \"%s\", \"sleeps\": %" PRIu64
			", \"sleep_s\": %.6f, \"adaptive_max_sleep_us\": %u, \"intr_wakeups\": "
			"%" PRIu64 ", \"cpu_s\": %.6f, \"cpu_clocks\": %.0f",
			rx_mode_name(st->mode), ran, sleeps, slept, vfwd.conf.adaptive_max_sleep_us,
			st->intr_wakeups - st->base_intr_wakeups, st->cpu_clock_ok ? cpu : -1,
			st->cpu_clock_ok ? cpu * (double)vfwd.tsc_hz : -1);
		return;
	}
	vfwd_cli_printf(out, "  rx-mode %s (ran: %s), sleeps %" PRIu64 ", asleep %.3f s, ",
			rx_mode_name(st->mode), ran, sleeps, slept);
	if (st->ran & (1u << RX_MODE_INTERRUPT))
		vfwd_cli_printf(out, "woken by rx interrupts %" PRIu64 ", ",
				st->intr_wakeups - st->base_intr_wakeups);
	vfwd_cli_printf(out, "cpu time ");
	if (st->cpu_clock_ok)
		vfwd_cli_printf(out, "%.3f s (%.0f clocks)\n", cpu, cpu * (double)vfwd.tsc_hz);
	else
		vfwd_cli_printf(out, "unknown\n");
}

void
rx_mode_clear(void)
{
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct rx_mode_worker *st = &rx_mode_workers[w];

		st->base_sleeps = st->sleeps;
		st->base_slept_ns = st->slept_ns;
		st->base_intr_wakeups = st->intr_wakeups;
		st->base_cpu_ns = thread_cpu_ns(st);
		__atomic_store_n(&st->ran, (uint8_t)(1u << st->mode), __ATOMIC_RELAXED);
	}
}

/* set interface rx-mode IFACE poll|adaptive|interrupt */
static int
cmd_set_rx_mode(struct vfwd_cli_out *out, int argc, char **argv)
{
	enum rx_mode m;
	struct port *p;

	if (argc != 2 || rx_mode_parse(argv[1], &m) < 0)
		return cli_error(out, -EINVAL,
				 "usage: set interface rx-mode IFACE poll|adaptive|interrupt");
	p = port_by_name(argv[0]);
	if (p == NULL)
		return cli_error(out, -ENODEV, "unknown interface '%s'", argv[0]);
	if (m == RX_MODE_INTERRUPT && !rx_mode_wants_intr())
		return cli_error(out, -ENOTSUP,
				 "%s: interrupt mode needs 'rx-mode interrupt' in the startup "
				 "file's cpu section (rx interrupts are set up when ports start)",
				 argv[0]);
	port_mode[p - vfwd.ports] = m;
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		struct rx_mode_worker *st = &rx_mode_workers[w];
		enum rx_mode wm = worker_mode(w);

		if (wm == st->mode)
			continue;
		__atomic_store_n(&st->mode, (uint8_t)wm, __ATOMIC_RELAXED);
		__atomic_or_fetch(&st->ran, (uint8_t)(1u << wm), __ATOMIC_RELAXED);
	}
	return 0;
}

/* Workers start in the startup file's mode; called once the graphs exist. */
void
rx_mode_init(void)
{
	static bool registered;

	if (!registered)
		vfwd_cli_register("set interface rx-mode", "IFACE poll|adaptive|interrupt",
				  cmd_set_rx_mode);
	registered = true;
	for (unsigned i = 0; i < MAX_PORTS; i++)
		port_mode[i] = vfwd.conf.rx_mode < RX_MODE_N ? (enum rx_mode)vfwd.conf.rx_mode
							     : RX_MODE_POLL;
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		rx_mode_workers[w].mode = (uint8_t)worker_mode(w);
		rx_mode_workers[w].ran = (uint8_t)(1u << rx_mode_workers[w].mode);
	}
}
