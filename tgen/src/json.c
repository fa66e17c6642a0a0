/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen's JSON output (schema: HACKING.md, "tgen JSON"). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

void
tgen_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s != NULL && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* One direction's latency (microseconds), CSIT's latency_numbers plus our count and curve;
 * null when no packet of that direction came back. */
void
tgen_json_dir_lat(FILE *f, const struct tgen_dir_lat *l)
{
	int i;

	if (l->count == 0) {
		fputs("null", f);
		return;
	}
	fprintf(f,
		"{\"unit\": \"us\", \"count\": %" PRIu64 ", \"min\": %" PRIu64 ", \"avg\": %" PRIu64
		", \"max\": %" PRIu64 ", \"clamped\": %" PRIu64 ", \"percentiles\": [",
		l->count, l->min_us, l->avg_us, l->max_us, l->clamped);
	for (i = 0; i < TGEN_LAT_CURVE_N; i++)
		fprintf(f, "%s[%g, %" PRIu64 "]", i ? ", " : "", tgen_lat_curve_pct[i],
			l->curve_us[i]);
	fputs("], \"hdrh\": ", f);
	tgen_json_str(f, l->hdrh);
	fputc('}', f);
}

void
tgen_json_trial(FILE *f, const struct tgen_result *r)
{
	fprintf(f, "{\"index\": %u, \"phase\": ", r->index);
	tgen_json_str(f, r->phase);
	fprintf(f,
		", \"rate_pps_requested\": %.3f, \"duration_s\": %.6f, \"tx_packets\": %" PRIu64
		", \"rx_packets\": %" PRIu64 ", \"loss_packets\": %" PRIu64
		", \"loss_ratio\": %.9g, \"tx_pps\": %.3f, \"rx_pps\": %.3f, \"tx_bps\": %.0f"
		", \"rx_bps\": %.0f, \"reordered\": %" PRIu64 ", \"duplicates\": %" PRIu64
		", \"tx_refused\": %" PRIu64 ", \"late_packets\": %" PRIu64
		", \"rx_other\": %" PRIu64 ", \"pacer_skipped\": %" PRIu64,
		r->rate_pps_requested, r->duration_s, r->tx_packets, r->rx_packets, r->loss_packets,
		r->loss_ratio, r->tx_pps, r->rx_pps, r->tx_bps, r->rx_bps, r->reordered,
		r->duplicates, r->tx_refused, r->late_packets, r->rx_other, r->pacer_skipped);
	fprintf(f, ", \"rate_pps_offered\": %.3f, \"generator_limited\": %s", r->rate_pps_offered,
		r->generator_limited ? "true" : "false");
	fprintf(f,
		", \"pacing\": \"%s\", \"burst\": %u, \"sleeps\": %" PRIu64 ", \"slept_s\": %.6f",
		tgen_pacing_name(r->pacing_sleep), r->burst, r->sleeps, (double)r->slept_ns / 1e9);
	fputs(", \"threads\": [", f);
	for (unsigned i = 0; i < r->n_threads; i++) {
		fprintf(f, "%s{\"tid\": %u, \"name\": ", i ? ", " : "", r->threads[i].tid);
		tgen_json_str(f, r->threads[i].name);
		fprintf(f, ", \"cpu_s\": %.6f}", (double)r->threads[i].cpu_ns / 1e9);
	}
	fputc(']', f);
	fprintf(f,
		", \"latency_ns\": {\"min\": %" PRIu64 ", \"avg\": %" PRIu64 ", \"max\": %" PRIu64
		", \"p50\": %" PRIu64 ", \"p90\": %" PRIu64 ", \"p99\": %" PRIu64
		", \"p999\": %" PRIu64 "}",
		r->lat_min, r->lat_avg, r->lat_max, r->lat_p50, r->lat_p90, r->lat_p99,
		r->lat_p999);
	fputs(", \"latency_us\": [", f);
	tgen_json_dir_lat(f, &r->dlat[0]);
	fputs(", ", f);
	tgen_json_dir_lat(f, &r->dlat[1]);
	fputc(']', f);
	fprintf(f,
		", \"directions\": [{\"tx_packets\": %" PRIu64 ", \"rx_packets\": %" PRIu64
		"}, {\"tx_packets\": %" PRIu64 ", \"rx_packets\": %" PRIu64 "}]}",
		r->dir_tx[0], r->dir_rx[0], r->dir_tx[1], r->dir_rx[1]);
}

/* The build-info.json next to the binary (bin/../build-info.json), or null. */
void
tgen_json_build_info(FILE *f)
{
	char exe[PATH_MAX], path[PATH_MAX + 32], *slash, *buf = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len = 0;
	FILE *in;

	if (n <= 0)
		goto out_null;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		goto out_null;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/../build-info.json", exe);
	in = fopen(path, "r");
	if (in == NULL)
		goto out_null;
	if (getdelim(&buf, &len, '\0', in) > 0) {
		/* trim the trailing newline(s) */
		n = (ssize_t)strlen(buf);
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
			buf[--n] = '\0';
		fputs(buf, f);
		free(buf);
		fclose(in);
		return;
	}
	free(buf);
	fclose(in);
out_null:
	fputs("null", f);
}

/* Opens PATH.tmp for writing ("-": stdout). */
FILE *
tgen_json_open(const char *path)
{
	char tmp[PATH_MAX];

	if (strcmp(path, "-") == 0)
		return stdout;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	return fopen(tmp, "w");
}

int
tgen_json_close(FILE *f, const char *path)
{
	char tmp[PATH_MAX];
	int ret = 0;

	if (f == stdout) {
		fflush(f);
		return 0;
	}
	if (fclose(f) != 0)
		ret = -errno;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (ret == 0 && rename(tmp, path) != 0)
		ret = -errno;
	return ret;
}
