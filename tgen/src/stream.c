/* SPDX-License-Identifier: BSD-3-Clause */
/* The two streams and their packet templates, from the ports' addresses and the profile.
 * Called by main.c at start and by port.c when ARP learns a gateway's MAC; calls only
 * pkt.c, so port.c and trial.c do not call each other through it. */
#include <string.h>

#include "dp.h"

void
tgen_streams_init(struct tgen_ctx *c)
{
	static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	int d, i;

	for (d = 0; d < TGEN_NDIR; d++) {
		struct tgen_stream *s = &c->stream[d];

		memcpy(s->src_mac, c->port[d].mac, 6);
		memcpy(s->dst_mac, c->port[d].dst_known ? c->port[d].dst_mac : bcast, 6);
		s->src_ip = d == 0 ? 0x10000001 : 0x30000001; /* 16.0.0.1 / 48.0.0.1 */
		s->dst_ip = d == 0 ? 0x30000001 : 0x10000001;
		s->sport = d == 0 ? 1025 : 12;
		s->dport = d == 0 ? 12 : 1025;
		s->flows = c->profile.flows;
		s->vary_dst = c->profile.vary_dst;
		s->flow_rnd = c->profile.flow_rnd;
		s->dir = d;
		s->ip6 = c->profile.kind == TGEN_PROFILE_UDP6;
		memcpy(s->src6, d == 0 ? c->profile.src6 : c->profile.dst6, 16);
		memcpy(s->dst6, d == 0 ? c->profile.dst6 : c->profile.src6, 16);
		for (i = 0; i < TGEN_IMIX_PERIOD; i++)
			tgen_tmpl_init(&c->tmpl[d][i], s, tgen_profile_frame_size(&c->profile, i));
	}
}
