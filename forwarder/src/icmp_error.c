/* SPDX-License-Identifier: BSD-3-Clause
 * ICMP errors' settings (read by ip4-icmp-error and ip6-icmp-error) and their
 * commands: `set ip icmp-error enable | disable | rate N | burst N`, `show ip icmp-error`.
 * RFC 1812 4.3.2.8: the rate limit is configurable; errors above it are counted under
 * their node ("error message dropped (rate limited)").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_common.h>

#include "cli.h"
#include "icmp_error.h"

struct icmp_error_conf icmp_error_conf = {.enabled = true, .rate = 1000, .burst = 100};

/* `rate N` and `burst N`: 1..1000000 */
static int
icmp_error_number_set(struct vfwd_cli_out *out, const char *what, const char *arg, unsigned *field)
{
	unsigned long v;
	char *end;

	v = strtoul(arg, &end, 10);
	if (*end || end == arg || arg[0] == '-' || v < 1 || v > 1000000)
		return cli_error(out, -EINVAL, "%s must be 1..1000000", what);
	__atomic_store_n(field, (unsigned)v, __ATOMIC_RELAXED);
	return 0;
}

static int
cmd_set_icmp_error(struct vfwd_cli_out *out, int argc, char **argv)
{
	if (argc == 1 && (strcmp(argv[0], "enable") == 0 || strcmp(argv[0], "disable") == 0)) {
		__atomic_store_n(&icmp_error_conf.enabled, strcmp(argv[0], "enable") == 0,
				 __ATOMIC_RELAXED);
		return 0;
	}
	if (argc == 2 && strcmp(argv[0], "rate") == 0)
		return icmp_error_number_set(out, "rate (per second)", argv[1],
					     &icmp_error_conf.rate);
	if (argc == 2 && strcmp(argv[0], "burst") == 0)
		return icmp_error_number_set(out, "burst", argv[1], &icmp_error_conf.burst);
	return cli_error(out, -EINVAL,
			 "usage: set ip icmp-error enable | disable | rate N | burst N");
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

void
icmp_error_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"set ip icmp-error",
		 "enable | disable | rate N | burst N (ICMP errors; on, 1000/s, burst 100)",
		 cmd_set_icmp_error},
		{"show ip icmp-error", "", cmd_show_icmp_error},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
