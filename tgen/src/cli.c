/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen's command line: modes and options after the EAL arguments. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "cli.h"

void
tgen_cli_usage(FILE *f)
{
	fputs("usage: tgen [EAL args] -- MODE [options]\n"
	      "modes:\n"
	      "  run   one trial: --rate R --duration S\n"
	      "  ndr   NDR/PDR search (RFC 2544 / MLRsearch)\n"
	      "  link  bring both ports up (and resolve ARP), print them, exit\n"
	      "options:\n"
	      "  --profile udp|udp6|imix traffic profile (default udp; udp6: IPv6 UDP)\n"
	      "  --size N                frame size with FCS, 64..9000 (udp; default 64;\n"
	      "                          udp6: 82..9000, default 82)\n"
	      "  --src6 IP6, --dst6 IP6  udp6: port0's source and destination (default\n"
	      "                          2001:db8:2::1 -> 2001:db8:1::1; --bidir swaps them)\n"
	      "  --flows N               vary the source address over N values (default 1)\n"
	      "  --flow-field src|dst    the address --flows varies (default src; dst: CSIT "
	      "ip4dst)\n"
	      "  --flow-order inc|rnd    inc: each packet the next flow in turn (default); rnd:\n"
	      "                          each packet a flow at random (CSIT's -rnd suites)\n"
	      "  --bidir                 send port0->port1 and port1->port0, half the rate each\n"
	      "  --rate R                N[pps|kpps|mpps], N[bps|kbps|mbps|gbps] (L2), N% of the\n"
	      "                          L1 line rate, or max (unpaced)\n"
	      "  --duration S            trial duration, run mode (default 10)\n"
	      "  --link BPS              nominal link speed for % and line rate (default 10gbps)\n"
	      "  --ports A,B             ethdev ids of port0 and port1 (default 0,1)\n"
	      "  --queues N              rx and tx queues per port, 1..8 (default 1): each\n"
	      "                          packet leaves on its flow's queue (flow mod N)\n"
	      "  --dst-mac0 MAC, --dst-mac1 MAC   destination MAC per port (--dst-mac = port0)\n"
	      "  --gw0 IP, --gw1 IP      resolve the destination MAC by ARP (--gw = port0)\n"
	      "  --ip0 IP, --ip1 IP      our address per port, answered in ARP\n"
	      "  --warmup S              before the first trial, send a packet every 10 ms until\n"
	      "                          one comes back, at most S s (default 5; 0: off)\n"
	      "  --drain S               receive window after each trial (default 0.5)\n"
	      "  --pacing busy|sleep|auto  busy: spin between bursts; sleep: sleep until the\n"
	      "                          next burst (absolute clock_nanosleep, bursts >= 50 us\n"
	      "                          apart), receive polled adaptively (20..100 us), so a DUT\n"
	      "                          sharing the CPU gets it; auto (default): sleep when the\n"
	      "                          busy pacer's bursts are >= 50 us apart\n"
	      "  --min-rate R, --max-rate R       ndr search range (default 1kpps, mlrsearch\n"
	      "                          9001pps, .. line rate)\n"
	      "  --method binary|mlrsearch  ndr: tgen's binary search (default) or MLRsearch's\n"
	      "                          semantics (CSIT): a discarded warm-up trial at max load,\n"
	      "                          loads classified by goal duration sum and exceed ratio\n"
	      "  --duration-sum S        mlrsearch: goal duration sum per load (default 21)\n"
	      "  --exceed-ratio X        mlrsearch: bad share of it allowed (default 50%)\n"
	      "  --warmup-trial S        mlrsearch: warm-up trial duration (default: a trial; 0:\n"
	      "                          none)\n"
	      "  --pdr-loss X            PDR loss ratio, 0.005 or 0.5% (default 0.5%)\n"
	      "  --width X               search width, relative (default 0.5%)\n"
	      "  --trial-duration S      search trials (default 1)\n"
	      "  --final-duration S      final trials (default 5; mlrsearch: every trial, 1)\n"
	      "  --rate-tolerance X      a trial whose offered rate (tx packets / trial time)\n"
	      "                          falls short of the requested rate by more than X is\n"
	      "                          generator_limited: ndr counts it at its offered rate\n"
	      "                          and stops climbing there (default 1%)\n"
	      "  --strict-rate           accepted for compatibility; no effect (always strict)\n"
	      "  --max-trials N          stop the search after N trials (default 60; mlrsearch "
	      "300)\n"
	      "  --latency-loads LIST    ndr: after the search, latency trials at these percents\n"
	      "                          of the PDR lower bound (CSIT: 0,10,50,90; 0 and any\n"
	      "                          load below it run at --min-rate); default none\n"
	      "  --latency-duration S    their duration (default: --final-duration)\n"
	      "  --pre-trial CMD, --post-trial CMD  run around every trial (sh -c), with\n"
	      "                          TGEN_TRIAL_INDEX, TGEN_TRIAL_PHASE, TGEN_TRIAL_RATE_PPS,\n"
	      "                          TGEN_TRIAL_DURATION_S (post: TGEN_TRIAL_LOSS_RATIO,\n"
	      "                          TGEN_TRIAL_TX_PACKETS, TGEN_TRIAL_RX_PACKETS)\n"
	      "  --trial-exec CMD        run|ndr without DPDK: each trial is CMD (sh -c), which\n"
	      "                          writes KEY VALUE lines to $TGEN_TRIAL_RESULT (main.c)\n"
	      "  --json FILE             write the result as JSON (- for stdout)\n"
	      "  --link-timeout S        wait for links and ARP (default 10)\n"
	      "  --link-hold S           link mode: stay connected S s after the links are up\n"
	      "  --mbufs N, --desc N     mempool size (default 16384), ring size (default 1024)\n",
	      f);
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

int
tgen_cli_bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "tgen: --%s %s: %s\n", opt, val, why);
	return -EINVAL;
}

/* One option: how to parse its argument into which field. Each parser returns 0, or prints
 * "tgen: --ERR ARG: WHY" and returns -EINVAL. */
struct cli_opt {
	const char *name; /* --name */
	const char *err;  /* the name errors give (one for a family: --gw for --gw0, --gw1) */
	int (*parse)(const struct cli_opt *d, void *field, const char *arg);
	bool in_ctx; /* the field is in struct tgen_ctx, else in struct opts */
	size_t off;
	double lo, hi; /* numbers: the accepted range */
	const char *why;
};

static int
bad(const struct cli_opt *d, const char *a)
{
	return tgen_cli_bad(d->err, a, d->why);
}

static int
p_double(const struct cli_opt *d, void *field, const char *a)
{
	return parse_double(a, d->lo, d->hi, field) < 0 ? bad(d, a) : 0;
}

static int
p_count(const struct cli_opt *d, const char *a, uint32_t *out)
{
	double v;

	if (parse_double(a, d->lo, d->hi, &v) < 0 || v != floor(v))
		return bad(d, a);
	*out = (uint32_t)v;
	return 0;
}

static int
p_u16(const struct cli_opt *d, void *field, const char *a)
{
	uint32_t v;
	int ret = p_count(d, a, &v);

	if (ret == 0)
		*(uint16_t *)field = (uint16_t)v;
	return ret;
}

static int
p_u32(const struct cli_opt *d, void *field, const char *a)
{
	return p_count(d, a, field);
}

static int
p_flag(const struct cli_opt *d, void *field, const char *a)
{
	(void)d;
	(void)a;
	*(bool *)field = true;
	return 0;
}

static int
p_str(const struct cli_opt *d, void *field, const char *a)
{
	(void)d;
	*(const char **)field = a;
	return 0;
}

static int
p_rate(const struct cli_opt *d, void *field, const char *a)
{
	return tgen_rate_parse(a, field) < 0 ? bad(d, a) : 0;
}

static int
p_ip(const struct cli_opt *d, void *field, const char *a)
{
	return tgen_ip_parse(a, field) < 0 ? bad(d, a) : 0;
}

static int
p_ip6(const struct cli_opt *d, void *field, const char *a)
{
	return tgen_ip6_parse(a, field) < 0 ? bad(d, a) : 0;
}

static int
p_mac(const struct cli_opt *d, void *field, const char *a)
{
	struct tgen_port *p = field;

	if (tgen_mac_parse(a, p->dst_mac) < 0)
		return bad(d, a);
	p->dst_known = true;
	return 0;
}

static int
p_profile(const struct cli_opt *d, void *field, const char *a)
{
	return tgen_profile_parse(a, field) < 0 ? bad(d, a) : 0;
}

static int
p_flow_field(const struct cli_opt *d, void *field, const char *a)
{
	if (strcmp(a, "src") != 0 && strcmp(a, "dst") != 0)
		return bad(d, a);
	*(bool *)field = strcmp(a, "dst") == 0;
	return 0;
}

static int
p_flow_order(const struct cli_opt *d, void *field, const char *a)
{
	if (strcmp(a, "inc") != 0 && strcmp(a, "rnd") != 0)
		return bad(d, a);
	*(bool *)field = strcmp(a, "rnd") == 0;
	return 0;
}

static int
p_pacing(const struct cli_opt *d, void *field, const char *a)
{
	return tgen_pacing_parse(a, field) < 0 ? bad(d, a) : 0;
}

static int
p_link(const struct cli_opt *d, void *field, const char *a)
{
	uint64_t *bps = field;

	return tgen_bps_parse(a, bps) < 0 || *bps == 0 ? bad(d, a) : 0;
}

/* --latency-loads 0,10,50,90: percents of the PDR lower bound, each 0..100, at most 8 */
static int
p_loads(const struct cli_opt *d, void *field, const char *a)
{
	struct opts *o = (struct opts *)((char *)field - offsetof(struct opts, lat_loads));
	char *end;
	const char *p = a;
	double v;

	o->n_lat_loads = 0;
	if (strcmp(a, "none") == 0)
		return 0;
	for (;;) {
		v = strtod(p, &end);
		if (end == p || v < 0 || v > 100 || o->n_lat_loads == 8)
			return bad(d, a);
		o->lat_loads[o->n_lat_loads++] = v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return bad(d, a);
		p = end + 1;
	}
}

static int
p_method(const struct cli_opt *d, void *field, const char *a)
{
	if (strcmp(a, "binary") != 0 && strcmp(a, "mlrsearch") != 0)
		return bad(d, a);
	*(bool *)field = strcmp(a, "mlrsearch") == 0;
	return 0;
}

void
tgen_cli_method_defaults(struct opts *o)
{
	/* unset (0): binary's 5 s final trials and 1 kpps; MLRsearch's (CSIT's) 1 s trials and
	 * a minimal load of 9.001 kpps */
	if (o->final_s == 0)
		o->final_s = o->mlrsearch ? 1 : 5;
	if (o->max_trials == 0)
		o->max_trials = o->mlrsearch ? 300 : 60;
	if (o->min_rate.unit == TGEN_RATE_PPS && o->min_rate.value == 0)
		o->min_rate.value = o->mlrsearch ? 9001 : 1000;
}

static int
p_ports(const struct cli_opt *d, void *field, const char *a)
{
	struct tgen_port *port = field;
	unsigned int p0, p1;
	char tail;

	if (sscanf(a, "%u,%u%c", &p0, &p1, &tail) != 2 || p0 >= RTE_MAX_ETHPORTS ||
	    p1 >= RTE_MAX_ETHPORTS)
		return bad(d, a);
	port[0].id = p0;
	port[1].id = p1;
	return 0;
}

#define CTX(f) true, offsetof(struct tgen_ctx, f)
#define OPT(f) false, offsetof(struct opts, f)
#define SECONDS(lo, hi) lo, hi, "seconds in " #lo ".." #hi

static const struct cli_opt cli_opts[] = {
	{"profile", "profile", p_profile, CTX(profile), 0, 0, "unknown profile (udp, udp6, imix)"},
	{"src6", "src6", p_ip6, CTX(profile.src6), 0, 0, "bad IPv6 address"},
	{"dst6", "dst6", p_ip6, CTX(profile.dst6), 0, 0, "bad IPv6 address"},
	{"size", "size", p_u16, CTX(profile.frame_size), TGEN_MIN_FRAME, TGEN_MAX_FRAME,
	 "frame size must be an integer in 64..9000"},
	{"flows", "flows", p_u32, CTX(profile.flows), 1, 1 << 24,
	 "must be an integer in 1..16777216"},
	{"flow-field", "flow-field", p_flow_field, CTX(profile.vary_dst), 0, 0, "src or dst"},
	{"flow-order", "flow-order", p_flow_order, CTX(profile.flow_rnd), 0, 0, "inc or rnd"},
	{"bidir", "bidir", p_flag, CTX(profile.bidir), 0, 0, NULL},
	{"rate", "rate", p_rate, OPT(rate), 0, 0, "bad rate"},
	{"min-rate", "min-rate", p_rate, OPT(min_rate), 0, 0, "bad rate"},
	{"max-rate", "max-rate", p_rate, OPT(max_rate), 0, 0, "bad rate"},
	{"duration", "duration", p_double, OPT(duration_s), SECONDS(0.001, 86400)},
	{"trial-duration", "trial-duration", p_double, OPT(trial_s), SECONDS(0.001, 86400)},
	{"final-duration", "final-duration", p_double, OPT(final_s), SECONDS(0.001, 86400)},
	{"drain", "drain", p_double, CTX(drain_s), SECONDS(0, 60)},
	{"pacing", "pacing", p_pacing, CTX(pacing), 0, 0, "busy, sleep or auto"},
	{"warmup", "warmup", p_double, OPT(warmup_s), SECONDS(0, 600)},
	{"link-timeout", "link-timeout", p_double, OPT(link_timeout_s), SECONDS(0, 3600)},
	{"link-hold", "link-hold", p_double, OPT(link_hold_s), SECONDS(0, 3600)},
	{"link", "link", p_link, CTX(link_bps), 0, 0, "bits per second, e.g. 10gbps"},
	{"ports", "ports", p_ports, CTX(port), 0, 0, "give two ethdev ids, e.g. 0,1"},
	{"dst-mac", "dst-mac", p_mac, CTX(port[0]), 0, 0, "bad MAC address"},
	{"dst-mac0", "dst-mac", p_mac, CTX(port[0]), 0, 0, "bad MAC address"},
	{"dst-mac1", "dst-mac", p_mac, CTX(port[1]), 0, 0, "bad MAC address"},
	{"gw", "gw", p_ip, CTX(port[0].gw), 0, 0, "bad IPv4 address"},
	{"gw0", "gw", p_ip, CTX(port[0].gw), 0, 0, "bad IPv4 address"},
	{"gw1", "gw", p_ip, CTX(port[1].gw), 0, 0, "bad IPv4 address"},
	{"ip", "ip", p_ip, CTX(port[0].ip), 0, 0, "bad IPv4 address"},
	{"ip0", "ip", p_ip, CTX(port[0].ip), 0, 0, "bad IPv4 address"},
	{"ip1", "ip", p_ip, CTX(port[1].ip), 0, 0, "bad IPv4 address"},
	{"pdr-loss", "pdr-loss", p_double, OPT(pdr_loss), 0, 1, "a ratio in 0..1 (or 0..100%)"},
	{"width", "width", p_double, OPT(width), 1e-6, 0.5, "a ratio in 0.000001..0.5"},
	{"rate-tolerance", "rate-tolerance", p_double, OPT(rate_tol), 0, 0.5,
	 "a ratio in 0..0.5 (or 0..50%)"},
	{"max-trials", "max-trials", p_u32, OPT(max_trials), 1, 10000, "1..10000"},
	{"mbufs", "mbufs", p_u32, OPT(nb_mbufs), 1024, 1 << 22, "1024..4194304"},
	{"desc", "desc", p_u16, OPT(nb_desc), 64, 16384, "64..16384"},
	{"queues", "queues", p_u16, CTX(nq), 1, TGEN_MAX_QUEUES, "queues per port in 1..8"},
	{"method", "method", p_method, OPT(mlrsearch), 0, 0, "binary or mlrsearch"},
	{"duration-sum", "duration-sum", p_double, OPT(duration_sum), SECONDS(0.001, 86400)},
	{"exceed-ratio", "exceed-ratio", p_double, OPT(exceed_ratio), 0, 0.99,
	 "a ratio in 0..0.99 (or 0..99%)"},
	{"warmup-trial", "warmup-trial", p_double, OPT(warmup_trial_s), SECONDS(0, 86400)},
	{"latency-loads", "latency-loads", p_loads, OPT(lat_loads), 0, 0,
	 "comma-separated percents of the PDR in 0..100 (at most 8), or none"},
	{"latency-duration", "latency-duration", p_double, OPT(lat_s), SECONDS(0.001, 86400)},
	{"pre-trial", "pre-trial", p_str, OPT(pre_trial), 0, 0, NULL},
	{"post-trial", "post-trial", p_str, OPT(post_trial), 0, 0, NULL},
	{"trial-exec", "trial-exec", p_str, OPT(trial_exec), 0, 0, NULL},
	{"json", "json", p_str, OPT(json), 0, 0, NULL},
	{"strict-rate", "strict-rate", p_flag, OPT(strict_rate), 0, 0, NULL},
};

#define N_CLI_OPTS (sizeof(cli_opts) / sizeof(cli_opts[0]))
#define O_HELP 'h'

/* getopt_long's table, built from cli_opts: option i returns 256 + i. */
static void
longopts_fill(struct option *lo)
{
	size_t i;

	for (i = 0; i < N_CLI_OPTS; i++) {
		lo[i].name = cli_opts[i].name;
		lo[i].has_arg = cli_opts[i].parse == p_flag ? no_argument : required_argument;
		lo[i].flag = NULL;
		lo[i].val = 256 + (int)i;
	}
	lo[i++] = (struct option){"help", no_argument, NULL, O_HELP};
	lo[i] = (struct option){NULL, 0, NULL, 0};
}

static int
parse_one(struct tgen_ctx *c, struct opts *o, int opt, const char *a)
{
	const struct cli_opt *d;
	char *base;

	if (opt < 256 || opt >= 256 + (int)N_CLI_OPTS)
		return -EINVAL;
	d = &cli_opts[opt - 256];
	base = d->in_ctx ? (char *)c : (char *)o;
	return d->parse(d, base + d->off, a);
}

int
tgen_cli_parse(struct tgen_ctx *c, struct opts *o, int argc, char **argv)
{
	struct option longopts[N_CLI_OPTS + 2];
	bool size_given = false, ip6_given = false;
	int opt, ret;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
			tgen_cli_usage(stdout);
			exit(0);
		}
		fprintf(stderr, "tgen: give a mode (run, ndr, link) after --\n");
		tgen_cli_usage(stderr);
		return -EINVAL;
	}
	o->mode = argv[1];
	if (strcmp(o->mode, "run") != 0 && strcmp(o->mode, "ndr") != 0 &&
	    strcmp(o->mode, "link") != 0) {
		fprintf(stderr, "tgen: unknown mode '%s' (run, ndr, link)\n", o->mode);
		return -EINVAL;
	}
	longopts_fill(longopts);
	optind = 2;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == O_HELP) {
			tgen_cli_usage(stdout);
			exit(0);
		}
		if (opt == '?')
			return -EINVAL;
		ret = parse_one(c, o, opt, optarg);
		if (ret < 0)
			return ret;
		size_given |= strcmp(cli_opts[opt - 256].name, "size") == 0;
		ip6_given |= cli_opts[opt - 256].parse == p_ip6;
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
	if (c->profile.kind != TGEN_PROFILE_UDP6 && ip6_given) {
		fprintf(stderr, "tgen: --src6/--dst6 apply to the udp6 profile only\n");
		return -EINVAL;
	}
	if (c->profile.kind == TGEN_PROFILE_UDP6 && c->profile.frame_size < TGEN_MIN_FRAME6) {
		if (size_given) {
			fprintf(stderr,
				"tgen: --size %u: a udp6 frame is at least %d B (Ethernet 14 + IPv6 40 "
				"+ UDP 8 + signature 16 + FCS 4)\n",
				c->profile.frame_size, TGEN_MIN_FRAME6);
			return -EINVAL;
		}
		c->profile.frame_size = TGEN_MIN_FRAME6;
	}
	return 0;
}
