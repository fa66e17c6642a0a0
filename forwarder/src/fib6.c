/* SPDX-License-Identifier: BSD-3-Clause
 * IPv6 FIB (rte_fib6, a trie of 24- and 8-bit strides, routes kept in an rte_rib6), its
 * adjacencies and the ND neighbour table. Control plane only, like fib.c: the main lcore
 * writes, the data path reads. The default route ::/0 is the lookup miss value
 * (fib6_default_adj), as it was with rte_lpm6, which took depths 1..128 only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_fib6.h>
#include <rte_ring.h>

#include "cli.h"
#include "edge.h"
#include "fib.h"
#include "fib6.h"
#include "nbr.h"
#include "state.h"

#define MAX_ROUTES6 16384
#define MAX_NEIGHBORS6 1024

struct route6 {
	uint8_t prefix[16];
	uint8_t len;
	bool auto_nbr;
	uint32_t adj;
};

/* static (CLI), dynamic (learned by ND) or incomplete (solicited, no answer yet) */
enum { NBR6_DYNAMIC, NBR6_STATIC, NBR6_INCOMPLETE };

struct neighbor6 {
	int port;
	uint8_t ip[16];
	struct rte_ether_addr mac;
	bool is_static;
	uint8_t state;
	uint8_t probes;
	uint64_t updated, probed;
};
static unsigned n_dyn_neighbors6;

struct adj6 adj6_table[MAX_ADJ6] __rte_cache_aligned;
struct rte_fib6 *fib6_fib;
uint32_t fib6_default_adj = UINT32_MAX;
static struct route6 *routes6;
static unsigned n_routes6;
static struct neighbor6 neighbors6[MAX_NEIGHBORS6];
static unsigned n_neighbors6;

static void
mask6(uint8_t *a, uint8_t len)
{
	for (unsigned i = 0; i < 16; i++) {
		unsigned bits = len > i * 8 ? RTE_MIN(8u, len - i * 8) : 0;

		a[i] &= (uint8_t)(0xff00 >> bits);
	}
}

static bool
in_prefix6(const uint8_t *ip, const uint8_t *pfx, uint8_t len)
{
	uint8_t a[16];

	memcpy(a, ip, 16);
	mask6(a, len);
	return memcmp(a, pfx, 16) == 0;
}

int
fib6_init(void)
{
	struct rte_fib6_conf cfg = {.type = RTE_FIB6_TRIE,
				    .default_nh = FIB6_MISS,
				    .max_routes = MAX_ROUTES6,
				    .trie = {.nh_sz = RTE_FIB6_TRIE_4B, .num_tbl8 = 8192}};

	fib6_fib = rte_fib6_create("vfwd_fib6", SOCKET_ID_ANY, &cfg);
	if (fib6_fib == NULL)
		return -rte_errno ? -rte_errno : -ENOMEM;
	routes6 = calloc(MAX_ROUTES6, sizeof(*routes6));
	if (routes6 == NULL)
		return -ENOMEM;
	adj6_table[0].type = ADJ_DROP;
	adj6_table[0].refs = 1;
	return 0;
}

static struct neighbor6 *
neighbor6_find(int port, const uint8_t *ip)
{
	for (unsigned i = 0; i < n_neighbors6; i++)
		if (neighbors6[i].port == port && memcmp(neighbors6[i].ip, ip, 16) == 0)
			return &neighbors6[i];
	return NULL;
}

static void
adj6_refresh(struct adj6 *a, int port_index)
{
	struct port *p = &vfwd.ports[port_index];
	struct neighbor6 *n = a->type == ADJ_REWRITE ? neighbor6_find(port_index, a->nh) : NULL;

	a->port_id = p->port_id;
	a->tx_edge = edge_table("ip6-rewrite")[p->port_id];
	a->mtu = p->mtu;
	if (n == NULL || n->state == NBR6_INCOMPLETE) {
		__atomic_store_n(&a->valid, 0, __ATOMIC_RELEASE);
		return;
	}
	memcpy(a->rewrite, &n->mac, 6);
	memcpy(a->rewrite + 6, &p->mac, 6);
	__atomic_store_n(&a->valid, 1, __ATOMIC_RELEASE);
}

static int
adj6_get(enum adj_type t, int port_index, const uint8_t *nh)
{
	static const uint8_t zero[16];
	int free_slot = -1;

	if (t == ADJ_DROP) {
		adj6_table[0].refs++;
		return 0;
	}
	if (nh == NULL)
		nh = zero;
	for (int i = 1; i < MAX_ADJ6; i++) {
		struct adj6 *a = &adj6_table[i];

		if (a->refs == 0) {
			if (free_slot < 0)
				free_slot = i;
			continue;
		}
		if (a->type == t && memcmp(a->nh, nh, 16) == 0 &&
		    vfwd.port_index[a->port_id] == port_index) {
			a->refs++;
			return i;
		}
	}
	if (free_slot < 0)
		return -ENOSPC;
	memset(&adj6_table[free_slot], 0, sizeof(adj6_table[0]));
	adj6_table[free_slot].type = (uint8_t)t;
	memcpy(adj6_table[free_slot].nh, nh, 16);
	adj6_table[free_slot].refs = 1;
	adj6_refresh(&adj6_table[free_slot], port_index);
	return free_slot;
}

static void
adj6_put(uint32_t idx)
{
	if (idx > 0 && adj6_table[idx].refs > 0)
		adj6_table[idx].refs--;
}

static struct route6 *
route6_find(const uint8_t *pfx, uint8_t len)
{
	for (unsigned i = 0; i < n_routes6; i++)
		if (routes6[i].len == len && memcmp(routes6[i].prefix, pfx, 16) == 0)
			return &routes6[i];
	return NULL;
}

static int
route6_set(const uint8_t *pfx, uint8_t len, int adj, bool auto_nbr, char *err, size_t errlen)
{
	struct route6 *r = route6_find(pfx, len);
	int rc;

	if (r == NULL && n_routes6 >= MAX_ROUTES6) {
		snprintf(err, errlen, "ip6 route table full");
		return -ENOSPC;
	}
	rc = len == 0 ? 0 : rte_fib6_add(fib6_fib, pfx, len, (uint64_t)adj);
	if (rc < 0) {
		snprintf(err, errlen, "rte_fib6_add: %s", strerror(-rc));
		return rc;
	}
	if (r != NULL) {
		adj6_put(r->adj);
	} else {
		r = &routes6[n_routes6++];
		memcpy(r->prefix, pfx, 16);
		r->len = len;
	}
	r->adj = (uint32_t)adj;
	r->auto_nbr = auto_nbr;
	if (len == 0)
		__atomic_store_n(&fib6_default_adj, (uint32_t)adj, __ATOMIC_RELEASE);
	return 0;
}

int
fib6_route_add(const uint8_t *prefix, uint8_t len, const uint8_t *nh, int port_index,
	       enum adj_type t, char *err, size_t errlen)
{
	uint8_t pfx[16];
	int adj, rc;

	if (len > 128) {
		snprintf(err, errlen, "bad prefix length %u", len);
		return -EINVAL;
	}
	memcpy(pfx, prefix, 16);
	mask6(pfx, len);
	adj = adj6_get(t, port_index, nh);
	if (adj < 0) {
		snprintf(err, errlen, "ip6 adjacency table full");
		return adj;
	}
	rc = route6_set(pfx, len, adj, false, err, errlen);
	if (rc < 0)
		adj6_put((uint32_t)adj);
	return rc;
}

int
fib6_route_del(const uint8_t *prefix, uint8_t len, char *err, size_t errlen)
{
	uint8_t pfx[16];
	struct route6 *r;

	memcpy(pfx, prefix, 16);
	mask6(pfx, len);
	r = route6_find(pfx, len);
	if (r == NULL) {
		snprintf(err, errlen, "no such ip6 route");
		return -ENOENT;
	}
	if (len == 0)
		__atomic_store_n(&fib6_default_adj, UINT32_MAX, __ATOMIC_RELEASE);
	else
		rte_fib6_delete(fib6_fib, pfx, len);
	adj6_put(r->adj);
	*r = routes6[--n_routes6];
	return 0;
}

static void
connected6_del(struct port *p)
{
	char err[128];

	fib6_route_del(p->ip6, 128, err, sizeof(err));
	if (p->ip6_len < 128)
		fib6_route_del(p->ip6, p->ip6_len, err, sizeof(err));
}

/* Global unicast only: no ::, ::1, multicast or link-local as an interface's prefix. */
int
fib6_interface_address_set(int port_index, const uint8_t *ip, uint8_t len, bool del, char *err,
			   size_t errlen)
{
	static const uint8_t zero[16], loop[16] = {[15] = 1};
	struct port *p = &vfwd.ports[port_index];
	int rc;

	if (len == 0 || len > 128) {
		snprintf(err, errlen, "bad prefix length %u", len);
		return -EINVAL;
	}
	if (del) {
		if (!p->has_ip6 || memcmp(p->ip6, ip, 16) != 0 || p->ip6_len != len) {
			snprintf(err, errlen, "%s has no such ip6 address", p->name);
			return -ENOENT;
		}
		connected6_del(p);
		p->has_ip6 = false;
		return 0;
	}
	if (memcmp(ip, zero, 16) == 0 || memcmp(ip, loop, 16) == 0 || ip[0] == 0xff ||
	    (ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80)) {
		snprintf(err, errlen, "not a global unicast address");
		return -EINVAL;
	}
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *q = &vfwd.ports[i];
		uint8_t m = RTE_MIN(len, q->ip6_len);
		uint8_t a[16];

		if ((int)i == port_index || !q->has_ip6)
			continue;
		memcpy(a, q->ip6, 16);
		mask6(a, m);
		if (in_prefix6(ip, a, m)) {
			snprintf(err, errlen, "conflicts with the ip6 address on %s", q->name);
			return -EEXIST;
		}
	}
	if (p->has_ip6) {
		connected6_del(p);
		p->has_ip6 = false;
	}
	rc = fib6_route_add(ip, 128, ip, port_index, ADJ_LOCAL, err, errlen);
	if (rc == 0 && len < 128)
		rc = fib6_route_add(ip, len, NULL, port_index, ADJ_GLEAN, err, errlen);
	if (rc < 0)
		return rc;
	memcpy(p->ip6, ip, 16);
	p->ip6_len = len;
	p->has_ip6 = true;
	return 0;
}

static void
neighbor6_adjs_refresh(int port_index, const uint8_t *ip)
{
	for (int i = 1; i < MAX_ADJ6; i++) {
		struct adj6 *a = &adj6_table[i];

		if (a->refs && a->type == ADJ_REWRITE && memcmp(a->nh, ip, 16) == 0 &&
		    vfwd.port_index[a->port_id] == port_index)
			adj6_refresh(a, port_index);
	}
}

static bool
on_link6(int port_index, const uint8_t *ip)
{
	const struct port *p = &vfwd.ports[port_index];
	uint8_t a[16];

	if (!p->has_ip6)
		return false;
	memcpy(a, p->ip6, 16);
	mask6(a, p->ip6_len);
	return in_prefix6(ip, a, p->ip6_len) && memcmp(ip, p->ip6, 16) != 0;
}

static void
neighbor6_remove(struct neighbor6 *n)
{
	struct route6 *r = route6_find(n->ip, 128);
	int port = n->port;
	uint8_t ip[16];
	char err[128];

	memcpy(ip, n->ip, 16);
	if (!n->is_static)
		n_dyn_neighbors6--;
	*n = neighbors6[--n_neighbors6];
	if (r != NULL && r->auto_nbr)
		fib6_route_del(ip, 128, err, sizeof(err));
	neighbor6_adjs_refresh(port, ip);
}

/* Frees the least recently updated dynamic or incomplete entry; false if none. */
static bool
neighbor6_evict_dynamic(void)
{
	struct neighbor6 *old = NULL;

	for (unsigned i = 0; i < n_neighbors6; i++)
		if (!neighbors6[i].is_static &&
		    (old == NULL || neighbors6[i].updated < old->updated))
			old = &neighbors6[i];
	if (old == NULL)
		return false;
	neighbor6_remove(old);
	return true;
}

/* A new entry; a dynamic one past the limit evicts the oldest dynamic, and a full
 * table evicts one for configuration too (configuration is never locked out). */
static struct neighbor6 *
neighbor6_new(int port_index, const uint8_t *ip, bool dyn)
{
	struct neighbor6 *n;

	if (dyn && n_dyn_neighbors6 >= nbr_config[1].limit)
		neighbor6_evict_dynamic();
	if (n_neighbors6 >= MAX_NEIGHBORS6 && !neighbor6_evict_dynamic())
		return NULL;
	n = &neighbors6[n_neighbors6++];
	memset(n, 0, sizeof(*n));
	n->port = port_index;
	memcpy(n->ip, ip, 16);
	n->is_static = !dyn;
	n_dyn_neighbors6 += dyn;
	return n;
}

/* static (CLI) or learned (ND); a learned one never replaces a static one */
int
fib6_neighbor_set(int port_index, const uint8_t *ip, const struct rte_ether_addr *mac, bool del,
		  bool is_static)
{
	struct neighbor6 *n = neighbor6_find(port_index, ip);
	char err[128];

	if (del) {
		if (n == NULL)
			return -ENOENT;
		neighbor6_remove(n);
		return 0;
	}
	if (n != NULL && n->is_static && !is_static)
		return -EPERM;
	if (n == NULL) {
		if (!is_static && !on_link6(port_index, ip))
			return -EADDRNOTAVAIL;
		n = neighbor6_new(port_index, ip, !is_static);
		if (n == NULL)
			return -ENOSPC;
	} else if (is_static && !n->is_static) {
		n_dyn_neighbors6--;
	}
	n->mac = *mac;
	n->is_static = is_static || n->is_static;
	n->state = n->is_static ? NBR6_STATIC : NBR6_DYNAMIC;
	n->updated = rte_rdtsc();
	n->probes = 0;
	if (route6_find(ip, 128) == NULL && on_link6(port_index, ip)) {
		int adj = adj6_get(ADJ_REWRITE, port_index, ip);

		if (adj >= 0 && route6_set(ip, 128, adj, true, err, sizeof(err)) < 0)
			adj6_put((uint32_t)adj);
	}
	neighbor6_adjs_refresh(port_index, ip);
	return 0;
}

/* ip6-glean solicited ip: an incomplete entry until its advertisement comes; a
 * retransmitted solicitation keeps it 3 s more */
int
fib6_neighbor_incomplete(int port_index, const uint8_t *ip)
{
	struct neighbor6 *n = neighbor6_find(port_index, ip);

	if (n != NULL) {
		if (n->state == NBR6_INCOMPLETE)
			n->updated = rte_rdtsc();
		return 0;
	}
	n = neighbor6_new(port_index, ip, true);
	if (n == NULL)
		return -ENOSPC;
	n->state = NBR6_INCOMPLETE;
	n->updated = rte_rdtsc();
	return 0;
}

/* As fib_neighbors_age for IPv4: aged dynamic entries are probed with a
 * neighbour solicitation once a second, removed after 3 unanswered; incomplete
 * entries go after 3 s. */
int
fib6_neighbors_age(uint64_t now)
{
	uint64_t hz = rte_get_tsc_hz(), age = (uint64_t)nbr_config[1].age_s * hz;
	int removed = 0;

	for (unsigned i = 0; i < n_neighbors6;) {
		struct neighbor6 *n = &neighbors6[i];
		struct nbr_probe_msg msg = {.af = 6};

		if ((n->state == NBR6_INCOMPLETE && now > n->updated + 3 * hz) ||
		    (n->state == NBR6_DYNAMIC && age && n->probes >= 3 && now >= n->probed + hz)) {
			neighbor6_remove(n);
			removed++;
			continue;
		}
		i++;
		if (n->state != NBR6_DYNAMIC || age == 0 || now <= n->updated + age ||
		    (n->probes && now < n->probed + hz))
			continue;
		memcpy(msg.ip, n->ip, 16);
		msg.port_id = vfwd.ports[n->port].port_id;
		if (vfwd.probe6_ring != NULL)
			rte_ring_mp_enqueue_elem(vfwd.probe6_ring, &msg, sizeof(msg));
		n->probes++;
		n->probed = now;
	}
	return removed;
}

static void
ip6_fmt(char *buf, size_t len, const uint8_t *ip)
{
	if (inet_ntop(AF_INET6, ip, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

/* The IPv6 adjacencies out of a port take its new MTU (fib_port_mtu_set sets the port's). */
void
fib6_port_mtu_set(int port_index, uint16_t mtu)
{
	const struct port *p = &vfwd.ports[port_index];

	for (int i = 0; i < MAX_ADJ6; i++) {
		struct adj6 *a = &adj6_table[i];

		if (a->refs && a->port_id == p->port_id)
			__atomic_store_n(&a->mtu, mtu, __ATOMIC_RELAXED);
	}
}

void
fib6_show(struct vfwd_cli_out *out)
{
	static const char *const kind[] = {"drop", "local", "broadcast", "glean", "via"};

	vfwd_cli_printf(out, "ipv6 fib: %u routes\n", n_routes6);
	for (unsigned i = 0; i < n_routes6; i++) {
		const struct route6 *r = &routes6[i];
		const struct adj6 *a = &adj6_table[r->adj];
		const struct port *p = port_by_ethdev(a->port_id);
		char pfx[INET6_ADDRSTRLEN], nh[INET6_ADDRSTRLEN], ent[INET6_ADDRSTRLEN + 8];

		ip6_fmt(pfx, sizeof(pfx), r->prefix);
		snprintf(ent, sizeof(ent), "%s/%u", pfx, r->len);
		ip6_fmt(nh, sizeof(nh), a->nh);
		if (a->type == ADJ_REWRITE)
			vfwd_cli_printf(out, "%-44s via %s %s %s\n", ent, nh, p ? p->name : "?",
					a->valid ? "resolved" : "unresolved");
		else if (a->type == ADJ_DROP)
			vfwd_cli_printf(out, "%-44s drop\n", ent);
		else
			vfwd_cli_printf(out, "%-44s %s %s\n", ent, kind[a->type], p ? p->name : "?");
	}
}

void
fib6_neighbors_show(struct vfwd_cli_out *out)
{
	static const char flag[] = {
		[NBR6_DYNAMIC] = 'D', [NBR6_STATIC] = 'S', [NBR6_INCOMPLETE] = 'I'};

	vfwd_cli_printf(out, "%-16s%-42s%-20s%-14s%s\n", "Interface", "IP", "MAC", "Age", "Flags");
	for (unsigned i = 0; i < n_neighbors6; i++) {
		const struct neighbor6 *n = &neighbors6[i];
		char ip[INET6_ADDRSTRLEN], mac[RTE_ETHER_ADDR_FMT_SIZE], age[32];

		ip6_fmt(ip, sizeof(ip), n->ip);
		if (n->state == NBR6_INCOMPLETE)
			snprintf(mac, sizeof(mac), "-");
		else
			rte_ether_format_addr(mac, sizeof(mac), &n->mac);
		nbr_age_format(age, sizeof(age), n->is_static, n->updated, n->probes);
		vfwd_cli_printf(out, "%-16s%-42s%-20s%-14s%c\n", vfwd.ports[n->port].name, ip, mac,
				age, flag[n->state]);
	}
}

/* Learns the neighbours ip6-nd queued (NA targets, NS sources). */
int
fib6_punt_poll(void)
{
	struct nd_learn_msg msgs[32];
	unsigned n;

	if (vfwd.punt6_ring == NULL)
		return 0;
	n = rte_ring_dequeue_burst_elem(vfwd.punt6_ring, msgs, sizeof(msgs[0]), RTE_DIM(msgs),
					NULL);
	for (unsigned i = 0; i < n; i++) {
		int pi = vfwd.port_index[msgs[i].port_id];
		struct rte_ether_addr mac;

		memcpy(&mac, msgs[i].mac, 6);
		if (pi < 0)
			continue;
		if (msgs[i].kind == ND_MSG_REQUESTED)
			fib6_neighbor_incomplete(pi, msgs[i].ip);
		else
			fib6_neighbor_set(pi, msgs[i].ip, &mac, false, false);
	}
	return (int)n;
}
