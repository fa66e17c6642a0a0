/* SPDX-License-Identifier: MIT */
/* topology_check.c - the schema of topology.conf: which keys a topology kind has and
 * what their values may be. The lab's shell reads values through `fwdstat topology get`,
 * so this file is the one definition of a valid topology. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>

#include "topology.h"
#include "topology_int.h"

#define MAX_NODES 16
#define MAX_LINKS 32
#define MAX_NAME 32
#define MAX_PORT 16
#define MAX_CPU 4095
#define MAX_LCORE 1023

struct node {
	char name[MAX_NAME + 1];
	const struct topo_entry *role, *vcpus, *memory, *mgmt_host, *image, *fwd;
	const struct topo_entry *uri, *underlay; /* a link across hosts needs both ends' */
	unsigned long nvcpus, host;
	int has_port0, has_port1;
	int uri_bad; /* refused already: no tunnel error on top of it */
};

struct port {
	char name[MAX_PORT + 1];
	size_t node, link;
};

struct vm {
	struct node node[MAX_NODES];
	size_t nnodes;
	struct port port[2 * MAX_LINKS];
	size_t nports;
	const struct topo_entry *nodes, *links;
	int links_ok;
	unsigned slot_line[32]; /* pci slot -> line that took it */
};

static const char *const vm_globals[] = {"nodes",     "links",	    "data_mtu",
					 "mgmt_subnet", "host_cpus",   "tgen_link",
					 "tunnel_port", "underlay_mtu"};
static const char *const vm_node_keys[] = {
	"uri",	     "image",	  "role",    "vcpus",  "memory_mib", "forwarding_vcpus",
	"mgmt_host", "ssh_proxy", "rx_mode", "pacing", "generator",  "remote_dir",
	"underlay",  "forwarder",  "hostdev_PORT"};
static const char *const rx_modes[] = {"auto", "poll", "adaptive", "interrupt", NULL};
static const char *const pacings[] = {"auto", "busy", "sleep", NULL};
static void host_word(struct topo *t, const struct topo_entry *e, const char *const *words,
		      const char *what);
static const char *const host_keys[] = {"vfwd.main_core", "vfwd.workers",   "vfwd.eal_args",
					"vfwd.num_mbufs", "vfwd.port0_mac", "vfwd.port1_mac",
					"tgen.eal_args",  "tgen.link"};

/* Copies the next blank-separated word of *s into w (cap bytes); 0 at the end. */
static size_t
next_word(const char **s, char *w, size_t cap, size_t *full)
{
	const char *p = *s;
	size_t n = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	while (p[n] != '\0' && p[n] != ' ' && p[n] != '\t')
		n++;
	*full = n;
	if (n >= cap)
		n = cap - 1;
	memcpy(w, p, n);
	w[n] = '\0';
	*s = p + *full;
	return *full;
}

/* [A-Za-z][A-Za-z0-9_]*: a node name is part of libvirt and shell variable names. */
static int
name_ok(const char *s, size_t len, size_t max)
{
	if (len == 0 || len > max ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!topo_key_char(s[i]) || s[i] == '.' || s[i] == '-')
			return 0;
	return 1;
}

static long
node_find(const struct vm *vm, const char *name, size_t len)
{
	for (size_t i = 0; i < vm->nnodes; i++)
		if (strlen(vm->node[i].name) == len && memcmp(vm->node[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

static void
vm_nodes(struct topo *t, struct vm *vm)
{
	const struct topo_entry *e = vm->nodes;
	const char *s = e->value;
	char w[MAX_NAME + 2];
	size_t full;

	while (next_word(&s, w, sizeof(w), &full) != 0) {
		if (!name_ok(w, full, MAX_NAME)) {
			topo_error(t, e->line,
				   "node name '%.*s': a letter, then letters, digits or _ (at most "
				   "%d)",
				   QUOTE(w), MAX_NAME);
		} else if (strcmp(w, "pci_slot") == 0) {
			topo_error(t, e->line,
				   "node name pci_slot is taken by the pci_slot.* keys");
		} else if (node_find(vm, w, full) >= 0) {
			topo_error(t, e->line, "node %s is listed twice", w);
		} else if (vm->nnodes == MAX_NODES) {
			topo_error(t, e->line, "more than %d nodes", MAX_NODES);
			return;
		} else {
			memcpy(vm->node[vm->nnodes++].name, w, full + 1);
		}
	}
}

static long
port_find(const struct vm *vm, size_t node, const char *name)
{
	for (size_t i = 0; i < vm->nports; i++)
		if (vm->port[i].node == node && strcmp(vm->port[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* One end of a link, NODE.PORT (len bytes at s). 0, or -EINVAL when reported. */
static int
vm_link_end(struct topo *t, struct vm *vm, const char *s, size_t len, size_t link, const char *lk)
{
	const char *dot = memchr(s, '.', len);
	size_t nlen = dot != NULL ? (size_t)(dot - s) : 0, plen = len - nlen - 1;
	struct port *p;
	long node, other;

	if (dot == NULL || !name_ok(s, nlen, MAX_NAME) || !name_ok(dot + 1, plen, MAX_PORT)) {
		topo_error(t, vm->links->line, "link %.*s: expected NODE.PORT-NODE.PORT",
			   QUOTE(lk));
		return -EINVAL;
	}
	node = node_find(vm, s, nlen);
	if (node < 0) {
		topo_error(t, vm->links->line, "link %.*s: node %.*s is not in nodes", QUOTE(lk),
			   (int)nlen, s);
		return -EINVAL;
	}
	if (plen == 4 && memcmp(dot + 1, "mgmt", 4) == 0) {
		topo_error(t, vm->links->line, "link %.*s: port name mgmt is the management NIC's",
			   QUOTE(lk));
		return -EINVAL;
	}
	p = &vm->port[vm->nports];
	memcpy(p->name, dot + 1, plen);
	p->name[plen] = '\0';
	other = port_find(vm, (size_t)node, p->name);
	if (other >= 0) {
		topo_error(t, vm->links->line, "link %.*s: %.*s is already on link %zu", QUOTE(lk),
			   (int)len, s, vm->port[other].link + 1);
		return -EINVAL;
	}
	p->node = (size_t)node;
	p->link = link;
	vm->nports++;
	vm->node[node].has_port0 |= strcmp(p->name, "port0") == 0;
	vm->node[node].has_port1 |= strcmp(p->name, "port1") == 0;
	return 0;
}

static void
vm_links(struct topo *t, struct vm *vm)
{
	const char *s = vm->links->value;
	char w[2 * (MAX_NAME + MAX_PORT + 1) + 3];
	size_t full, nlinks = 0;

	vm->links_ok = 1;
	while (next_word(&s, w, sizeof(w), &full) != 0) {
		const char *lk = s - full, *dash = memchr(lk, '-', full);

		if (nlinks == MAX_LINKS) {
			topo_error(t, vm->links->line, "more than %d links", MAX_LINKS);
			vm->links_ok = 0;
			return;
		}
		if (dash == NULL || memchr(dash + 1, '-', full - (size_t)(dash - lk) - 1) != NULL) {
			topo_error(t, vm->links->line, "link %.*s: expected NODE.PORT-NODE.PORT",
				   QUOTE(w));
			vm->links_ok = 0;
			continue;
		}
		w[full < sizeof(w) ? full : sizeof(w) - 1] = '\0';
		if (vm_link_end(t, vm, lk, (size_t)(dash - lk), nlinks, w) != 0 ||
		    vm_link_end(t, vm, dash + 1, full - (size_t)(dash - lk) - 1, nlinks, w) != 0)
			vm->links_ok = 0;
		nlinks++;
	}
}

static int
port_named(const struct vm *vm, const char *name)
{
	for (size_t i = 0; i < vm->nports; i++)
		if (strcmp(vm->port[i].name, name) == 0)
			return 1;
	return 0;
}

static void
check_pci_slot(struct topo *t, struct vm *vm, const struct topo_entry *e)
{
	const char *port = e->key + strlen("pci_slot.");
	unsigned long slot;

	if (strcmp(port, "mgmt") != 0 && !port_named(vm, port)) {
		if (vm->links_ok)
			topo_error(t, e->line, "%s: no link uses a port named %s", e->key, port);
		return;
	}
	/* q35's root bus: slot 0 is the host bridge, 31 the ICH9 functions. */
	if (topo_check_uint(t, e, 1, 30, &slot) != 0)
		return;
	if (vm->slot_line[slot] != 0) {
		topo_error(t, e->line, "%s = %lu: pci slot %lu is already taken on line %u", e->key,
			   slot, slot, vm->slot_line[slot]);
		return;
	}
	vm->slot_line[slot] = e->line;
}

static void
check_forwarding(struct topo *t, const struct node *nd)
{
	const struct topo_entry *e = nd->fwd;
	unsigned long v, seen[256] = {0};
	const char *s;
	size_t n;

	if (topo_check_cpulist(t, e, 254, 0) != 0 || nd->nvcpus == 0)
		return;
	for (s = e->value; topo_scan_uint(s, &v, &n) == 0; s += n + (s[n] == ',')) {
		if (nd->nvcpus == 1) {
			topo_error(t, e->line,
				   "%s = %s: %s.vcpus = 1 leaves no vCPU to forward on (vCPU 0 "
				   "keeps the guest's housekeeping)",
				   e->key, e->value, nd->name);
			return;
		}
		if (v == 0 || v >= nd->nvcpus) {
			topo_error(t, e->line,
				   "%s = %s: vCPU %lu is not one of vCPUs 1 to %lu (vCPU 0 keeps "
				   "the guest's housekeeping; %s.vcpus = %lu)",
				   e->key, e->value, v, nd->nvcpus - 1, nd->name, nd->nvcpus);
			return;
		}
		if (seen[v]++ != 0) {
			topo_error(t, e->line, "%s = %s: vCPU %lu is listed twice", e->key,
				   e->value, v);
			return;
		}
		if (s[n] == '\0')
			break;
	}
}

/*
 * validate.N (N a whole number): a check of `fwdlab validate`, in either kind of topology;
 * what the check says is lab/lib/validate.sh's to read (and refuse with FILE:LINE).
 */
static int
topo_is_validate_key(const char *k)
{
	if (strncmp(k, "validate.", 9) != 0 || k[9] == '\0')
		return 0;
	for (k += 9; *k != '\0'; k++)
		if (*k < '0' || *k > '9')
			return 0;
	return 1;
}

/* One NODE.FIELD setting of a declared node. */
static void
vm_node_key(struct topo *t, struct node *nd, const struct topo_entry *e, const char *field,
	    const char *prefix)
{
	if (strcmp(field, "role") == 0) {
		nd->role = e;
		if (strcmp(e->value, "tg") != 0 && strcmp(e->value, "dut") != 0)
			topo_error(t, e->line, "%s = %.*s: expected tg or dut", e->key,
				   QUOTE(e->value));
	} else if (strcmp(field, "vcpus") == 0) {
		nd->vcpus = e;
		topo_check_uint(t, e, 1, 255, &nd->nvcpus);
	} else if (strcmp(field, "memory_mib") == 0) {
		unsigned long mib;

		nd->memory = e;
		if (topo_check_uint(t, e, 128, 1048576, &mib) == 0 && mib % 2 != 0)
			topo_error(t, e->line,
				   "%s = %lu: 2 MB hugepages back the memory; give an even number",
				   e->key, mib);
	} else if (strcmp(field, "mgmt_host") == 0) {
		nd->mgmt_host = e;
		topo_check_uint(t, e, 2, 254, &nd->host);
	} else if (strcmp(field, "forwarding_vcpus") == 0) {
		nd->fwd = e;
	} else if (strcmp(field, "uri") == 0) {
		size_t before = t->nerr + t->dropped;

		nd->uri = e;
		topo_check_uri(t, e);
		nd->uri_bad = t->nerr + t->dropped != before;
	} else if (strcmp(field, "underlay") == 0) {
		struct in_addr a;

		/* the node's host's address on the network that carries its tunnelled links */
		nd->underlay = e;
		if (inet_pton(AF_INET, e->value, &a) != 1)
			topo_error(t, e->line,
				   "%s = %.*s: expected the IPv4 address of the node's host on the "
				   "underlay, like 10.0.0.2",
				   e->key, QUOTE(e->value));
	} else if (strcmp(field, "remote_dir") == 0) {
		if (e->value[0] != '/' || topo_has_blank(e->value) || strstr(e->value, "..") != NULL)
			topo_error(t, e->line,
				   "%s = %.*s: expected an absolute folder on the node's host, no "
				   "spaces, no ..",
				   e->key, QUOTE(e->value));
	} else if (strcmp(field, "image") == 0) {
		nd->image = e;
		topo_check_image(t, e);
	} else if (strcmp(field, "generator") == 0) {
		/* the TG's traffic generator (topologies/b2b: the image and vCPUs follow it) */
		if (strcmp(e->value, "tgen") != 0 && strcmp(e->value, "trex") != 0)
			topo_error(t, e->line, "%s = %.*s: expected tgen or trex", e->key,
				   QUOTE(e->value));
	} else if (strcmp(field, "forwarder") == 0) {
		/* the DUT's forwarder (topologies/b2b: vpp boots the dut-vpp image) */
		if (strcmp(e->value, "vfwd") != 0 && strcmp(e->value, "vpp") != 0)
			topo_error(t, e->line, "%s = %.*s: expected vfwd or vpp", e->key,
				   QUOTE(e->value));
	} else if (strcmp(field, "rx_mode") == 0) {
		host_word(t, e, rx_modes, "auto, poll, adaptive or interrupt");
	} else if (strcmp(field, "pacing") == 0) {
		host_word(t, e, pacings, "auto, busy or sleep");
	} else if (strcmp(field, "ssh_proxy") == 0) {
		if (topo_has_blank(e->value))
			topo_error(t, e->line, "%s = %.*s: one [USER@]HOST[:PORT], no spaces",
				   e->key, QUOTE(e->value));
	} else {
		topo_unknown_key(t, e, prefix, vm_node_keys, N_OF(vm_node_keys));
	}
}

/* NODE.hostdev_PORT = DDDD:BB:SS.F: the node's PORT is an SR-IOV VF (or any PCI NIC function)
 * of its host passed through to the guest, `<interface type='hostdev'>`, not a virtio NIC. */
static void
check_hostdev(struct topo *t, const struct vm *vm, size_t node, const struct topo_entry *e,
	      const char *port)
{
	unsigned dom, bus, slot, fn;
	char tail;

	if (port_find(vm, node, port) < 0) {
		topo_error(t, e->line, "%s: %s is on no link as %s.%s", e->key, port,
			   vm->node[node].name, port);
		return;
	}
	if (strlen(e->value) != 12 ||
	    sscanf(e->value, "%4x:%2x:%2x.%1x%c", &dom, &bus, &slot, &fn, &tail) != 4 ||
	    !isxdigit((unsigned char)e->value[0]) || !isxdigit((unsigned char)e->value[5]) ||
	    !isxdigit((unsigned char)e->value[8]) || slot > 0x1f || fn > 7)
		topo_error(t, e->line,
			   "%s = %.*s: expected a PCI address DDDD:BB:SS.F of the host, like "
			   "0000:03:10.2 (slot 00-1f, function 0-7)",
			   e->key, QUOTE(e->value));
}

/* The hostdev entry of port i (NODE.hostdev_PORT), or NULL. */
static const struct topo_entry *
port_hostdev(struct topo *t, const struct vm *vm, size_t i)
{
	char key[MAX_NAME + MAX_PORT + 16];

	snprintf(key, sizeof(key), "%s.hostdev_%s", vm->node[vm->port[i].node].name,
		 vm->port[i].name);
	return topo_entry(t, key);
}

/* A link is a cable between two passthrough ports, or a virtual link: never one of each. */
static int
hostdev_link(struct topo *t, const struct vm *vm, size_t i)
{
	const struct topo_entry *a = port_hostdev(t, vm, i), *b = port_hostdev(t, vm, i + 1);
	const struct topo_entry *has = a != NULL ? a : b;
	const struct port *lacks = &vm->port[a != NULL ? i + 1 : i];
	const char *node = vm->node[lacks->node].name;

	if ((a == NULL) == (b == NULL))
		return a != NULL;
	topo_error(t, has->line,
		   "%s: link %zu is a cable between two passthrough ports, but %s.%s has no "
		   "%s.hostdev_%s",
		   has->key, lacks->link + 1, node, lacks->name, node, lacks->name);
	return 1;
}

static void
vm_key(struct topo *t, struct vm *vm, const struct topo_entry *e)
{
	const char *dot = strchr(e->key, '.');
	char prefix[MAX_NAME + 2];
	long node;

	if (strcmp(e->key, "nodes") == 0 || strcmp(e->key, "links") == 0 ||
	    topo_is_validate_key(e->key))
		return;
	if (strcmp(e->key, "data_mtu") == 0)
		topo_check_uint(t, e, 68, 65535, NULL);
	else if (strcmp(e->key, "mgmt_subnet") == 0)
		topo_check_subnet(t, e);
	else if (strcmp(e->key, "host_cpus") == 0) {
		if (strcmp(e->value, "all") != 0)
			topo_check_cpulist(t, e, MAX_CPU, 1);
	} else if (strcmp(e->key, "tgen_link") == 0)
		topo_check_link_rate(t, e);
	else if (strcmp(e->key, "tunnel_port") == 0)
		topo_check_uint(t, e, 1024, 65000, NULL); /* two UDP ports a link from it */
	else if (strcmp(e->key, "underlay_mtu") == 0)
		topo_check_uint(t, e, 576, 65535, NULL);
	else if (strncmp(e->key, "pci_slot.", 9) == 0)
		check_pci_slot(t, vm, e);
	else if (dot == NULL || (size_t)(dot - e->key) > MAX_NAME)
		topo_unknown_key(t, e, "", vm_globals, N_OF(vm_globals));
	else if ((node = node_find(vm, e->key, (size_t)(dot - e->key))) >= 0) {
		snprintf(prefix, sizeof(prefix), "%s.", vm->node[node].name);
		if (strchr(dot + 1, '.') != NULL)
			topo_unknown_key(t, e, prefix, vm_node_keys, N_OF(vm_node_keys));
		else if (strncmp(dot + 1, "hostdev_", 8) == 0)
			check_hostdev(t, vm, (size_t)node, e, dot + 9);
		else
			vm_node_key(t, &vm->node[node], e, dot + 1, prefix);
	} else if (vm->nodes != NULL) {
		topo_error(t, e->line, "%s: node %.*s is not in nodes (line %u)", e->key,
			   (int)(dot - e->key), e->key, vm->nodes->line);
	}
	/* No nodes line: that one error says it, not one per NODE.KEY line. */
}

static int
port_named_before(const struct vm *vm, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(vm->port[j].name, vm->port[i].name) == 0)
			return 1;
	return 0;
}

static const char *
node_uri_of(const struct node *nd)
{
	return nd->uri != NULL ? nd->uri->value : "qemu:///system";
}

/* Link number link (0-based) joins a and b: on two libvirt hosts it is a UDP tunnel, and
 * each end then needs its host's underlay address (the other end sends there). */
static void
cross_host_link(struct topo *t, const struct vm *vm, const struct node *a, const struct node *b,
		size_t link)
{
	const struct node *end[2] = {a, b};

	if (a->uri_bad || b->uri_bad || strcmp(node_uri_of(a), node_uri_of(b)) == 0)
		return;
	for (int k = 0; k < 2; k++)
		if (end[k]->underlay == NULL)
			topo_error(t, vm->links->line,
				   "link %zu: %s and %s are on two hosts (their uri differ), so it is "
				   "a UDP tunnel: give %s.underlay, the IPv4 address of %s's host",
				   link + 1, a->name, b->name, end[k]->name, end[k]->name);
}

/* What must be there, once every line is read. */
static void
vm_complete(struct topo *t, struct vm *vm)
{
	unsigned line = vm->nodes->line;
	int dut = 0, tg = 0;
	char key[MAX_PORT + 16];

	for (size_t i = 0; i < vm->nnodes; i++) {
		struct node *nd = &vm->node[i];
		const struct topo_entry *need[] = {nd->role, nd->vcpus, nd->memory, nd->mgmt_host,
						   nd->image};
		static const char *const what[] = {"role", "vcpus", "memory_mib", "mgmt_host",
						   "image"};

		for (size_t k = 0; k < N_OF(need); k++)
			if (need[k] == NULL)
				topo_error(t, line, "node %s has no %s.%s", nd->name, nd->name,
					   what[k]);
		for (size_t j = 0; j < i && nd->host != 0; j++)
			if (vm->node[j].host == nd->host)
				topo_error(t, nd->mgmt_host->line,
					   "%s = %lu: mgmt_host %lu is already %s's (line %u)",
					   nd->mgmt_host->key, nd->host, nd->host, vm->node[j].name,
					   vm->node[j].mgmt_host->line);
		if (nd->fwd != NULL)
			check_forwarding(t, nd);
		if (nd->role == NULL)
			continue;
		dut |= strcmp(nd->role->value, "dut") == 0;
		tg |= strcmp(nd->role->value, "tg") == 0;
		if (vm->links_ok &&
		    (strcmp(nd->role->value, "dut") == 0 || strcmp(nd->role->value, "tg") == 0) &&
		    (!nd->has_port0 || !nd->has_port1))
			topo_error(
				t, vm->links->line,
				"node %s (role %s) is not on links as both %s.port0 and %s.port1 "
				"(tgen and vfwd drive two ports)",
				nd->name, nd->role->value, nd->name, nd->name);
	}
	if (!dut)
		topo_error(t, line, "no node has role = dut");
	if (!tg)
		topo_error(t, line, "no node has role = tg");
	for (size_t i = 0; vm->links_ok && i + 1 < vm->nports; i += 2)
		if (!hostdev_link(t, vm, i))
			cross_host_link(t, vm, &vm->node[vm->port[i].node],
					&vm->node[vm->port[i + 1].node], i / 2);
	for (size_t i = 0; vm->links_ok && i < vm->nports; i++) {
		snprintf(key, sizeof(key), "pci_slot.%s", vm->port[i].name);
		if (topo_get(t, key) == NULL && !port_named_before(vm, i))
			topo_error(t, vm->links->line, "port %s has no %s (the guest's PCI slot)",
				   vm->port[i].name, key);
	}
}

static void
vm_validate(struct topo *t)
{
	struct vm *vm = calloc(1, sizeof(*vm));

	if (vm == NULL) {
		topo_error(t, 0, "out of memory");
		return;
	}
	vm->nodes = topo_entry(t, "nodes");
	vm->links = topo_entry(t, "links");
	if (vm->nodes != NULL)
		vm_nodes(t, vm);
	if (vm->links != NULL && vm->nodes != NULL)
		vm_links(t, vm);
	for (size_t i = 0; i < t->n; i++)
		vm_key(t, vm, &t->v[i]);
	if (!t->lex_bad) {
		if (vm->nodes == NULL)
			topo_error(t, 0, "no nodes = NAME... line (a VM topology lists its nodes)");
		if (vm->links == NULL)
			topo_error(t, 0, "no links = NODE.PORT-NODE.PORT... line");
		if (vm->nodes != NULL)
			vm_complete(t, vm);
	}
	free(vm);
}

/* vfwd.rx_mode and tgen.pacing, NODE.rx_mode and NODE.pacing (optional): one of words, a NULL-ended
 * list. */
static void
host_word(struct topo *t, const struct topo_entry *e, const char *const *words, const char *what)
{
	for (; *words != NULL; words++)
		if (strcmp(e->value, *words) == 0)
			return;
	topo_error(t, e->line, "%s = %.*s: expected %s", e->key, QUOTE(e->value), what);
}

static void
host_key(struct topo *t, const struct topo_entry *e)
{
	const char *k = e->key;

	if (topo_is_validate_key(k))
		return;
	if (strcmp(k, "vfwd.rx_mode") == 0)
		host_word(t, e, rx_modes, "auto, poll, adaptive or interrupt");
	else if (strcmp(k, "tgen.pacing") == 0)
		host_word(t, e, pacings, "auto, busy or sleep");
	else if (strcmp(k, "vfwd.main_core") == 0)
		topo_check_uint(t, e, 0, MAX_LCORE, NULL);
	else if (strcmp(k, "vfwd.workers") == 0)
		topo_check_cpulist(t, e, MAX_LCORE, 1);
	else if (strcmp(k, "vfwd.num_mbufs") == 0)
		topo_check_uint(t, e, 1024, 1ul << 24, NULL);
	else if (strcmp(k, "vfwd.queues") == 0)
		topo_check_uint(t, e, 1, 8, NULL); /* tgen's TGEN_MAX_QUEUES */
	else if (strcmp(k, "vfwd.port0_mac") == 0 || strcmp(k, "vfwd.port1_mac") == 0)
		topo_check_mac(t, e);
	else if (strcmp(k, "tgen.link") == 0)
		topo_check_link_rate(t, e);
	else if (strcmp(k, "vfwd.eal_args") != 0 && strcmp(k, "tgen.eal_args") != 0)
		topo_unknown_key(t, e, "", host_keys, N_OF(host_keys));
}

static void
host_validate(struct topo *t)
{
	const struct topo_entry *m0, *m1, *nodes = topo_entry(t, "nodes");

	if (nodes != NULL) {
		topo_error(t, nodes->line, "a host topology has no nodes (this is a VM topology)");
		return;
	}
	for (size_t i = 0; i < t->n; i++)
		host_key(t, &t->v[i]);
	for (size_t i = 0; i < N_OF(host_keys) && !t->lex_bad; i++)
		if (topo_get(t, host_keys[i]) == NULL)
			topo_error(t, 0, "%s is missing (the host topology needs it)",
				   host_keys[i]);
	m0 = topo_entry(t, "vfwd.port0_mac");
	m1 = topo_entry(t, "vfwd.port1_mac");
	if (m0 != NULL && m1 != NULL && strcasecmp(m0->value, m1->value) == 0)
		topo_error(t, m1->line,
			   "vfwd.port1_mac = %.*s: the same MAC as vfwd.port0_mac (line %u)",
			   QUOTE(m1->value), m0->line);
}

/* A loop topology (topologies/loop): the generator's two ports joined by a wire, no DUT
 * process. loop.link (required) is the link speed rates are reported against; loop.cap_pps
 * (optional) the wire's capacity in packets a second (0: none). */
static const char *const loop_keys[] = {"loop.link", "loop.cap_pps"};

static void
loop_validate(struct topo *t)
{
	const struct topo_entry *nodes = topo_entry(t, "nodes");

	if (nodes != NULL) {
		topo_error(t, nodes->line, "a loop topology has no nodes (this is a VM topology)");
		return;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct topo_entry *e = &t->v[i];

		if (topo_is_validate_key(e->key))
			continue;
		if (strcmp(e->key, "loop.link") == 0)
			topo_check_link_rate(t, e);
		else if (strcmp(e->key, "loop.cap_pps") == 0)
			topo_check_uint(t, e, 0, 1ul << 32, NULL);
		else
			topo_unknown_key(t, e, "", loop_keys, N_OF(loop_keys));
	}
	if (!t->lex_bad && topo_get(t, "loop.link") == NULL)
		topo_error(t, 0, "loop.link is missing (the loop topology needs it)");
}

size_t
topo_validate(struct topo *t, enum topo_kind kind)
{
	if (kind == TOPO_AUTO) {
		kind = TOPO_VM;
		if (topo_get(t, "nodes") == NULL)
			for (size_t i = 0; i < t->n && kind == TOPO_VM; i++)
				if (strncmp(t->v[i].key, "vfwd.", 5) == 0 ||
				    strncmp(t->v[i].key, "tgen.", 5) == 0)
					kind = TOPO_HOST;
	}
	t->kind = kind;
	if (t->buf != NULL) {
		if (kind == TOPO_HOST)
			host_validate(t);
		else if (kind == TOPO_LOOP)
			loop_validate(t);
		else
			vm_validate(t);
	}
	return t->nerr + t->dropped;
}
