/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen's command line: modes and options after the EAL arguments. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
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
	      "  --profile udp|imix      traffic profile (default udp)\n"
	      "  --size N                frame size with FCS, 64..9000 (udp; default 64)\n"
	      "  --flows N               vary the source address over N values (default 1)\n"
	      "  --flow-field src|dst    the address --flows varies (default src; dst: CSIT "
	      "ip4dst)\n"
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
	O_FIELD,
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
	{"flow-field", 1, NULL, O_FIELD},
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

int
tgen_cli_bad(const char *opt, const char *val, const char *why)
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
			       ? tgen_cli_bad("profile", a, "unknown profile (udp, imix)")
			       : 0;
	case O_SIZE:
		if (parse_double(a, TGEN_MIN_FRAME, TGEN_MAX_FRAME, &v) < 0 || v != floor(v))
			return tgen_cli_bad("size", a, "frame size must be an integer in 64..9000");
		c->profile.frame_size = (uint16_t)v;
		return 0;
	case O_FLOWS:
		if (parse_double(a, 1, 1 << 24, &v) < 0 || v != floor(v))
			return tgen_cli_bad("flows", a, "must be an integer in 1..16777216");
		c->profile.flows = (uint32_t)v;
		return 0;
	case O_FIELD:
		if (strcmp(a, "src") != 0 && strcmp(a, "dst") != 0)
			return tgen_cli_bad("flow-field", a, "src or dst");
		c->profile.vary_dst = strcmp(a, "dst") == 0;
		return 0;
	case O_BIDIR:
		c->profile.bidir = true;
		return 0;
	case O_RATE:
		return tgen_rate_parse(a, &o->rate) < 0 ? tgen_cli_bad("rate", a, "bad rate") : 0;
	case O_MINR:
		return tgen_rate_parse(a, &o->min_rate) < 0
			       ? tgen_cli_bad("min-rate", a, "bad rate")
			       : 0;
	case O_MAXR:
		o->max_rate_set = true;
		return tgen_rate_parse(a, &o->max_rate) < 0
			       ? tgen_cli_bad("max-rate", a, "bad rate")
			       : 0;
	case O_DURATION:
		return parse_double(a, 0.001, 86400, &o->duration_s) < 0
			       ? tgen_cli_bad("duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_TRIALD:
		return parse_double(a, 0.001, 86400, &o->trial_s) < 0
			       ? tgen_cli_bad("trial-duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_FINALD:
		return parse_double(a, 0.001, 86400, &o->final_s) < 0
			       ? tgen_cli_bad("final-duration", a, "seconds in 0.001..86400")
			       : 0;
	case O_DRAIN:
		return parse_double(a, 0, 60, &c->drain_s) < 0
			       ? tgen_cli_bad("drain", a, "seconds in 0..60")
			       : 0;
	case O_STRICT:
		o->strict_rate = true;
		return 0;
	case O_WARMUP:
		return parse_double(a, 0, 600, &o->warmup_s) < 0
			       ? tgen_cli_bad("warmup", a, "seconds in 0..600")
			       : 0;
	case O_LTO:
		return parse_double(a, 0, 3600, &o->link_timeout_s) < 0
			       ? tgen_cli_bad("link-timeout", a, "seconds in 0..3600")
			       : 0;
	case O_LINK:
		return tgen_bps_parse(a, &c->link_bps) < 0 || c->link_bps == 0
			       ? tgen_cli_bad("link", a, "bits per second, e.g. 10gbps")
			       : 0;
	case O_PORTS:
		if (sscanf(a, "%u,%u%c", &p0, &p1, &tail) != 2 || p0 >= RTE_MAX_ETHPORTS ||
		    p1 >= RTE_MAX_ETHPORTS)
			return tgen_cli_bad("ports", a, "give two ethdev ids, e.g. 0,1");
		c->port[0].id = p0;
		c->port[1].id = p1;
		return 0;
	case O_DMAC0:
	case O_DMAC1:
		if (tgen_mac_parse(a, c->port[opt == O_DMAC1].dst_mac) < 0)
			return tgen_cli_bad("dst-mac", a, "bad MAC address");
		c->port[opt == O_DMAC1].dst_known = true;
		return 0;
	case O_GW0:
	case O_GW1:
		return tgen_ip_parse(a, &c->port[opt == O_GW1].gw) < 0
			       ? tgen_cli_bad("gw", a, "bad IPv4 address")
			       : 0;
	case O_IP0:
	case O_IP1:
		return tgen_ip_parse(a, &c->port[opt == O_IP1].ip) < 0
			       ? tgen_cli_bad("ip", a, "bad IPv4 address")
			       : 0;
	case O_PDR:
		return parse_double(a, 0, 1, &o->pdr_loss) < 0
			       ? tgen_cli_bad("pdr-loss", a, "a ratio in 0..1 (or 0..100%)")
			       : 0;
	case O_WIDTH:
		return parse_double(a, 1e-6, 0.5, &o->width) < 0
			       ? tgen_cli_bad("width", a, "a ratio in 0.000001..0.5")
			       : 0;
	case O_MAXT:
		if (parse_double(a, 1, 10000, &v) < 0)
			return tgen_cli_bad("max-trials", a, "1..10000");
		o->max_trials = (uint32_t)v;
		return 0;
	case O_MBUFS:
		if (parse_double(a, 1024, 1 << 22, &v) < 0)
			return tgen_cli_bad("mbufs", a, "1024..4194304");
		o->nb_mbufs = (uint32_t)v;
		return 0;
	case O_DESC:
		if (parse_double(a, 64, 16384, &v) < 0)
			return tgen_cli_bad("desc", a, "64..16384");
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

int
tgen_cli_parse(struct tgen_ctx *c, struct opts *o, int argc, char **argv)
{
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
	optind = 2;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h' || opt == O_HELP) {
			tgen_cli_usage(stdout);
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
