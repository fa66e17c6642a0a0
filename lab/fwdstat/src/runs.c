/* SPDX-License-Identifier: MIT */
/* runs.c - walks result trees and reads each run's meta.json, tgen.json and runtime dump. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "runs.h"
#include "util.h"

#define RUNS_MAX_DEPTH 3

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
copy_str(char *dst, size_t len, const struct json *j, const char *path, const char *dflt)
{
	str_copy(dst, len, json_str(j, path, dflt));
}

static const char *
base_name(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	snprintf(buf, len, "%.*s", (int)(path + n - b), b);
	return buf;
}

static int
run_read_meta(struct run *r, char *err, size_t errlen)
{
	char path[4096], jerr[128], parent[4096], *slash;
	struct json *j;

	snprintf(path, sizeof(path), "%s/meta.json", r->dir);
	j = json_parse_file(path, jerr, sizeof(jerr));
	if (j == NULL) {
		snprintf(err, errlen, "%s:%s", path, jerr);
		return -EINVAL;
	}
	r->has_meta = 1;
	base_name(r->dir, r->run, sizeof(r->run));
	copy_str(r->run, sizeof(r->run), j, "run", r->run);
	str_copy(parent, sizeof(parent), r->dir);
	slash = strrchr(parent, '/');
	if (slash != NULL && slash != parent)
		*slash = '\0';
	else
		snprintf(parent, sizeof(parent), ".");
	base_name(parent, r->campaign, sizeof(r->campaign));
	copy_str(r->campaign, sizeof(r->campaign), j, "campaign", r->campaign);
	copy_str(r->status, sizeof(r->status), j, "status", "incomplete");
	copy_str(r->failure, sizeof(r->failure), j, "failure", "");
	copy_str(r->experiment, sizeof(r->experiment), j, "experiment", "");
	copy_str(r->group, sizeof(r->group), j, "group", "A");
	copy_str(r->profile, sizeof(r->profile), j, "profile", "udp");
	copy_str(r->topology, sizeof(r->topology), j, "topology", "");
	copy_str(r->started_at, sizeof(r->started_at), j, "started_at", "");
	copy_str(r->dut, sizeof(r->dut), j, "dut.build_label", "");
	str_copy(r->build_label, sizeof(r->build_label), r->dut);
	if (r->dut[0] == '\0') /* a peer as swapped (vpp:verB), else its backend (testpmd-io) */
		copy_str(r->dut, sizeof(r->dut), j, "dut.spec", "");
	if (r->dut[0] == '\0')
		copy_str(r->dut, sizeof(r->dut), j, "dut.backend", "");
	if (r->dut[0] == '\0')
		copy_str(r->dut, sizeof(r->dut), j, "label", "dut");
	copy_str(r->variant, sizeof(r->variant), j, "dut.build.variant", "");
	copy_str(r->git_rev, sizeof(r->git_rev), j, "dut.build.git_rev", "");
	r->repeat = json_num(j, "repeat", 1) >= 0 && json_num(j, "repeat", 1) < 1e6
			    ? (int)json_num(j, "repeat", 1)
			    : 0;
	r->frame_size = json_num(j, "frame_size", NAN);
	r->flows = json_num(j, "flows", 1);
	r->ndr_path_bound = json_num(j, "calibration.ndr_path_bound", 0) != 0;
	json_free(j);
	return 0;
}

static int
run_read_tgen(struct run *r, char *err, size_t errlen)
{
	char path[4096], jerr[128];
	struct json *j;

	snprintf(path, sizeof(path), "%s/tgen.json", r->dir);
	if (!path_exists(path))
		return 0;
	j = json_parse_file(path, jerr, sizeof(jerr));
	if (j == NULL) {
		snprintf(err, errlen, "%s:%s", path, jerr);
		return -EINVAL;
	}
	r->has_tgen = 1;
	r->ndr_pps = json_num(j, "ndr.rate_pps", NAN);
	r->pdr_pps = json_num(j, "pdr.rate_pps", NAN);
	r->ndr_gen_bound = strcmp(json_str(j, "ndr.limited_by", "dut"), "generator") == 0;
	/* the generator's own shortfall, when tgen saw one, is the more specific bound */
	if (r->ndr_gen_bound)
		r->ndr_path_bound = 0;
	else
		r->ndr_gen_bound = r->ndr_path_bound;
	r->pdr_gen_bound = strcmp(json_str(j, "pdr.limited_by", "dut"), "generator") == 0;
	if (strcmp(json_str(j, "mode", ""), "run") == 0) {
		r->rx_pps = json_num(j, "trial.rx_pps", NAN);
		r->rx_gen_bound = json_num(j, "trial.generator_limited", 0) != 0;
	}
	r->link_bps = json_num(j, "link_bps", NAN);
	if (isnan(r->frame_size))
		r->frame_size = json_num(j, "profile.frame_size", NAN);
	json_free(j);
	return 0;
}

/* hops.json (fwdstat hops, written at the end of a run): an NDR whose bound is a hop of the
 * path (a link without counters lost what the DUT never saw) is path-bound, as one within the
 * calibrated ceiling is. A missing or unreadable hops.json changes nothing. */
static void
run_read_hops(struct run *r)
{
	char path[4096], jerr[128];
	const struct json *figs, *f;
	struct json *j;

	snprintf(path, sizeof(path), "%s/hops.json", r->dir);
	if (!path_exists(path))
		return;
	j = json_parse_file(path, jerr, sizeof(jerr));
	if (j == NULL)
		return;
	figs = json_get(j, "figures");
	for (f = figs != NULL ? figs->child : NULL; f != NULL; f = f->next)
		if (strcmp(json_str(f, "figure", ""), "NDR") == 0 &&
		    strncmp(json_str(f, "limited_by", ""), "path", 4) == 0 && !r->ndr_gen_bound)
			r->ndr_path_bound = r->ndr_gen_bound = 1;
	json_free(j);
}

static void
run_profile_key(struct run *r)
{
	int n;

	if (strcmp(r->profile, "imix") == 0 || isnan(r->frame_size))
		n = str_copy(r->profile_key, sizeof(r->profile_key), r->profile);
	else
		n = snprintf(r->profile_key, sizeof(r->profile_key), "%s/%.0fB", r->profile,
			     r->frame_size);
	if (r->flows > 1 && n > 0 && (size_t)n < sizeof(r->profile_key))
		snprintf(r->profile_key + n, sizeof(r->profile_key) - (size_t)n, "/%.0fflows",
			 r->flows);
}

static int
run_read_runtime(struct run *r, char *err, size_t errlen)
{
	static const char *const names[] = {"show_runtime.txt", "show_runtime.json"};
	char path[4096];

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, names[i]);
		if (!path_exists(path))
			continue;
		if (rt_load(path, &r->rt, err, errlen) != 0)
			return -EINVAL;
		r->has_rt = 1;
		return 0;
	}
	return 0;
}

static int
runs_add(struct runset *rs, const char *dir, int flags, char *err, size_t errlen)
{
	struct run *r;
	int ret;

	if (vec_reserve(&rs->v, &rs->cap, rs->n, sizeof(*rs->v)) != 0)
		return -ENOMEM;
	r = &rs->v[rs->n];
	memset(r, 0, sizeof(*r));
	r->ndr_pps = r->pdr_pps = r->rx_pps = r->link_bps = r->frame_size = NAN;
	r->dir = strdup(dir);
	if (r->dir == NULL)
		return -ENOMEM;
	rs->n++;
	ret = run_read_meta(r, err, errlen);
	if (ret == 0)
		ret = run_read_tgen(r, err, errlen);
	if (ret == 0)
		run_read_hops(r);
	if (ret == 0 && (flags & RUNS_LOAD_RUNTIME) && strcmp(r->status, "complete") == 0)
		ret = run_read_runtime(r, err, errlen);
	run_profile_key(r);
	return ret;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
runs_walk(struct runset *rs, const char *dir, int depth, int flags, char *err, size_t errlen)
{
	char path[4096], **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dh;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if (path_exists(path))
		return runs_add(rs, dir, flags, err, errlen);
	if (depth >= RUNS_MAX_DEPTH)
		return 0;
	dh = opendir(dir);
	if (dh == NULL) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(dh)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "report") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!is_dir(path))
			continue;
		if (vec_reserve(&names, &cap, n, sizeof(*names)) != 0 ||
		    (names[n] = strdup(path)) == NULL) {
			ret = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(dh);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = runs_walk(rs, names[i], depth + 1, flags, err, errlen);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int
runs_collect(char *const *paths, int npaths, int flags, struct runset *rs, char *err, size_t errlen)
{
	memset(rs, 0, sizeof(*rs));
	for (int i = 0; i < npaths; i++) {
		size_t before = rs->n;
		int ret;

		if (!is_dir(paths[i])) {
			snprintf(err, errlen, "%s: not a directory", paths[i]);
			return -ENOENT;
		}
		ret = runs_walk(rs, paths[i], 0, flags, err, errlen);
		if (ret != 0)
			return ret;
		if (rs->n == before)
			warnx_("%s: no run folders (with meta.json) found", paths[i]);
	}
	return 0;
}

void
runs_free(struct runset *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->v[i].dir);
		rt_free(&rs->v[i].rt);
	}
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
}

static int
cmp_runs(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	int c = strcmp(x->campaign, y->campaign);

	if (c == 0)
		c = strcmp(x->started_at, y->started_at);
	if (c == 0)
		c = strcmp(x->run, y->run);
	return c;
}

void
runs_sort(struct runset *rs)
{
	if (rs->n > 0)
		qsort(rs->v, rs->n, sizeof(*rs->v), cmp_runs);
}

int
run_usable(const struct run *r, int warn)
{
	if (strcmp(r->status, "complete") == 0)
		return 1;
	if (warn)
		warnx_("%s: skipped, status %s%s%s", r->dir, r->status, r->failure[0] ? ": " : "",
		       r->failure);
	return 0;
}
