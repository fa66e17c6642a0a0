/* SPDX-License-Identifier: BSD-3-Clause
 * Small TAP helpers for the C tests.
 */
#ifndef VFWD_TEST_UTIL_H
#define VFWD_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_eal.h>

static int tap_n, tap_failed;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("#   %s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);        \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
			ok = 0;                                                                    \
		}                                                                                  \
	} while (0)

static inline void
tap_result(int ok, const char *name)
{
	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_n, name);
	fflush(stdout);
}

#define TEST(fn)                                                                                   \
	do {                                                                                       \
		tap_result(fn(), #fn);                                                             \
	} while (0)

static char runtime_dir[512];

static void
runtime_dir_remove(void)
{
	char cmd[600];

	if (runtime_dir[0] && strstr(runtime_dir, "/dpdk/") != NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", runtime_dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", runtime_dir);
	}
}

/* EAL leaves /var/run/dpdk/<file-prefix> behind; remove ours when the test exits. */
static inline void
runtime_dir_remove_at_exit(void)
{
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(runtime_dir_remove);
}

#endif
