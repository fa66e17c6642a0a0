/* SPDX-License-Identifier: MIT */
/*
 * runtime.c - reads `show runtime` dumps.
 *
 * Text: VPP's vlib layout, per thread
 *   Thread 1 vpp_wk_0 (lcore 2)                   (absent when there is one thread)
 *   Time 9.0, 10 sec internal node vector rate ... (or the older "average vectors/node")
 *     vector rates in ..., out ..., drop ..., punt ...
 *   Name State Calls Vectors Suspends Clocks Vectors/Call
 *   <name %-30s><state %=12s><calls %16d><vectors %16d><suspends %16d><%16.2e><%16.2f>
 * Threads are separated by a dashed line. Names longer than 30 characters may run into the
 * state, and VPP cuts "interrupt wait" to "interrupt wa", so a row is read from the right:
 * five numbers, then a known state at the end of what is left, the rest being the name.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "runtime.h"
#include "util.h"

static const char *const rt_states[] = {
	"interrupt wait", "interrupt wa", "event wait", "time wait", "any wait",
	"polling",	  "active",	  "disabled",	"done",	     "suspended",
};

void
rt_free(struct rt_dump *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->threads[i].nodes);
	free(d->threads);
	memset(d, 0, sizeof(*d));
}

static struct rt_thread *
rt_thread_add(struct rt_dump *d, int index, const char *name, int lcore)
{
	struct rt_thread *t;

	if (vec_reserve(&d->threads, &d->cap, d->n, sizeof(*d->threads)) != 0)
		return NULL;
	t = &d->threads[d->n++];
	memset(t, 0, sizeof(*t));
	t->index = index;
	t->lcore = lcore;
	str_copy(t->name, sizeof(t->name), name);
	return t;
}

static struct rt_node *
rt_node_add(struct rt_thread *t)
{
	struct rt_node *n;

	if (vec_reserve(&t->nodes, &t->cap, t->n, sizeof(*t->nodes)) != 0)
		return NULL;
	n = &t->nodes[t->n++];
	memset(n, 0, sizeof(*n));
	n->clocks_total = NAN;
	return n;
}

static int
is_number_token(const char *s, size_t n, double *out)
{
	char tmp[64];
	char *end;

	if (n == 0 || n >= sizeof(tmp))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strchr("0123456789.eE+-", s[i]) == NULL || s[i] == '\0')
			return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*out = strtod(tmp, &end);
	return *end == '\0' && isfinite(*out) && *out >= 0;
}

static size_t
rtrim_len(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

/* Splits "name   state" (already right-trimmed, n bytes) into its two fields. */
static int
rt_split_name_state(const char *s, size_t n, struct rt_node *node)
{
	size_t name_len = 0, i;
	const char *state = "";

	for (i = 0; i < sizeof(rt_states) / sizeof(rt_states[0]); i++) {
		size_t sl = strlen(rt_states[i]);

		if (n > sl && memcmp(s + n - sl, rt_states[i], sl) == 0) {
			name_len = rtrim_len(s, n - sl);
			state = rt_states[i];
			break;
		}
	}
	if (name_len == 0) {
		/* Unknown state: the name is the first word, the state the rest. */
		for (name_len = 0; name_len < n && !isspace((unsigned char)s[name_len]);)
			name_len++;
		state = s + name_len;
		while (isspace((unsigned char)*state))
			state++;
		snprintf(node->state, sizeof(node->state), "%.*s", (int)(s + n - state), state);
	} else {
		str_copy(node->state, sizeof(node->state), state);
	}
	if (name_len == 0 || name_len >= RT_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < name_len; i++)
		if (isspace((unsigned char)s[i]))
			return -EINVAL;
	memcpy(node->name, s, name_len);
	node->name[name_len] = '\0';
	if (strcmp(node->state, "interrupt wa") == 0)
		snprintf(node->state, sizeof(node->state), "interrupt wait");
	return 0;
}

/* Parses one table row of n bytes (no newline). */
static int
rt_parse_row(const char *s, size_t n, struct rt_node *node)
{
	double v[5];
	size_t end = rtrim_len(s, n);

	for (int k = 4; k >= 0; k--) {
		size_t start = end;

		while (start > 0 && !isspace((unsigned char)s[start - 1]))
			start--;
		if (!is_number_token(s + start, end - start, &v[k]))
			return -EINVAL;
		end = rtrim_len(s, start);
	}
	if (rt_split_name_state(s, end, node) != 0)
		return -EINVAL;
	node->calls = v[0];
	node->vectors = v[1];
	node->suspends = v[2];
	node->clocks = v[3];
	node->vpc = v[4];
	return 0;
}

static int
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A CLI prompt: the first word ends with '#' or '>' ("vpp#", "DBGvpp#", "vfwd>"). */
static int
is_prompt(const char *s)
{
	size_t n = strcspn(s, " \t");

	return n > 0 && (s[n - 1] == '#' || s[n - 1] == '>');
}

/* vfwd: "rx-mode adaptive (ran: ...), sleeps N, asleep S s, cpu time S s (N clocks)" */
static void
rt_parse_rx_mode(const char *t, struct rt_thread *cur)
{
	const char *c = strstr(t, "cpu time ");
	double secs, clocks;

	if (sscanf(t, "rx-mode %15s", cur->rx_mode) != 1)
		cur->rx_mode[0] = '\0';
	if (c != NULL && sscanf(c, "cpu time %lf s (%lf clocks)", &secs, &clocks) == 2 &&
	    isfinite(clocks) && clocks >= 0) {
		cur->cpu_known = 1;
		cur->cpu_clocks = clocks;
	}
}

/* "Thread 1 vpp_wk_0 (lcore 2)" or "Thread 0 vpp_main" */
static int
rt_parse_thread_line(const char *s, struct rt_dump *d, struct rt_thread **cur)
{
	int index, lcore = -1, used = 0;
	char name[64] = "";
	const char *lc;

	if (sscanf(s, "Thread %d %63s%n", &index, name, &used) < 1 || index < 0)
		return -EINVAL;
	lc = strstr(s, "(lcore ");
	if (lc != NULL && sscanf(lc, "(lcore %d)", &lcore) != 1)
		lcore = -1;
	*cur = rt_thread_add(d, index, name, lcore);
	return *cur == NULL ? -ENOMEM : 0;
}

static int
rt_parse_text(const char *buf, size_t len, const char *fname, struct rt_dump *d, char *err,
	      size_t errlen)
{
	struct rt_thread *cur = NULL;
	const char *p = buf, *end = buf + len;
	int line = 0, rows = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char s[512];
		const char *t;

		line++;
		n = rtrim_len(p, n);
		if (memchr(p, '\0', n) != NULL) {
			snprintf(err, errlen, "%s:%d: NUL byte in a text dump", fname, line);
			return -EINVAL;
		}
		snprintf(s, sizeof(s), "%.*s", (int)(n < sizeof(s) ? n : sizeof(s) - 1), p);
		p = nl != NULL ? nl + 1 : end;
		for (t = s; isspace((unsigned char)*t); t++)
			;
		if (*t == '\0' || starts_with(t, "---") || starts_with(t, "vector rates"))
			continue;
		if (starts_with(t, "rx-mode ") && cur != NULL && !cur->header_seen) {
			rt_parse_rx_mode(t, cur);
			continue;
		}
		if (starts_with(s, "Thread ")) {
			if (rt_parse_thread_line(s, d, &cur) != 0)
				goto bad;
			continue;
		}
		if (starts_with(s, "Time ")) {
			if (cur == NULL || cur->time_seen)
				cur = rt_thread_add(d, (int)d->n, d->n ? "" : "main", -1);
			if (cur == NULL)
				return -ENOMEM;
			cur->time_seen = 1;
			continue;
		}
		if (starts_with(t, "Name ") &&
		    (strstr(t, "Calls") != NULL || strstr(t, "Max Node Clocks") != NULL)) {
			if (strstr(t, "Max Node Clocks") != NULL) {
				snprintf(err, errlen,
					 "%s:%d: `show runtime max` is not supported, "
					 "dump `show runtime`",
					 fname, line);
				return -EINVAL;
			}
			if (strstr(t, "Vectors/Call") == NULL || strstr(t, "Clocks") == NULL)
				goto bad;
			if (cur == NULL)
				cur = rt_thread_add(d, 0, "main", -1);
			if (cur == NULL)
				return -ENOMEM;
			cur->header_seen = 1;
			continue;
		}
		if (cur == NULL || !cur->header_seen || t != s || is_prompt(s))
			continue; /* preamble, indented notes, prompts */
		{
			struct rt_node *node = rt_node_add(cur);

			if (node == NULL)
				return -ENOMEM;
			if (n >= sizeof(s) || rt_parse_row(s, strlen(s), node) != 0) {
				cur->n--;
				goto bad;
			}
			rows++;
		}
		continue;
	bad:
		snprintf(err, errlen, "%s:%d: not a show runtime line: '%.60s'", fname, line, s);
		return -EINVAL;
	}
	if (rows == 0 && (d->n == 0 || !d->threads[0].header_seen)) {
		snprintf(err, errlen,
			 "%s:%d: no show runtime table (header 'Name State Calls "
			 "Vectors Suspends Clocks Vectors/Call') found",
			 fname, line);
		return -EINVAL;
	}
	return 0;
}

static double
jnum_any(const struct json *o, const char *a, const char *b, double dflt)
{
	double v = json_num(o, a, NAN);

	if (isnan(v) && b != NULL)
		v = json_num(o, b, NAN);
	return isnan(v) ? dflt : v;
}

static int
clamp_int(double v)
{
	if (!(v >= -1))
		return -1;
	return v > 1e6 ? 1000000 : (int)v;
}

static int
rt_json_thread(const struct json *jt, size_t pos, struct rt_dump *d)
{
	const struct json *nodes = json_get(jt, "nodes"), *jn;
	struct rt_thread *t;

	if (jt->type != JSON_OBJECT || nodes == NULL || nodes->type != JSON_ARRAY)
		return -EINVAL;
	t = rt_thread_add(
		d,
		clamp_int(jnum_any(jt, "index", "thread", jnum_any(jt, "id", NULL, (double)pos))),
		json_str(jt, "name", ""), clamp_int(jnum_any(jt, "lcore", NULL, -1)));
	if (t == NULL)
		return -ENOMEM;
	t->time_seen = t->header_seen = 1;
	t->cpu_clocks = jnum_any(jt, "cpu_clocks", NULL, NAN);
	t->cpu_known = isfinite(t->cpu_clocks) && t->cpu_clocks >= 0;
	str_copy(t->rx_mode, sizeof(t->rx_mode), json_str(jt, "rx_mode", ""));
	for (jn = nodes->child; jn != NULL; jn = jn->next) {
		struct rt_node *n = rt_node_add(t);
		const char *name = json_str(jn, "name", NULL);

		if (n == NULL)
			return -ENOMEM;
		if (name == NULL || name[0] == '\0' || strlen(name) >= RT_NAME_MAX)
			return -EINVAL;
		str_copy(n->name, sizeof(n->name), name);
		str_copy(n->state, sizeof(n->state), json_str(jn, "state", ""));
		n->calls = jnum_any(jn, "calls", NULL, 0);
		n->vectors = jnum_any(jn, "vectors", NULL, 0);
		n->suspends = jnum_any(jn, "suspends", NULL, 0);
		n->clocks = jnum_any(jn, "clocks", "clocks_per_vector", 0);
		n->clocks_total = jnum_any(jn, "clocks_total", "total_clocks", NAN);
		n->vpc = n->calls > 0 ? n->vectors / n->calls : 0;
		n->vpc = jnum_any(jn, "vectors_per_call", NULL, n->vpc);
	}
	return 0;
}

static int
rt_parse_json(const char *buf, size_t len, const char *fname, struct rt_dump *d, char *err,
	      size_t errlen)
{
	char jerr[128];
	struct json *j = json_parse(buf, len, jerr, sizeof(jerr));
	const struct json *threads, *jt;
	size_t pos = 0;
	int ret = 0;

	if (j == NULL) {
		snprintf(err, errlen, "%s:%s", fname, jerr);
		return -EINVAL;
	}
	threads = j->type == JSON_ARRAY ? j : json_get(j, "threads");
	if (threads == NULL || threads->type != JSON_ARRAY) {
		snprintf(err, errlen, "%s:1: JSON dump without a \"threads\" array", fname);
		ret = -EINVAL;
		goto out_free;
	}
	for (jt = threads->child; jt != NULL; jt = jt->next, pos++) {
		ret = rt_json_thread(jt, pos, d);
		if (ret != 0) {
			snprintf(err, errlen,
				 "%s:1: thread %zu: expected {\"nodes\": [{\"name\", "
				 "\"calls\", \"vectors\", \"suspends\", \"clocks\"}]}",
				 fname, pos);
			goto out_free;
		}
	}
out_free:
	json_free(j);
	return ret;
}

int
rt_parse(const char *buf, size_t len, const char *name, struct rt_dump *d, char *err, size_t errlen)
{
	size_t i = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	if (i < len && (buf[i] == '{' || buf[i] == '['))
		ret = rt_parse_json(buf, len, name, d, err, errlen);
	else
		ret = rt_parse_text(buf, len, name, d, err, errlen);
	if (ret != 0)
		rt_free(d);
	return ret;
}

int
rt_load(const char *path, struct rt_dump *d, char *err, size_t errlen)
{
	size_t len;
	char *buf = file_read(path, &len);
	int ret;

	if (buf == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		memset(d, 0, sizeof(*d));
		return -errno;
	}
	ret = rt_parse(buf, len, path, d, err, errlen);
	free(buf);
	return ret;
}

double
rt_node_total_clocks(const struct rt_node *n)
{
	if (!isnan(n->clocks_total))
		return n->clocks_total;
	if (n->vectors > 0)
		return n->clocks * n->vectors;
	if (n->calls > 0)
		return n->clocks * n->calls;
	return n->clocks * n->suspends;
}

int
rt_thread_is_worker(const struct rt_dump *d, size_t t)
{
	return d->n == 1 || d->threads[t].index != 0;
}

struct rt_figure
rt_node_figure(const struct rt_dump *d, const char *node, int thread)
{
	struct rt_figure f = {0, 0, 0, 0, 0, NAN, NAN};

	for (size_t t = 0; t < d->n; t++) {
		const struct rt_thread *th = &d->threads[t];

		if (thread == RT_WORKERS && !rt_thread_is_worker(d, t))
			continue;
		if (thread >= 0 && th->index != thread)
			continue;
		for (size_t i = 0; i < th->n; i++) {
			const struct rt_node *n = &th->nodes[i];

			if (strcmp(n->name, node) != 0)
				continue;
			f.found++;
			f.clocks += rt_node_total_clocks(n);
			f.calls += n->calls;
			f.vectors += n->vectors;
			f.suspends += n->suspends;
		}
	}
	if (f.vectors > 0)
		f.clocks_per_packet = f.clocks / f.vectors;
	if (f.calls > 0)
		f.vectors_per_call = f.vectors / f.calls;
	return f;
}

double
rt_cpu_clocks_per_packet(const struct rt_dump *d, int thread, const char **mode)
{
	double clocks = 0, pkts = 0;
	int any = 0;

	*mode = "";
	for (size_t t = 0; t < d->n; t++) {
		const struct rt_thread *th = &d->threads[t];

		if ((thread == RT_WORKERS && !rt_thread_is_worker(d, t)) ||
		    (thread >= 0 && th->index != thread))
			continue;
		if (!th->cpu_known)
			return NAN;
		any = 1;
		clocks += th->cpu_clocks;
		*mode = (*mode)[0] == '\0' || strcmp(*mode, th->rx_mode) == 0 ? th->rx_mode
									      : "mixed";
		for (size_t i = 0; i < th->n; i++) {
			size_t n = strlen(th->nodes[i].name);

			if (n > 3 && strcmp(th->nodes[i].name + n - 3, "-rx") == 0)
				pkts += th->nodes[i].vectors;
		}
	}
	return any && pkts > 0 ? clocks / pkts : NAN;
}
