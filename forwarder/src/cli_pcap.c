/* SPDX-License-Identifier: BSD-3-Clause
 * pcap trace: what a port receives or sends, into a pcap file, for `fwdlab capture`.
 *
 *   pcap trace PORT rx|tx|rxtx [max N] [snaplen BYTES] [file PATH]
 *   pcap trace off          stop, write the file, print how many frames it holds
 *   show pcap trace         the capture in progress: port, direction, frames so far
 *
 * Zero cost when off: nothing sits in the data path until `pcap trace` adds ethdev rx/tx
 * callbacks (rte_eth_add_rx_callback) on the port's queues; `pcap trace off` removes them.
 * While on, a callback copies each frame into a slot of a buffer allocated up front (at
 * most `max` frames, the first `snaplen` bytes of each); the main lcore writes the file
 * when the capture stops, so the workers never do I/O. A frame past `max` is not copied.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "cli.h"
#include "state.h"
#include "trace.h"

#define PCAP_MAX_FRAMES 1000000u
#define PCAP_MAX_BYTES (256u << 20)
#define PCAP_LINKTYPE_ETHERNET 1

struct pcap_slot {
	uint64_t ns;
	uint32_t len, caplen;
	uint32_t done; /* set (release) once data holds the frame */
	uint8_t data[];
};

struct pcap_trace {
	bool on;
	struct port *port;
	bool rx, tx;
	uint32_t max, snaplen;
	size_t slot_size;
	uint8_t *slots;
	uint32_t next; /* slots taken so far (may pass max: those are not copied) */
	char file[PATH_LEN];
	const struct rte_eth_rxtx_callback *rx_cb[RTE_MAX_QUEUES_PER_PORT];
	const struct rte_eth_rxtx_callback *tx_cb[RTE_MAX_QUEUES_PER_PORT];
};

static struct pcap_trace pcap_trace;

static struct pcap_slot *
pcap_slot_at(struct pcap_trace *t, uint32_t i)
{
	return (struct pcap_slot *)(t->slots + (size_t)i * t->slot_size);
}

static void
pcap_trace_copy(struct pcap_trace *t, struct rte_mbuf **pkts, uint16_t n)
{
	struct timespec ts;
	uint64_t ns;

	if (__atomic_load_n(&t->next, __ATOMIC_RELAXED) >= t->max)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	for (uint16_t k = 0; k < n; k++) {
		uint32_t i = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
		struct pcap_slot *s;
		const void *src;
		uint32_t cap;

		if (i >= t->max)
			return;
		s = pcap_slot_at(t, i);
		s->ns = ns;
		s->len = rte_pktmbuf_pkt_len(pkts[k]);
		cap = RTE_MIN(s->len, t->snaplen);
		src = rte_pktmbuf_read(pkts[k], 0, cap, s->data);
		if (src != s->data)
			rte_memcpy(s->data, src, cap);
		s->caplen = cap;
		__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	}
}

static uint16_t
pcap_rx_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts, uint16_t n, uint16_t max_pkts,
	   void *arg)
{
	RTE_SET_USED(port_id);
	RTE_SET_USED(queue);
	RTE_SET_USED(max_pkts);
	pcap_trace_copy(arg, pkts, n);
	return n;
}

static uint16_t
pcap_tx_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts, uint16_t n, void *arg)
{
	RTE_SET_USED(port_id);
	RTE_SET_USED(queue);
	pcap_trace_copy(arg, pkts, n);
	return n;
}

/* pcap_trace_write: the copied frames into t->file (pcap, nanosecond timestamps). */
static int
pcap_trace_write(struct pcap_trace *t, uint32_t *written)
{
	const uint32_t hdr[6] = {0xa1b23c4d, 2 | (4u << 16), 0,
				 0,	     t->snaplen,     PCAP_LINKTYPE_ETHERNET};
	uint32_t n = RTE_MIN(t->next, t->max);
	char tmp[PATH_LEN + 8];
	FILE *f;

	*written = 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", t->file);
	f = fopen(tmp, "wb");
	if (f == NULL)
		return -errno;
	if (fwrite(hdr, sizeof(hdr), 1, f) != 1)
		goto out_close;
	for (uint32_t i = 0; i < n; i++) {
		struct pcap_slot *s = pcap_slot_at(t, i);
		uint32_t rec[4];

		if (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
			continue;
		rec[0] = (uint32_t)(s->ns / 1000000000u);
		rec[1] = (uint32_t)(s->ns % 1000000000u);
		rec[2] = s->caplen;
		rec[3] = s->len;
		if (fwrite(rec, sizeof(rec), 1, f) != 1 || fwrite(s->data, s->caplen, 1, f) != 1)
			goto out_close;
		(*written)++;
	}
	if (fclose(f) != 0)
		goto out_unlink;
	if (rename(tmp, t->file) != 0)
		goto out_unlink;
	return 0;
out_close:
	fclose(f);
out_unlink:
	unlink(tmp);
	return -EIO;
}

static void
pcap_trace_detach(struct pcap_trace *t)
{
	struct port *p = t->port;

	for (uint16_t q = 0; q < p->nb_rxq; q++)
		if (t->rx_cb[q] != NULL)
			rte_eth_remove_rx_callback(p->port_id, q, t->rx_cb[q]);
	for (uint16_t q = 0; q < p->nb_txq; q++)
		if (t->tx_cb[q] != NULL)
			rte_eth_remove_tx_callback(p->port_id, q, t->tx_cb[q]);
	/* A worker may still be inside a callback it loaded before the removal: let every
	 * worker finish its burst before the callbacks and the buffer go. */
	rte_delay_ms(100);
	for (uint16_t q = 0; q < RTE_MAX_QUEUES_PER_PORT; q++) {
		rte_free((void *)(uintptr_t)t->rx_cb[q]);
		rte_free((void *)(uintptr_t)t->tx_cb[q]);
		t->rx_cb[q] = NULL;
		t->tx_cb[q] = NULL;
	}
}

static int
pcap_trace_attach(struct vfwd_cli_out *out, struct pcap_trace *t)
{
	struct port *p = t->port;

	for (uint16_t q = 0; t->rx && q < p->nb_rxq; q++) {
		t->rx_cb[q] = rte_eth_add_rx_callback(p->port_id, q, pcap_rx_cb, t);
		if (t->rx_cb[q] == NULL)
			goto out_detach;
	}
	for (uint16_t q = 0; t->tx && q < p->nb_txq; q++) {
		t->tx_cb[q] = rte_eth_add_tx_callback(p->port_id, q, pcap_tx_cb, t);
		if (t->tx_cb[q] == NULL)
			goto out_detach;
	}
	return 0;
out_detach:
	pcap_trace_detach(t);
	return cli_error(out, -rte_errno, "pcap trace: cannot add a callback on %s: %s", p->name,
			 rte_strerror(rte_errno));
}

static int
pcap_arg_uint(struct vfwd_cli_out *out, const char *what, const char *s, uint32_t lo, uint32_t hi,
	      uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || x < lo || x > hi)
		return cli_error(out, -EINVAL, "pcap trace: %s '%s': a whole number from %u to %u",
				 what, s, lo, hi);
	*v = (uint32_t)x;
	return 0;
}

static int
pcap_trace_off(struct vfwd_cli_out *out, struct pcap_trace *t)
{
	uint32_t written;
	int rc;

	if (!t->on)
		return cli_error(out, -EINVAL, "pcap trace: no capture is on");
	pcap_trace_detach(t);
	t->on = false;
	rc = pcap_trace_write(t, &written);
	rte_free(t->slots);
	t->slots = NULL;
	if (rc < 0)
		return cli_error(out, rc, "pcap trace: cannot write %s: %s", t->file,
				 strerror(-rc));
	vfwd_cli_printf(out, "pcap trace: %u frames of %s %s%s%s written to %s\n", written,
			t->port->name, t->rx ? "rx" : "", t->rx && t->tx ? "+" : "",
			t->tx ? "tx" : "", t->file);
	return 0;
}

static int
cmd_pcap_trace(struct vfwd_cli_out *out, int argc, char **argv)
{
	struct pcap_trace *t = &pcap_trace;
	uint32_t max = 1000, snaplen = 2048;
	const char *file = "/tmp/vfwd-trace.pcap";
	struct port *p;
	int rc;

	if (argc == 1 && strcmp(argv[0], "off") == 0)
		return pcap_trace_off(out, t);
	if (argc < 2)
		return cli_error(out, -EINVAL,
				 "usage: pcap trace PORT rx|tx|rxtx [max N] [snaplen BYTES] [file "
				 "PATH] | off");
	if (t->on)
		return cli_error(out, -EBUSY,
				 "pcap trace: a capture of %s is on (pcap trace off first)",
				 t->port->name);
	p = port_by_name(argv[0]);
	if (p == NULL)
		return cli_error(out, -ENODEV, "pcap trace: unknown interface '%s'", argv[0]);
	if (strcmp(argv[1], "rx") != 0 && strcmp(argv[1], "tx") != 0 &&
	    strcmp(argv[1], "rxtx") != 0)
		return cli_error(out, -EINVAL, "pcap trace: '%s': rx, tx or rxtx", argv[1]);
	for (int i = 2; i < argc; i += 2) {
		if (i + 1 >= argc)
			return cli_error(out, -EINVAL, "pcap trace: '%s' needs a value", argv[i]);
		if (strcmp(argv[i], "max") == 0)
			rc = pcap_arg_uint(out, "max", argv[i + 1], 1, PCAP_MAX_FRAMES, &max);
		else if (strcmp(argv[i], "snaplen") == 0)
			rc = pcap_arg_uint(out, "snaplen", argv[i + 1], 64, 65535, &snaplen);
		else if (strcmp(argv[i], "file") == 0 && strlen(argv[i + 1]) < PATH_LEN - 8)
			rc = 0, file = argv[i + 1];
		else
			rc = cli_error(out, -EINVAL, "pcap trace: unknown or bad option '%s'",
				       argv[i]);
		if (rc < 0)
			return rc;
	}
	memset(t, 0, sizeof(*t));
	t->slot_size = RTE_ALIGN_CEIL(sizeof(struct pcap_slot) + snaplen, 64);
	if ((uint64_t)t->slot_size * max > PCAP_MAX_BYTES)
		return cli_error(out, -E2BIG, "pcap trace: max %u x snaplen %u is over %u MiB", max,
				 snaplen, PCAP_MAX_BYTES >> 20);
	t->slots = rte_zmalloc("pcap-trace", t->slot_size * max, 64);
	if (t->slots == NULL)
		return cli_error(out, -ENOMEM, "pcap trace: no memory for %u frames", max);
	t->port = p;
	t->rx = argv[1][0] == 'r';
	t->tx = strcmp(argv[1], "rx") != 0;
	t->max = max;
	t->snaplen = snaplen;
	snprintf(t->file, sizeof(t->file), "%s", file);
	rc = pcap_trace_attach(out, t);
	if (rc < 0) {
		rte_free(t->slots);
		t->slots = NULL;
		return rc;
	}
	t->on = true;
	vfwd_cli_printf(out, "pcap trace: %s %s on, at most %u frames of %u bytes, into %s\n",
			p->name, argv[1], max, snaplen, t->file);
	return 0;
}

static int
cmd_show_pcap_trace(struct vfwd_cli_out *out, int argc, char **argv)
{
	const struct pcap_trace *t = &pcap_trace;

	RTE_SET_USED(argv);
	if (argc > 0)
		return cli_error(out, -EINVAL, "show pcap trace takes no arguments");
	if (!t->on) {
		vfwd_cli_printf(out, "pcap trace: off\n");
		return 0;
	}
	vfwd_cli_printf(out, "pcap trace: %s %s%s%s on, %u of %u frames, into %s\n", t->port->name,
			t->rx ? "rx" : "", t->rx && t->tx ? "+" : "", t->tx ? "tx" : "",
			RTE_MIN(__atomic_load_n(&t->next, __ATOMIC_RELAXED), t->max), t->max,
			t->file);
	return 0;
}

/* Registered when libvfwd loads: the command lives in this file alone. */
RTE_INIT(cli_pcap_register)
{
	vfwd_cli_register("pcap trace", "PORT rx|tx|rxtx [max N] [snaplen BYTES] [file PATH] | off",
			  cmd_pcap_trace);
	vfwd_cli_register("show pcap trace", "", cmd_show_pcap_trace);
}
