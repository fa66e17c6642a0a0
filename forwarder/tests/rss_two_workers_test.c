/* SPDX-License-Identifier: BSD-3-Clause
 * RSS over two workers with a real multi-queue port: port0 is DPDK's
 * net_af_packet on a veth (qpairs=2), whose two rx queues the kernel fills by
 * flow hash (PACKET_FANOUT_HASH); each queue is polled by its own worker
 * graph. 64 UDP flows (4 routed packets and 1 TTL-1 packet each) are sent
 * into the veth's peer through an AF_PACKET socket. The test proves that the
 * flows spread over both workers, that each flow stays on one worker, and that
 * `show runtime` counts add up exactly per worker and in total
 * (port0-rx = packets sent on port1 + error-drop). The graphs are walked on
 * this thread one after the other, so a frame that leaves port1 right after
 * worker w's walk was forwarded by worker w.
 *
 * Runs in its own network namespace (unshare), so the veth pair vanishes with
 * the process. Without them (CAP_NET_ADMIN, the kernel's veth, iproute2's `ip`, which
 * forwarder/apt-packages.txt installs) the test fails, naming which one is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "vfwd_int.h"
#include "graph_env.h"
#include "test_util.h"

#define N_FLOWS 64
#define N_GOOD 4 /* routed packets per flow */
#define FRAME_LEN 60
#define VETH_DUT "vrss0"
#define VETH_TG "vrss1"

static unsigned out_w[2];	      /* frames port1 sent after worker w's walk */
static uint8_t flow_workers[N_FLOWS]; /* bit w: flow seen leaving after worker w */
static int tg_fd = -1;

static int
netns_veth_setup(void)
{
	if (unshare(CLONE_NEWNET) < 0) {
		printf("# unshare(CLONE_NEWNET): %s: a network namespace needs CAP_NET_ADMIN "
		       "(run as root)\n",
		       strerror(errno));
		return -1;
	}
	/* no IPv6 on the veth: the kernel would send its own MLD/RS frames into port0 */
	if (system("for f in all default; do echo 1 > /proc/sys/net/ipv6/conf/$f/disable_ipv6;"
		   " done 2>/dev/null; ip link set lo up && "
		   "ip link add " VETH_DUT " type veth peer name " VETH_TG " && "
		   "ip link set " VETH_DUT " up && ip link set " VETH_TG " up") != 0) {
		printf("# cannot create the veth pair with 'ip link add ... type veth': iproute2 "
		       "(forwarder/apt-packages.txt) and the kernel's veth module are needed\n");
		return -1;
	}
	return 0;
}

static int
tg_open(void)
{
	struct sockaddr_ll sa = {.sll_family = AF_PACKET, .sll_protocol = 0};

	sa.sll_ifindex = (int)if_nametoindex(VETH_TG);
	tg_fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (tg_fd < 0 || sa.sll_ifindex == 0 || bind(tg_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	return 0;
}

/* UDP 16.0.0.1:(1024+flow) -> 48.0.0.(1+flow):12; payload byte 0 is the flow */
static int
tg_send(unsigned flow, uint8_t ttl)
{
	uint8_t f[FRAME_LEN] = {0};
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *pl = (uint8_t *)(udp + 1);

	eth->dst_addr = vfwd.ports[0].mac;
	eth->src_addr = (struct rte_ether_addr){{0x02, 0, 0, 0, 0, 0x02}};
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(FRAME_LEN - 14);
	ip->time_to_live = ttl;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = RTE_BE32(RTE_IPV4(16, 0, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(48, 0, 0, 1 + flow));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16((uint16_t)(1024 + flow));
	udp->dst_port = RTE_BE16(12);
	udp->dgram_len = rte_cpu_to_be_16(FRAME_LEN - 34);
	pl[0] = (uint8_t)flow;
	return send(tg_fd, f, sizeof(f), 0) == (ssize_t)sizeof(f) ? 0 : -1;
}

static void
drain_after(unsigned w)
{
	struct rte_mbuf *m[64];
	unsigned n;

	while ((n = rte_ring_dequeue_burst(env_tx[1], (void **)m, 64, NULL)) > 0) {
		for (unsigned i = 0; i < n; i++) {
			const uint8_t *pl = rte_pktmbuf_mtod_offset(m[i], const uint8_t *, 42);

			if (m[i]->pkt_len >= 43 && pl[0] < N_FLOWS)
				flow_workers[pl[0]] |= (uint8_t)(1u << w);
		}
		out_w[w] += n;
		rte_pktmbuf_free_bulk(m, n);
	}
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "vectors" of node `node` in worker w's block of `show runtime json`, or -1 */
static long
runtime_vectors(const char *json, unsigned w, const char *node)
{
	char key[64];
	const char *t, *end, *n, *v;

	snprintf(key, sizeof(key), "\"name\": \"vfwd_wk_%u\"", w);
	t = strstr(json, key);
	if (t == NULL)
		return -1;
	end = strstr(t + 1, "{\"thread\"");
	snprintf(key, sizeof(key), "{\"name\": \"%s\"", node);
	n = strstr(t, key);
	if (n == NULL || (end != NULL && n > end))
		return 0; /* the node did not run on this worker */
	v = strstr(n, "\"vectors\": ");
	return v ? strtol(v + 11, NULL, 10) : -1;
}

static int
port0_has_two_rx_queues_one_per_worker(void)
{
	int ok = 1;

	CHECK(vfwd.ports[0].nb_rxq == 2, "port0 rx queues %u", vfwd.ports[0].nb_rxq);
	CHECK(rxq_worker[0][0] == 0 && rxq_worker[0][1] == 1, "queues polled by workers %d, %d",
	      rxq_worker[0][0], rxq_worker[0][1]);
	CHECK(vfwd.graph[0] != NULL && vfwd.graph[1] != NULL, "two graphs");
	return ok;
}

static int
every_frame_is_forwarded_or_dropped(void)
{
	const unsigned want = N_FLOWS * (N_GOOD + 1);
	double deadline;
	int ok = 1;

	for (unsigned k = 0; k <= N_GOOD; k++)
		for (unsigned f = 0; f < N_FLOWS; f++)
			CHECK(tg_send(f, k < N_GOOD ? 64 : 1) == 0, "send: %s", strerror(errno));
	if (!ok)
		return 0;
	/* generous: only a stalled machine takes more than a few ms */
	deadline = now_s() + 60;
	while (out_w[0] + out_w[1] + err_get("ip4-rewrite", "ip4 ttl <= 1") < want &&
	       now_s() < deadline) {
		for (unsigned w = 0; w < 2; w++) {
			graph_walk(vfwd.graph[w]);
			drain_after(w);
		}
	}
	CHECK(out_w[0] + out_w[1] == N_FLOWS * N_GOOD, "forwarded %u + %u", out_w[0], out_w[1]);
	CHECK(err_get("ip4-rewrite", "ip4 ttl <= 1") == N_FLOWS, "ttl drops %lu",
	      (unsigned long)err_get("ip4-rewrite", "ip4 ttl <= 1"));
	return ok;
}

static int
flows_spread_over_both_workers_and_stay_on_one(void)
{
	unsigned on[2] = {0, 0}, both = 0, none = 0;
	int ok = 1;

	for (unsigned f = 0; f < N_FLOWS; f++) {
		if (flow_workers[f] == 3)
			both++;
		else if (flow_workers[f] == 0)
			none++;
		else
			on[flow_workers[f] >> 1]++;
	}
	printf("# flows on worker 0: %u, on worker 1: %u; frames %u / %u\n", on[0], on[1],
	       out_w[0], out_w[1]);
	CHECK(on[0] > 0 && on[1] > 0, "flows per worker %u, %u", on[0], on[1]);
	CHECK(both == 0, "%u flows left through both workers", both);
	CHECK(none == 0, "%u flows never left", none);
	return ok;
}

static int
show_runtime_counts_add_up_per_worker(void)
{
	struct vfwd_cli_out out = {0};
	struct rte_eth_stats st;
	long rx_sum = 0;
	int ok = 1;

	cli_execute("show runtime json", &out);
	vfwd_cli_printf(&out, "%c", '\0');
	for (unsigned w = 0; w < 2; w++) {
		long rx = runtime_vectors(out.buf, w, "port0-rx");
		long tx = runtime_vectors(out.buf, w, "port1-tx");
		long drop = runtime_vectors(out.buf, w, "error-drop");

		printf("# worker %u: port0-rx %ld, port1-tx %ld, error-drop %ld\n", w, rx, tx, drop);
		CHECK(rx > 0 && rx == (long)out_w[w] + drop, "worker %u: rx %ld != tx %u + drops %ld",
		      w, rx, out_w[w], drop);
		CHECK(tx == (long)out_w[w], "worker %u: port1-tx %ld, sent %u", w, tx, out_w[w]);
		rx_sum += rx;
	}
	CHECK(rx_sum == N_FLOWS * (N_GOOD + 1), "rx total %ld", rx_sum);
	CHECK(rte_eth_stats_get(vfwd.ports[0].port_id, &st) == 0 &&
		      st.ipackets == (uint64_t)rx_sum,
	      "port0 ipackets %lu, runtime %ld", (unsigned long)st.ipackets, rx_sum);
	cli_out_free(&out);
	cli_execute("show runtime", &out);
	vfwd_cli_printf(&out, "%c", '\0');
	CHECK(strstr(out.buf, "Thread 1 vfwd_wk_0") != NULL &&
		      strstr(out.buf, "Thread 2 vfwd_wk_1") != NULL,
	      "one block per worker:\n%s", out.buf);
	cli_out_free(&out);
	cli_execute("show hardware", &out);
	vfwd_cli_printf(&out, "%c", '\0');
	CHECK(strstr(out.buf, "rx queues 2,") != NULL &&
		      strstr(out.buf, "rx queue spread: by the sender") != NULL,
	      "show hardware:\n%s", out.buf);
	cli_out_free(&out);
	return ok;
}

int
main(void)
{
	const struct graph_env_conf conf = {.name = "rss-test",
					    .n_mbufs = 8192,
					    .n_workers = 2,
					    .mp_tx = true,
					    .port0_vdev = "net_af_packet0,iface=" VETH_DUT ",qpairs=2",
					    .port0_rxq = 2};
	static const char *const cfg[] = {
		"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
		"set ip icmp-error disable",
	};

	if (netns_veth_setup() < 0) {
		printf("not ok 1 - setup: a network namespace with a veth pair (above: what is "
		       "missing)\n1..1\n");
		return 1;
	}
	if (graph_env_setup(&conf) < 0 || env_cli_all(cfg, RTE_DIM(cfg)) < 0 || tg_open() < 0) {
		printf("not ok 1 - setup\n1..1\n");
		return 1;
	}
	TEST(port0_has_two_rx_queues_one_per_worker);
	TEST(every_frame_is_forwarded_or_dropped);
	TEST(flows_spread_over_both_workers_and_stay_on_one);
	TEST(show_runtime_counts_add_up_per_worker);
	printf("1..%d\n", tap_n);
	close(tg_fd);
	rte_eal_cleanup();
	return tap_failed ? 1 : 0;
}
