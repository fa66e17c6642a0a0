/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer entry point for the packet path: the input is a sequence of
 * frames (2-byte little-endian word + bytes; bits 0-10 are the length, bit 15
 * picks the receiving port: port0 is routed with the example feature, port1
 * is xconnected to port0) walked through every node of the graph.
 * An input of odd length runs traced (`trace add` on both inputs, then `show
 * trace` of whatever the frames were, then `clear trace`).
 * Nothing may crash, read out of bounds or leak mbufs.
 */
#include <string.h>

#include "fuzz_env.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned avail = rte_mempool_avail_count(vfwd.pool);
	bool traced = size & 1;

	if (traced) {
		fz_cli("trace add port0-rx 16");
		fz_cli("trace add port1-rx 16");
	}
	while (size >= 2) {
		size_t len = (size_t)(data[0] | data[1] << 8) % 2048;
		int port = data[1] >> 7;
		struct rte_mbuf *m;
		char *p;

		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		m = rte_pktmbuf_alloc(vfwd.pool);
		if (m == NULL)
			break;
		p = rte_pktmbuf_append(m, (uint16_t)len);
		if (p == NULL) {
			rte_pktmbuf_free(m);
			break;
		}
		memcpy(p, data, len);
		m->port = vfwd.ports[port].port_id;
		if (rte_ring_enqueue(env_rx[port], m) < 0)
			rte_pktmbuf_free(m);
		data += len;
		size -= len;
	}
	fz_walk();
	if (traced) {
		fz_cli("show trace");
		fz_cli("clear trace");
	}
	if (rte_mempool_avail_count(vfwd.pool) != avail) /* every mbuf came back */
		abort();
	return 0;
}
