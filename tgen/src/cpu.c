/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU time of each of tgen's threads, from /proc/self/task/TID/schedstat (nanoseconds on a
 * CPU) and comm, so that every trial records what it cost. No DPDK here. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tgen.h"

unsigned
tgen_cpu_sample(struct tgen_thread_cpu *t, unsigned max)
{
	char path[300];
	struct dirent *e;
	unsigned n = 0;
	DIR *d = opendir("/proc/self/task");
	FILE *f;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && n < max) {
		unsigned long long ns;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
		t[n].tid = (unsigned)atoi(e->d_name);
		t[n].cpu_ns = ns;
		snprintf(t[n].name, sizeof(t[n].name), "?");
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f != NULL) {
			if (fgets(t[n].name, sizeof(t[n].name), f) != NULL)
				t[n].name[strcspn(t[n].name, "\n")] = '\0';
			fclose(f);
		}
		n++;
	}
	closedir(d);
	return n;
}

/* after[i] -= its thread's time in before (a thread born in between keeps its whole time) */
void
tgen_cpu_delta(struct tgen_thread_cpu *after, unsigned n, const struct tgen_thread_cpu *before,
	       unsigned nb)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < nb; j++)
			if (after[i].tid == before[j].tid) {
				after[i].cpu_ns = after[i].cpu_ns > before[j].cpu_ns
							  ? after[i].cpu_ns - before[j].cpu_ns
							  : 0;
				break;
			}
}
