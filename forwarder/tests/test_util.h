/* SPDX-License-Identifier: BSD-3-Clause
 * Small TAP helpers for the C tests.
 */
#ifndef VFWD_TEST_UTIL_H
#define VFWD_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n __attribute__((unused)), tap_failed __attribute__((unused));

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

#endif
