/* SPDX-License-Identifier: BSD-3-Clause
 * IPv4 FIB (rte_fib DIR-24-8 over its rte_rib, so adding a route costs a tree
 * insert, not rte_lpm's scan of every rule of its depth), adjacencies and the neighbour table. Control plane
 * only: called from the main lcore (CLI, ARP learning), read by the data path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_ring.h>

#include "cli.h"
#include "edge.h"
#include "error.h"
#include "fib.h"
#include "nbr.h"
#include "state.h"

#define MAX_NEIGHBORS 4096

struct route {
	uint32_t prefix;
	uint8_t len;
	bool auto_nbr; /* /32 added for a neighbour in a connected subnet */
	uint32_t adj;
};

/* static entries come from the CLI and are never overwritten by ARP; dynamic
 * ones are learned; incomplete ones wait for the reply to a request we sent */
enum { NBR_STATIC = 1, NBR_DYNAMIC = 2, NBR_INCOMPLETE = 4 };
#define MAX_DYN_NEIGHBORS NBR4_MAX_DYNAMIC

struct neighbor {
	int port;
	uint32_t ip;
	struct rte_ether_addr mac;
	uint8_t flags;
	uint8_t probes;	  /* probes sent since the entry aged (3, then it is removed) */
	uint64_t updated; /* TSC of the last learn */
	uint64_t probed;  /* TSC of the last probe */
};

struct adj adj_table[MAX_ADJ] __rte_cache_aligned;
struct rte_fib *fib_ip4;
static struct route *routes;
static unsigned n_routes, max_routes;
/* route index + 1 by (prefix, len): open addressing, ROUTE_TOMB marks a deleted slot */
#define ROUTE_TOMB UINT32_MAX
static uint32_t *route_slots;
static uint32_t route_slot_mask, route_tombs;
static struct neighbor neighbors[MAX_NEIGHBORS];
static unsigned n_neighbors, n_dyn_neighbors;
struct ip4_own_set ip4_own;

/* ARP learning reasons, counted by the main lcore under arp-input */
#define foreach_arp_learn_error                                                                    \
	_(LEARNED, "ARP neighbor learned")                                                         \
	_(STATIC, "ARP would overwrite a static neighbor (ignored)")                               \
	_(NOT_LOCAL, "ARP sender not on subnet and not requested (ignored)")                       \
	_(SPECIAL, "ARP sender is a broadcast or special address (ignored)")                       \
	_(EVICTED, "ARP oldest dynamic neighbor evicted (table limit)")                            \
	_(PROBED, "ARP probes of aged neighbors queued")                                           \
	_(AGED, "ARP neighbor aged out (3 probes unanswered)")

enum arp_learn_error {
#define _(sym, str) ARP_LEARN_ERROR_##sym,
	foreach_arp_learn_error
#undef _
		ARP_LEARN_N_ERROR,
};

static const char *const arp_learn_error_strings[] = {
#define _(sym, str) str,
	foreach_arp_learn_error
#undef _
};

static uint64_t *arp_learn_errors;

static uint32_t
prefix_mask(uint8_t len)
{
	return len == 0 ? 0 : ~0u << (32 - len);
}

int
fib_init(void)
{
	struct rte_fib_conf cfg = {
		.type = RTE_FIB_DIR24_8,
		.default_nh = FIB_MISS,
		.max_routes = (int)vfwd.conf.ip4_max_routes,
		.dir24_8 = {.nh_sz = RTE_FIB_DIR24_8_4B, .num_tbl8 = vfwd.conf.ip4_tbl8s},
	};
	uint32_t slots = 1;

	if (cfg.max_routes == 0) /* the tests' set-up has no startup file */
		cfg.max_routes = 65536;
	if (cfg.dir24_8.num_tbl8 == 0)
		cfg.dir24_8.num_tbl8 = 1024;
	max_routes = (unsigned)cfg.max_routes;
	while (slots < 2 * max_routes)
		slots <<= 1;
	route_slots = calloc(slots, sizeof(*route_slots));
	if (route_slots == NULL)
		return -ENOMEM;
	route_slot_mask = slots - 1;

	fib_ip4 = rte_fib_create("vfwd_fib", SOCKET_ID_ANY, &cfg);
	if (fib_ip4 == NULL)
		return -rte_errno ? -rte_errno : -ENOMEM;
	routes = calloc(max_routes, sizeof(*routes));
	if (routes == NULL) {
		rte_fib_free(fib_ip4);
		fib_ip4 = NULL;
		return -ENOMEM;
	}
	adj_table[0].type = ADJ_DROP;
	adj_table[0].refs = 1;
	if (err_register("arp-learn", arp_learn_error_strings, ARP_LEARN_N_ERROR) < 0)
		return -ENOSPC;
	arp_learn_errors = err_block_for_node("arp-learn", ERR_MAIN_ROW);
	return 0;
}

static bool neighbor_evict_dynamic(void);

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
	a->tx_edge = edge_table("ip4-rewrite")[p->port_id];
	a->mtu = p->mtu;
	if (n == NULL || (n->flags & NBR_INCOMPLETE)) {
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

static uint32_t
route_hash(uint32_t prefix, uint8_t len)
{
	uint64_t k = ((uint64_t)prefix << 8 | len) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

/* The slot holding (prefix, len), or the first free one on its probe path
 * when absent (*found false); returns the slot index. */
static uint32_t
route_slot(uint32_t prefix, uint8_t len, bool *found)
{
	uint32_t i = route_hash(prefix, len) & route_slot_mask, free_slot = UINT32_MAX;

	for (;; i = (i + 1) & route_slot_mask) {
		uint32_t v = route_slots[i];

		if (v == 0) {
			*found = false;
			return free_slot != UINT32_MAX ? free_slot : i;
		}
		if (v == ROUTE_TOMB) {
			if (free_slot == UINT32_MAX)
				free_slot = i;
			continue;
		}
		if (routes[v - 1].prefix == prefix && routes[v - 1].len == len) {
			*found = true;
			return i;
		}
	}
}

/* Clears the tombstones: every route is put back on its probe path. */
static void
route_slots_rebuild(void)
{
	bool found;

	memset(route_slots, 0, sizeof(*route_slots) * (route_slot_mask + 1));
	route_tombs = 0;
	for (unsigned i = 0; i < n_routes; i++)
		route_slots[route_slot(routes[i].prefix, routes[i].len, &found)] = i + 1;
}

static struct route *
route_find(uint32_t prefix, uint8_t len)
{
	bool found;
	uint32_t i = route_slot(prefix, len, &found);

	return found ? &routes[route_slots[i] - 1] : NULL;
}

static int
route_set(uint32_t prefix, uint8_t len, int adj, bool auto_nbr, char *err, size_t errlen)
{
	struct route *r = route_find(prefix, len);
	int rc;

	if (r == NULL && n_routes >= max_routes) {
		snprintf(err, errlen, "route table full (%u routes; fib { ip4-max-routes N })",
			 max_routes);
		return -ENOSPC;
	}
	rc = rte_fib_add(fib_ip4, prefix, len, (uint64_t)adj);
	if (rc < 0) {
		snprintf(err, errlen, "rte_fib_add: %s", strerror(-rc));
		return rc;
	}
	if (r != NULL) {
		adj_put(r->adj);
	} else {
		bool found;
		uint32_t slot = route_slot(prefix, len, &found);

		r = &routes[n_routes++];
		r->prefix = prefix;
		r->len = len;
		route_slots[slot] = n_routes;
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
	/* configuration never loses to learned state: free dynamic neighbours' adjacencies */
	while (adj == -ENOSPC && neighbor_evict_dynamic())
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
	rte_fib_delete(fib_ip4, prefix, len);
	adj_put(r->adj);
	{
		bool found;
		uint32_t idx = (uint32_t)(r - routes), last = n_routes - 1;

		route_slots[route_slot(prefix, len, &found)] = ROUTE_TOMB;
		route_tombs++;
		if (idx != last) { /* the last route moves into the hole: repoint its slot */
			uint32_t ls = route_slot(routes[last].prefix, routes[last].len, &found);

			routes[idx] = routes[last];
			route_slots[ls] = idx + 1;
		}
		n_routes--;
		if (route_tombs > (route_slot_mask + 1) / 4)
			route_slots_rebuild();
	}
	return 0;
}

static void
ip_fmt(char *buf, size_t len, uint32_t ip)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

static void
ip4_own_rebuild(void)
{
	uint64_t filter = 0;
	unsigned n = 0;

	__atomic_store_n(&ip4_own.filter, UINT64_MAX, __ATOMIC_RELEASE);
	__atomic_store_n(&ip4_own.n, 0, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		if (vfwd.ports[i].ip4 == 0)
			continue;
		ip4_own.addr[n] = rte_cpu_to_be_32(vfwd.ports[i].ip4);
		filter |= 1ull << ip4_own_hash(ip4_own.addr[n++]);
	}
	__atomic_store_n(&ip4_own.n, n, __ATOMIC_RELEASE);
	__atomic_store_n(&ip4_own.filter, filter, __ATOMIC_RELEASE);
}

/* 0/8, 127/8, 224/4 and 240/4 are never a host's address (RFC 1122 3.2.1.3, RFC 1812 5.3.7) */
static bool
ip4_special(uint32_t ip)
{
	uint8_t o = (uint8_t)(ip >> 24);

	return o == 0 || o == 127 || o >= 224;
}

static void
connected_routes_del(struct port *p)
{
	char err[128];
	uint32_t m = prefix_mask(p->ip4_len);

	fib_route_del(p->ip4, 32, err, sizeof(err));
	if (p->ip4_len < 32)
		fib_route_del(p->ip4, p->ip4_len, err, sizeof(err));
	if (p->ip4_len <= 30) {
		fib_route_del(p->ip4 & m, 32, err, sizeof(err));
		fib_route_del(p->ip4 | ~m, 32, err, sizeof(err));
	}
}

static int
address_check(int port_index, uint32_t ip, uint8_t len, char *err, size_t errlen)
{
	uint32_t m = prefix_mask(len);
	char a[20], b[20];

	ip_fmt(a, sizeof(a), ip);
	if (ip4_special(ip)) {
		snprintf(err, errlen, "%s is not a unicast host address", a);
		return -EINVAL;
	}
	if (len <= 30 && ((ip & ~m) == 0 || (ip & ~m) == ~m)) {
		snprintf(err, errlen, "%s is the network or broadcast address of %s/%u", a, a, len);
		return -EINVAL;
	}
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *q = &vfwd.ports[i];
		uint32_t qm = prefix_mask(RTE_MIN(len, q->ip4_len));

		if ((int)i == port_index || q->ip4 == 0 || (q->ip4 & qm) != (ip & qm))
			continue;
		ip_fmt(b, sizeof(b), q->ip4);
		snprintf(err, errlen, "%s/%u conflicts with %s/%u on %s", a, len, b, q->ip4_len,
			 q->name);
		return -EEXIST;
	}
	return 0;
}

int
fib_interface_address_set(int port_index, uint32_t ip, uint8_t len, bool del, char *err,
			  size_t errlen)
{
	struct port *p = &vfwd.ports[port_index];
	uint32_t m = prefix_mask(len);
	char a[20];
	int rc;

	if (len == 0 || len > 32) {
		snprintf(err, errlen, "bad prefix length %u", len);
		return -EINVAL;
	}
	if (del) {
		if (p->ip4 != ip || p->ip4_len != len) {
			ip_fmt(a, sizeof(a), ip);
			snprintf(err, errlen, "%s has no address %s/%u", p->name, a, len);
			return -ENOENT;
		}
		connected_routes_del(p);
		p->ip4 = 0;
		p->ip4_len = 0;
		ip4_own_rebuild();
		return 0;
	}
	rc = address_check(port_index, ip, len, err, errlen);
	if (rc < 0)
		return rc;
	if (p->ip4 != 0) {
		connected_routes_del(p);
		p->ip4 = 0;
		p->ip4_len = 0;
	}
	rc = fib_route_add(ip, 32, ip, port_index, ADJ_LOCAL, err, errlen);
	if (rc == 0 && len < 32)
		rc = fib_route_add(ip, len, 0, port_index, ADJ_GLEAN, err, errlen);
	/* RFC 1812 5.3.5.2 and RFC 2644: directed broadcasts are not forwarded by default */
	if (rc == 0 && len <= 30)
		rc = fib_route_add(ip & m, 32, 0, port_index, ADJ_BCAST, err, errlen);
	if (rc == 0 && len <= 30)
		rc = fib_route_add(ip | ~m, 32, 0, port_index, ADJ_BCAST, err, errlen);
	p->ip4 = ip;
	p->ip4_len = len;
	if (rc < 0) {
		connected_routes_del(p);
		p->ip4 = 0;
		p->ip4_len = 0;
	}
	ip4_own_rebuild();
	return rc;
}

int
fib_port_mtu_set(int port_index, uint16_t mtu)
{
	struct port *p = &vfwd.ports[port_index];

	p->mtu = mtu;
	for (int i = 1; i < MAX_ADJ; i++) {
		struct adj *a = &adj_table[i];

		if (a->refs && a->port_id == p->port_id)
			__atomic_store_n(&a->mtu, mtu, __ATOMIC_RELAXED);
	}
	return 0;
}

static bool
in_connected_subnet(int port_index, uint32_t ip)
{
	const struct port *p = &vfwd.ports[port_index];
	uint32_t m = prefix_mask(p->ip4_len);

	return p->ip4 != 0 && p->ip4_len < 32 && ip != p->ip4 && (ip & m) == (p->ip4 & m) &&
	       (p->ip4_len > 30 || ((ip & ~m) != 0 && (ip & ~m) != ~m));
}

static void
neighbor_adjs_refresh(int port_index, uint32_t ip)
{
	for (int i = 1; i < MAX_ADJ; i++) {
		struct adj *a = &adj_table[i];

		if (a->refs && a->type == ADJ_REWRITE && a->nh == ip &&
		    vfwd.port_index[a->port_id] == port_index)
			adj_refresh(a, port_index);
	}
}

static void
neighbor_remove(struct neighbor *n)
{
	struct route *r = route_find(n->ip, 32);
	int port = n->port;
	uint32_t ip = n->ip;
	char err[128];

	if (n->flags & (NBR_DYNAMIC | NBR_INCOMPLETE))
		n_dyn_neighbors--;
	*n = neighbors[--n_neighbors];
	if (r != NULL && r->auto_nbr)
		fib_route_del(ip, 32, err, sizeof(err));
	neighbor_adjs_refresh(port, ip);
}

/* Frees the least recently learned dynamic or incomplete entry; false if none. */
static bool
neighbor_evict_dynamic(void)
{
	struct neighbor *old = NULL;

	for (unsigned i = 0; i < n_neighbors; i++)
		if (!(neighbors[i].flags & NBR_STATIC) &&
		    (old == NULL || neighbors[i].updated < old->updated))
			old = &neighbors[i];
	if (old == NULL)
		return false;
	neighbor_remove(old);
	if (arp_learn_errors != NULL)
		arp_learn_errors[ARP_LEARN_ERROR_EVICTED]++;
	return true;
}

/* Adds or updates an entry with the given flags; 0 or -errno. */
static int
neighbor_update(int port_index, uint32_t ip, const struct rte_ether_addr *mac, uint8_t flags)
{
	struct neighbor *n = neighbor_find(port_index, ip);
	bool dyn = !(flags & NBR_STATIC);

	if (n == NULL) {
		if (dyn && n_dyn_neighbors >= nbr_config[0].limit)
			neighbor_evict_dynamic();
		if (n_neighbors >= MAX_NEIGHBORS && !neighbor_evict_dynamic())
			return -ENOSPC;
		n = &neighbors[n_neighbors++];
		n->port = port_index;
		n->ip = ip;
		n->flags = 0;
		if (dyn)
			n_dyn_neighbors++;
	} else if (!dyn && !(n->flags & NBR_STATIC)) {
		n_dyn_neighbors--;
	}
	if (mac != NULL)
		n->mac = *mac;
	n->flags = flags;
	n->updated = rte_rdtsc();
	n->probes = 0;
	if (!(flags & NBR_INCOMPLETE) && route_find(ip, 32) == NULL &&
	    in_connected_subnet(port_index, ip)) {
		int adj = adj_get(ADJ_REWRITE, port_index, ip);
		char err[128];

		if (adj >= 0 && route_set(ip, 32, adj, true, err, sizeof(err)) < 0)
			adj_put((uint32_t)adj);
	}
	neighbor_adjs_refresh(port_index, ip);
	return 0;
}

/* The CLI's `set ip neighbor`: a static entry (replaces a dynamic one). */
int
fib_neighbor_set(int port_index, uint32_t ip, const struct rte_ether_addr *mac, bool del)
{
	struct neighbor *n = neighbor_find(port_index, ip);

	if (del) {
		if (n == NULL)
			return -ENOENT;
		neighbor_remove(n);
		return 0;
	}
	if (ip4_special(ip) || rte_is_multicast_ether_addr(mac) || rte_is_zero_ether_addr(mac))
		return -EINVAL;
	return neighbor_update(port_index, ip, mac, NBR_STATIC);
}

/* An incomplete entry: we sent a request for ip (glean); its reply will be learned.
 * A repeated request keeps an incomplete entry 3 s more. */
int
fib_neighbor_incomplete(int port_index, uint32_t ip)
{
	struct neighbor *n = neighbor_find(port_index, ip);

	if (n != NULL) {
		if (n->flags & NBR_INCOMPLETE)
			n->updated = rte_rdtsc();
		return 0;
	}
	return neighbor_update(port_index, ip, NULL, NBR_INCOMPLETE);
}

/* RFC 826 learning with a router's caution: a sender on the interface's subnet,
 * or one we asked for; never over a static entry. arp-input has already refused
 * our own address, broadcast and group MACs. */
static void
arp_learn(int port_index, uint32_t ip, const struct rte_ether_addr *mac)
{
	const struct port *p = &vfwd.ports[port_index];
	uint32_t m = prefix_mask(p->ip4_len);
	struct neighbor *n = neighbor_find(port_index, ip);

	if (ip4_special(ip) || (p->ip4_len <= 30 && ((ip & ~m) == 0 || (ip & ~m) == ~m))) {
		arp_learn_errors[ARP_LEARN_ERROR_SPECIAL]++;
		return;
	}
	if (n != NULL && (n->flags & NBR_STATIC)) {
		if (!rte_is_same_ether_addr(&n->mac, mac))
			arp_learn_errors[ARP_LEARN_ERROR_STATIC]++;
		return;
	}
	if (n == NULL && !in_connected_subnet(port_index, ip)) {
		arp_learn_errors[ARP_LEARN_ERROR_NOT_LOCAL]++;
		return;
	}
	if (neighbor_update(port_index, ip, mac, NBR_DYNAMIC) == 0)
		arp_learn_errors[ARP_LEARN_ERROR_LEARNED]++;
}


static int
route_cmp(const void *a, const void *b)
{
	const struct route *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (int)x->len - (int)y->len;
}

static void
route_print(struct vfwd_cli_out *out, const struct route *r)
{
	static const char *const kind[] = {"drop", "local", "broadcast", "glean", "via"};
	const struct adj *a = &adj_table[r->adj];
	const struct port *p = port_by_ethdev(a->port_id);
	char pfx[20], nh[20], ent[32];

	ip_fmt(pfx, sizeof(pfx), r->prefix);
	snprintf(ent, sizeof(ent), "%s/%u", pfx, r->len);
	ip_fmt(nh, sizeof(nh), a->nh);
	if (a->type == ADJ_REWRITE)
		vfwd_cli_printf(out, "%-20s via %s %s %s\n", ent, nh, p ? p->name : "?",
				a->valid ? "resolved" : "unresolved");
	else if (a->type == ADJ_DROP)
		vfwd_cli_printf(out, "%-20s drop\n", ent);
	else
		vfwd_cli_printf(out, "%-20s %s %s\n", ent, kind[a->type], p ? p->name : "?");
}

/* `show ip fib [A.B.C.D/LEN | A.B.C.D]`: everything, one prefix exactly, or the
 * route an address takes (longest match). Returns -ENOENT when none matches. */
int
fib_show(struct vfwd_cli_out *out, bool filter, uint32_t ip, int len)
{
	struct route *sorted;
	const struct route *best = NULL;

	if (filter) {
		if (len >= 0)
			ip &= prefix_mask((uint8_t)len);
		for (unsigned i = 0; i < n_routes; i++) {
			const struct route *r = &routes[i];

			if (len >= 0 ? (r->prefix == ip && r->len == len)
				     : ((ip & prefix_mask(r->len)) == r->prefix &&
					(best == NULL || r->len > best->len)))
				best = r;
		}
		if (best == NULL)
			return -ENOENT;
		route_print(out, best);
		return 0;
	}
	sorted = malloc(sizeof(*sorted) * (n_routes ? n_routes : 1));
	if (sorted == NULL)
		return -ENOMEM;
	memcpy(sorted, routes, sizeof(*sorted) * n_routes);
	qsort(sorted, n_routes, sizeof(*sorted), route_cmp);
	vfwd_cli_printf(out, "ipv4 fib: %u routes\n", n_routes);
	for (unsigned i = 0; i < n_routes; i++)
		route_print(out, &sorted[i]);
	free(sorted);
	return 0;
}

void
fib_neighbors_show(struct vfwd_cli_out *out)
{
	vfwd_cli_printf(out, "%-16s%-20s%-20s%-14s%s\n", "Interface", "IP", "MAC", "Age", "Flags");
	for (unsigned i = 0; i < n_neighbors; i++) {
		const struct neighbor *n = &neighbors[i];
		char ip[20], mac[RTE_ETHER_ADDR_FMT_SIZE], age[32];

		ip_fmt(ip, sizeof(ip), n->ip);
		if (n->flags & NBR_INCOMPLETE)
			snprintf(mac, sizeof(mac), "-");
		else
			rte_ether_format_addr(mac, sizeof(mac), &n->mac);
		nbr_age_format(age, sizeof(age), n->flags & NBR_STATIC, n->updated, n->probes);
		vfwd_cli_printf(out, "%-16s%-20s%-20s%-14s%s\n", vfwd.ports[n->port].name, ip, mac,
				age,
				n->flags & NBR_STATIC	 ? "S"
				: n->flags & NBR_DYNAMIC ? "D"
							 : "I");
	}
}

/* Ages the dynamic entries (main lcore): once older than the configured age an
 * entry is probed with an ARP request once a second, while it keeps forwarding;
 * a reply refreshes it; after 3 unanswered probes it is removed, and the next
 * packet to it resolves it afresh (glean). Incomplete entries go after 3 s.
 * `now` is a TSC value (the tests pass a later one). Returns entries removed. */
int
fib_neighbors_age(uint64_t now)
{
	uint64_t hz = rte_get_tsc_hz(), age = (uint64_t)nbr_config[0].age_s * hz;
	int removed = 0;

	for (unsigned i = 0; i < n_neighbors;) {
		struct neighbor *n = &neighbors[i];
		struct nbr_probe_msg msg = {.af = 4};

		if ((n->flags & NBR_INCOMPLETE) && now > n->updated + 3 * hz) {
			neighbor_remove(n);
			removed++;
			continue;
		}
		if (!(n->flags & NBR_DYNAMIC) || age == 0 || now <= n->updated + age ||
		    (n->probes && now < n->probed + hz)) {
			i++;
			continue;
		}
		if (n->probes >= 3) {
			neighbor_remove(n);
			arp_learn_errors[ARP_LEARN_ERROR_AGED]++;
			removed++;
			continue;
		}
		memcpy(msg.ip, &n->ip, 4);
		msg.port_id = vfwd.ports[n->port].port_id;
		if (vfwd.probe4_ring != NULL &&
		    rte_ring_mp_enqueue_elem(vfwd.probe4_ring, &msg, sizeof(msg)) == 0)
			arp_learn_errors[ARP_LEARN_ERROR_PROBED]++;
		n->probes++;
		n->probed = now;
		i++;
	}
	return removed;
}

/* Learns neighbours from the ARP senders arp-input queued; returns how many. */
int
fib_punt_poll(void)
{
	struct arp_learn_msg msgs[64];
	unsigned n, total = 0;

	if (vfwd.punt_ring == NULL)
		return 0;
	do {
		n = rte_ring_dequeue_burst_elem(vfwd.punt_ring, msgs, sizeof(msgs[0]),
						RTE_DIM(msgs), NULL);
		for (unsigned i = 0; i < n; i++) {
			int pi = vfwd.port_index[msgs[i].port_id];
			struct rte_ether_addr mac;

			memcpy(&mac, msgs[i].mac, sizeof(mac));
			if (pi < 0)
				continue;
			if (msgs[i].kind == ARP_MSG_REQUESTED)
				fib_neighbor_incomplete(pi, msgs[i].ip);
			else
				arp_learn(pi, msgs[i].ip, &mac);
		}
		total += n;
	} while (n > 0 && total < 4096);
	return (int)total;
}
