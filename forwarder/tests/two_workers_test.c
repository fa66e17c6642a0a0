/* SPDX-License-Identifier: BSD-3-Clause
 * Two workers: each port's rx queue goes to its own worker graph, both share a
 * port's single tx queue (under the lock), errors from both workers add up,
 * and `show runtime` prints one thread block per worker. The two graphs are
 * walked on this thread, one after the other.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "vfwd_int.h"
#include "graph_env.h"
#include "test_util.h"

static void
send_one(int port, uint32_t dst, uint8_t ttl)
{
	struct rte_mbuf *m = env_ip4(NULL, NULL, RTE_IPV4(1, 1, 1, 1), dst, ttl, IPPROTO_UDP, 0);

	m->port = vfwd.ports[port].port_id;
	if (rte_ring_enqueue(env_rx[port], m) < 0)
		rte_pktmbuf_free(m);
}

static unsigned
drain(int port)
{
	struct rte_mbuf *m[64];
	unsigned n = rte_ring_dequeue_burst(env_tx[port], (void **)m, 64, NULL);

	rte_pktmbuf_free_bulk(m, n);
	return n;
}

static int
each_worker_forwards_its_own_port(void)
{
	int ok = 1;
	unsigned n0, n1;

	for (int i = 0; i < 10; i++) {
		send_one(0, RTE_IPV4(48, 0, 0, 1), 64); /* -> port1 */
		send_one(1, RTE_IPV4(16, 0, 0, 1), 64); /* -> port0 */
	}
	send_one(0, RTE_IPV4(48, 0, 0, 1), 1);
	send_one(1, RTE_IPV4(16, 0, 0, 1), 1);
	CHECK(vfwd.graph[0] != NULL && vfwd.graph[1] != NULL, "two graphs");
	if (!ok)
		return 0;
	graph_walk(vfwd.graph[0]);
	graph_walk(vfwd.graph[1]);
	n1 = drain(1);
	n0 = drain(0);
	CHECK(n1 == 10, "port1 sent %u", n1);
	CHECK(n0 == 10, "port0 sent %u", n0);
	CHECK(err_get("ip4-rewrite", "ip4 ttl <= 1") == 2, "ttl drops from both workers: %lu",
	      (unsigned long)err_get("ip4-rewrite", "ip4 ttl <= 1"));
	CHECK(vfwd.ports[0].txq_shared && vfwd.ports[1].txq_shared, "single tx queue shared");
	return ok;
}

static int
show_runtime_has_one_block_per_worker(void)
{
	struct vfwd_cli_out out = {0};
	int ok = 1;

	cli_execute("show runtime", &out);
	vfwd_cli_printf(&out, "%c", '\0');
	CHECK(strstr(out.buf, "Thread 1 vfwd_wk_0") != NULL, "worker 0:\n%s", out.buf);
	CHECK(strstr(out.buf, "Thread 2 vfwd_wk_1") != NULL, "worker 1:\n%s", out.buf);
	CHECK(strstr(out.buf, "\nport0-rx ") != NULL && strstr(out.buf, "\nport1-rx ") != NULL,
	      "rx rows");
	cli_out_free(&out);
	return ok;
}

int
main(void)
{
	/* both workers send on a port's one tx queue: the tx rings take many producers */
	const struct graph_env_conf conf = {
		.name = "2w-test", .n_mbufs = 4096, .n_workers = 2, .mp_tx = true};
	static const char *const cfg[] = {
		"set ip neighbor port0 10.0.0.2 02:00:00:00:00:02",
		"ip route add 16.0.0.0/8 via 10.0.0.2 port0",
		"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
		"set ip icmp-error disable",
	};

	if (graph_env_setup(&conf) < 0 || env_cli_all(cfg, RTE_DIM(cfg)) < 0) {
		printf("not ok 1 - setup\n");
		return 1;
	}
	TEST(each_worker_forwards_its_own_port);
	TEST(show_runtime_has_one_block_per_worker);
	printf("1..%d\n", tap_n);
	rte_eal_cleanup();
	return tap_failed ? 1 : 0;
}
