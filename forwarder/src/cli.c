/* SPDX-License-Identifier: BSD-3-Clause
 * CLI: command registry, line execution, and the built-in commands. Commands
 * run on the main lcore only; an unknown or malformed command changes nothing
 * and answers "error: ...".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_version.h>

#include "vfwd_int.h"

#define MAX_WORDS 8
#define MAX_ARGS 32

struct cli_cmd {
	unsigned n_words;
	char words[MAX_WORDS][24];
	char path[96];
	const char *help;
	vfwd_cli_fn fn;
};

static struct cli_cmd cli_cmds[128];
static unsigned n_cli_cmds;

VFWD_API int
vfwd_cli_printf(struct vfwd_cli_out *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = out->cap - out->len;

		va_start(ap, fmt);
		n = vsnprintf(out->buf ? out->buf + out->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < room) {
			out->len += (size_t)n;
			return n;
		}
		size_t cap = out->cap ? out->cap * 2 : 4096;
		while (cap < out->len + (size_t)n + 1)
			cap *= 2;
		char *b = realloc(out->buf, cap);
		if (b == NULL)
			return -ENOMEM;
		out->buf = b;
		out->cap = cap;
	}
}

void
cli_center(struct vfwd_cli_out *out, int width, const char *s)
{
	int len = (int)strlen(s), left = 0, right = 0;

	/* like VPP's %=Ns: an odd padding puts the extra space on the left */
	if (len < width) {
		left = (width - len + 1) / 2;
		right = width - len - left;
	}
	vfwd_cli_printf(out, "%*s%s%*s", left, "", s, right, "");
}

int
cli_error(struct vfwd_cli_out *out, int rc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vfwd_cli_printf(out, "error: %s\n", msg);
	out->error = true;
	return rc;
}

void
cli_out_free(struct vfwd_cli_out *out)
{
	free(out->buf);
	memset(out, 0, sizeof(*out));
}

VFWD_API int
vfwd_cli_register(const char *path, const char *help, vfwd_cli_fn fn)
{
	struct cli_cmd *c;
	char buf[96], *w, *save = NULL;

	if (path == NULL || fn == NULL || strlen(path) >= sizeof(buf))
		return -EINVAL;
	if (n_cli_cmds >= RTE_DIM(cli_cmds))
		return -ENOSPC;
	c = &cli_cmds[n_cli_cmds];
	memset(c, 0, sizeof(*c));
	strcpy(buf, path);
	snprintf(c->path, sizeof(c->path), "%s", path);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (c->n_words >= MAX_WORDS || strlen(w) >= sizeof(c->words[0]))
			return -EINVAL;
		strcpy(c->words[c->n_words++], w);
	}
	if (c->n_words == 0)
		return -EINVAL;
	for (unsigned i = 0; i < n_cli_cmds; i++)
		if (strcmp(cli_cmds[i].path, c->path) == 0)
			return -EEXIST;
	c->help = help;
	c->fn = fn;
	n_cli_cmds++;
	return 0;
}

static int cli_execute_words(const char *line, int argc, char **argv, struct vfwd_cli_out *out);

int
cli_execute(const char *line, struct vfwd_cli_out *out)
{
	char *buf, *argv[MAX_ARGS], *save = NULL, *w;
	int argc = 0, rc;

	buf = strdup(line);
	if (buf == NULL)
		return cli_error(out, -ENOMEM, "out of memory");
	for (w = strtok_r(buf, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc >= MAX_ARGS) {
			free(buf);
			return cli_error(out, -E2BIG, "too many words (max %d)", MAX_ARGS);
		}
		argv[argc++] = w;
	}
	rc = argc == 0 || argv[0][0] == '#' ? 0 : cli_execute_words(line, argc, argv, out);
	free(buf);
	return rc;
}

/* The word at position k the typed word selects among the live commands, as
 * VPP does: an exact match, else the only word it is a prefix of (words of
 * commands with the same handler, i.e. aliases, count as one; a hyphenated word
 * competes only once typed up to its hyphen, or when nothing else matches). NULL when none
 * matches; *ambiguous is set when several distinct commands do. */
static const char *
cli_word_pick(const bool *alive, unsigned k, const char *typed, bool *ambiguous)
{
	const char *pick = NULL;
	vfwd_cli_fn pick_fn = NULL;
	size_t len = strlen(typed);

	*ambiguous = false;
	for (unsigned i = 0; i < n_cli_cmds; i++)
		if (alive[i] && cli_cmds[i].n_words > k && strcmp(cli_cmds[i].words[k], typed) == 0)
			return cli_cmds[i].words[k];
	/* first without the words whose hyphen is past what was typed, so that "nei" is
	 * "neighbors" beside "neighbor-config" (typed up to its hyphen, it is chosen) */
	for (int pass = 0; pass < 2 && pick == NULL; pass++)
		for (unsigned i = 0; i < n_cli_cmds; i++) {
			const struct cli_cmd *c = &cli_cmds[i];
			const char *hy;

			if (!alive[i] || c->n_words <= k || strncmp(c->words[k], typed, len) != 0)
				continue;
			hy = strchr(c->words[k], '-');
			if (pass == 0 && hy != NULL && (size_t)(hy - c->words[k]) >= len)
				continue;
			if (pick == NULL || (strcmp(pick, c->words[k]) != 0 && pick_fn == c->fn &&
					     strlen(c->words[k]) < strlen(pick))) {
				pick = c->words[k];
				pick_fn = c->fn;
			} else if (strcmp(pick, c->words[k]) != 0 && pick_fn != c->fn) {
				*ambiguous = true;
			}
		}
	return pick;
}

static int
cli_execute_words(const char *line, int argc, char **argv, struct vfwd_cli_out *out)
{
	bool alive[RTE_DIM(cli_cmds)];
	struct cli_cmd *best = NULL;
	unsigned k;
	int rc;

	for (unsigned i = 0; i < n_cli_cmds; i++)
		alive[i] = true;
	for (k = 0;; k++) {
		const char *w;
		bool ambiguous;

		for (unsigned i = 0; i < n_cli_cmds; i++)
			if (alive[i] && cli_cmds[i].n_words == k)
				best = &cli_cmds[i];
		if (k >= (unsigned)argc)
			break;
		w = cli_word_pick(alive, k, argv[k], &ambiguous);
		if (w == NULL)
			break; /* the rest are the arguments of best */
		if (ambiguous)
			return cli_error(out, -EINVAL, "ambiguous command: '%s' in '%.200s'", argv[k],
					 line);
		for (unsigned i = 0; i < n_cli_cmds; i++)
			alive[i] = alive[i] && cli_cmds[i].n_words > k &&
				   strcmp(cli_cmds[i].words[k], w) == 0;
	}
	if (best == NULL)
		return cli_error(out, -ENOENT, "unknown command '%.200s' (try 'help')", line);
	rc = best->fn(out, argc - (int)best->n_words, argv + best->n_words);
	if (rc < 0)
		out->error = true;
	return rc;
}

#define EXEC_LINE_MAX 65536

int
cli_exec_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct vfwd_cli_out out = {0};

		lineno++;
		if (len > EXEC_LINE_MAX) {
			fprintf(stderr, "%s:%d: line too long (%zd bytes, max %d)\n", path, lineno,
				len, EXEC_LINE_MAX);
			rc = -E2BIG;
			break;
		}
		if (memchr(line, '\0', (size_t)len) != NULL) {
			fprintf(stderr, "%s:%d: NUL byte in line\n", path, lineno);
			rc = -EINVAL;
			break;
		}
		if (cli_execute(line, &out) < 0 || out.error) {
			fprintf(stderr, "%s:%d: %.*s", path, lineno, (int)out.len,
				out.buf ? out.buf : "");
			rc = -EINVAL;
		} else if (out.len) {
			fwrite(out.buf, 1, out.len, stdout);
		}
		cli_out_free(&out);
		if (rc < 0)
			break;
	}
	free(line);
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == 0)
		printf("exec %s: %d lines in %.2f s\n", path, lineno,
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return rc;
}

/* ---- argument helpers ---- */

static int
parse_ip4(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

static int
parse_prefix(const char *s, uint32_t *ip, uint8_t *len)
{
	char buf[32], *slash, *end;
	unsigned long l;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	l = strtoul(slash + 1, &end, 10);
	if (*end || end == slash + 1 || l > 32)
		return -EINVAL;
	*len = (uint8_t)l;
	return parse_ip4(buf, ip);
}

static int
parse_prefix6(const char *s, uint8_t *ip, uint8_t *len)
{
	char buf[64], *slash, *end;
	unsigned long l;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	l = strtoul(slash + 1, &end, 10);
	if (*end || end == slash + 1 || l > 128)
		return -EINVAL;
	*len = (uint8_t)l;
	return inet_pton(AF_INET6, buf, ip) == 1 ? 0 : -EINVAL;
}

static bool
is_ip6_arg(const char *s)
{
	return strchr(s, ':') != NULL;
}

static struct port *
arg_port(struct vfwd_cli_out *out, const char *name)
{
	struct port *p = port_by_name(name);

	if (p == NULL)
		cli_error(out, -ENODEV, "unknown interface '%s'", name);
	return p;
}

/* ---- commands ---- */

/* For commands that take no arguments: an error naming the first extra word. */
#define NO_ARGS(out, argc, argv, name)                                                             \
	do {                                                                                       \
		if ((argc) > 0)                                                                    \
			return cli_error(out, -EINVAL, "%s takes no arguments, not '%s'", name,    \
					 (argv)[0]);                                               \
	} while (0)

static int
cmd_set_icmp_error(struct vfwd_cli_out *out, int argc, char **argv)
{
	unsigned long v;
	char *end;

	if (argc == 1 && (strcmp(argv[0], "enable") == 0 || strcmp(argv[0], "disable") == 0)) {
		__atomic_store_n(&icmp_error_conf.enabled, strcmp(argv[0], "enable") == 0,
				 __ATOMIC_RELAXED);
		return 0;
	}
	if (argc == 2 && strcmp(argv[0], "rate") == 0) {
		v = strtoul(argv[1], &end, 10);
		if (*end || end == argv[1] || v < 1 || v > 1000000)
			return cli_error(out, -EINVAL, "rate must be 1..1000000 per second");
		__atomic_store_n(&icmp_error_conf.rate, (unsigned)v, __ATOMIC_RELAXED);
		return 0;
	}
	return cli_error(out, -EINVAL, "usage: set ip icmp-error enable | disable | rate N");
}

static int
cmd_show_icmp_error(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show ip icmp-error");
	vfwd_cli_printf(out, "icmp errors %s, rate %u per second per worker, burst %u\n",
			icmp_error_conf.enabled ? "enabled" : "disabled", icmp_error_conf.rate,
			icmp_error_conf.burst);
	return 0;
}

static int
cmd_set_mtu(struct vfwd_cli_out *out, int argc, char **argv)
{
	unsigned long v;
	struct port *p;
	char *end;
	int i = 0;

	if (argc == 3 && strcmp(argv[0], "packet") == 0)
		i = 1;
	if (argc - i != 2)
		return cli_error(out, -EINVAL, "usage: set interface mtu [packet] BYTES IFACE");
	v = strtoul(argv[i], &end, 10);
	if (*end || end == argv[i] || v < 68 || v > 9216)
		return cli_error(out, -EINVAL, "mtu must be 68..9216, not '%s'", argv[i]);
	p = arg_port(out, argv[i + 1]);
	if (p == NULL)
		return -ENODEV;
	rte_eth_dev_set_mtu(p->port_id, (uint16_t)v); /* PMDs without an MTU keep theirs */
	return fib_port_mtu_set((int)(p - vfwd.ports), (uint16_t)v);
}

static int
cmd_set_ip_address(struct vfwd_cli_out *out, int argc, char **argv)
{
	char err[128];
	struct port *p;
	uint32_t ip;
	uint8_t len;
	bool del;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "del") != 0))
		return cli_error(out, -EINVAL,
				 "usage: set interface ip address IFACE A.B.C.D/LEN [del]");
	p = arg_port(out, argv[0]);
	if (p == NULL)
		return -ENODEV;
	del = argc == 3;
	if (is_ip6_arg(argv[1])) {
		uint8_t ip6[16];

		if (parse_prefix6(argv[1], ip6, &len) < 0)
			return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
		if (fib6_interface_address_set((int)(p - vfwd.ports), ip6, len, del, err,
					       sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (parse_prefix(argv[1], &ip, &len) < 0)
		return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
	if (fib_interface_address_set((int)(p - vfwd.ports), ip, len, del, err, sizeof(err)) < 0)
		return cli_error(out, -EINVAL, "%s", err);
	return 0;
}

static int
cmd_set_neighbor(struct vfwd_cli_out *out, int argc, char **argv)
{
	struct rte_ether_addr mac;
	struct port *p;
	uint32_t ip;
	bool del = argc == 4 && strcmp(argv[3], "del") == 0;
	int rc;

	if (argc < 3 || (argc == 4 && !del) || argc > 4)
		return cli_error(out, -EINVAL, "usage: set ip neighbor IFACE A.B.C.D MAC [del]");
	p = arg_port(out, argv[0]);
	if (p == NULL)
		return -ENODEV;
	if (rte_ether_unformat_addr(argv[2], &mac) < 0)
		return cli_error(out, -EINVAL, "bad MAC address '%s'", argv[2]);
	if (is_ip6_arg(argv[1])) {
		uint8_t ip6[16];

		if (inet_pton(AF_INET6, argv[1], ip6) != 1 || rte_is_multicast_ether_addr(&mac))
			return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
		rc = fib6_neighbor_set((int)(p - vfwd.ports), ip6, &mac, del, true);
		if (rc < 0)
			return cli_error(out, rc, "cannot %s neighbor: %s", del ? "delete" : "set",
					 strerror(-rc));
		return 0;
	}
	if (parse_ip4(argv[1], &ip) < 0)
		return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
	rc = fib_neighbor_set((int)(p - vfwd.ports), ip, &mac, del);
	if (rc < 0)
		return cli_error(out, rc, "cannot %s neighbor: %s", del ? "delete" : "set",
				 strerror(-rc));
	return 0;
}

static int
route6_add(struct vfwd_cli_out *out, int argc, char **argv)
{
	uint8_t pfx[16], nh[16];
	char err[128];
	struct port *p;
	uint8_t len;

	if (parse_prefix6(argv[0], pfx, &len) < 0)
		return cli_error(out, -EINVAL, "bad ip6 prefix '%s'", argv[0]);
	if (argc == 2 && strcmp(argv[1], "drop") == 0) {
		if (fib6_route_add(pfx, len, NULL, 0, ADJ_DROP, err, sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "via") != 0 || inet_pton(AF_INET6, argv[2], nh) != 1)
		return cli_error(out, -EINVAL, "usage: ip route add X:X::X/LEN via X:X::X IFACE | drop");
	p = arg_port(out, argv[3]);
	if (p == NULL)
		return -ENODEV;
	if (fib6_route_add(pfx, len, nh, (int)(p - vfwd.ports), ADJ_REWRITE, err, sizeof(err)) < 0)
		return cli_error(out, -EINVAL, "%s", err);
	return 0;
}

static int
cmd_route_add(struct vfwd_cli_out *out, int argc, char **argv)
{
	char err[128];
	struct port *p;
	uint32_t pfx, nh;
	uint8_t len;

	if (argc >= 2 && is_ip6_arg(argv[0]))
		return route6_add(out, argc, argv);
	if (argc < 2 || parse_prefix(argv[0], &pfx, &len) < 0)
		return cli_error(out, -EINVAL,
				 "usage: ip route add A.B.C.D/LEN via A.B.C.D IFACE | drop");
	if (argc == 2 && strcmp(argv[1], "drop") == 0) {
		if (fib_route_add(pfx, len, 0, 0, ADJ_DROP, err, sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "via") != 0 || parse_ip4(argv[2], &nh) < 0)
		return cli_error(out, -EINVAL,
				 "usage: ip route add A.B.C.D/LEN via A.B.C.D IFACE | drop");
	p = arg_port(out, argv[3]);
	if (p == NULL)
		return -ENODEV;
	if (fib_route_add(pfx, len, nh, (int)(p - vfwd.ports), ADJ_REWRITE, err, sizeof(err)) < 0)
		return cli_error(out, -EINVAL, "%s", err);
	return 0;
}

static int
cmd_route_del(struct vfwd_cli_out *out, int argc, char **argv)
{
	char err[128];
	uint32_t pfx;
	uint8_t len;

	if (argc == 1 && is_ip6_arg(argv[0])) {
		uint8_t pfx6[16];

		if (parse_prefix6(argv[0], pfx6, &len) < 0)
			return cli_error(out, -EINVAL, "bad ip6 prefix '%s'", argv[0]);
		if (fib6_route_del(pfx6, len, err, sizeof(err)) < 0)
			return cli_error(out, -ENOENT, "%s", err);
		return 0;
	}
	if (argc < 1 || parse_prefix(argv[0], &pfx, &len) < 0)
		return cli_error(out, -EINVAL, "usage: ip route del A.B.C.D/LEN");
	if (fib_route_del(pfx, len, err, sizeof(err)) < 0)
		return cli_error(out, -ENOENT, "%s", err);
	return 0;
}

static int
cmd_set_feature(struct vfwd_cli_out *out, int argc, char **argv)
{
	char err[128];
	bool disable = argc == 5 && strcmp(argv[4], "disable") == 0;

	if ((argc != 4 && !disable) || strcmp(argv[2], "arc") != 0)
		return cli_error(out, -EINVAL,
				 "usage: set interface feature IFACE FEATURE arc ARC [disable]");
	if (strcmp(argv[3], ARC_IP4_UNICAST) != 0)
		return cli_error(out, -ENOENT, "unknown arc '%s'", argv[3]);
	if (feature_enable(argv[0], argv[1], !disable, err, sizeof(err)) < 0)
		return cli_error(out, -EINVAL, "%s", err);
	return 0;
}

static int
cmd_set_xconnect(struct vfwd_cli_out *out, int argc, char **argv)
{
	char out_name[RTE_NODE_NAMESIZE];
	struct port *a, *b;
	uint16_t edge;

	if (argc != 2)
		return cli_error(out, -EINVAL, "usage: set interface l2 xconnect IFACE PEER");
	a = arg_port(out, argv[0]);
	if (a == NULL)
		return -ENODEV;
	b = arg_port(out, argv[1]);
	if (b == NULL)
		return -ENODEV;
	snprintf(out_name, sizeof(out_name), "%s-output", b->name);
	edge = edge_index(rte_node_from_name("l2-xconnect"), out_name);
	if (edge == RTE_EDGE_ID_INVALID)
		return cli_error(out, -EINVAL, "no edge l2-xconnect -> %s", out_name);
	a->xconnect = (int)(b - vfwd.ports);
	l2_xconnect_next[a->port_id] = edge;
	__atomic_store_n(&port_rx_next[a->port_id], 1, __ATOMIC_RELEASE);
	return 0;
}

static int
cmd_set_l3(struct vfwd_cli_out *out, int argc, char **argv)
{
	struct port *a;

	if (argc != 1)
		return cli_error(out, -EINVAL, "usage: set interface l3 IFACE");
	a = arg_port(out, argv[0]);
	if (a == NULL)
		return -ENODEV;
	a->xconnect = -1;
	__atomic_store_n(&port_rx_next[a->port_id], 0, __ATOMIC_RELEASE);
	return 0;
}

static int
cmd_show_runtime(struct vfwd_cli_out *out, int argc, char **argv)
{
	bool json = argc == 1 && strcmp(argv[0], "json") == 0;

	if (argc > 1 || (argc == 1 && !json))
		return cli_error(out, -EINVAL, "usage: show runtime [json]");
	return runtime_show(out, json);
}

static int
cmd_clear_runtime(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear runtime");
	runtime_clear();
	return 0;
}

static int
cmd_show_errors(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show errors");
	err_show(out);
	return 0;
}

static int
cmd_clear_errors(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear errors");
	err_clear();
	return 0;
}

static void
show_counter(struct vfwd_cli_out *out, bool first, const struct port *p, const char *ip,
	     const char *name, uint64_t v)
{
	if (first)
		vfwd_cli_printf(out, "%-16s%4u  %-6s%-20s%-20s%-16s%" PRIu64 "\n", p->name,
				p->port_id, "up", "", ip, name, v);
	else
		vfwd_cli_printf(out, "%-68s%-16s%" PRIu64 "\n", "", name, v);
}

static int
cmd_show_interfaces(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show interfaces");
	vfwd_cli_printf(out, "%-16s%4s  %-6s%-20s%-20s%-16s%s\n", "Name", "Idx", "State", "MAC",
			"Address", "Counter", "Count");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *p = &vfwd.ports[i];
		struct rte_eth_stats st;
		struct rte_eth_link link;
		char ip[32] = "", mac[RTE_ETHER_ADDR_FMT_SIZE], txq[RTE_NODE_NAMESIZE];
		uint64_t txfull;

		memset(&st, 0, sizeof(st));
		rte_eth_stats_get(p->port_id, &st);
		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(p->port_id, &link);
		rte_ether_format_addr(mac, sizeof(mac), &p->mac);
		if (p->ip4)
			snprintf(ip, sizeof(ip), "%u.%u.%u.%u/%u", p->ip4 >> 24,
				 (p->ip4 >> 16) & 255, (p->ip4 >> 8) & 255, p->ip4 & 255,
				 p->ip4_len);
		snprintf(txq, sizeof(txq), "%s-tx", p->name);
		txfull = err_get(txq, "tx queue full");
		vfwd_cli_printf(out, "%-16s%4u  %-6s%-20s%-20s%-16s%" PRIu64 "\n", p->name,
				p->port_id, link.link_status ? "up" : "down", mac, ip, "rx packets",
				st.ipackets);
		show_counter(out, false, p, ip, "rx bytes", st.ibytes);
		show_counter(out, false, p, ip, "tx packets", st.opackets);
		show_counter(out, false, p, ip, "tx bytes", st.obytes);
		show_counter(out, false, p, ip, "drops",
			     st.imissed + st.ierrors + st.rx_nombuf + st.oerrors + txfull);
		show_counter(out, false, p, ip, "rx-miss", st.imissed);
		show_counter(out, false, p, ip, "rx-no-buf", st.rx_nombuf);
		show_counter(out, false, p, ip, "tx-error", st.oerrors + txfull);
	}
	return 0;
}

static int
cmd_clear_interfaces(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(out);
	NO_ARGS(out, argc, argv, "clear interfaces");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		rte_eth_stats_reset(vfwd.ports[i].port_id);
		rte_eth_xstats_reset(vfwd.ports[i].port_id);
	}
	return 0;
}

static int
cmd_show_hardware(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show hardware");
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *p = &vfwd.ports[i];
		struct rte_eth_link link;
		char mac[RTE_ETHER_ADDR_FMT_SIZE], lk[RTE_ETH_LINK_MAX_STR_LEN];
		struct rte_eth_xstat_name *names = NULL;
		struct rte_eth_xstat *xs = NULL;
		int n;

		memset(&link, 0, sizeof(link));
		rte_eth_link_get_nowait(p->port_id, &link);
		rte_eth_link_to_str(lk, sizeof(lk), &link);
		rte_ether_format_addr(mac, sizeof(mac), &p->mac);
		vfwd_cli_printf(out, "%s (port %u)\n  driver %s, %s\n  mac %s\n", p->name,
				p->port_id, p->driver, lk, mac);
		vfwd_cli_printf(out, "  rx queues %u, rx descs %u, tx queues %u%s, tx descs %u\n",
				p->nb_rxq, p->nb_rxd, p->nb_txq, p->txq_shared ? " (shared)" : "",
				p->nb_txd);
		if (p->nb_rxq > 1)
			vfwd_cli_printf(out, "  rx queue spread: %s\n",
					p->rss_hf ? "rss (ip, udp, tcp hash)"
						  : "by the sender (no rss on this pmd)");
		n = rte_eth_xstats_get(p->port_id, NULL, 0);
		if (n <= 0)
			continue;
		names = calloc((size_t)n, sizeof(*names));
		xs = calloc((size_t)n, sizeof(*xs));
		if (names && xs && rte_eth_xstats_get_names(p->port_id, names, (unsigned)n) == n &&
		    rte_eth_xstats_get(p->port_id, xs, (unsigned)n) == n) {
			for (int k = 0; k < n; k++)
				if (xs[k].value)
					vfwd_cli_printf(out, "    %-40s%" PRIu64 "\n",
							names[xs[k].id].name, xs[k].value);
		}
		free(names);
		free(xs);
	}
	return 0;
}

static int
cmd_show_fib(struct vfwd_cli_out *out, int argc, char **argv)
{
	uint32_t ip = 0;
	uint8_t len = 0;
	int rc;

	if (argc > 1)
		return cli_error(out, -EINVAL, "usage: show ip fib [A.B.C.D/LEN | A.B.C.D]");
	if (argc == 1 && parse_prefix(argv[0], &ip, &len) < 0 && parse_ip4(argv[0], &ip) < 0)
		return cli_error(out, -EINVAL, "bad prefix or address '%s'", argv[0]);
	rc = fib_show(out, argc == 1, ip,
		      argc == 1 && strchr(argv[0], '/') ? len : -1);
	if (rc == -ENOENT)
		return cli_error(out, rc, "no route matches %s", argv[0]);
	return rc;
}

static int
cmd_show_fib6(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show ip6 fib");
	fib6_show(out);
	return 0;
}

static int
cmd_show_neighbors6(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show ip6 neighbors");
	fib6_neighbors_show(out);
	return 0;
}

static int
cmd_show_threads(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show threads");
	vfwd_cli_printf(out, "%-7s%-20s%-12s%-8s%-7s%-7s\n", "ID", "Name", "Type", "lcore", "Core",
			"Socket");
	vfwd_cli_printf(out, "%-7d%-20s%-12s%-8u%-7d%-7d\n", 0, "vfwd_main", "main",
			rte_get_main_lcore(), rte_lcore_to_cpu_id((int)rte_get_main_lcore()),
			(int)rte_lcore_to_socket_id(rte_get_main_lcore()));
	for (unsigned w = 0; w < vfwd.n_workers; w++) {
		char name[32];

		snprintf(name, sizeof(name), "vfwd_wk_%u", w);
		vfwd_cli_printf(out, "%-7u%-20s%-12s%-8u%-7d%-7d\n", w + 1, name, "workers",
				vfwd.worker_lcore[w], rte_lcore_to_cpu_id((int)vfwd.worker_lcore[w]),
				(int)rte_lcore_to_socket_id(vfwd.worker_lcore[w]));
	}
	return 0;
}

static int
cmd_show_buffers(struct vfwd_cli_out *out, int argc, char **argv)
{
	const struct rte_mempool *mp = vfwd.pool;

	NO_ARGS(out, argc, argv, "show buffers");
	vfwd_cli_printf(out, "%-20s%-7s%-6s%-8s%-11s%-9s%-9s%-9s\n", "Pool Name", "Index", "NUMA",
			"Size", "Data Size", "Total", "Avail", "Used");
	if (mp == NULL)
		return 0;
	vfwd_cli_printf(out, "%-20s%-7d%-6d%-8u%-11u%-9u%-9u%-9u\n", mp->name, 0, mp->socket_id,
			mp->elt_size, rte_pktmbuf_data_room_size((struct rte_mempool *)mp), mp->size,
			rte_mempool_avail_count(mp), rte_mempool_in_use_count(mp));
	return 0;
}

static int
cmd_show_neighbors(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show ip neighbors");
	fib_neighbors_show(out);
	return 0;
}

/* VPP's `set ip neighbor-config ip4|ip6 [age S] [limit N]` */
static int
cmd_set_neighbor_config(struct vfwd_cli_out *out, int argc, char **argv)
{
	struct nbr_config c;
	int af;

	if (argc < 3 || argc % 2 == 0 || (strcmp(argv[0], "ip4") && strcmp(argv[0], "ip6")))
		return cli_error(out, -EINVAL,
				 "usage: set ip neighbor-config ip4|ip6 [age SECONDS] [limit N]");
	af = argv[0][2] == '6';
	c = nbr_config[af];
	for (int i = 1; i + 1 < argc; i += 2) {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(argv[i + 1], &end, 10);
		if (errno || *end || end == argv[i + 1] || argv[i + 1][0] == '-')
			return cli_error(out, -EINVAL, "bad number '%s'", argv[i + 1]);
		if (strcmp(argv[i], "age") == 0 && v <= 86400 * 7)
			c.age_s = (unsigned)v;
		else if (strcmp(argv[i], "limit") == 0 && v >= 1 && v <= (af ? 512u : 1024u))
			c.limit = (unsigned)v;
		else
			return cli_error(out, -EINVAL,
					 "'%s %s': want age 0..604800 (0: never) or limit 1..%u",
					 argv[i], argv[i + 1], af ? 512u : 1024u);
	}
	nbr_config[af] = c;
	return 0;
}

static int
cmd_show_neighbor_config(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show ip neighbor-config");
	for (int af = 0; af < 2; af++)
		vfwd_cli_printf(out, "%s:\n  limit:%u, age:%u, recycle:1\n", af ? "ip6" : "ip4",
				nbr_config[af].limit, nbr_config[af].age_s);
	return 0;
}

static int
cmd_show_plugins(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show plugins");
	plugins_show(out);
	return 0;
}

static int
cmd_show_features(struct vfwd_cli_out *out, int argc, char **argv)
{
	const struct feature_arc *arc = &ip4_unicast_arc;

	NO_ARGS(out, argc, argv, "show features");
	vfwd_cli_printf(out, "arc %s: %u features\n", ARC_IP4_UNICAST, arc->n_features);
	for (unsigned s = 0; s < arc->n_features; s++)
		vfwd_cli_printf(out, "  [%d] %s\n", arc->features[s].order, arc->features[s].name);
	for (unsigned i = 0; i < vfwd.n_ports; i++) {
		const struct port *p = &vfwd.ports[i];

		vfwd_cli_printf(out, "%s:", p->name);
		for (unsigned s = 0; s < arc->n_features; s++)
			if (arc->enabled[p->port_id] & (1u << s))
				vfwd_cli_printf(out, " %s", arc->features[s].name);
		vfwd_cli_printf(out, "%s\n", p->xconnect >= 0 ? " (l2 xconnect)" : "");
	}
	return 0;
}

static int
cmd_show_version(struct vfwd_cli_out *out, int argc, char **argv)
{
	char path[PATH_LEN + 32], buf[4096];
	FILE *f;
	size_t n;

	NO_ARGS(out, argc, argv, "show version");
	vfwd_cli_printf(out, "vfwd %s (%s, %s, plugin ABI %d)\n", VFWD_VERSION, vfwd_install_dir(),
			rte_version(), VFWD_PLUGIN_ABI_VERSION);
	snprintf(path, sizeof(path), "%s/build-info.json", vfwd_install_dir());
	f = fopen(path, "r");
	if (f == NULL) {
		vfwd_cli_printf(out, "build-info: %s: %s\n", path, strerror(errno));
		return 0;
	}
	while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		buf[n] = '\0';
		vfwd_cli_printf(out, "%s", buf);
	}
	fclose(f);
	return 0;
}

static int
cmd_help(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	for (unsigned i = 0; i < n_cli_cmds; i++)
		vfwd_cli_printf(out, "  %-32s %s\n", cli_cmds[i].path,
				cli_cmds[i].help ? cli_cmds[i].help : "");
	return 0;
}

void
cli_builtin_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"set interface ip address", "IFACE A.B.C.D/LEN | X:X::X/LEN [del]",
		 cmd_set_ip_address},
		{"set ip neighbor", "IFACE A.B.C.D | X:X::X MAC [del]", cmd_set_neighbor},
		{"ip route add", "PREFIX via NEXT-HOP IFACE | drop (IPv4 or IPv6)", cmd_route_add},
		{"ip route del", "PREFIX", cmd_route_del},
		{"set interface feature", "IFACE FEATURE arc ip4-unicast [disable]",
		 cmd_set_feature},
		{"set interface l2 xconnect", "IFACE PEER", cmd_set_xconnect},
		{"set interface l3", "IFACE (undo l2 xconnect)", cmd_set_l3},
		{"set interface mtu", "[packet] BYTES IFACE", cmd_set_mtu},
		{"set ip icmp-error", "enable | disable | rate N (ICMP errors; on by default)",
		 cmd_set_icmp_error},
		{"show ip icmp-error", "", cmd_show_icmp_error},
		{"show runtime", "[json]", cmd_show_runtime},
		{"clear runtime", "", cmd_clear_runtime},
		{"show errors", "", cmd_show_errors},
		{"clear errors", "", cmd_clear_errors},
		{"show interfaces", "", cmd_show_interfaces},
		{"clear interfaces", "", cmd_clear_interfaces},
		{"show hardware", "", cmd_show_hardware},
		{"show ip fib", "[A.B.C.D/LEN | A.B.C.D]", cmd_show_fib},
		{"show ip neighbors", "", cmd_show_neighbors},
		{"set ip neighbor-config", "ip4|ip6 [age SECONDS] [limit N] (age 0: never)",
		 cmd_set_neighbor_config},
		{"show ip neighbor-config", "", cmd_show_neighbor_config},
		{"show ip6 fib", "", cmd_show_fib6},
		{"show ip6 neighbors", "", cmd_show_neighbors6},
		{"show plugins", "", cmd_show_plugins},
		{"show features", "", cmd_show_features},
		{"show version", "", cmd_show_version},
		/* VPP's spellings of the same commands, and VPP's commands vfwd answers */
		{"show interface", "(= show interfaces)", cmd_show_interfaces},
		{"show hardware-interfaces", "(= show hardware)", cmd_show_hardware},
		{"show node counters", "(= show errors)", cmd_show_errors},
		{"clear node counters", "(= clear errors)", cmd_clear_errors},
		{"show ip neighbor", "(= show ip neighbors)", cmd_show_neighbors},
		{"show threads", "", cmd_show_threads},
		{"show buffers", "", cmd_show_buffers},
		{"help", "", cmd_help},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
	trace_cli_register();
}
