/* SPDX-License-Identifier: BSD-3-Clause
 * IPv4 FIB (rte_lpm), adjacencies and the neighbour table. Control plane
 * only: called from the main lcore (CLI, ARP learning), read by the data path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rte_arp.h>
#include <rte_errno.h>
#include <rte_lpm.h>
#include <rte_ring.h>

#include "vfwd_int.h"

#define MAX_ROUTES 65536
#define MAX_NEIGHBORS 4096

struct route {
	uint32_t prefix;
	uint8_t len;
	bool auto_nbr; /* /32 added for a neighbour in a connected subnet */
	uint32_t adj;
};

struct neighbor {
	int port;
	uint32_t ip;
	struct rte_ether_addr mac;
};

struct adj adj_table[MAX_ADJ] __rte_cache_aligned;
struct rte_lpm *fib_lpm;
static struct route *routes;
static unsigned n_routes;
static struct neighbor neighbors[MAX_NEIGHBORS];
static unsigned n_neighbors;

static uint32_t
prefix_mask(uint8_t len)
{
	return len == 0 ? 0 : ~0u << (32 - len);
}

int
fib_init(void)
{
	struct rte_lpm_config cfg = {.max_rules = MAX_ROUTES, .number_tbl8s = 1024};

	fib_lpm = rte_lpm_create("vfwd_fib", SOCKET_ID_ANY, &cfg);
	if (fib_lpm == NULL)
		return -rte_errno ? -rte_errno : -ENOMEM;
	routes = calloc(MAX_ROUTES, sizeof(*routes));
	if (routes == NULL) {
		rte_lpm_free(fib_lpm);
		fib_lpm = NULL;
		return -ENOMEM;
	}
	adj_table[0].type = ADJ_DROP;
	adj_table[0].refs = 1;
	return 0;
}

static struct neighbor *
neighbor_find(int port, uint32_t ip)
{
	for (unsigned i = 0; i < n_neighbors; i++)
		if (neighbors[i].port == port && neighbors[i].ip == ip)
			return &neighbors[i];
	return NULL;
}

static void
adj_refresh(struct adj *a, int port_index)
{
	struct port *p = &vfwd.ports[port_index];
	struct neighbor *n = a->type == ADJ_REWRITE ? neighbor_find(port_index, a->nh) : NULL;

	a->port_id = p->port_id;
	a->tx_edge = ip4_rewrite_next[p->port_id];
	if (n == NULL) {
		__atomic_store_n(&a->valid, 0, __ATOMIC_RELEASE);
		return;
	}
	memcpy(a->rewrite, &n->mac, 6);
	memcpy(a->rewrite + 6, &p->mac, 6);
	__atomic_store_n(&a->valid, 1, __ATOMIC_RELEASE);
}

static int
adj_get(enum adj_type t, int port_index, uint32_t nh)
{
	int free_slot = -1;

	if (t == ADJ_DROP) {
		adj_table[0].refs++;
		return 0;
	}
	for (int i = 1; i < MAX_ADJ; i++) {
		struct adj *a = &adj_table[i];

		if (a->refs == 0) {
			if (free_slot < 0)
				free_slot = i;
			continue;
		}
		if (a->type == t && a->nh == nh && vfwd.port_index[a->port_id] == port_index) {
			a->refs++;
			return i;
		}
	}
	if (free_slot < 0)
		return -ENOSPC;
	memset(&adj_table[free_slot], 0, sizeof(adj_table[0]));
	adj_table[free_slot].type = (uint8_t)t;
	adj_table[free_slot].nh = nh;
	adj_table[free_slot].refs = 1;
	adj_refresh(&adj_table[free_slot], port_index);
	return free_slot;
}

static void
adj_put(uint32_t idx)
{
	if (idx > 0 && adj_table[idx].refs > 0)
		adj_table[idx].refs--;
}

static struct route *
route_find(uint32_t prefix, uint8_t len)
{
	for (unsigned i = 0; i < n_routes; i++)
		if (routes[i].prefix == prefix && routes[i].len == len)
			return &routes[i];
	return NULL;
}

static int
route_set(uint32_t prefix, uint8_t len, int adj, bool auto_nbr, char *err, size_t errlen)
{
	struct route *r = route_find(prefix, len);
	int rc;

	if (r == NULL && n_routes >= MAX_ROUTES) {
		snprintf(err, errlen, "route table full");
		return -ENOSPC;
	}
	rc = rte_lpm_add(fib_lpm, prefix, len, (uint32_t)adj);
	if (rc < 0) {
		snprintf(err, errlen, "rte_lpm_add: %s", strerror(-rc));
		return rc;
	}
	if (r != NULL) {
		adj_put(r->adj);
	} else {
		r = &routes[n_routes++];
		r->prefix = prefix;
		r->len = len;
	}
	r->adj = (uint32_t)adj;
	r->auto_nbr = auto_nbr;
	return 0;
}

int
fib_route_add(uint32_t prefix, uint8_t len, uint32_t nh, int port_index, enum adj_type t, char *err,
	      size_t errlen)
{
	int adj, rc;

	if (len > 32) {
		snprintf(err, errlen, "bad prefix length %u", len);
		return -EINVAL;
	}
	prefix &= prefix_mask(len);
	adj = adj_get(t, port_index, nh);
	if (adj < 0) {
		snprintf(err, errlen, "adjacency table full");
		return adj;
	}
	rc = route_set(prefix, len, adj, false, err, errlen);
	if (rc < 0)
		adj_put((uint32_t)adj);
	return rc;
}

int
fib_route_del(uint32_t prefix, uint8_t len, char *err, size_t errlen)
{
	struct route *r;

	prefix &= prefix_mask(len);
	r = route_find(prefix, len);
	if (r == NULL) {
		snprintf(err, errlen, "no route %u.%u.%u.%u/%u", prefix >> 24, (prefix >> 16) & 255,
			 (prefix >> 8) & 255, prefix & 255, len);
		return -ENOENT;
	}
	rte_lpm_delete(fib_lpm, prefix, len);
	adj_put(r->adj);
	*r = routes[--n_routes];
	return 0;
}

int
fib_interface_address_set(int port_index, uint32_t ip, uint8_t len, bool del, char *err,
			  size_t errlen)
{
	struct port *p = &vfwd.ports[port_index];
	int rc;

	if (len == 0 || len > 32) {
		snprintf(err, errlen, "bad prefix length %u", len);
		return -EINVAL;
	}
	if (p->ip4 != 0) {
		fib_route_del(p->ip4, 32, err, errlen);
		if (p->ip4_len < 32)
			fib_route_del(p->ip4, p->ip4_len, err, errlen);
		p->ip4 = 0;
		p->ip4_len = 0;
	}
	if (del)
		return 0;
	rc = fib_route_add(ip, 32, ip, port_index, ADJ_LOCAL, err, errlen);
	if (rc == 0 && len < 32)
		rc = fib_route_add(ip, len, 0, port_index, ADJ_GLEAN, err, errlen);
	if (rc < 0)
		return rc;
	p->ip4 = ip;
	p->ip4_len = len;
	return 0;
}

static bool
in_connected_subnet(int port_index, uint32_t ip)
{
	const struct port *p = &vfwd.ports[port_index];

	return p->ip4 != 0 && p->ip4_len < 32 && ip != p->ip4 &&
	       (ip & prefix_mask(p->ip4_len)) == (p->ip4 & prefix_mask(p->ip4_len));
}

int
fib_neighbor_set(int port_index, uint32_t ip, const struct rte_ether_addr *mac, bool del)
{
	struct neighbor *n = neighbor_find(port_index, ip);
	struct route *r = route_find(ip, 32);
	char err[128];

	if (del) {
		if (n == NULL)
			return -ENOENT;
		*n = neighbors[--n_neighbors];
		if (r != NULL && r->auto_nbr)
			fib_route_del(ip, 32, err, sizeof(err));
	} else {
		if (n == NULL) {
			if (n_neighbors >= MAX_NEIGHBORS)
				return -ENOSPC;
			n = &neighbors[n_neighbors++];
			n->port = port_index;
			n->ip = ip;
		}
		n->mac = *mac;
		if (r == NULL && in_connected_subnet(port_index, ip)) {
			int adj = adj_get(ADJ_REWRITE, port_index, ip);

			if (adj >= 0 && route_set(ip, 32, adj, true, err, sizeof(err)) < 0)
				adj_put((uint32_t)adj);
		}
	}
	for (int i = 1; i < MAX_ADJ; i++) {
		struct adj *a = &adj_table[i];

		if (a->refs && a->type == ADJ_REWRITE && a->nh == ip &&
		    vfwd.port_index[a->port_id] == port_index)
			adj_refresh(a, port_index);
	}
	return 0;
}

static void
ip_fmt(char *buf, size_t len, uint32_t ip)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

static int
route_cmp(const void *a, const void *b)
{
	const struct route *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (int)x->len - (int)y->len;
}

void
fib_show(struct vfwd_cli_out *out)
{
	static const char *const kind[] = {"drop", "local", "glean", "via"};
	struct route *sorted = malloc(sizeof(*sorted) * (n_routes ? n_routes : 1));

	if (sorted == NULL)
		return;
	memcpy(sorted, routes, sizeof(*sorted) * n_routes);
	qsort(sorted, n_routes, sizeof(*sorted), route_cmp);
	vfwd_cli_printf(out, "ipv4 fib: %u routes\n", n_routes);
	for (unsigned i = 0; i < n_routes; i++) {
		const struct adj *a = &adj_table[sorted[i].adj];
		const struct port *p = port_by_ethdev(a->port_id);
		char pfx[20], nh[20], ent[32];

		ip_fmt(pfx, sizeof(pfx), sorted[i].prefix);
		snprintf(ent, sizeof(ent), "%s/%u", pfx, sorted[i].len);
		ip_fmt(nh, sizeof(nh), a->nh);
		if (a->type == ADJ_REWRITE)
			vfwd_cli_printf(out, "%-20s via %s %s %s\n", ent, nh, p ? p->name : "?",
					a->valid ? "resolved" : "unresolved");
		else if (a->type == ADJ_DROP)
			vfwd_cli_printf(out, "%-20s drop\n", ent);
		else
			vfwd_cli_printf(out, "%-20s %s %s\n", ent, kind[a->type],
					p ? p->name : "?");
	}
	free(sorted);
}

void
fib_neighbors_show(struct vfwd_cli_out *out)
{
	vfwd_cli_printf(out, "%-16s%-20s%s\n", "Interface", "IP", "MAC");
	for (unsigned i = 0; i < n_neighbors; i++) {
		char ip[20], mac[RTE_ETHER_ADDR_FMT_SIZE];

		ip_fmt(ip, sizeof(ip), neighbors[i].ip);
		rte_ether_format_addr(mac, sizeof(mac), &neighbors[i].mac);
		vfwd_cli_printf(out, "%-16s%-20s%s\n", vfwd.ports[neighbors[i].port].name, ip, mac);
	}
}

/* Learns neighbours from the ARP replies arp-input queued; returns how many. */
int
fib_punt_poll(void)
{
	struct rte_mbuf *pkts[32];
	unsigned n;

	if (vfwd.punt_ring == NULL)
		return 0;
	n = rte_ring_dequeue_burst(vfwd.punt_ring, (void **)pkts, RTE_DIM(pkts), NULL);
	for (unsigned i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *);
		struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);
		int pi = vfwd.port_index[pkts[i]->port];

		if (pi >= 0)
			fib_neighbor_set(pi, rte_be_to_cpu_32(arp->arp_data.arp_sip),
					 &arp->arp_data.arp_sha, false);
		rte_pktmbuf_free(pkts[i]);
	}
	return (int)n;
}
