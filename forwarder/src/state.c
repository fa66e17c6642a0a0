/* SPDX-License-Identifier: BSD-3-Clause
 * The process's state every file reads: `vfwd` (ports, workers, graphs, rings),
 * the mbuf field the nodes pass the adjacency in, and the port lookup by name.
 * It calls no other file of vfwd.
 */
#include <string.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include "state.h"

struct vfwd_main vfwd;
int mbuf_adj_offset = -1;

RTE_INIT(vfwd_state_init)
{
	for (unsigned i = 0; i < RTE_MAX_ETHPORTS; i++)
		vfwd.port_index[i] = -1;
}

int
mbuf_meta_init(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "vfwd_adj_index",
		.size = sizeof(uint32_t),
		.align = __alignof__(uint32_t),
	};

	mbuf_adj_offset = rte_mbuf_dynfield_register(&desc);
	return mbuf_adj_offset < 0 ? -rte_errno : 0;
}

struct port *
port_by_name(const char *name)
{
	for (unsigned i = 0; i < vfwd.n_ports; i++)
		if (strcmp(vfwd.ports[i].name, name) == 0)
			return &vfwd.ports[i];
	return NULL;
}
