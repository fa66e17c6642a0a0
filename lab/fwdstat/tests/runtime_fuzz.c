/* SPDX-License-Identifier: MIT */
/*
 * runtime_fuzz.c - libFuzzer target for the show runtime reader (text and JSON paths):
 * whatever the bytes, rt_parse returns 0 or -EINVAL, never crashes, and what it returns
 * on success is a consistent dump whose figures can be computed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_dump d;
	char err[256];

	if (rt_parse((const char *)data, size, "fuzz", &d, err, sizeof(err)) != 0) {
		if (strncmp(err, "fuzz:", 5) != 0)
			abort(); /* every refusal names the input */
		return 0;
	}
	for (size_t t = 0; t < d.n; t++) {
		for (size_t i = 0; i < d.threads[t].n; i++) {
			const struct rt_node *n = &d.threads[t].nodes[i];
			struct rt_figure f;

			if (n->name[0] == '\0' || strlen(n->name) >= RT_NAME_MAX)
				abort();
			f = rt_node_figure(&d, n->name, RT_ALL);
			if (f.found == 0)
				abort();
		}
	}
	rt_free(&d);
	return 0;
}
