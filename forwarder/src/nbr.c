/* SPDX-License-Identifier: BSD-3-Clause
 * What the IPv4 and IPv6 neighbour tables share: their configuration and the
 * Age column of `show ip neighbors` / `show ip6 neighbors`.
 */
#include <stdio.h>
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
