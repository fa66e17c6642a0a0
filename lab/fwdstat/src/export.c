/* SPDX-License-Identifier: MIT */
/*
 * export.c - run folders as CSIT UTI test_case records, version 1.5.1 (the schema is
 * CSIT's resources/model_schema/test_case.schema.yaml; README "export --csit" maps each
 * field), and the runtime counters in CSIT's telemetry form (OpenMetrics text).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "export.h"
#include "json.h"
#include "util.h"

#define CSIT_MODEL_VERSION "1.5.1"

/* ---- names ---------------------------------------------------------------------------- */

/* "10ge", "25ge", "100me": the link speed as CSIT spells a NIC's. */
static void
nic_speed(double bps, char *buf, size_t len)
{
	if (isnan(bps) || bps <= 0)
		snprintf(buf, len, "10ge");
	else if (bps >= 1e9)
		snprintf(buf, len, "%.0fge", bps / 1e9);
	else
		snprintf(buf, len, "%.0fme", bps / 1e6);
}

/* Worker threads of a dump (CSIT's 1t1c: one thread per core, vfwd has no SMT threads). */
static int
dump_workers(const struct rt_dump *d)
{
	int n = 0;

	for (size_t t = 0; t < d->n; t++)
		if (rt_thread_is_worker(d, t))
			n++;
	return n > 0 ? n : 1;
}

int
export_names(const struct run *r, struct csit_names *n)
{
	char speed[16];
	int w;

	memset(n, 0, sizeof(*n));
	if (strcmp(r->experiment, "ndr") == 0)
		snprintf(n->type, sizeof(n->type), "ndrpdr");
	else if (strcmp(r->experiment, "run") == 0)
		snprintf(n->type, sizeof(n->type), "mrr");
	else
		return -EINVAL;
	nic_speed(r->link_bps, speed, sizeof(speed));
	/* CSIT: 10ge2p1x710 = 10GE, 2 ports, 1 NIC of model x710. Ours: the port pair's kind. */
	snprintf(n->nic, sizeof(n->nic), "%s2p1%s", speed,
		 strcmp(r->topology, "host") == 0 ? "vhost" : "virtio");
	if (strcmp(r->profile, "imix") == 0 || isnan(r->frame_size))
		snprintf(n->frame, sizeof(n->frame), "%s", strcmp(r->profile, "imix") == 0 ? "imix" : "0b");
	else
		snprintf(n->frame, sizeof(n->frame), "%.0fb", r->frame_size);
	w = r->has_rt ? dump_workers(&r->rt) : 1;
	snprintf(n->cores, sizeof(n->cores), "%dt%dc", w, w);
	snprintf(n->suite_part, sizeof(n->suite_part), "ethip4-ip4base-%s", n->type);
	snprintf(n->test_name_long, sizeof(n->test_name_long), "%s-%s-%s-%s", n->nic, n->frame,
		 n->cores, n->suite_part);
	snprintf(n->test_name_short, sizeof(n->test_name_short), "%s", n->suite_part);
	snprintf(n->suite, sizeof(n->suite), "2n1l-%s-%s", n->nic, n->suite_part);
	snprintf(n->test_id, sizeof(n->test_id), "tests.fwdlab.perf.ip4.%s.%s-%dc-%s", n->suite,
		 n->frame, w, n->suite_part);
	return 0;
}

/* ---- what the run folder holds --------------------------------------------------------- */

struct run_json {
	struct json *meta, *tgen;
};

static struct json *
load_json(const char *dir, const char *name, int required, char *err, size_t errlen)
{
	char path[4096], jerr[128];
	struct json *j;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!required && !path_exists(path))
		return NULL;
	j = json_parse_file(path, jerr, sizeof(jerr));
	if (j == NULL)
		snprintf(err, errlen, "%s:%s", path, jerr);
	return j;
}

/* "2026-12-01T11:49:58Z" -> seconds since the epoch; -1 when it is not that form. */
static double
utc_seconds(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (end == NULL || strcmp(end, "Z") != 0)
		return -1;
	return (double)timegm(&tm);
}

static void
file_mtime_utc(const char *dir, const char *name, char *buf, size_t len)
{
	char path[4096];
	struct stat st;
	struct tm tm;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st) != 0 || gmtime_r(&st.st_mtime, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		buf[0] = '\0';
}

/* ---- JSON writing ---------------------------------------------------------------------- */

static void
put_key(FILE *f, const char *key)
{
	json_put_str(f, key);
	fputs(": ", f);
}

static void
put_kv_str(FILE *f, const char *key, const char *v, int comma)
{
	put_key(f, key);
	json_put_str(f, v);
	fputs(comma ? ",\n  " : "\n  ", f);
}

/* {"rate": {"value": V, "unit": "pps"}, "bandwidth": {"value": L1 bps, "unit": "bps"}} */
static void
put_rate(FILE *f, double pps, double size)
{
	fputs("{\"rate\": {\"value\": ", f);
	json_put_num(f, pps < 0 ? 0 : pps);
	fputs(", \"unit\": \"pps\"}", f);
	if (!isnan(size) && size > 0) {
		fputs(", \"bandwidth\": {\"value\": ", f);
		json_put_num(f, round(pps * (size + 20) * 8));
		fputs(", \"unit\": \"bps\"}", f);
	}
	fputc('}', f);
}

/*
 * The relevant upper bound of a search (MLRsearch's term): the lowest rate offered by a
 * trial that failed the goal (loss above max_loss), above the lower bound. NaN when no
 * trial failed (the lower bound is then the maximum load or the generator's limit).
 */
static double
upper_bound(const struct json *tgen, double lower, double max_loss)
{
	const struct json *trials = json_get(tgen, "trials");
	double best = NAN;

	if (trials == NULL || trials->type != JSON_ARRAY)
		return NAN;
	for (const struct json *t = trials->child; t != NULL; t = t->next) {
		double rate = json_num(t, "rate_pps_offered", json_num(t, "rate_pps_requested", NAN));
		double loss = json_num(t, "loss_ratio", NAN);

		if (strcmp(json_str(t, "phase", ""), "warmup") == 0 || isnan(rate) || isnan(loss))
			continue;
		if (loss > max_loss && rate > lower && (isnan(best) || rate < best))
			best = rate;
	}
	return best;
}

/* One of ndr/pdr: lower and (when known) upper. */
static void
put_bounds(FILE *f, const struct json *tgen, const char *which, double max_loss, double size)
{
	char path[32];
	double lower, upper;

	snprintf(path, sizeof(path), "%s.rate_pps", which);
	lower = json_num(tgen, path, 0);
	/* MLRsearch (tgen --method mlrsearch) names its relevant upper bound itself */
	snprintf(path, sizeof(path), "%s.upper_pps", which);
	upper = json_num(tgen, path, NAN);
	if (isnan(upper) || upper <= 0)
		upper = upper_bound(tgen, lower, max_loss);
	fputs("{\"lower\": ", f);
	put_rate(f, lower, size);
	if (!isnan(upper)) {
		fputs(", \"upper\": ", f);
		put_rate(f, upper, size);
	}
	fputc('}', f);
}

/* The average frame size, for bandwidths: the frame size, or IMIX 64/594/1518 at 7:4:1. */
static double
mean_frame_size(const struct run *r)
{
	if (strcmp(r->profile, "imix") == 0)
		return (7.0 * 64 + 4.0 * 594 + 1518) / 12;
	return r->frame_size;
}

/* CSIT's latency loads, in its order. */
static const char *const lat_loads[] = {"pdr_0", "pdr_10", "pdr_50", "pdr_90"};

/* One direction's numbers at one load, usable by CSIT's rules: an HDR histogram and a max
 * above zero (the schema takes a zero max as a generator that failed to measure). */
static const struct json *
lat_numbers(const struct json *tgen, const char *load, const char *dir)
{
	char path[64];
	const struct json *l;

	snprintf(path, sizeof(path), "latency.%s.%s", load, dir);
	l = json_get(tgen, path);
	if (l == NULL || l->type != JSON_OBJECT || json_str(l, "hdrh", NULL) == NULL ||
	    json_num(l, "max", 0) < 1)
		return NULL;
	return l;
}

/* latency_forward / latency_reverse: pdr_0..pdr_90 {min, avg, max, hdrh, unit} from tgen's
 * latency trials at load (tgen --latency-loads); left out when tgen measured none. */
static void
put_latency(FILE *f, const struct json *tgen, const char *dir)
{
	size_t i;
	int any = 0;

	for (i = 0; i < sizeof(lat_loads) / sizeof(lat_loads[0]); i++) {
		const struct json *l = lat_numbers(tgen, lat_loads[i], dir);

		if (l == NULL)
			continue;
		if (any)
			fputs(", ", f);
		else
			fprintf(f, ", \"latency_%s\": {", dir);
		fprintf(f, "\"%s\": {", lat_loads[i]);
		fprintf(f, "\"min\": %.0f, \"avg\": %.0f, \"max\": %.0f, \"unit\": \"us\", \"hdrh\": ",
			json_num(l, "min", 0), json_num(l, "avg", 0), json_num(l, "max", 1));
		json_put_str(f, json_str(l, "hdrh", ""));
		fputc('}', f);
		any = 1;
	}
	if (any)
		fputc('}', f);
}

static void
put_result(FILE *f, const struct run *r, const struct json *tgen, const struct csit_names *n)
{
	double size = mean_frame_size(r);

	if (tgen == NULL || (strcmp(n->type, "ndrpdr") == 0 && json_get(tgen, "ndr.rate_pps") == NULL) ||
	    (strcmp(n->type, "mrr") == 0 && json_get(tgen, "trial.rx_pps") == NULL)) {
		fputs("{\"type\": \"unknown\"}", f);
		return;
	}
	if (strcmp(n->type, "mrr") == 0) {
		/* One trial per run: CSIT's MRR list with a single value (README). */
		double rx = json_num(tgen, "trial.rx_pps", 0);

		fputs("{\"type\": \"mrr\", \"receive_rate\": {\"rate\": {\"values\": [", f);
		json_put_num(f, rx);
		fputs("], \"avg\": ", f);
		json_put_num(f, rx);
		fputs(", \"stdev\": 0, \"unit\": \"pps\"}}}", f);
		return;
	}
	fputs("{\"type\": \"ndrpdr\", \"ndr\": ", f);
	put_bounds(f, tgen, "ndr", 0, size);
	fputs(", \"pdr\": ", f);
	put_bounds(f, tgen, "pdr", json_num(tgen, "params.pdr_loss_ratio", 0.005), size);
	put_latency(f, tgen, "forward");
	put_latency(f, tgen, "reverse");
	fputc('}', f);
}

/* CSIT's dut_type: VPP, DPDK, ...; ours: VFWD, or the peer's family. */
static const char *
dut_type(const char *backend)
{
	if (strcmp(backend, "vfwd") == 0 || backend[0] == '\0')
		return "VFWD";
	if (strncmp(backend, "testpmd", 7) == 0 || strncmp(backend, "l3fwd", 5) == 0)
		return "DPDK";
	if (strcmp(backend, "ovs-dpdk") == 0)
		return "OVS-DPDK";
	if (strcmp(backend, "vpp") == 0)
		return "VPP";
	if (strcmp(backend, "linux") == 0)
		return "LINUX";
	return "OTHER";
}

/* "0.1.0-g51a6cfa2994f" from a build-info object; "unknown" when it says nothing. */
static void
build_version(const struct json *build, char *buf, size_t len)
{
	const char *v = json_str(build, "version", "");
	const char *rev = json_str(build, "git_rev", "");

	if (v[0] == '\0' && rev[0] == '\0')
		snprintf(buf, len, "unknown");
	else if (rev[0] == '\0' || strcmp(rev, "unknown") == 0)
		snprintf(buf, len, "%s", v[0] ? v : "unknown");
	else
		snprintf(buf, len, "%s%sg%s", v, v[0] ? "-" : "", rev);
}

static void
put_tags(FILE *f, const struct run *r, const struct json *tgen, const struct csit_names *n)
{
	char buf[64];
	const char *ndr = strcmp(n->type, "ndrpdr") == 0 ? "NDRPDR" : "MRR";
	int host = strcmp(r->topology, "host") == 0;
	int w = atoi(n->cores);

	fputs("[\"2N1L\", \"2_NODE_SINGLE_LINK_TOPO\", \"PERFTEST\", ", f);
	json_put_str(f, host ? "HOST_ENV" : "VM_ENV");
	fputs(", ", f);
	json_put_str(f, ndr);
	fputs(", ", f);
	json_put_str(f, host ? "NIC_vhost-user" : "NIC_virtio");
	fputs(", ", f);
	json_put_str(f, host ? "DRV_VIRTIO_USER" : "DRV_VIRTIO_PCI");
	fputs(", \"ETH\", \"IP4FWD\", \"BASE\", \"IP4BASE\", ", f);
	snprintf(buf, sizeof(buf), "%s", n->frame);
	for (char *p = buf; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	json_put_str(f, buf);
	snprintf(buf, sizeof(buf), "%dC", w);
	fputs(", ", f);
	json_put_str(f, buf);
	snprintf(buf, sizeof(buf), "%dT%dC", w, w);
	fputs(", ", f);
	json_put_str(f, buf);
	fputs(", \"ethip4-ip4base\"", f);
	if (tgen != NULL && (strcmp(json_str(tgen, "ndr.limited_by", ""), "generator") == 0 ||
			     json_num(tgen, "trial.generator_limited", 0) != 0))
		fputs(", \"GENERATOR_BOUND\"", f);
	fputc(']', f);
}

static void
put_hosts(FILE *f, const struct run *r)
{
	if (strcmp(r->topology, "host") == 0)
		fputs("[\"127.0.0.1\"]", f);
	else /* b2b: the management addresses of tg and dut (topologies/README.md) */
		fputs("[\"192.168.150.10\", \"192.168.150.11\"]", f);
}

/* ---- OpenMetrics ----------------------------------------------------------------------- */

static void
om_label_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const struct om_family {
	const char *name, *type, *help;
} om_families[] = {
	{"vpp_runtime_calls", "counter", "Calls of the node since the last clear runtime."},
	{"vpp_runtime_vectors", "counter", "Vectors (packets) the node processed."},
	{"vpp_runtime_suspends", "counter", "Suspends of the node (process nodes)."},
	{"vpp_runtime_clocks", "gauge",
	 "The Clocks column of show runtime: clocks per vector, else per call."},
};

static double
om_value(const struct rt_node *n, size_t family)
{
	switch (family) {
	case 0:
		return n->calls;
	case 1:
		return n->vectors;
	case 2:
		return n->suspends;
	default:
		return n->clocks;
	}
}

int
export_openmetrics(const struct rt_dump *d, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (f == NULL)
		return -errno;
	for (size_t k = 0; k < sizeof(om_families) / sizeof(om_families[0]); k++) {
		const struct om_family *fam = &om_families[k];
		int counter = strcmp(fam->type, "counter") == 0;

		fprintf(f, "# TYPE %s %s\n# HELP %s %s\n", fam->name, fam->type, fam->name,
			fam->help);
		for (size_t t = 0; t < d->n; t++) {
			const struct rt_thread *th = &d->threads[t];

			for (size_t i = 0; i < th->n; i++) {
				fprintf(f, "%s%s{name=", fam->name, counter ? "_total" : "");
				om_label_value(f, th->nodes[i].name);
				fputs(",state=", f);
				om_label_value(f, th->nodes[i].state);
				fputs(",thread_name=", f);
				om_label_value(f, th->name);
				/* An old VPP dump without "(lcore N)" has no lcore label. */
				fprintf(f, ",thread_id=\"%d\"", th->index);
				if (th->lcore >= 0)
					fprintf(f, ",thread_lcore=\"%d\"", th->lcore);
				fputs("} ", f);
				json_put_num(f, om_value(&th->nodes[i], k));
				fputc('\n', f);
			}
		}
	}
	fputs("# EOF\n", f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/* The sample lines of an OpenMetrics text as JSON strings (the record's telemetry). */
static void
put_telemetry(FILE *f, const char *om)
{
	int first = 1;

	fputc('[', f);
	while (om != NULL && *om) {
		const char *nl = strchr(om, '\n');
		size_t n = nl != NULL ? (size_t)(nl - om) : strlen(om);
		char line[1024];

		if (om[0] != '#' && n > 0 && n < sizeof(line)) {
			memcpy(line, om, n);
			line[n] = '\0';
			fputs(first ? "\n    " : ",\n    ", f);
			json_put_str(f, line);
			first = 0;
		}
		om = nl != NULL ? nl + 1 : NULL;
	}
	fputs(first ? "]" : "\n  ]", f);
}

/* ---- one record ------------------------------------------------------------------------ */

static int
export_write(const char *dir, const char *name, const char *data, size_t len)
{
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = file_write_atomic(path, data, len);
	if (ret != 0)
		warnx_("%s: %s", path, strerror(-ret));
	else
		printf("%s\n", path);
	return ret;
}

static void
put_record(FILE *f, const struct run *r, const struct run_json *j, const struct csit_names *n,
	   const char *om)
{
	char start[32], end[32], dver[96], tver[96], doc[512];
	const struct json *tbuild = j->tgen != NULL ? json_get(j->tgen, "build") : NULL;
	const char *tool = j->tgen != NULL ? json_str(j->tgen, "tool", "tgen") : "tgen";
	int passed = strcmp(r->status, "complete") == 0;
	double t0, t1;

	str_copy(start, sizeof(start), json_str(j->meta, "started_at", ""));
	str_copy(end, sizeof(end), json_str(j->meta, "finished_at", ""));
	if (end[0] == '\0')
		file_mtime_utc(r->dir, "meta.json", end, sizeof(end));
	if (start[0] == '\0')
		str_copy(start, sizeof(start), end);
	t0 = utc_seconds(start);
	t1 = utc_seconds(end);
	build_version(json_get(j->meta, "dut.build"), dver, sizeof(dver));
	build_version(tbuild, tver, sizeof(tver));
	snprintf(doc, sizeof(doc), "fwdlab %s run %s/%s on the %s topology", r->experiment,
		 r->campaign, r->run, r->topology);

	fputs("{\n  ", f);
	put_key(f, "version");
	fputs("\"" CSIT_MODEL_VERSION "\",\n  ", f);
	put_kv_str(f, "test_id", n->test_id, 1);
	put_kv_str(f, "test_name_long", n->test_name_long, 1);
	put_kv_str(f, "test_name_short", n->test_name_short, 1);
	put_kv_str(f, "test_type", n->type, 1);
	put_kv_str(f, "test_documentation", doc, 1);
	put_key(f, "tags");
	put_tags(f, r, j->tgen, n);
	fputs(",\n  ", f);
	put_kv_str(f, "dut_type", dut_type(json_str(j->meta, "dut.backend", "vfwd")), 1);
	put_kv_str(f, "dut_version", dver, 1);
	{
		char tt[32];

		snprintf(tt, sizeof(tt), "%s", tool[0] ? tool : "tgen");
		for (char *p = tt; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		put_kv_str(f, "tg_type", tt, 1);
	}
	put_kv_str(f, "tg_version", tver, 1);
	put_key(f, "hosts");
	put_hosts(f, r);
	fputs(",\n  ", f);
	put_kv_str(f, "start_time", start, 1);
	put_kv_str(f, "end_time", end, 1);
	put_key(f, "duration");
	json_put_num(f, t0 >= 0 && t1 >= t0 ? t1 - t0 : 0);
	fputs(",\n  ", f);
	put_key(f, "passed");
	fputs(passed ? "true,\n  " : "false,\n  ", f);
	if (passed) {
		put_kv_str(f, "message", "", 1);
	} else {
		char msg[256];

		snprintf(msg, sizeof(msg), "run %s%s%s", r->status, r->failure[0] ? ": " : "",
			 r->failure);
		put_kv_str(f, "message", msg, 1);
	}
	put_key(f, "result");
	if (passed)
		put_result(f, r, j->tgen, n);
	else
		fputs("{\"type\": \"unknown\"}", f);
	fputs(",\n  ", f);
	put_key(f, "telemetry");
	put_telemetry(f, om);
	fputs("\n}\n", f);
}

static int
export_one(const struct run *r, const struct export_opts *o)
{
	char dir[4096], err[4400], name[200], *buf = NULL, *om = NULL;
	size_t len = 0, omlen = 0;
	struct run_json j = {NULL, NULL};
	struct csit_names n;
	FILE *f;
	int ret;

	if (export_names(r, &n) != 0)
		return 0; /* a dump run, or no experiment: not a test */
	j.meta = load_json(r->dir, "meta.json", 1, err, sizeof(err));
	if (j.meta == NULL) {
		warnx_("%s", err);
		return -EINVAL;
	}
	err[0] = '\0';
	j.tgen = load_json(r->dir, "tgen.json", 0, err, sizeof(err));
	if (j.tgen == NULL && err[0] != '\0') {
		warnx_("%s", err);
		json_free(j.meta);
		return -EINVAL;
	}
	ret = 0;
	if (o->openmetrics && r->has_rt)
		ret = export_openmetrics(&r->rt, &om, &omlen);
	f = ret == 0 ? open_memstream(&buf, &len) : NULL;
	if (f == NULL) {
		ret = ret != 0 ? ret : -errno;
		goto out;
	}
	put_record(f, r, &j, &n, om);
	if (fclose(f) != 0) {
		ret = -EIO;
		goto out;
	}
	snprintf(dir, sizeof(dir), "%s/%s/%s", o->out, r->campaign, r->run);
	ret = mkdir_p(dir);
	if (ret != 0) {
		warnx_("%s: %s", dir, strerror(-ret));
		goto out;
	}
	snprintf(name, sizeof(name), "%s.info.json", n.test_name_long);
	ret = export_write(dir, name, buf, len);
	if (ret == 0 && om != NULL) {
		snprintf(name, sizeof(name), "%s.om", n.test_name_long);
		ret = export_write(dir, name, om, omlen);
	}
out:
	free(buf);
	free(om);
	json_free(j.meta);
	json_free(j.tgen);
	return ret;
}

int
export_csit(const struct runset *rs, const struct export_opts *o)
{
	int ret = 0, n = 0;

	for (size_t i = 0; i < rs->n && ret == 0; i++) {
		struct csit_names names;

		if (export_names(&rs->v[i], &names) != 0)
			continue;
		ret = export_one(&rs->v[i], o);
		n++;
	}
	if (ret == 0 && n == 0)
		warnx_("export: no ndr or run experiments among the run folders");
	return ret;
}
