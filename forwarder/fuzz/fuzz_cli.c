/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer entry point for the CLI: each input line is executed as a
 * command against a live data plane, then a packet is forwarded to check the
 * tables are still sane.
 */
#include <string.h>

#include "fuzz_env.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[1100];
	size_t start = 0;

	for (size_t i = 0; i <= size; i++) {
		size_t n;

		if (i < size && data[i] != '\n')
			continue;
		n = i - start;
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, data + start, n);
		line[n] = '\0';
		/* stay away from commands that print unbounded amounts or quit */
		fz_cli(line);
		start = i + 1;
	}
	fz_walk();
	return 0;
}
