/* SPDX-License-Identifier: MIT */
/*
 * runtime_test.c - the dump reader on dumps written in VPP's documented layout
 * (tests/data): several threads, main and workers, process nodes with suspends,
 * e-notation clocks, names cut at 30 characters, "interrupt wa", the older single-thread
 * preamble, vfwd's JSON, and malformed files that must be refused with FILE:LINE.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "tap.h"

static const char *datadir;

static int
load(const char *name, struct rt_dump *d, char *err, size_t errlen)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", datadir, name);
	return rt_load(path, d, err, errlen);
}

static const struct rt_node *
find(const struct rt_dump *d, int thread, const char *name)
{
	for (size_t t = 0; t < d->n; t++)
		for (size_t i = 0; d->threads[t].index == thread && i < d->threads[t].n; i++)
			if (strcmp(d->threads[t].nodes[i].name, name) == 0)
				return &d->threads[t].nodes[i];
	return NULL;
}

static void
test_two_workers(void)
{
	struct rt_dump d;
	const struct rt_node *n;
	struct rt_figure f;
	char err[256];

	if (!tap_ok(load("vpp_2workers.txt", &d, err, sizeof(err)) == 0,
		    "vpp_dump_with_main_and_two_workers_parses")) {
		printf("# %s\n", err);
		return;
	}
	tap_ok(d.n == 3 && d.threads[1].index == 1 && d.threads[2].lcore == 2 &&
		       strcmp(d.threads[2].name, "vpp_wk_1") == 0,
	       "thread_lines_give_index_name_and_lcore");
	tap_ok(d.threads[0].n == 7 && d.threads[1].n == 8 && d.threads[2].n == 8,
	       "every_row_of_every_thread_is_read");
	n = find(&d, 0, "acl-plugin-fa-cleaner-process");
	tap_ok(n != NULL && strcmp(n->state, "event wait") == 0 && n->suspends == 7 &&
		       n->clocks == 9.88e3,
	       "process_node_with_suspends_and_e_notation_clocks");
	n = find(&d, 0, "acl-plugin-fa-worker-cleaner-p");
	tap_ok(n != NULL && strcmp(n->state, "interrupt wait") == 0 && n->calls == 18,
	       "name_cut_at_30_running_into_interrupt_wa_is_split");
	n = find(&d, 0, "ip4-full-reassembly-expire-wal");
	tap_ok(n != NULL && strcmp(n->state, "any wait") == 0, "any_wait_state_is_read");
	n = find(&d, 0, "gmon-process");
	tap_ok(n != NULL && strcmp(n->state, "time wait") == 0, "time_wait_state_is_read");
	n = find(&d, 2, "dpdk-input");
	tap_ok(n != NULL && strcmp(n->state, "polling") == 0 && n->calls == 612000 &&
		       n->vpc == 4.90,
	       "polling_input_node_on_worker_1");
	n = find(&d, 1, "GigabitEthernet0/8/0-tx");
	tap_ok(n != NULL && n->clocks == 27.2, "interface_node_names_with_slashes");

	/* ip4-lookup: 1e6 vectors at 12.0 on wk_0, 3e6 at 16.0 on wk_1 -> 60e6 / 4e6 = 15 */
	f = rt_node_figure(&d, "ip4-lookup", RT_WORKERS);
	tap_ok(f.found == 2, "node_found_on_both_workers");
	tap_near(f.clocks_per_packet, 15.0, 1e-9, "workers_sum_is_total_clocks_over_total_vectors");
	tap_near(f.vectors_per_call, 250, 1e-9, "vectors_per_call_over_workers");
	f = rt_node_figure(&d, "ip4-lookup", 1);
	tap_near(f.clocks_per_packet, 12.0, 1e-9, "single_thread_selector");
	f = rt_node_figure(&d, "unix-epoll-input", RT_WORKERS);
	tap_ok(f.found == 0, "main_thread_nodes_are_not_workers");
	f = rt_node_figure(&d, "unix-epoll-input", RT_ALL);
	tap_ok(f.found == 1 && f.vectors == 0, "all_selector_includes_main");
	rt_free(&d);
}

static void
test_single_thread(void)
{
	struct rt_dump d;
	struct rt_figure f;
	const struct rt_node *n;
	char err[256];

	if (!tap_ok(load("vpp_single_thread_old_format.txt", &d, err, sizeof(err)) == 0,
		    "single_thread_older_preamble_with_prompts_parses")) {
		printf("# %s\n", err);
		return;
	}
	tap_ok(d.n == 1 && d.threads[0].n == 8, "one_implicit_thread_with_all_rows");
	f = rt_node_figure(&d, "ip4-lookup", RT_WORKERS);
	tap_near(f.clocks_per_packet, 110, 1e-9, "only_thread_counts_as_worker");
	n = find(&d, 0, "dpdk-input");
	tap_ok(n != NULL && n->calls == 981234123, "large_call_counts");
	rt_free(&d);
}

static void
test_long_names_and_json(void)
{
	struct rt_dump d;
	struct rt_figure f;
	char err[256];

	if (tap_ok(load("vfwd_long_names.txt", &d, err, sizeof(err)) == 0,
		   "uncut_long_names_parse")) {
		tap_ok(find(&d, 1, "ip4-unicast-feature-arc-example-rust") != NULL,
		       "36_character_name_kept_whole");
		f = rt_node_figure(&d, "port0-rx", RT_WORKERS);
		tap_near(f.clocks_per_packet, 41, 1e-9, "vfwd_rx_node_clocks");
		rt_free(&d);
	} else {
		printf("# %s\n", err);
	}
	if (tap_ok(load("vfwd_runtime.json", &d, err, sizeof(err)) == 0, "json_dump_parses")) {
		f = rt_node_figure(&d, "ip4-lookup", RT_WORKERS);
		tap_near(f.clocks_per_packet, 12.0, 1e-9, "json_exact_clock_totals_are_used");
		f = rt_node_figure(&d, "port0-rx", RT_WORKERS);
		tap_near(f.clocks_per_packet, 40.0, 1e-9, "json_clocks_column_without_total");
		tap_ok(rt_node_figure(&d, "cli-process", RT_WORKERS).found == 0,
		       "json_thread_0_is_main");
		rt_free(&d);
	} else {
		printf("# %s\n", err);
	}
}

/* A dump of a real vfwd run on the host topology, in both of vfwd's formats. */
static void
test_vfwd_text_and_json_agree(void)
{
	struct rt_dump t, j;
	char err[256];
	const char *nodes[] = {"ethernet-input", "ip4-lookup", "ip4-rewrite", "port1-tx"};

	if (!tap_ok(load("vfwd_host_run.txt", &t, err, sizeof(err)) == 0 &&
			    load("vfwd_host_run.json", &j, err, sizeof(err)) == 0,
		    "real_vfwd_dump_parses_in_text_and_json")) {
		printf("# %s\n", err);
		return;
	}
	tap_ok(t.n == 2 && t.threads[0].n == 0 && t.threads[1].n == 8,
	       "vfwd_main_has_no_rows_worker_has_eight");
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		struct rt_figure a = rt_node_figure(&t, nodes[i], RT_WORKERS);
		struct rt_figure b = rt_node_figure(&j, nodes[i], RT_WORKERS);
		char name[96];

		snprintf(name, sizeof(name), "text_clocks_within_half_percent_of_json_%s",
			 nodes[i]);
		tap_ok(a.vectors == b.vectors && a.vectors > 0 &&
			       fabs(a.clocks_per_packet / b.clocks_per_packet - 1) < 0.005,
		       name);
	}
	rt_free(&t);
	rt_free(&j);
}

static void
test_refusals(void)
{
	struct rt_dump d;
	char err[256];

	tap_ok(load("bad_row.txt", &d, err, sizeof(err)) != 0 && strstr(err, "bad_row.txt:10:"),
	       "malformed_row_is_refused_with_file_and_line");
	printf("# %s\n", err);
	tap_ok(load("no_table.txt", &d, err, sizeof(err)) != 0 && strstr(err, "no show runtime"),
	       "file_without_a_table_is_refused");
	tap_ok(load("max_format.txt", &d, err, sizeof(err)) != 0 && strstr(err, "max"),
	       "show_runtime_max_layout_is_refused_by_name");
	tap_ok(load("missing.txt", &d, err, sizeof(err)) != 0 && strstr(err, "missing.txt"),
	       "missing_file_is_named");
	tap_ok(rt_parse("{\"threads\": 3}", 14, "x.json", &d, err, sizeof(err)) != 0 &&
		       strstr(err, "x.json:1:"),
	       "json_without_thread_array_is_refused");
	tap_ok(rt_parse("Time 1\n a\0b", 11, "nul.txt", &d, err, sizeof(err)) != 0 &&
		       strstr(err, "nul.txt:2:"),
	       "nul_byte_is_refused");
}

int
main(void)
{
	datadir = getenv("FWDSTAT_DATA");
	if (datadir == NULL)
		datadir = "tests/data";
	test_two_workers();
	test_single_thread();
	test_long_names_and_json();
	test_vfwd_text_and_json_agree();
	test_refusals();
	return tap_done();
}
