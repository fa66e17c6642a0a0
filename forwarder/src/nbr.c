/* SPDX-License-Identifier: BSD-3-Clause
 * What the IPv4 and IPv6 neighbour tables share: their configuration, the
 * Age column of `show ip neighbors` / `show ip6 neighbors`, and the per-worker
 * record of the next hops being asked for (ip4-arp, ip6-glean and their
 * pending nodes): when a request may go, when to repeat it, when to give up.
 */
#include <stdio.h>
#include <string.h>
#include <rte_cycles.h>

#include "nbr.h"

/* `set ip neighbor-config ip4|ip6 [age S] [limit N]`: VPP's defaults (age 0:
 * entries never age) and a limit that leaves the table's rest to configuration */
struct nbr_config nbr_config[2] = {
	{.age_s = 0, .limit = NBR4_MAX_DYNAMIC},
	{.age_s = 0, .limit = 512},
};

/* The Age column: seconds since the entry was learned or asked for ("-" when static),
 * and the probes sent once it aged */
void
nbr_age_format(char *buf, size_t len, bool is_static, uint64_t updated, unsigned probes)
{
	double age = (double)(rte_rdtsc() - updated) / (double)rte_get_tsc_hz();

	if (is_static)
		snprintf(buf, len, "-");
	else if (probes)
		snprintf(buf, len, "%.0fs,probe%u", age, probes);
	else
		snprintf(buf, len, "%.0fs", age);
}

uint64_t nbr_clock_offset;

/* The slot of (ip, port) in a worker's table of NBR_RESOLVE_SLOTS; a target that
 * hashes to a taken slot takes it over when it next asks. */
struct nbr_resolve *
nbr_resolve_slot(struct nbr_resolve *tab, const uint8_t *ip, uint16_t port_id)
{
	uint32_t w[4], h;

	memcpy(w, ip, sizeof(w));
	h = (w[0] ^ w[1] ^ w[2] ^ w[3] ^ port_id) * 2654435761u;
	return &tab[(h >> 24) % NBR_RESOLVE_SLOTS];
}

static bool
nbr_resolve_is(const struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id)
{
	return r->sent != 0 && r->port_id == port_id && memcmp(r->ip, ip, sizeof(r->ip)) == 0;
}

/* True when a request for ip may go now: none went in the last NBR_RETRANS_MS
 * (RFC 1122 2.3.2.1: at most once a second per destination). */
bool
nbr_resolve_due(const struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id, uint64_t now)
{
	return !nbr_resolve_is(r, ip, port_id) || now - r->last >= nbr_retrans_tsc();
}

/* Records a request for ip sent at now: the next of its round, or the first of a new
 * round when the last one is over (all sent, or none for two intervals). */
void
nbr_resolve_sent(struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id, uint64_t now)
{
	if (nbr_resolve_is(r, ip, port_id) && r->sent < NBR_MAX_SOLICIT &&
	    now - r->last < 2 * nbr_retrans_tsc()) {
		r->sent++;
	} else {
		memcpy(r->ip, ip, sizeof(r->ip));
		r->port_id = port_id;
		r->sent = 1;
	}
	r->last = now;
}

/* For a packet held for ip: repeat the request (the last went NBR_RETRANS_MS ago and
 * fewer than NBR_MAX_SOLICIT went), give up (all went, the last NBR_RETRANS_MS ago:
 * RFC 4861 7.2.2's failed resolution), or wait. A slot another target took over says
 * wait: the packet's own hold time ends its wait. */
enum nbr_resolve_state
nbr_resolve_check(const struct nbr_resolve *r, const uint8_t *ip, uint16_t port_id, uint64_t now)
{
	if (!nbr_resolve_is(r, ip, port_id) || now - r->last < nbr_retrans_tsc())
		return NBR_RESOLVE_WAIT;
	return r->sent < NBR_MAX_SOLICIT ? NBR_RESOLVE_RETRANSMIT : NBR_RESOLVE_FAILED;
}
