/* SPDX-License-Identifier: BSD-3-Clause
 * The FIB's CLI (IPv4 and IPv6): interface addresses, routes, neighbours and the
 * neighbour configuration. Parses the words and calls fib.c, fib6.c and nbr.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rte_common.h>
#include <rte_ether.h>

#include "cli.h"
#include "fib.h"
#include "fib6.h"
#include "nbr.h"
#include "state.h"

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
	p = cli_arg_port(out, argv[0]);
	if (p == NULL)
		return -ENODEV;
	del = argc == 3;
	if (cli_is_ip6_arg(argv[1])) {
		uint8_t ip6[16];

		if (cli_parse_prefix6(argv[1], ip6, &len) < 0)
			return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
		if (fib6_interface_address_set((int)(p - vfwd.ports), ip6, len, del, err,
					       sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (cli_parse_prefix(argv[1], &ip, &len) < 0)
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
	p = cli_arg_port(out, argv[0]);
	if (p == NULL)
		return -ENODEV;
	if (rte_ether_unformat_addr(argv[2], &mac) < 0)
		return cli_error(out, -EINVAL, "bad MAC address '%s'", argv[2]);
	if (cli_is_ip6_arg(argv[1])) {
		uint8_t ip6[16];

		if (inet_pton(AF_INET6, argv[1], ip6) != 1 || rte_is_multicast_ether_addr(&mac))
			return cli_error(out, -EINVAL, "bad address '%s'", argv[1]);
		rc = fib6_neighbor_set((int)(p - vfwd.ports), ip6, &mac, del, true);
		if (rc < 0)
			return cli_error(out, rc, "cannot %s neighbor: %s", del ? "delete" : "set",
					 strerror(-rc));
		return 0;
	}
	if (cli_parse_ip4(argv[1], &ip) < 0)
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

	if (cli_parse_prefix6(argv[0], pfx, &len) < 0)
		return cli_error(out, -EINVAL, "bad ip6 prefix '%s'", argv[0]);
	if (argc == 2 && strcmp(argv[1], "drop") == 0) {
		if (fib6_route_add(pfx, len, NULL, 0, ADJ_DROP, err, sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "via") != 0 || inet_pton(AF_INET6, argv[2], nh) != 1)
		return cli_error(out, -EINVAL, "usage: ip route add X:X::X/LEN via X:X::X IFACE | drop");
	p = cli_arg_port(out, argv[3]);
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

	if (argc >= 2 && cli_is_ip6_arg(argv[0]))
		return route6_add(out, argc, argv);
	if (argc < 2 || cli_parse_prefix(argv[0], &pfx, &len) < 0)
		return cli_error(out, -EINVAL,
				 "usage: ip route add A.B.C.D/LEN via A.B.C.D IFACE | drop");
	if (argc == 2 && strcmp(argv[1], "drop") == 0) {
		if (fib_route_add(pfx, len, 0, 0, ADJ_DROP, err, sizeof(err)) < 0)
			return cli_error(out, -EINVAL, "%s", err);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "via") != 0 || cli_parse_ip4(argv[2], &nh) < 0)
		return cli_error(out, -EINVAL,
				 "usage: ip route add A.B.C.D/LEN via A.B.C.D IFACE | drop");
	p = cli_arg_port(out, argv[3]);
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

	if (argc == 1 && cli_is_ip6_arg(argv[0])) {
		uint8_t pfx6[16];

		if (cli_parse_prefix6(argv[0], pfx6, &len) < 0)
			return cli_error(out, -EINVAL, "bad ip6 prefix '%s'", argv[0]);
		if (fib6_route_del(pfx6, len, err, sizeof(err)) < 0)
			return cli_error(out, -ENOENT, "%s", err);
		return 0;
	}
	if (argc < 1 || cli_parse_prefix(argv[0], &pfx, &len) < 0)
		return cli_error(out, -EINVAL, "usage: ip route del A.B.C.D/LEN");
	if (fib_route_del(pfx, len, err, sizeof(err)) < 0)
		return cli_error(out, -ENOENT, "%s", err);
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
	if (argc == 1 && cli_parse_prefix(argv[0], &ip, &len) < 0 && cli_parse_ip4(argv[0], &ip) < 0)
		return cli_error(out, -EINVAL, "bad prefix or address '%s'", argv[0]);
	rc = fib_show(out, argc == 1, ip,
		      argc == 1 && strchr(argv[0], '/') ? len : -1);
	if (rc == -ENOENT)
		return cli_error(out, rc, "no route matches %s", argv[0]);
	return rc;
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

void
fib_cli_register(void)
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
		{"show ip fib", "[A.B.C.D/LEN | A.B.C.D]", cmd_show_fib},
		{"show ip neighbors", "", cmd_show_neighbors},
		{"set ip neighbor-config", "ip4|ip6 [age SECONDS] [limit N] (age 0: never)",
		 cmd_set_neighbor_config},
		{"show ip neighbor-config", "", cmd_show_neighbor_config},
		{"show ip6 fib", "", cmd_show_fib6},
		{"show ip6 neighbors", "", cmd_show_neighbors6},
		{"show ip neighbor", "(= show ip neighbors)", cmd_show_neighbors},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
