/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports: configuration, link wait, ARP (answer for our address, learn the gateway). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dp.h"

static int
port_setup(struct tgen_ctx *c, struct tgen_port *p, uint16_t nb_desc)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	uint16_t nrx = nb_desc, ntx = nb_desc, mtu, q;
	int ret;

	if (!rte_eth_dev_is_valid_port(p->id)) {
		fprintf(stderr,
			"tgen: port %u does not exist (%u ports; give them as EAL "
			"args, e.g. --vdev net_vhost0,iface=SOCK,client=1)\n",
			p->id, rte_eth_dev_count_avail());
		return -ENODEV;
	}
	ret = rte_eth_dev_info_get(p->id, &info);
	if (ret < 0)
		return ret;
	memset(&conf, 0, sizeof(conf));
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (c->nq > info.max_rx_queues || c->nq > info.max_tx_queues) {
		fprintf(stderr,
			"tgen: port %u (%s): --queues %u, but it has at most %u rx and %u tx "
			"queues (vhost: queues=N in its --vdev)\n",
			p->id, info.driver_name, c->nq, info.max_rx_queues, info.max_tx_queues);
		return -EINVAL;
	}
	ret = rte_eth_dev_configure(p->id, c->nq, c->nq, &conf);
	if (ret < 0) {
		fprintf(stderr, "tgen: port %u: configure: %s\n", p->id, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p->id, &nrx, &ntx);
	if (ret < 0)
		return ret;
	mtu = tgen_profile_max_frame(&c->profile) - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	if (mtu > RTE_ETHER_MTU) {
		ret = rte_eth_dev_set_mtu(p->id, mtu);
		if (ret < 0 && ret != -ENOTSUP)
			fprintf(stderr, "tgen: port %u: set mtu %u: %s (continuing)\n", p->id, mtu,
				rte_strerror(-ret));
	}
	for (q = 0; q < c->nq; q++) {
		ret = rte_eth_rx_queue_setup(p->id, q, nrx, rte_eth_dev_socket_id(p->id), NULL,
					     c->rx_pool);
		if (ret < 0) {
			fprintf(stderr, "tgen: port %u: rx queue %u: %s\n", p->id, q,
				rte_strerror(-ret));
			return ret;
		}
		ret = rte_eth_tx_queue_setup(p->id, q, ntx, rte_eth_dev_socket_id(p->id), NULL);
		if (ret < 0) {
			fprintf(stderr, "tgen: port %u: tx queue %u: %s\n", p->id, q,
				rte_strerror(-ret));
			return ret;
		}
	}
	ret = rte_eth_dev_start(p->id);
	if (ret < 0) {
		fprintf(stderr, "tgen: port %u: start: %s\n", p->id, rte_strerror(-ret));
		return ret;
	}
	rte_eth_promiscuous_enable(p->id); /* not every PMD has it; that is fine */
	ret = rte_eth_macaddr_get(p->id, &mac);
	if (ret < 0)
		return ret;
	memcpy(p->mac, mac.addr_bytes, 6);
	return 0;
}

int
tgen_ports_setup(struct tgen_ctx *c, uint16_t nb_desc)
{
	int i, ret;

	if (c->port[0].id == c->port[1].id) {
		fprintf(stderr, "tgen: port0 and port1 must differ\n");
		return -EINVAL;
	}
	for (i = 0; i < TGEN_NDIR; i++) {
		ret = port_setup(c, &c->port[i], nb_desc);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void
tgen_ports_close(struct tgen_ctx *c)
{
	int i;

	for (i = 0; i < TGEN_NDIR; i++) {
		if (!rte_eth_dev_is_valid_port(c->port[i].id))
			continue;
		rte_eth_dev_stop(c->port[i].id);
		rte_eth_dev_close(c->port[i].id);
	}
}

int
tgen_ports_wait_link(struct tgen_ctx *c, double timeout_s)
{
	uint64_t end = rte_rdtsc() + (uint64_t)(timeout_s * c->tsc_hz);
	struct rte_eth_link link;
	int i, up;

	for (;;) {
		up = 0;
		for (i = 0; i < TGEN_NDIR; i++) {
			memset(&link, 0, sizeof(link));
			rte_eth_link_get_nowait(c->port[i].id, &link);
			up += link.link_status == RTE_ETH_LINK_UP;
		}
		if (up == TGEN_NDIR)
			return 0;
		if (rte_rdtsc() > end || tgen_quit) {
			for (i = 0; i < TGEN_NDIR; i++) {
				rte_eth_link_get_nowait(c->port[i].id, &link);
				if (link.link_status != RTE_ETH_LINK_UP)
					fprintf(stderr,
						"tgen: port%d (ethdev %u): link down after "
						"%.0f s\n",
						i, c->port[i].id, timeout_s);
			}
			return -ETIMEDOUT;
		}
		rte_delay_us_sleep(50000); /* sleep, do not spin, while the peer comes up */
	}
}

static int
arp_send(struct tgen_ctx *c, int p, int op, const uint8_t tmac[6], uint32_t tip)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(c->rx_pool); /* keeps the tx pool's padding */
	uint32_t len;

	if (m == NULL)
		return -ENOMEM;
	len = tgen_arp_build(rte_pktmbuf_mtod(m, uint8_t *), op, c->port[p].mac, c->port[p].ip,
			     tmac, tip);
	m->data_len = m->pkt_len = len;
	if (rte_eth_tx_burst(c->port[p].id, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -EAGAIN;
	}
	return 0;
}

int
tgen_arp_input(struct tgen_ctx *c, int p, const uint8_t *buf, uint32_t len)
{
	struct tgen_port *port = &c->port[p];
	uint32_t sip, tip;
	uint8_t smac[6];
	int op = tgen_arp_parse(buf, len, smac, &sip, &tip);

	if (op == 0)
		return 0;
	if (op == 1 && port->ip != 0 && tip == port->ip) {
		if (arp_send(c, p, 2, smac, sip) == 0)
			c->arp_replies_sent++;
	}
	/* learn the gateway from its request or its reply */
	if (port->gw != 0 && sip == port->gw && !port->dst_known) {
		memcpy(port->dst_mac, smac, 6);
		port->dst_known = true;
		tgen_streams_init(c);
	}
	return 1;
}

static void
arp_poll(struct tgen_ctx *c)
{
	struct rte_mbuf *pkts[32];
	uint16_t n, j, q;
	int p;

	for (p = 0; p < TGEN_NDIR; p++) {
		for (q = 0; q < c->nq; q++) {
			n = rte_eth_rx_burst(c->port[p].id, q, pkts, 32);
			for (j = 0; j < n; j++)
				tgen_arp_input(c, p, rte_pktmbuf_mtod(pkts[j], uint8_t *),
					       pkts[j]->data_len);
			rte_pktmbuf_free_bulk(pkts, n);
		}
	}
}

int
tgen_ports_resolve(struct tgen_ctx *c, double timeout_s)
{
	uint64_t now = rte_rdtsc(), end = now + (uint64_t)(timeout_s * c->tsc_hz), next = now;
	int p, need;

	for (;;) {
		need = 0;
		for (p = 0; p < TGEN_NDIR; p++) {
			if (p == 1 && !c->profile.bidir)
				continue;
			if (c->port[p].dst_known || c->port[p].gw == 0)
				continue;
			need++;
			if (now >= next)
				arp_send(c, p, 1, NULL, c->port[p].gw);
		}
		if (need == 0)
			return 0;
		if (now >= next)
			next = now + c->tsc_hz / 5;
		if (now > end || tgen_quit) {
			for (p = 0; p < TGEN_NDIR; p++)
				if (!c->port[p].dst_known && c->port[p].gw != 0)
					fprintf(stderr,
						"tgen: port%d: no ARP reply from gateway "
						"in %.0f s\n",
						p, timeout_s);
			return -ETIMEDOUT;
		}
		arp_poll(c);
		now = rte_rdtsc();
	}
}
