/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen: a DPDK traffic generator with TRex-style profiles and an NDR/PDR search.
 *   tgen [EAL args] -- run|ndr|link [options]        (tgen -- --help) */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dp.h"
#include "cli.h"
#include "json.h"

volatile int tgen_quit;

static void
on_signal(int sig)
{
	(void)sig;
	tgen_quit = 1;
}

static int
run_hook(const char *cmd, const struct tgen_result *r, const char *phase, uint32_t index,
	 double rate, double dur)
{
	char buf[64];
	int st;

	if (cmd == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%u", index);
	setenv("TGEN_TRIAL_INDEX", buf, 1);
	setenv("TGEN_TRIAL_PHASE", phase, 1);
	snprintf(buf, sizeof(buf), "%.3f", rate);
	setenv("TGEN_TRIAL_RATE_PPS", buf, 1);
	snprintf(buf, sizeof(buf), "%.3f", dur);
	setenv("TGEN_TRIAL_DURATION_S", buf, 1);
	if (r != NULL) {
		snprintf(buf, sizeof(buf), "%.9g", r->loss_ratio);
		setenv("TGEN_TRIAL_LOSS_RATIO", buf, 1);
		snprintf(buf, sizeof(buf), "%" PRIu64, r->tx_packets);
		setenv("TGEN_TRIAL_TX_PACKETS", buf, 1);
		snprintf(buf, sizeof(buf), "%" PRIu64, r->rx_packets);
		setenv("TGEN_TRIAL_RX_PACKETS", buf, 1);
		snprintf(buf, sizeof(buf), "%.3f", r->rate_pps_offered);
		setenv("TGEN_TRIAL_OFFERED_PPS", buf, 1);
		setenv("TGEN_TRIAL_GENERATOR_LIMITED", r->generator_limited ? "1" : "0", 1);
	}
	fflush(stdout);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "tgen: hook '%s' failed (status %d)\n", cmd,
			st == -1	? -1
			: WIFEXITED(st) ? WEXITSTATUS(st)
					: 128);
		return -ECHILD;
	}
	return 0;
}

static void
json_head(FILE *f, struct tgen_ctx *c, const char *mode)
{
	fprintf(f, "{\"tool\": \"tgen\", \"mode\": \"%s\", \"build\": ", mode);
	tgen_json_build_info(f);
	fprintf(f,
		",\n \"profile\": {\"name\": \"%s\", \"frame_size\": %.0f, \"flows\": %u, "
		"\"flow_field\": \"%s\", \"flow_order\": \"%s\", \"bidir\": %s},\n \"queues\": %u,"
		" \"link_bps\": %" PRIu64,
		tgen_profile_name(&c->profile), tgen_profile_mean_frame(&c->profile),
		c->profile.flows, c->profile.vary_dst ? "dst" : "src",
		c->profile.flow_rnd ? "rnd" : "inc",
		c->profile.bidir ? "true" : "false", c->nq, c->link_bps);
	if (c->profile.kind == TGEN_PROFILE_UDP6) {
		char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, c->profile.src6, a, sizeof(a));
		inet_ntop(AF_INET6, c->profile.dst6, b, sizeof(b));
		fprintf(f,
			",\n \"ip\": {\"version\": 6, \"src\": \"%s\", \"dst\": \"%s\", "
			"\"hop_limit\": 64}",
			a, b);
	}
	fprintf(f,
		",\n \"warmup\": {\"seconds\": %.3f, \"tx_packets\": [%" PRIu64 ", %" PRIu64
		"], \"rx_packets\": %" PRIu64 "}",
		c->warmup_s, c->warmup_tx[0], c->warmup_tx[1], c->warmup_rx);
}

static void
print_trial(const struct tgen_result *r)
{
	printf("trial %3u %-6s rate %12.0f pps  offered %12.0f pps  %5.1f s  tx %10" PRIu64
	       "  rx %10" PRIu64 "  loss %.6f%%  rx %.0f pps  lat p50/p99 %.1f/%.1f us%s\n",
	       r->index, r->phase, r->rate_pps_requested, r->rate_pps_offered, r->duration_s,
	       r->tx_packets, r->rx_packets, r->loss_ratio * 100, r->rx_pps, r->lat_p50 / 1000.0,
	       r->lat_p99 / 1000.0, r->generator_limited ? "  GENERATOR-LIMITED" : "");
	fflush(stdout);
}

/* --trial-exec CMD: one trial is CMD (sh -c), run with the hooks' variables and
 * TGEN_TRIAL_RESULT, a file into which it writes "KEY VALUE" lines: tx_packets, rx_packets,
 * tx_bytes, rx_bytes, duration_s, dir0_tx, dir0_rx, dir1_tx, dir1_rx and lat_min, lat_avg,
 * lat_max, lat_p50, lat_p90, lat_p99, lat_p999 (ns). tgen derives the rest as for its own
 * trials, so the search and the JSON are the same for every generator. */
/* Latency per direction from a --trial-exec result: dirN_lat_count, dirN_lat_min_us,
 * dirN_lat_avg_us, dirN_lat_max_us (numbers) and dirN_hdrh BASE64 (N 0 or 1). */
static void
exec_dir_lat(struct tgen_result *r, const char *line)
{
	char key[32], val[8192];
	struct tgen_dir_lat *l;
	unsigned long long v;

	if (sscanf(line, "dir%*1[01]_%31s %8191s", key, val) != 2)
		return;
	l = &r->dlat[line[3] == '1'];
	v = strtoull(val, NULL, 10);
	if (strcmp(key, "hdrh") == 0) {
		free(l->hdrh);
		l->hdrh = strdup(val);
	} else if (strcmp(key, "lat_count") == 0) {
		l->count = v;
	} else if (strcmp(key, "lat_min_us") == 0) {
		l->min_us = v;
	} else if (strcmp(key, "lat_avg_us") == 0) {
		l->avg_us = v;
	} else if (strcmp(key, "lat_max_us") == 0) {
		l->max_us = l->curve_us[TGEN_LAT_CURVE_N - 1] = v;
	}
}

static int
exec_trial(struct tgen_ctx *c, const struct opts *o, double pps, double dur, const char *phase,
	   struct tgen_result *r)
{
	char path[] = "/tmp/tgen-trial-XXXXXX", key[32];
	const struct {
		const char *name;
		uint64_t *val;
	} keys[] = {
		{"tx_packets", &r->tx_packets}, {"rx_packets", &r->rx_packets},
		{"tx_bytes", &r->tx_bytes},	{"rx_bytes", &r->rx_bytes},
		{"dir0_tx", &r->dir_tx[0]},	{"dir0_rx", &r->dir_rx[0]},
		{"dir1_tx", &r->dir_tx[1]},	{"dir1_rx", &r->dir_rx[1]},
		{"lat_min", &r->lat_min},	{"lat_avg", &r->lat_avg},
		{"lat_max", &r->lat_max},	{"lat_p50", &r->lat_p50},
		{"lat_p90", &r->lat_p90},	{"lat_p99", &r->lat_p99},
		{"lat_p999", &r->lat_p999},
	};
	double d, slack;
	size_t i, cap = 0;
	char *line = NULL;
	FILE *f;
	int fd, ret;

	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	setenv("TGEN_TRIAL_RESULT", path, 1);
	ret = run_hook(o->trial_exec, NULL, phase, c->trial_index, pps, dur);
	memset(r, 0, sizeof(*r));
	r->duration_s = dur;
	f = ret < 0 ? NULL : fopen(path, "r");
	if (ret == 0 && f == NULL)
		ret = -errno;
	while (f != NULL && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%31s %lf", key, &d) != 2) {
			exec_dir_lat(r, line);
			continue;
		}
		if (strcmp(key, "duration_s") == 0 && d > 0)
			r->duration_s = d;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(key, keys[i].name) == 0)
				*keys[i].val = d > 0 ? (uint64_t)(d + 0.5) : 0;
		exec_dir_lat(r, line);
	}
	free(line);
	if (f != NULL)
		fclose(f);
	unlink(path);
	r->index = c->trial_index++;
	r->phase = phase;
	r->rate_pps_requested = pps;
	dur = r->duration_s;
	r->loss_packets = r->tx_packets > r->rx_packets ? r->tx_packets - r->rx_packets : 0;
	r->loss_ratio = r->tx_packets ? (double)r->loss_packets / (double)r->tx_packets : 0;
	r->tx_pps = (double)r->tx_packets / dur;
	r->rx_pps = (double)r->rx_packets / dur;
	r->tx_bps = (double)r->tx_bytes * 8 / dur;
	r->rx_bps = (double)r->rx_bytes * 8 / dur;
	r->rate_pps_offered = r->tx_pps;
	slack = (c->profile.bidir ? 2 : 1) * (double)tgen_burst_for_rate(pps);
	r->generator_limited = tgen_rate_short(pps, r->tx_pps, dur, c->rate_tol, slack);
	if (ret < 0)
		fprintf(stderr, "tgen: the trial command failed: %s\n", o->trial_exec);
	return ret < 0 ? ret : tgen_quit ? -EINTR : 0;
}

static int
trial_with_hooks(struct tgen_ctx *c, const struct opts *o, double pps, double dur,
		 const char *phase, bool progress, struct tgen_result *r)
{
	int ret;

	ret = run_hook(o->pre_trial, NULL, phase, c->trial_index, pps, dur);
	if (ret < 0)
		return ret;
	if (o->trial_exec != NULL)
		ret = exec_trial(c, o, pps, dur, phase, r);
	else
		ret = tgen_trial_run(c, pps, dur, phase, progress, r);
	if (ret < 0)
		return ret;
	return run_hook(o->post_trial, r, phase, r->index, pps, dur);
}

static int
mode_run(struct tgen_ctx *c, const struct opts *o)
{
	double mean = tgen_profile_mean_frame(&c->profile), pps = 0;
	struct tgen_result r;
	FILE *f;
	int ret;

	if (o->rate.unit != TGEN_RATE_MAX) {
		ret = tgen_rate_to_pps(&o->rate, mean, c->link_bps, &pps);
		if (ret < 0)
			return ret;
	}
	printf("tgen run: %s %.0f B, %u flow(s)%s, %.0f pps for %.1f s\n",
	       tgen_profile_name(&c->profile), mean, c->profile.flows,
	       c->profile.bidir ? ", bidir" : "", pps, o->duration_s);
	ret = trial_with_hooks(c, o, pps, o->duration_s, "run", true, &r);
	if (ret < 0 && ret != -EINTR)
		return ret;
	print_trial(&r);
	if (r.generator_limited)
		printf("tgen offered %.0f pps of the %.0f pps requested (short by more than the "
		       "%g%% tolerance): the generator, not the DUT, limited this trial\n",
		       r.rate_pps_offered, r.rate_pps_requested, c->rate_tol * 100);
	if (o->json == NULL)
		return ret;
	f = tgen_json_open(o->json);
	if (f == NULL)
		return -errno;
	json_head(f, c, "run");
	fputs(",\n \"trial\": ", f);
	tgen_json_trial(f, &r);
	fputs("}\n", f);
	ret = tgen_json_close(f, o->json);
	return ret;
}

struct ndr_crit {
	double upper, conditional; /* mlrsearch: relevant upper bound, conditional throughput */
	uint32_t lower_trials;
	double rate; /* never above what its trial offered */
	bool below;
	enum tgen_limit limit;
	const struct tgen_result *trial; /* the trial that confirmed it; NULL when below */
};

struct ndr_run {
	double mean, min_pps, max_pps;
	struct ndr_crit crit[2];
	struct tgen_result *tr;
	uint32_t n, limited_trials;
	struct tgen_result lat[8]; /* latency at load, one per --latency-loads entry */
	double lat_rate[8];
	uint32_t n_lat;
};

static void json_latency(FILE *f, const struct opts *o, const struct ndr_run *r);

static void
search_trial_of(const struct tgen_result *t, double dur, struct tgen_search_trial *st)
{
	st->requested_pps = t->rate_pps_requested;
	st->offered_pps = t->rate_pps_offered;
	st->duration_s = dur;
	st->loss_ratio = t->tx_packets == 0 ? 1.0 : t->loss_ratio;
	st->generator_limited = t->generator_limited;
}

/* The trial that confirmed a result: the longest passing trial that counted at that rate. */
static const struct tgen_result *
crit_trial(const struct tgen_result *tr, uint32_t n, double rate, double thr)
{
	const struct tgen_result *best = NULL;
	struct tgen_search_trial st;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(tr[i].phase, "warmup") == 0)
			continue;
		search_trial_of(&tr[i], tr[i].duration_s, &st);
		if (fabs(tgen_search_pass_rate(&st) - rate) < 1e-6 * rate && st.loss_ratio <= thr &&
		    (best == NULL || tr[i].duration_s >= best->duration_s))
			best = &tr[i];
	}
	return best;
}

/* Results never above the rate their trial offered, and PDR never below NDR. */
static void
ndr_results(const struct tgen_search *s, const struct opts *o, struct ndr_run *r)
{
	int k;

	for (k = 0; k < 2; k++) {
		struct ndr_crit *cr = &r->crit[k];

		cr->rate = tgen_search_result(s, k, &cr->below, &cr->limit);
		cr->trial =
			cr->below ? NULL : crit_trial(r->tr, r->n, cr->rate, k ? o->pdr_loss : 0);
		if (cr->trial != NULL && cr->trial->rate_pps_offered < cr->rate)
			cr->rate = cr->trial->rate_pps_offered;
	}
	if (!r->crit[0].below && r->crit[1].rate < r->crit[0].rate)
		r->crit[1] = r->crit[0];
}

/* The good trial at an MLRsearch load that offered the least (what the result is held to). */
static const struct tgen_result *
mlr_trial(const struct ndr_run *r, double load, double thr)
{
	const struct tgen_result *best = NULL;
	uint32_t i;

	for (i = 0; i < r->n; i++) {
		const struct tgen_result *t = &r->tr[i];

		if (strcmp(t->phase, "warmup") == 0 ||
		    fabs(t->rate_pps_requested - load) > 1e-6 * load || t->tx_packets == 0 ||
		    t->loss_ratio > thr)
			continue;
		if (best == NULL || t->rate_pps_offered < best->rate_pps_offered)
			best = t;
	}
	return best;
}

/* --method mlrsearch (mlrsearch.c): the same trials, hooks and results, MLRsearch's rules. */
static int
ndr_mlrsearch(struct tgen_ctx *c, const struct opts *o, struct ndr_run *r)
{
	struct tgen_mlr_params p = {
		.min_pps = r->min_pps,
		.max_pps = r->max_pps,
		.pdr_loss = o->pdr_loss,
		.width = o->width,
		.trial_s = o->final_s,
		.duration_sum = o->duration_sum,
		.exceed_ratio = o->exceed_ratio,
		.warmup_s = o->warmup_trial_s < 0    ? 0
			    : o->warmup_trial_s == 0 ? -1
						     : o->warmup_trial_s,
		.max_trials = o->max_trials,
	};
	struct tgen_mlr m;
	struct tgen_search_step st;
	struct tgen_search_trial rec;
	struct tgen_mlr_result res;
	struct tgen_result *t;
	int ret = 0, k;

	if (tgen_mlr_init(&m, &p) < 0)
		return -ENOMEM;
	while (r->n < o->max_trials && tgen_mlr_next(&m, &st)) {
		t = &r->tr[r->n];
		ret = trial_with_hooks(c, o, st.rate_pps, st.duration_s, st.phase, false, t);
		if (ret < 0)
			goto out_free;
		print_trial(t);
		r->n++;
		r->limited_trials += t->generator_limited;
		search_trial_of(t, t->duration_s, &rec);
		tgen_mlr_record(&m, &rec);
	}
	for (k = 0; k < 2; k++) {
		struct ndr_crit *cr = &r->crit[k];

		tgen_mlr_result(&m, k, &res);
		cr->rate = res.lower_pps;
		cr->below = res.below;
		cr->limit = res.limit;
		cr->upper = res.upper_pps;
		cr->conditional = res.conditional_pps;
		cr->lower_trials = res.lower_trials;
		cr->trial = cr->below ? NULL : mlr_trial(r, res.lower_pps, k ? o->pdr_loss : 0);
		if (res.offered_pps < cr->rate)
			cr->rate = res.offered_pps;
	}
	if (!r->crit[0].below && r->crit[1].rate < r->crit[0].rate)
		r->crit[1] = r->crit[0];
out_free:
	tgen_mlr_free(&m);
	return ret;
}

static int
ndr_search(struct tgen_ctx *c, const struct opts *o, struct ndr_run *r)
{
	struct tgen_search s;
	struct tgen_search_step st;
	struct tgen_search_trial rec;
	struct tgen_result *t;
	int ret;

	tgen_search_init(&s, r->min_pps, r->max_pps, o->width, o->pdr_loss, o->trial_s, o->final_s,
			 o->max_trials);
	while (r->n < o->max_trials && tgen_search_next(&s, &st)) {
		t = &r->tr[r->n];
		ret = trial_with_hooks(c, o, st.rate_pps, st.duration_s, st.phase, false, t);
		if (ret < 0)
			return ret;
		print_trial(t);
		r->n++;
		r->limited_trials += t->generator_limited;
		/* a trial cut short by an interrupt counts for the time it ran */
		search_trial_of(
			t, t->duration_s >= st.duration_s * 0.999 ? st.duration_s : t->duration_s,
			&rec);
		tgen_search_record(&s, &rec);
	}
	ndr_results(&s, o, r);
	return 0;
}

static void
json_crit(FILE *f, const char *name, const struct ndr_crit *cr, double mean, bool mlr)
{
	fprintf(f,
		",\n \"%s\": {\"rate_pps\": %.3f, \"rate_bps\": %.0f, \"rate_l1_bps\": %.0f, "
		"\"below_minimum\": %s, \"limited_by\": \"%s\", %s",
		name, cr->rate, cr->rate * mean * 8, cr->rate * (mean + TGEN_L1_OVERHEAD) * 8,
		cr->below ? "true" : "false", tgen_limit_name(cr->limit), mlr ? "" : "\"trial\": ");
	if (mlr)
		fprintf(f,
			"\"upper_pps\": %.3f, \"conditional_throughput_pps\": %.3f, "
			"\"lower_bound_trials\": %u, \"trial\": ",
			cr->upper, cr->conditional, cr->lower_trials);
	if (cr->trial != NULL)
		tgen_json_trial(f, cr->trial);
	else
		fputs("null", f);
	fputc('}', f);
}

static int
ndr_json_write(struct tgen_ctx *c, const struct opts *o, const struct ndr_run *r)
{
	FILE *f = tgen_json_open(o->json);
	uint32_t i;

	if (f == NULL)
		return -errno;
	json_head(f, c, "ndr");
	/* strict_rate: always true now, a generator-limited trial never passes at the rate it
	 * did not offer (the option is accepted for compatibility) */
	fprintf(f,
		",\n \"params\": {\"min_rate_pps\": %.3f, \"max_rate_pps\": %.3f, "
		"\"pdr_loss_ratio\": %g, \"width_ratio\": %g, \"trial_duration_s\": %g, "
		"\"final_duration_s\": %g, \"rate_tolerance\": %g, \"strict_rate\": true, "
		"\"trials_behind_schedule\": %u, \"method\": \"%s\"",
		r->min_pps, r->max_pps, o->pdr_loss, o->width, o->trial_s, o->final_s, o->rate_tol,
		r->limited_trials, o->mlrsearch ? "mlrsearch" : "binary");
	if (o->mlrsearch)
		fprintf(f,
			", \"duration_sum_s\": %g, \"exceed_ratio\": %g, \"warmup_trial_s\": %g, "
			"\"preceding_width_ratio\": %g",
			o->duration_sum, o->exceed_ratio,
			o->warmup_trial_s < 0 ? o->final_s : o->warmup_trial_s, 4 * o->width);
	fputc('}', f);
	json_crit(f, "ndr", &r->crit[0], r->mean, o->mlrsearch);
	json_crit(f, "pdr", &r->crit[1], r->mean, o->mlrsearch);
	fputs(",\n \"trials\": [", f);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		tgen_json_trial(f, &r->tr[i]);
	}
	fputc(']', f);
	if (o->n_lat_loads > 0)
		json_latency(f, o, r);
	fputs("}\n", f);
	return tgen_json_close(f, o->json);
}

static void
print_crit(const char *name, const struct ndr_crit *cr, double mean)
{
	double gbps = cr->rate * (mean + TGEN_L1_OVERHEAD) * 8 / 1e9;
	double pps = floor(cr->rate); /* printed, never rounded up past what was offered */

	if (cr->below)
		printf("%s: below minimum load 0 pps (0.000 Gbps L1)\n", name);
	else if (cr->limit == TGEN_LIMIT_GENERATOR)
		printf("%s >= %.0f pps (%.3f Gbps L1): bounded by the generator, not the DUT\n",
		       name, pps, gbps);
	else if (cr->limit == TGEN_LIMIT_MAX_RATE)
		printf("%s >= %.0f pps (%.3f Gbps L1): no loss up to --max-rate\n", name, pps,
		       gbps);
	else
		printf("%s: %.0f pps (%.3f Gbps L1)\n", name, pps, gbps);
}

/* Latency at load (CSIT): after the search, one trial at each percent of the PDR lower bound,
 * rounded up to the minimal rate (0 % is the minimal rate: latency with next to no load). */
static int
ndr_latency(struct tgen_ctx *c, const struct opts *o, struct ndr_run *r)
{
	double pdr = r->crit[1].below ? 0 : r->crit[1].rate,
	       dur = o->lat_s > 0 ? o->lat_s : o->final_s;
	uint32_t i;
	int ret;

	for (i = 0; i < o->n_lat_loads; i++) {
		double rate = pdr * o->lat_loads[i] / 100;

		if (rate < r->min_pps)
			rate = r->min_pps;
		r->lat_rate[i] = rate;
		ret = trial_with_hooks(c, o, rate, dur, "latency", false, &r->lat[i]);
		if (ret < 0)
			return ret;
		print_trial(&r->lat[i]);
		r->n_lat++;
	}
	if (r->n_lat > 0)
		printf("latency (us)  load       rate pps  direction  min     avg     max     "
		       "p99     p99.9\n");
	for (i = 0; i < r->n_lat; i++)
		for (int d = 0; d < TGEN_NDIR; d++) {
			const struct tgen_dir_lat *l = &r->lat[i].dlat[d];

			if (l->count == 0)
				continue;
			printf("latency       pdr_%-4g %10.0f  %-9s  %-7" PRIu64 " %-7" PRIu64
			       " %-7" PRIu64 " %-7" PRIu64 " %" PRIu64 "\n",
			       o->lat_loads[i], r->lat_rate[i], d ? "reverse" : "forward",
			       l->min_us, l->avg_us, l->max_us, l->curve_us[3], l->curve_us[4]);
		}
	return 0;
}

static void
json_latency(FILE *f, const struct opts *o, const struct ndr_run *r)
{
	uint32_t i;

	fprintf(f, ",\n \"latency\": {\"pdr_lower_pps\": %.3f, \"duration_s\": %g",
		r->crit[1].below ? 0 : r->crit[1].rate, o->lat_s > 0 ? o->lat_s : o->final_s);
	for (i = 0; i < r->n_lat; i++) {
		fprintf(f, ",\n  \"pdr_%g\": {\"percent\": %g, \"rate_pps\": %.3f, \"forward\": ",
			o->lat_loads[i], o->lat_loads[i], r->lat_rate[i]);
		tgen_json_dir_lat(f, &r->lat[i].dlat[0]);
		fputs(", \"reverse\": ", f);
		tgen_json_dir_lat(f, &r->lat[i].dlat[1]);
		fputs(",\n   \"trial\": ", f);
		tgen_json_trial(f, &r->lat[i]);
		fputc('}', f);
	}
	fputc('}', f);
}

static void
ndr_run_free(struct ndr_run *r)
{
	uint32_t i;

	for (i = 0; i < r->n; i++)
		for (int d = 0; d < TGEN_NDIR; d++)
			tgen_dir_lat_free(&r->tr[i].dlat[d]);
	for (i = 0; i < r->n_lat; i++)
		for (int d = 0; d < TGEN_NDIR; d++)
			tgen_dir_lat_free(&r->lat[i].dlat[d]);
	free(r->tr);
}

static int
mode_ndr(struct tgen_ctx *c, const struct opts *o)
{
	struct ndr_run r = {.mean = tgen_profile_mean_frame(&c->profile)};
	int ret;

	if (tgen_rate_to_pps(&o->min_rate, r.mean, c->link_bps, &r.min_pps) < 0)
		return tgen_cli_bad("min-rate", "", "impossible for this link and frame size");
	if (tgen_rate_to_pps(&o->max_rate, r.mean, c->link_bps, &r.max_pps) < 0)
		return tgen_cli_bad("max-rate", "", "impossible for this link and frame size");
	if (r.min_pps > r.max_pps) {
		fprintf(stderr, "tgen: --min-rate %.0f pps is above --max-rate %.0f pps\n",
			r.min_pps, r.max_pps);
		return -EINVAL;
	}
	r.tr = calloc(o->max_trials, sizeof(*r.tr));
	if (r.tr == NULL)
		return -ENOMEM;
	printf("tgen ndr: %s %.0f B, %u flow(s)%s, %.0f..%.0f pps, width %.3f%%, pdr loss "
	       "%.3f%%, trials %.1f s, final %.1f s\n",
	       tgen_profile_name(&c->profile), r.mean, c->profile.flows,
	       c->profile.bidir ? ", bidir" : "", r.min_pps, r.max_pps, o->width * 100,
	       o->pdr_loss * 100, o->trial_s, o->final_s);
	if (o->mlrsearch)
		printf("method mlrsearch: every trial %.1f s, goal duration sum %.1f s, exceed "
		       "ratio "
		       "%.0f%%, warm-up trial at max load %s, at most %u trials\n",
		       o->final_s, o->duration_sum, o->exceed_ratio * 100,
		       o->warmup_trial_s == 0 ? "off" : "on (discarded)", o->max_trials);
	ret = o->mlrsearch ? ndr_mlrsearch(c, o, &r) : ndr_search(c, o, &r);
	if (ret < 0)
		goto out_free;
	print_crit("NDR", &r.crit[0], r.mean);
	print_crit("PDR", &r.crit[1], r.mean);
	for (int k = 0; o->mlrsearch && k < 2; k++)
		printf("%s: relevant lower bound %.0f pps (%u trials), upper bound %.0f pps, "
		       "conditional throughput %.0f pps\n",
		       k ? "PDR" : "NDR", r.crit[k].rate, r.crit[k].lower_trials, r.crit[k].upper,
		       r.crit[k].conditional);
	ret = ndr_latency(c, o, &r);
	if (ret < 0)
		goto out_free;
	if (r.limited_trials)
		printf("note: in %u trial(s) tgen offered less than requested by more than the "
		       "%g%% tolerance (a busy host?); %s\n",
		       r.limited_trials, o->rate_tol * 100,
		       o->mlrsearch ? "good ones were left out of their load's classification, "
				      "up to 3 at a load"
				    : "they counted at the rate offered");
	if (o->json != NULL)
		ret = ndr_json_write(c, o, &r);
out_free:
	ndr_run_free(&r);
	return ret;
}

static void
print_mac(const char *what, const uint8_t *m)
{
	printf(" %s %02x:%02x:%02x:%02x:%02x:%02x", what, m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* link: both ports up, printed; with --link-hold S the ports stay connected S seconds more
 * (a virtio-user peer with several queues finishes its start, its multi-queue command,
 * after the link is up and needs this side still there). */
static int
mode_link(struct tgen_ctx *c, double hold_s)
{
	uint64_t end = rte_rdtsc() + (uint64_t)(hold_s * (double)c->tsc_hz);
	int p;

	for (p = 0; p < TGEN_NDIR; p++) {
		printf("port%d: ethdev %u up", p, c->port[p].id);
		print_mac("mac", c->port[p].mac);
		if (c->port[p].dst_known)
			print_mac("dst", c->port[p].dst_mac);
		printf("\n");
	}
	fflush(stdout);
	while (hold_s > 0 && rte_rdtsc() < end && !tgen_quit)
		rte_delay_us_sleep(10000);
	return 0;
}

static void
tx_fill(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	struct rte_mbuf *m = obj;

	(void)mp;
	(void)idx;
	/* pad with 'x' like TRex; headers are rewritten per packet, the padding never is */
	memset((char *)m->buf_addr + RTE_PKTMBUF_HEADROOM, 'x', *(uint16_t *)arg);
}

static int
mempools_create(struct tgen_ctx *c, const struct opts *o)
{
	uint16_t max = tgen_profile_max_frame(&c->profile);
	uint32_t room = max + RTE_PKTMBUF_HEADROOM > RTE_MBUF_DEFAULT_BUF_SIZE
				? (uint32_t)max + RTE_PKTMBUF_HEADROOM + 64
				: RTE_MBUF_DEFAULT_BUF_SIZE;

	c->tx_pool =
		rte_pktmbuf_pool_create("tgen_tx", o->nb_mbufs / 2, 256, 0, room, rte_socket_id());
	c->rx_pool =
		rte_pktmbuf_pool_create("tgen_rx", o->nb_mbufs / 2, 256, 0, room, rte_socket_id());
	if (c->tx_pool == NULL || c->rx_pool == NULL) {
		fprintf(stderr, "tgen: cannot create mempools of %u mbufs of %u B: %s (more -m?)\n",
			o->nb_mbufs, room, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	rte_mempool_obj_iter(c->tx_pool, tx_fill, &max);
	return 0;
}

static bool
args_have(int argc, char **argv, const char *opt)
{
	int i;

	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], opt) == 0)
			return true;
	return false;
}

/* run|ndr with --trial-exec: the options, the search and the JSON, without EAL or ports. */
static int
mode_exec(struct tgen_ctx *c, struct opts *o, int argc, char **argv)
{
	int ret;

	argv[0] = (char *)"tgen";
	if (tgen_cli_parse(c, o, argc, argv) < 0)
		return 2;
	tgen_cli_method_defaults(o);
	if (c->profile.kind == TGEN_PROFILE_IMIX)
		c->profile.frame_size = 0;
	c->rate_tol = o->rate_tol;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (strcmp(o->mode, "run") == 0)
		ret = mode_run(c, o);
	else if (strcmp(o->mode, "ndr") == 0)
		ret = mode_ndr(c, o);
	else {
		tgen_cli_bad("trial-exec", o->trial_exec, "only with run or ndr");
		return 2;
	}
	if (ret == -EINTR)
		fprintf(stderr, "tgen: interrupted\n");
	else if (ret < 0 && ret != -EINVAL && ret != -ECHILD)
		fprintf(stderr, "tgen: %s failed: %s\n", o->mode, strerror(-ret));
	return ret < 0 ? 1 : 0;
}

int
main(int argc, char **argv)
{
	struct tgen_ctx c;
	struct opts o;
	int n, ret, rc = 1;

	memset(&c, 0, sizeof(c));
	memset(&o, 0, sizeof(o));
	c.port[0].id = 0;
	c.port[1].id = 1;
	c.profile.kind = TGEN_PROFILE_UDP;
	c.profile.frame_size = 64;
	c.profile.flows = 1;
	c.nq = 1;
	/* udp6: 2001:db8:2::1 -> 2001:db8:1::1 (vfwd's README routes 2001:db8:1::/48) */
	tgen_ip6_parse("2001:db8:2::1", c.profile.src6);
	tgen_ip6_parse("2001:db8:1::1", c.profile.dst6);
	c.link_bps = 10000000000ull;
	c.drain_s = 0.5;
	c.pacing = TGEN_PACING_AUTO;
	o.rate.unit = TGEN_RATE_PCT;
	o.rate.value = 1;
	o.duration_s = 10;
	o.trial_s = 1;
	o.final_s = 0; /* by method: tgen_cli_method_defaults */
	o.duration_sum = 21;
	o.exceed_ratio = 0.5;
	o.warmup_trial_s = -1;
	o.width = 0.005;
	o.pdr_loss = 0.005;
	o.rate_tol = 0.01;
	o.link_timeout_s = 10;
	o.warmup_s = 5;
	o.max_trials = 0; /* by method: 60 (binary), 300 (mlrsearch) */
	o.nb_desc = 1024;
	o.nb_mbufs = 16384;
	o.min_rate.unit = TGEN_RATE_PPS;
	o.min_rate.value = 0; /* by method */
	o.max_rate.unit = TGEN_RATE_MAX;

	/* tgen [EAL] -- --help: answer without initialising EAL (no hugepages needed) */
	for (n = 1; n + 1 < argc; n++) {
		if (strcmp(argv[n], "--") != 0)
			continue;
		if (strcmp(argv[n + 1], "--help") == 0 || strcmp(argv[n + 1], "-h") == 0) {
			tgen_cli_usage(stdout);
			return 0;
		}
		break;
	}
	/* tgen -- run|ndr --trial-exec CMD: another generator's trials, no DPDK here */
	for (n = 1; n < argc && strcmp(argv[n], "--") != 0; n++)
		;
	if (n + 1 < argc && args_have(argc - n - 1, argv + n + 1, "--trial-exec"))
		return mode_exec(&c, &o, argc - n, argv + n);
	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "tgen: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	argv[0] = (char *)"tgen";
	if (tgen_cli_parse(&c, &o, argc, argv) < 0) {
		rc = 2;
		goto out_eal;
	}
	tgen_cli_method_defaults(&o);
	if (c.profile.kind == TGEN_PROFILE_IMIX)
		c.profile.frame_size = 0;
	c.rate_tol = o.rate_tol;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c.tsc_hz = rte_get_tsc_hz();
	for (n = 0; n < TGEN_NDIR; n++)
		if (tgen_hdr_init(&c.hdr[n], TGEN_HDR_HIGHEST_US, TGEN_HDR_SIG) < 0)
			goto out_eal;
	if (rte_eth_dev_count_avail() < 2) {
		fprintf(stderr,
			"tgen: need two ports, found %u (add them as EAL args, e.g. "
			"--vdev net_vhost0,iface=SOCK,client=1)\n",
			rte_eth_dev_count_avail());
		goto out_eal;
	}
	if (mempools_create(&c, &o) < 0)
		goto out_eal;
	if (tgen_ports_setup(&c, o.nb_desc) < 0)
		goto out_ports;
	if (tgen_ports_wait_link(&c, o.link_timeout_s) < 0)
		goto out_ports;
	tgen_streams_init(&c);
	if (tgen_ports_resolve(&c, o.link_timeout_s) < 0)
		goto out_ports;
	tgen_streams_init(&c);
	if (strcmp(o.mode, "link") != 0 && tgen_warmup(&c, o.warmup_s) < 0 && !tgen_quit)
		printf("tgen: warm-up: no packet came back in %.1f s; measuring anyway\n",
		       o.warmup_s);
	if (strcmp(o.mode, "run") == 0)
		ret = mode_run(&c, &o);
	else if (strcmp(o.mode, "ndr") == 0)
		ret = mode_ndr(&c, &o);
	else
		ret = mode_link(&c, o.link_hold_s);
	if (ret == -ERANGE)
		fprintf(stderr,
			"tgen: rate impossible: zero, or above the line rate of the "
			"%.3g Gbps link for this frame size (see --link)\n",
			(double)c.link_bps / 1e9);
	else if (ret == -EINTR)
		fprintf(stderr, "tgen: interrupted\n");
	else if (ret < 0 && ret != -EINVAL && ret != -ECHILD)
		fprintf(stderr, "tgen: %s failed: %s\n", o.mode, strerror(-ret));
	rc = ret < 0 ? 1 : 0;
out_ports:
	tgen_ports_close(&c);
	tgen_seq_free(&c.seq[0]);
	tgen_seq_free(&c.seq[1]);
out_eal:
	tgen_hdr_free(&c.hdr[0]);
	tgen_hdr_free(&c.hdr[1]);
	rte_eal_cleanup();
	return rc;
}
