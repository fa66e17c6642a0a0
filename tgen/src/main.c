/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen: a DPDK traffic generator with TRex-style profiles and an NDR/PDR search.
 *   tgen [EAL args] -- run|ndr|link [options]        (tgen -- --help) */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "dp.h"
#include "json.h"

volatile int tgen_quit;

struct opts {
	const char *mode;
	const char *json;
	const char *pre_trial, *post_trial;
	struct tgen_rate rate, min_rate, max_rate;
	bool max_rate_set, strict_rate;
	double duration_s, trial_s, final_s, width, pdr_loss, link_timeout_s, warmup_s;
	uint32_t max_trials;
	uint16_t nb_desc;
	uint32_t nb_mbufs;
};

static void
usage(FILE *f)
{
	fputs("usage: tgen [EAL args] -- MODE [options]\n"
	      "modes:\n"
	      "  run   one trial: --rate R --duration S\n"
	      "  ndr   NDR/PDR search (RFC 2544 / MLRsearch)\n"
	      "  link  bring both ports up (and resolve ARP), print them, exit\n"
	      "options:\n"
	      "  --profile udp|imix      traffic profile (default udp)\n"
	      "  --size N                frame size with FCS, 64..9000 (udp; default 64)\n"
	      "  --flows N               vary the source address over N values (default 1)\n"
	      "  --bidir                 send port0->port1 and port1->port0, half the rate each\n"
	      "  --rate R                N[pps|kpps|mpps], N[bps|kbps|mbps|gbps] (L2), N% of the\n"
	      "                          L1 line rate, or max (unpaced)\n"
	      "  --duration S            trial duration, run mode (default 10)\n"
	      "  --link BPS              nominal link speed for % and line rate (default 10gbps)\n"
	      "  --ports A,B             ethdev ids of port0 and port1 (default 0,1)\n"
	      "  --dst-mac0 MAC, --dst-mac1 MAC   destination MAC per port (--dst-mac = port0)\n"
	      "  --gw0 IP, --gw1 IP      resolve the destination MAC by ARP (--gw = port0)\n"
	      "  --ip0 IP, --ip1 IP      our address per port, answered in ARP\n"
	      "  --warmup S              before the first trial, send a packet every 10 ms until\n"
	      "                          one comes back, at most S s (default 5; 0: off)\n"
	      "  --drain S               receive window after each trial (default 0.5)\n"
	      "  --min-rate R, --max-rate R       ndr search range (default 1kpps .. line rate)\n"
	      "  --pdr-loss X            PDR loss ratio, 0.005 or 0.5% (default 0.5%)\n"
	      "  --width X               search width, relative (default 0.5%)\n"
	      "  --trial-duration S      search trials (default 1)\n"
	      "  --final-duration S      final trials (default 5)\n"
	      "  --strict-rate           ndr: a trial whose load tgen could not offer (it fell\n"
	      "                          behind by more than the width) fails\n"
	      "  --max-trials N          stop the search after N trials (default 60)\n"
	      "  --pre-trial CMD, --post-trial CMD  run around every trial (sh -c), with\n"
	      "                          TGEN_TRIAL_INDEX, TGEN_TRIAL_PHASE, TGEN_TRIAL_RATE_PPS,\n"
	      "                          TGEN_TRIAL_DURATION_S (post: TGEN_TRIAL_LOSS_RATIO,\n"
	      "                          TGEN_TRIAL_TX_PACKETS, TGEN_TRIAL_RX_PACKETS)\n"
	      "  --json FILE             write the result as JSON (- for stdout)\n"
	      "  --link-timeout S        wait for links and ARP (default 10)\n"
	      "  --mbufs N, --desc N     mempool size (default 16384), ring size (default 1024)\n",
	      f);
}

static void
on_signal(int sig)
{
	(void)sig;
	tgen_quit = 1;
}

static int
parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v))
		return -EINVAL;
	if (*end == '%' && end[1] == '\0')
		v /= 100;
	else if (*end != '\0')
		return -EINVAL;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

enum {
	O_PROFILE = 256,
	O_SIZE,
	O_FLOWS,
	O_BIDIR,
	O_RATE,
	O_DURATION,
	O_LINK,
	O_PORTS,
	O_DMAC0,
	O_DMAC1,
	O_GW0,
	O_GW1,
	O_IP0,
	O_IP1,
	O_DRAIN,
	O_MINR,
	O_MAXR,
	O_PDR,
	O_WIDTH,
	O_TRIALD,
	O_FINALD,
	O_MAXT,
	O_PRE,
	O_POST,
	O_JSON,
	O_LTO,
	O_MBUFS,
	O_DESC,
	O_HELP,
	O_WARMUP,
	O_STRICT,
};

static const struct option longopts[] = {
	{"profile", 1, NULL, O_PROFILE},
	{"size", 1, NULL, O_SIZE},
	{"flows", 1, NULL, O_FLOWS},
	{"bidir", 0, NULL, O_BIDIR},
	{"rate", 1, NULL, O_RATE},
	{"duration", 1, NULL, O_DURATION},
	{"link", 1, NULL, O_LINK},
	{"ports", 1, NULL, O_PORTS},
	{"dst-mac", 1, NULL, O_DMAC0},
	{"dst-mac0", 1, NULL, O_DMAC0},
	{"dst-mac1", 1, NULL, O_DMAC1},
	{"gw", 1, NULL, O_GW0},
	{"gw0", 1, NULL, O_GW0},
	{"gw1", 1, NULL, O_GW1},
	{"ip", 1, NULL, O_IP0},
	{"ip0", 1, NULL, O_IP0},
	{"ip1", 1, NULL, O_IP1},
	{"drain", 1, NULL, O_DRAIN},
	{"min-rate", 1, NULL, O_MINR},
	{"max-rate", 1, NULL, O_MAXR},
	{"pdr-loss", 1, NULL, O_PDR},
	{"width", 1, NULL, O_WIDTH},
	{"trial-duration", 1, NULL, O_TRIALD},
	{"final-duration", 1, NULL, O_FINALD},
	{"max-trials", 1, NULL, O_MAXT},
	{"pre-trial", 1, NULL, O_PRE},
	{"post-trial", 1, NULL, O_POST},
	{"json", 1, NULL, O_JSON},
	{"link-timeout", 1, NULL, O_LTO},
	{"mbufs", 1, NULL, O_MBUFS},
	{"desc", 1, NULL, O_DESC},
	{"warmup", 1, NULL, O_WARMUP},
	{"strict-rate", 0, NULL, O_STRICT},
	{"help", 0, NULL, O_HELP},
	{NULL, 0, NULL, 0},
};

static int
bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "tgen: --%s %s: %s\n", opt, val, why);
	return -EINVAL;
}

static int
parse_one(struct tgen_ctx *c, struct opts *o, int opt, const char *a)
{
	double v;
	unsigned int p0, p1;
	char tail;

	switch (opt) {
	case O_PROFILE:
		return tgen_profile_parse(a, &c->profile) < 0
			       ? bad("profile", a, "unknown profile (udp, imix)")
			       : 0;
	case O_SIZE:
		if (parse_double(a, TGEN_MIN_FRAME, TGEN_MAX_FRAME, &v) < 0 || v != floor(v))
			return bad("size", a, "frame size must be an integer in 64..9000");
		c->profile.frame_size = (uint16_t)v;
		return 0;
	case O_FLOWS:
		if (parse_double(a, 1, 1 << 24, &v) < 0 || v != floor(v))
			return bad("flows", a, "must be an integer in 1..16777216");
		c->profile.flows = (uint32_t)v;
		return 0;
	case O_BIDIR:
		c->profile.bidir = true;
		return 0;
	case O_RATE:
		return tgen_rate_parse(a, &o->rate) < 0 ? bad("rate", a, "bad rate") : 0;
	case O_MINR:
		return tgen_rate_parse(a, &o->min_rate) < 0 ? bad("min-rate", a, "bad rate") : 0;
	case O_MAXR:
		o->max_rate_set = true;
		return tgen_rate_parse(a, &o->max_rate) < 0 ? bad("max-rate", a, "bad rate") : 0;
	case O_DURATION:
		return parse_double(a, 0.001, 86400, &o->duration_s) < 0
			       ? bad("duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_TRIALD:
		return parse_double(a, 0.001, 86400, &o->trial_s) < 0
			       ? bad("trial-duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_FINALD:
		return parse_double(a, 0.001, 86400, &o->final_s) < 0
			       ? bad("final-duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_DRAIN:
		return parse_double(a, 0, 60, &c->drain_s) < 0 ? bad("drain", a, "seconds in 0..60")
							       : 0;
	case O_STRICT:
		o->strict_rate = true;
		return 0;
	case O_WARMUP:
		return parse_double(a, 0, 600, &o->warmup_s) < 0
			       ? bad("warmup", a, "seconds in 0..600")
			       : 0;
	case O_LTO:
		return parse_double(a, 0, 3600, &o->link_timeout_s) < 0
			       ? bad("link-timeout", a, "seconds in 0..3600")
			       : 0;
	case O_LINK:
		return tgen_bps_parse(a, &c->link_bps) < 0 || c->link_bps == 0
			       ? bad("link", a, "bits per second, e.g. 10gbps")
			       : 0;
	case O_PORTS:
		if (sscanf(a, "%u,%u%c", &p0, &p1, &tail) != 2 || p0 >= RTE_MAX_ETHPORTS ||
		    p1 >= RTE_MAX_ETHPORTS)
			return bad("ports", a, "give two ethdev ids, e.g. 0,1");
		c->port[0].id = p0;
		c->port[1].id = p1;
		return 0;
	case O_DMAC0:
	case O_DMAC1:
		if (tgen_mac_parse(a, c->port[opt == O_DMAC1].dst_mac) < 0)
			return bad("dst-mac", a, "bad MAC address");
		c->port[opt == O_DMAC1].dst_known = true;
		return 0;
	case O_GW0:
	case O_GW1:
		return tgen_ip_parse(a, &c->port[opt == O_GW1].gw) < 0
			       ? bad("gw", a, "bad IPv4 address")
			       : 0;
	case O_IP0:
	case O_IP1:
		return tgen_ip_parse(a, &c->port[opt == O_IP1].ip) < 0
			       ? bad("ip", a, "bad IPv4 address")
			       : 0;
	case O_PDR:
		return parse_double(a, 0, 1, &o->pdr_loss) < 0
			       ? bad("pdr-loss", a, "a ratio in 0..1 (or 0..100%)")
			       : 0;
	case O_WIDTH:
		return parse_double(a, 1e-6, 0.5, &o->width) < 0
			       ? bad("width", a, "a ratio in 0.000001..0.5")
			       : 0;
	case O_MAXT:
		if (parse_double(a, 1, 10000, &v) < 0)
			return bad("max-trials", a, "1..10000");
		o->max_trials = (uint32_t)v;
		return 0;
	case O_MBUFS:
		if (parse_double(a, 1024, 1 << 22, &v) < 0)
			return bad("mbufs", a, "1024..4194304");
		o->nb_mbufs = (uint32_t)v;
		return 0;
	case O_DESC:
		if (parse_double(a, 64, 16384, &v) < 0)
			return bad("desc", a, "64..16384");
		o->nb_desc = (uint16_t)v;
		return 0;
	case O_PRE:
		o->pre_trial = a;
		return 0;
	case O_POST:
		o->post_trial = a;
		return 0;
	case O_JSON:
		o->json = a;
		return 0;
	}
	return -EINVAL;
}

static int
parse_args(struct tgen_ctx *c, struct opts *o, int argc, char **argv)
{
	int opt, ret;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			usage(stdout);
			exit(0);
		}
		fprintf(stderr, "tgen: give a mode (run, ndr, link) after --\n");
		usage(stderr);
		return -EINVAL;
	}
	o->mode = argv[1];
	if (strcmp(o->mode, "run") != 0 && strcmp(o->mode, "ndr") != 0 &&
	    strcmp(o->mode, "link") != 0) {
		fprintf(stderr, "tgen: unknown mode '%s' (run, ndr, link)\n", o->mode);
		return -EINVAL;
	}
	optind = 2;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h' || opt == O_HELP) {
			usage(stdout);
			exit(0);
		}
		if (opt == '?')
			return -EINVAL;
		ret = parse_one(c, o, opt, optarg);
		if (ret < 0)
			return ret;
	}
	if (optind < argc) {
		fprintf(stderr, "tgen: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (c->profile.kind == TGEN_PROFILE_IMIX && c->profile.frame_size != 64 &&
	    c->profile.frame_size != 0) {
		fprintf(stderr, "tgen: --size does not apply to the imix profile\n");
		return -EINVAL;
	}
	return 0;
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
		"\"bidir\": %s},\n \"link_bps\": %" PRIu64,
		tgen_profile_name(&c->profile), tgen_profile_mean_frame(&c->profile),
		c->profile.flows, c->profile.bidir ? "true" : "false", c->link_bps);
	fprintf(f,
		",\n \"warmup\": {\"seconds\": %.3f, \"tx_packets\": [%" PRIu64 ", %" PRIu64
		"], \"rx_packets\": %" PRIu64 "}",
		c->warmup_s, c->warmup_tx[0], c->warmup_tx[1], c->warmup_rx);
}

static void
print_trial(const struct tgen_result *r)
{
	printf("trial %3u %-6s rate %12.0f pps  %5.1f s  tx %10" PRIu64 "  rx %10" PRIu64
	       "  loss %.6f%%  rx %.0f pps  lat p50/p99 %.1f/%.1f us\n",
	       r->index, r->phase, r->rate_pps_requested, r->duration_s, r->tx_packets,
	       r->rx_packets, r->loss_ratio * 100, r->rx_pps, r->lat_p50 / 1000.0,
	       r->lat_p99 / 1000.0);
	fflush(stdout);
}

static int
trial_with_hooks(struct tgen_ctx *c, const struct opts *o, double pps, double dur,
		 const char *phase, bool progress, struct tgen_result *r)
{
	int ret;

	ret = run_hook(o->pre_trial, NULL, phase, c->trial_index, pps, dur);
	if (ret < 0)
		return ret;
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

static void
json_crit(FILE *f, const char *name, double rate, bool below, double mean,
	  const struct tgen_result *t)
{
	fprintf(f,
		",\n \"%s\": {\"rate_pps\": %.3f, \"rate_bps\": %.0f, \"rate_l1_bps\": %.0f, "
		"\"below_minimum\": %s, \"trial\": ",
		name, rate, rate * mean * 8, rate * (mean + TGEN_L1_OVERHEAD) * 8,
		below ? "true" : "false");
	if (t != NULL)
		tgen_json_trial(f, t);
	else
		fputs("null", f);
	fputc('}', f);
}

/* The trial that confirmed the result: the longest passing trial at that rate. */
static const struct tgen_result *
crit_trial(const struct tgen_result *tr, uint32_t n, double rate, double thr)
{
	const struct tgen_result *best = NULL;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (fabs(tr[i].rate_pps_requested - rate) < 1e-6 * rate &&
		    tr[i].loss_ratio <= thr &&
		    (best == NULL || tr[i].duration_s >= best->duration_s))
			best = &tr[i];
	return best;
}

static int
mode_ndr(struct tgen_ctx *c, const struct opts *o)
{
	double mean = tgen_profile_mean_frame(&c->profile), min_pps, max_pps, rate[2], loss;
	struct tgen_search s;
	struct tgen_search_step st;
	struct tgen_result *tr;
	bool below[2];
	uint32_t n = 0, i, short_trials = 0;
	FILE *f;
	int ret, k;

	ret = tgen_rate_to_pps(&o->min_rate, mean, c->link_bps, &min_pps);
	if (ret < 0)
		return bad("min-rate", "", "impossible for this link and frame size");
	ret = tgen_rate_to_pps(&o->max_rate, mean, c->link_bps, &max_pps);
	if (ret < 0)
		return bad("max-rate", "", "impossible for this link and frame size");
	if (min_pps > max_pps) {
		fprintf(stderr, "tgen: --min-rate %.0f pps is above --max-rate %.0f pps\n", min_pps,
			max_pps);
		return -EINVAL;
	}
	tr = calloc(o->max_trials, sizeof(*tr));
	if (tr == NULL)
		return -ENOMEM;
	tgen_search_init(&s, min_pps, max_pps, o->width, o->pdr_loss, o->trial_s, o->final_s,
			 o->max_trials);
	printf("tgen ndr: %s %.0f B, %u flow(s)%s, %.0f..%.0f pps, width %.3f%%, pdr loss "
	       "%.3f%%, trials %.1f s, final %.1f s\n",
	       tgen_profile_name(&c->profile), mean, c->profile.flows,
	       c->profile.bidir ? ", bidir" : "", min_pps, max_pps, o->width * 100,
	       o->pdr_loss * 100, o->trial_s, o->final_s);
	while (n < o->max_trials && tgen_search_next(&s, &st)) {
		ret = trial_with_hooks(c, o, st.rate_pps, st.duration_s, st.phase, false, &tr[n]);
		if (ret < 0)
			goto out_free;
		print_trial(&tr[n]);
		/* with --strict-rate, a load tgen could not offer (it fell behind by more than
		 * the width) fails the trial like a loss would */
		loss = tr[n].tx_packets == 0 ? 1.0 : tr[n].loss_ratio;
		if ((double)tr[n].pacer_skipped >
		    o->width * (double)(tr[n].tx_packets + tr[n].pacer_skipped)) {
			short_trials++;
			if (o->strict_rate)
				loss = 1.0;
		}
		tgen_search_record(&s, st.rate_pps,
				   tr[n].duration_s >= st.duration_s * 0.999 ? st.duration_s
									     : tr[n].duration_s,
				   loss, st.rate_pps * (1 - loss));
		n++;
	}
	for (k = 0; k < 2; k++) {
		rate[k] = tgen_search_result(&s, k, &below[k]);
		printf("%s: %s%.0f pps (%.3f Gbps L1)\n", k ? "PDR" : "NDR",
		       below[k] ? "below minimum load " : "", rate[k],
		       rate[k] * (mean + TGEN_L1_OVERHEAD) * 8 / 1e9);
	}
	if (short_trials)
		printf("warning: in %u trial(s) tgen fell behind its schedule by more than the "
		       "width "
		       "(pacer_skipped; a busy host?)%s\n",
		       short_trials, o->strict_rate ? "; they counted as failed" : "");
	ret = 0;
	if (o->json == NULL)
		goto out_free;
	f = tgen_json_open(o->json);
	if (f == NULL) {
		ret = -errno;
		goto out_free;
	}
	json_head(f, c, "ndr");
	fprintf(f,
		",\n \"params\": {\"min_rate_pps\": %.3f, \"max_rate_pps\": %.3f, "
		"\"pdr_loss_ratio\": %g, \"width_ratio\": %g, \"trial_duration_s\": %g, "
		"\"final_duration_s\": %g, \"strict_rate\": %s, \"trials_behind_schedule\": %u}",
		min_pps, max_pps, o->pdr_loss, o->width, o->trial_s, o->final_s,
		o->strict_rate ? "true" : "false", short_trials);
	json_crit(f, "ndr", rate[0], below[0], mean,
		  below[0] ? NULL : crit_trial(tr, n, rate[0], 0));
	json_crit(f, "pdr", rate[1], below[1], mean,
		  below[1] ? NULL : crit_trial(tr, n, rate[1], o->pdr_loss));
	fputs(",\n \"trials\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		tgen_json_trial(f, &tr[i]);
	}
	fputs("]}\n", f);
	ret = tgen_json_close(f, o->json);
out_free:
	free(tr);
	return ret;
}

static void
print_mac(const char *what, const uint8_t *m)
{
	printf(" %s %02x:%02x:%02x:%02x:%02x:%02x", what, m[0], m[1], m[2], m[3], m[4], m[5]);
}

static int
mode_link(struct tgen_ctx *c)
{
	int p;

	for (p = 0; p < TGEN_NDIR; p++) {
		printf("port%d: ethdev %u up", p, c->port[p].id);
		print_mac("mac", c->port[p].mac);
		if (c->port[p].dst_known)
			print_mac("dst", c->port[p].dst_mac);
		printf("\n");
	}
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
	c.link_bps = 10000000000ull;
	c.drain_s = 0.5;
	o.rate.unit = TGEN_RATE_PCT;
	o.rate.value = 1;
	o.duration_s = 10;
	o.trial_s = 1;
	o.final_s = 5;
	o.width = 0.005;
	o.pdr_loss = 0.005;
	o.link_timeout_s = 10;
	o.warmup_s = 5;
	o.max_trials = 60;
	o.nb_desc = 1024;
	o.nb_mbufs = 16384;
	o.min_rate.unit = TGEN_RATE_PPS;
	o.min_rate.value = 1000;
	o.max_rate.unit = TGEN_RATE_MAX;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "tgen: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	argv[0] = (char *)"tgen";
	if (parse_args(&c, &o, argc, argv) < 0) {
		rc = 2;
		goto out_eal;
	}
	if (c.profile.kind == TGEN_PROFILE_IMIX)
		c.profile.frame_size = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c.tsc_hz = rte_get_tsc_hz();
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
		ret = mode_link(&c);
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
	rte_eal_cleanup();
	return rc;
}
