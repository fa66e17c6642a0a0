/* SPDX-License-Identifier: MIT */
/* runtime.h - reader for `show runtime` dumps: VPP's text format and vfwd's JSON. */
#ifndef FWDSTAT_RUNTIME_H
#define FWDSTAT_RUNTIME_H

#include <stddef.h>

#define RT_NAME_MAX 96

struct rt_node {
	char name[RT_NAME_MAX];
	char state[24];
	double calls, vectors, suspends;
	double clocks;	     /* the Clocks column: clocks/vectors, else /calls, else /suspends */
	double vpc;	     /* the Vectors/Call column */
	double clocks_total; /* exact total when the dump gives it (JSON), else NaN */
};

struct rt_thread {
	int index;
	int lcore; /* -1 when not printed */
	char name[64];
	int time_seen, header_seen;
	/* vfwd's rx-mode line: the worker's CPU time in TSC clocks (cpu_known) and its mode */
	int cpu_known;
	double cpu_clocks;
	char rx_mode[16];
	struct rt_node *nodes;
	size_t n, cap;
};

struct rt_dump {
	struct rt_thread *threads;
	size_t n, cap;
};

/* Thread selectors for rt_node_figure(). */
#define RT_WORKERS (-1) /* threads 1.. when there are several, else the only one */
#define RT_ALL (-2)

struct rt_figure {
	int found;     /* number of threads where the node was seen */
	double clocks; /* total clocks over the selected threads */
	double calls, vectors, suspends;
	double clocks_per_packet; /* clocks / vectors, NaN without vectors */
	double vectors_per_call;  /* vectors / calls, NaN without calls */
};

/*
 * Parses a dump held in buf (text or JSON, told apart by the first character). On error
 * returns -EINVAL and writes "NAME:LINE: message" to err.
 */
int rt_parse(const char *buf, size_t len, const char *name, struct rt_dump *d, char *err,
	     size_t errlen);
int rt_load(const char *path, struct rt_dump *d, char *err, size_t errlen);
void rt_free(struct rt_dump *d);

struct rt_figure rt_node_figure(const struct rt_dump *d, const char *node, int thread);
/* Cycles per packet from CPU time: the selected threads' CPU time (vfwd's rx-mode line or
 * JSON cpu_clocks) over the packets of their <port>-rx nodes; NaN when a selected thread has
 * no CPU time or no packet came in. *mode: the threads' rx mode ("mixed" when they differ,
 * "" when unknown). */
double rt_cpu_clocks_per_packet(const struct rt_dump *d, int thread, const char **mode);
/* Total clocks of one row, rebuilt from its Clocks column when no exact total is known. */
double rt_node_total_clocks(const struct rt_node *n);
/* True when thread t counts as a worker in d. */
int rt_thread_is_worker(const struct rt_dump *d, size_t t);

#endif
