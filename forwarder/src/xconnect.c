/* SPDX-License-Identifier: BSD-3-Clause
 * L2 cross-connect: `set interface l2 xconnect IFACE PEER` and `set interface l3
 * IFACE`. The per-port edges the nodes read are written in edge.c.
 */
#include <errno.h>
#include <rte_common.h>
#include <rte_graph.h>

#include "cli.h"
#include "edge.h"
#include "port.h"
#include "state.h"

static int
cmd_set_xconnect(struct vfwd_cli_out *out, int argc, char **argv)
{
	char out_name[RTE_NODE_NAMESIZE];
	struct port *a, *b;
	uint16_t edge;

	if (argc != 2)
		return cli_error(out, -EINVAL, "usage: set interface l2 xconnect IFACE PEER");
	a = cli_arg_port(out, argv[0]);
	if (a == NULL)
		return -ENODEV;
	b = cli_arg_port(out, argv[1]);
	if (b == NULL)
		return -ENODEV;
	snprintf(out_name, sizeof(out_name), "%s-output", b->name);
	edge = edge_index(rte_node_from_name("l2-xconnect"), out_name);
	if (edge == RTE_EDGE_ID_INVALID)
		return cli_error(out, -EINVAL, "no edge l2-xconnect -> %s", out_name);
	a->xconnect = (int)(b - vfwd.ports);
	edge_port_xconnect(a->port_id, edge);
	return 0;
}

static int
cmd_set_l3(struct vfwd_cli_out *out, int argc, char **argv)
{
	struct port *a;

	if (argc != 1)
		return cli_error(out, -EINVAL, "usage: set interface l3 IFACE");
	a = cli_arg_port(out, argv[0]);
	if (a == NULL)
		return -ENODEV;
	a->xconnect = -1;
	edge_port_l3(a->port_id);
	return 0;
}

void
xconnect_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"set interface l2 xconnect", "IFACE PEER", cmd_set_xconnect},
		{"set interface l3", "IFACE (undo l2 xconnect)", cmd_set_l3},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
