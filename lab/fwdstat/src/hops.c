/* SPDX-License-Identifier: MIT */
/*
 * hops.c - where each trial's packets went, hop by hop.
 *
 * A direction of a trial is a chain of counts, from what the generator was asked to send to
 * what it received back:
 *
 *   requested -> sent -> arrived at the DUT's port -> received by it -> handed to the other
 *   port's tx -> sent by the DUT -> arrived at the generator's port -> counted by it
 *
 * and a hop is the step between two counts: generator tx, link, dut rx, dut graph, dut tx,
 * link, generator rx. A hop's loss is its input minus its output, so the losses add up to
 * exactly what the generator missed; each hop lists what its own counters say about its loss
 * (rx-miss, drops per node and reason, tx-error, ...), and the rest is "unaccounted": never
 * spread over other hops. A link has no counters of its own (path (no counters)); a count
 * the dumps do not give (no port counters of the trial's own) merges the hops around it.
 * lost_at is the first hop that lost a packet, limited_by its kind.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hops.h"
#include "json.h"
#include "util.h"

#define MAX_REASONS 64
#define MAX_HOPS 16

struct reason {
	char name[128];
	double n;
};

struct reasons {
	struct reason v[MAX_REASONS];
	int n;
};

struct hop {
	char name[24];	  /* generator tx, link, dut rx, dut graph, dut tx, generator rx, ... */
	char at[48];	  /* tg port0, tg port0 -> dut port0, dut port0, ... */
	const char *kind; /* generator, path, dut */
	int counters;	  /* 0: the hop has no counters of its own */
	int dir;
	double in, out;
	struct reasons r;
};

struct ports {
	double rx[2], rx_miss[2], rx_nobuf[2], rx_err[2], tx[2], tx_err[2];
};

struct trial {
	int index;
	char phase[24];
	double requested, duration, loss_ratio;
	double tx[2], rx[2], tx_total, rx_total; /* per direction (0: port0 -> port1) */
	double skipped, refused, gen_tx_err[2], gen_rx_err[2];
	int gen_limited, bidir;
	/* the DUT's side, from trials/NNN/ */
	int has_ports, has_drops;
	char ports_src[64], drops_src[64];
	struct ports p;
	struct reasons drops, events;
	/* the result */
	struct hop h[MAX_HOPS];
	int nh;
	int lost_at;  /* index into h, or -1 */
	int bound_at; /* the hop that bounds the trial: lost_at, or the first hop after a short
		       * generator that still lost packets (what it was offered was too much) */
	double lost, shortfall, unaccounted;
	char unsplit[160];
};

struct run_info {
	const char *dir;
	char backend[32], generator[32];
	int wire; /* no DUT on the path (loop topology) */
};

/* ---- small helpers ------------------------------------------------------------------ */

static void
reason_add(struct reasons *rs, const char *name, double n)
{
	if (!(n > 0))
		return;
	for (int i = 0; i < rs->n; i++)
		if (strcmp(rs->v[i].name, name) == 0) {
			rs->v[i].n += n;
			return;
		}
	if (rs->n == MAX_REASONS) {
		rs->v[MAX_REASONS - 1].n += n; /* never dropped: the last row takes the rest */
		str_copy(rs->v[MAX_REASONS - 1].name, sizeof(rs->v[0].name), "other counters");
		return;
	}
	str_copy(rs->v[rs->n].name, sizeof(rs->v[0].name), name);
	rs->v[rs->n++].n = n;
}

static double
reasons_sum(const struct reasons *rs)
{
	double s = 0;

	for (int i = 0; i < rs->n; i++)
		s += rs->v[i].n;
	return s;
}

static int
tokens(char *line, char **tok, int max)
{
	int n = 0;

	for (char *s = strtok(line, " \t\r\n"); s != NULL && n < max; s = strtok(NULL, " \t\r\n"))
		tok[n++] = s;
	return n;
}

static int
is_count(const char *s, double *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return 0;
	*v = strtod(s, &end);
	return *end == '\0';
}

/* ---- the DUT's counters ------------------------------------------------------------- */

/* show interfaces (vfwd) / show interface (VPP): a port's first line starts with its name,
 * every line ends with COUNTER VALUE ("rx packets 5002", "rx-miss 3"). Only port0 and port1
 * are read. Returns 0, or -1 when the file is missing or holds neither port. */
static int
ports_read_text(const char *path, struct ports *p)
{
	char *buf = file_read(path, NULL), *line, *save = NULL, *tok[64];
	int cur = -1, seen = 0;

	memset(p, 0, sizeof(*p));
	if (buf == NULL)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		int first = !isspace((unsigned char)line[0]), n;
		double v;

		n = tokens(line, tok, 64);
		if (n == 0)
			continue;
		if (first) {
			cur = strcmp(tok[0], "port0") == 0   ? 0
			      : strcmp(tok[0], "port1") == 0 ? 1
							     : -1;
			seen |= cur >= 0 ? 1 << cur : 0;
		}
		if (cur < 0 || n < 2 || !is_count(tok[n - 1], &v))
			continue;
		if (n >= 3 && strcmp(tok[n - 2], "packets") == 0 && strcmp(tok[n - 3], "rx") == 0)
			p->rx[cur] = v;
		else if (n >= 3 && strcmp(tok[n - 2], "packets") == 0 &&
			 strcmp(tok[n - 3], "tx") == 0)
			p->tx[cur] = v;
		else if (strcmp(tok[n - 2], "rx-miss") == 0)
			p->rx_miss[cur] = v;
		else if (strcmp(tok[n - 2], "rx-no-buf") == 0)
			p->rx_nobuf[cur] = v;
		else if (strcmp(tok[n - 2], "rx-error") == 0)
			p->rx_err[cur] = v;
		else if (strcmp(tok[n - 2], "tx-error") == 0)
			p->tx_err[cur] = v;
	}
	free(buf);
	return seen == 3 ? 0 : -1;
}

/* A peer backend's stats.json: {"port0": {"rx", "tx", "rx_drop", "tx_drop"}, "port1": ...}. */
static int
ports_read_stats(const char *path, struct ports *p)
{
	char jerr[128], key[32];
	struct json *j = json_parse_file(path, jerr, sizeof(jerr));

	memset(p, 0, sizeof(*p));
	if (j == NULL)
		return -1;
	for (int i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "port%d.rx", i);
		if (json_get(j, key) == NULL) {
			json_free(j);
			return -1;
		}
		p->rx[i] = json_num(j, key, 0);
		snprintf(key, sizeof(key), "port%d.tx", i);
		p->tx[i] = json_num(j, key, 0);
		snprintf(key, sizeof(key), "port%d.rx_drop", i);
		p->rx_miss[i] = json_num(j, key, 0);
		snprintf(key, sizeof(key), "port%d.tx_drop", i);
		p->tx_err[i] = json_num(j, key, 0);
	}
	json_free(j);
	return 0;
}

static void
ports_sub(struct ports *a, const struct ports *b)
{
	for (int i = 0; i < 2; i++) {
		a->rx[i] -= b->rx[i];
		a->rx_miss[i] -= b->rx_miss[i];
		a->rx_nobuf[i] -= b->rx_nobuf[i];
		a->rx_err[i] -= b->rx_err[i];
		a->tx[i] -= b->tx[i];
		a->tx_err[i] -= b->tx_err[i];
	}
}

/* A counter of show errors that counts an event, not a packet dropped (a reply sent, a
 * packet held and released, a fragment made). Anything else is a drop. */
static int
reason_is_event(const char *r)
{
	static const char *const events[] = {" sent",	   "received", "retransmitted",
					     "held for",   "released", "queued for",
					     "fragmented", "throttled"};

	if (strstr(r, "dropped") != NULL)
		return 0;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strstr(r, events[i]) != NULL)
			return 1;
	return 0;
}

/* show errors (vfwd: COUNT NODE REASON; VPP: COUNT NODE REASON SEVERITY). A port's
 * "tx queue full" is that port's tx-error (show interfaces counts it there), not a graph
 * drop. Returns 0, or -1 when the file is missing. */
static int
drops_read(const char *path, int vpp, struct reasons *drops, struct reasons *events)
{
	char *buf = file_read(path, NULL), *line, *save = NULL;

	if (buf == NULL)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *s = line, *end, node[64], name[128], *sev;
		double v;
		int event;
		size_t n;

		while (isspace((unsigned char)*s))
			s++;
		v = strtod(s, &end);
		if (end == s || !isspace((unsigned char)*end))
			continue; /* the header, or not a row */
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		n = strcspn(s, " \t");
		if (n == 0 || n >= sizeof(node))
			continue;
		memcpy(node, s, n);
		node[n] = '\0';
		s += n;
		while (isspace((unsigned char)*s))
			s++;
		n = strlen(s);
		while (n > 0 && isspace((unsigned char)s[n - 1]))
			s[--n] = '\0';
		event = 0;
		sev = strrchr(s, ' ');
		if (vpp && sev != NULL &&
		    (strcmp(sev + 1, "error") == 0 || strcmp(sev + 1, "info") == 0 ||
		     strcmp(sev + 1, "warn") == 0 || strcmp(sev + 1, "unknown") == 0)) {
			event = strcmp(sev + 1, "info") == 0;
			*sev = '\0';
			n = strlen(s);
			while (n > 0 && isspace((unsigned char)s[n - 1]))
				s[--n] = '\0';
		}
		n = strlen(node);
		if (n > 3 && strcmp(node + n - 3, "-tx") == 0 && strcmp(s, "tx queue full") == 0)
			continue;
		snprintf(name, sizeof(name), "%s: %s", node, s);
		reason_add(event || reason_is_event(s) ? events : drops, name, v);
	}
	free(buf);
	return 0;
}

static void
path_of(char *buf, size_t len, const char *dir, const char *file)
{
	snprintf(buf, len, "%s/%s", dir, file);
}

/* The DUT's counters of one trial, from its dump folder. */
static void
dut_read(const struct run_info *ri, const char *tdir, struct trial *t)
{
	char path[4096], before[4096];
	int vpp = strcmp(ri->backend, "vpp") == 0, text = vpp || strcmp(ri->backend, "vfwd") == 0;
	int cleared = vpp || strncmp(ri->backend, "testpmd", 7) == 0;
	const char *file = text ? "show_interfaces.txt" : "stats.json";
	struct ports b;

	path_of(path, sizeof(path), tdir, file);
	snprintf(before, sizeof(before), "%s/before/%s", tdir, file);
	if ((text ? ports_read_text(path, &t->p) : ports_read_stats(path, &t->p)) != 0) {
		snprintf(t->ports_src, sizeof(t->ports_src), "none (no %s)", file);
	} else if ((text ? ports_read_text(before, &b) : ports_read_stats(before, &b)) == 0) {
		ports_sub(&t->p, &b);
		t->has_ports = 1;
		snprintf(t->ports_src, sizeof(t->ports_src), "%s: after minus before", file);
	} else if (cleared) {
		t->has_ports = 1;
		snprintf(t->ports_src, sizeof(t->ports_src), "%s: cleared before the trial", file);
	} else {
		snprintf(t->ports_src, sizeof(t->ports_src), "none (%s is cumulative)", file);
	}
	path_of(path, sizeof(path), tdir, "show_errors.txt");
	if (text && drops_read(path, vpp, &t->drops, &t->events) == 0) {
		t->has_drops = 1;
		snprintf(t->drops_src, sizeof(t->drops_src),
			 "show_errors.txt: cleared before the trial");
	} else {
		snprintf(t->drops_src, sizeof(t->drops_src), "none");
	}
}

/* ---- the generator's counters --------------------------------------------------------- */

static void
trial_read(const struct json *tj, const struct json *gen, int bidir, struct trial *t)
{
	const struct json *d = json_get(tj, "directions");

	memset(t, 0, sizeof(*t));
	t->lost_at = -1;
	t->bound_at = -1;
	t->bidir = bidir;
	t->index = (int)json_num(tj, "index", 0);
	str_copy(t->phase, sizeof(t->phase), json_str(tj, "phase", ""));
	t->requested = json_num(tj, "rate_pps_requested", 0);
	t->duration = json_num(tj, "duration_s", 0);
	t->loss_ratio = json_num(tj, "loss_ratio", 0);
	t->tx_total = json_num(tj, "tx_packets", 0);
	t->rx_total = json_num(tj, "rx_packets", 0);
	t->skipped = json_num(tj, "pacer_skipped", 0);
	t->refused = json_num(tj, "tx_refused", 0);
	t->gen_limited = json_num(tj, "generator_limited", 0) != 0;
	if (d != NULL && json_len(d) == 2) {
		const struct json *c = d->child;

		for (int i = 0; i < 2; i++, c = c->next) {
			t->tx[i] = json_num(c, "tx_packets", 0);
			t->rx[i] = json_num(c, "rx_packets", 0);
		}
	} else {
		t->tx[0] = t->tx_total;
		t->rx[0] = t->rx_total;
	}
	/* TRex's own port counters (generator-trials.jsonl): packets it could not send, frames
	 * its receive side refused */
	for (int i = 0; gen != NULL && i < 2; i++) {
		char key[48];

		snprintf(key, sizeof(key), "trex_port_stats.%d.oerrors", i);
		t->gen_tx_err[i] = json_num(gen, key, 0);
		snprintf(key, sizeof(key), "trex_port_stats.%d.ierrors", i);
		t->gen_rx_err[i] = json_num(gen, key, 0);
	}
}

/* ---- the chain ---------------------------------------------------------------------- */

static struct hop *
hop_new(struct trial *t, const char *name, const char *kind, int counters, int dir, double in,
	double out, const char *fmt, int a, int b)
{
	struct hop *h;

	if (t->nh == MAX_HOPS)
		return NULL;
	h = &t->h[t->nh++];
	memset(h, 0, sizeof(*h));
	str_copy(h->name, sizeof(h->name), name);
	snprintf(h->at, sizeof(h->at), fmt, a, b);
	h->kind = kind;
	h->counters = counters;
	h->dir = dir;
	h->in = in;
	h->out = out;
	return h;
}

static double
hop_lost(const struct hop *h)
{
	return h->in > h->out ? h->in - h->out : 0;
}

static double
hop_unaccounted(const struct hop *h)
{
	double u = hop_lost(h) - reasons_sum(&h->r);

	return u > 0 ? u : 0;
}

static void
reasons_copy(struct reasons *to, const struct reasons *from)
{
	for (int i = 0; i < from->n; i++)
		reason_add(to, from->v[i].name, from->v[i].n);
}

/* One direction d: the generator's port d sends, the DUT receives on port d and sends on
 * port 1-d, the generator receives on port 1-d. */
static void
chain(const struct run_info *ri, struct trial *t, int d, int graph_drops, int refused_here)
{
	int a = d, b = 1 - d, ndir = t->bidir ? 2 : 1;
	double req = floor(t->requested * t->duration / ndir + 1e-6); /* as tgen counts slots */
	double arrived_tg = t->rx[d] + t->gen_rx_err[b];
	struct hop *h;

	h = hop_new(t, "generator tx", "generator", 1, d, req, t->tx[d], "tg port%d", a, 0);
	if (h != NULL && !t->bidir)
		reason_add(&h->r, "pacer skipped (generator descheduled)", t->skipped);
	if (h != NULL)
		reason_add(&h->r, "tx errors", t->gen_tx_err[a]);
	if (ri->wire) {
		hop_new(t, "wire", "path", 0, d, t->tx[d], arrived_tg, "tg port%d -> tg port%d", a,
			b);
	} else if (t->has_ports) {
		const struct ports *p = &t->p;
		double got = p->rx[a] + p->rx_miss[a] + p->rx_nobuf[a] + p->rx_err[a];
		double ring = refused_here ? t->refused : 0;

		hop_new(t, "link", "path", 0, d, t->tx[d], got + ring, "tg port%d -> dut port%d", a,
			a);
		h = hop_new(t, "dut rx", "dut", 1, d, got + ring, p->rx[a], "dut port%d", a, 0);
		if (h != NULL) {
			reason_add(&h->r, "rx ring full (the generator's tx refused)", ring);
			reason_add(&h->r,
				   strcmp(ri->backend, "vfwd") == 0 ||
						   strcmp(ri->backend, "vpp") == 0
					   ? "rx-miss"
					   : "rx drops (missed, errors, no mbuf)",
				   p->rx_miss[a]);
			reason_add(&h->r, "rx-no-buf", p->rx_nobuf[a]);
			reason_add(&h->r, "rx-error", p->rx_err[a]);
		}
		h = hop_new(t, "dut graph", "dut", t->has_drops, d, p->rx[a],
			    p->tx[b] + p->tx_err[b], "dut port%d -> dut port%d", a, b);
		if (h != NULL && graph_drops)
			reasons_copy(&h->r, &t->drops);
		h = hop_new(t, "dut tx", "dut", 1, d, p->tx[b] + p->tx_err[b], p->tx[b],
			    "dut port%d", b, 0);
		if (h != NULL)
			reason_add(&h->r, "tx-error", p->tx_err[b]);
		hop_new(t, "link", "path", 0, d, p->tx[b], arrived_tg, "dut port%d -> tg port%d", b,
			b);
	} else {
		/* no port counters of the trial's own: the links and the DUT are one hop */
		h = hop_new(t, "links and dut", t->has_drops ? "dut" : "path", t->has_drops, d,
			    t->tx[d], arrived_tg, "tg port%d -> dut -> tg port%d", a, b);
		if (h != NULL && graph_drops)
			reasons_copy(&h->r, &t->drops);
	}
	h = hop_new(t, "generator rx", "generator", 1, d, arrived_tg, t->rx[d], "tg port%d", b, 0);
	if (h != NULL)
		reason_add(&h->r, "rx errors", t->gen_rx_err[b]);
}

/* Counters that do not say which direction they belong to (node drops, tgen's tx_refused)
 * go to a direction only when the other one lost nothing at that hop; else they stay
 * unsplit and the hops' loss is unaccounted. */
static void
trial_hops(const struct run_info *ri, struct trial *t)
{
	int graph0 = 1, graph1 = 0, ref0 = 1, ref1 = 0;

	if (t->bidir && t->has_ports) {
		const struct ports *p = &t->p;
		double g0 = p->rx[0] - p->tx[1] - p->tx_err[1],
		       g1 = p->rx[1] - p->tx[0] - p->tx_err[0];
		double r0 = t->tx[0] - p->rx[0] - p->rx_miss[0] - p->rx_nobuf[0] - p->rx_err[0];
		double r1 = t->tx[1] - p->rx[1] - p->rx_miss[1] - p->rx_nobuf[1] - p->rx_err[1];

		graph0 = g1 <= 0 || reasons_sum(&t->drops) == 0;
		graph1 = !graph0 && g0 <= 0;
		ref0 = r1 <= 0 || t->refused == 0;
		ref1 = !ref0 && r0 <= 0;
		if (!graph0 && !graph1)
			snprintf(t->unsplit, sizeof(t->unsplit),
				 "the DUT's node drops (%.0f) are of both directions",
				 reasons_sum(&t->drops));
		if (!ref0 && !ref1)
			snprintf(t->unsplit + strlen(t->unsplit),
				 sizeof(t->unsplit) - strlen(t->unsplit),
				 "%sthe generator's tx refused (%.0f) is of both directions",
				 t->unsplit[0] ? "; " : "", t->refused);
	} else if (t->bidir) {
		graph0 = reasons_sum(&t->drops) == 0;
		if (!graph0)
			snprintf(t->unsplit, sizeof(t->unsplit),
				 "the DUT's node drops (%.0f) are of both directions",
				 reasons_sum(&t->drops));
	}
	chain(ri, t, 0, graph0, ref0);
	if (t->bidir)
		chain(ri, t, 1, graph1, ref1);
	for (int i = 0; i < t->nh; i++) {
		const struct hop *h = &t->h[i];
		int gen_tx = strcmp(h->name, "generator tx") == 0;

		/* what the generator did not send is its shortfall, not a loss; it bounds the
		 * trial only when the generator says it fell short (beyond its rate tolerance) */
		if (gen_tx)
			t->shortfall += hop_lost(h);
		else
			t->lost += hop_lost(h);
		t->unaccounted += hop_unaccounted(h);
		if (t->lost_at < 0 && hop_lost(h) > 0 && (!gen_tx || t->gen_limited))
			t->lost_at = i;
		if (t->bound_at < 0 && !gen_tx && hop_lost(h) > 0)
			t->bound_at = i;
	}
	/* a generator that fell short bounds the trial only when nothing after it lost: a DUT
	 * (or path) that dropped what it was offered is the bound at the rate it got */
	if (t->bound_at < 0)
		t->bound_at = t->lost_at;
}

static const char *
limited_by(const struct trial *t)
{
	const struct hop *h;

	if (t->bound_at < 0)
		return "none";
	h = &t->h[t->bound_at];
	if (strcmp(h->kind, "generator") == 0)
		return "generator";
	if (strcmp(h->kind, "dut") == 0)
		return "dut";
	return "path (no counters)";
}

/* ---- output ------------------------------------------------------------------------- */

static void
put_reasons(FILE *f, const struct reasons *rs)
{
	fputc('{', f);
	for (int i = 0; i < rs->n; i++) {
		fputs(i ? ", " : "", f);
		json_put_str(f, rs->v[i].name);
		fputs(": ", f);
		json_put_num(f, rs->v[i].n);
	}
	fputc('}', f);
}

static void
put_hop(FILE *f, const struct hop *h, int index)
{
	double counted = reasons_sum(&h->r), lost = hop_lost(h);

	fprintf(f, "{\"index\": %d, \"hop\": ", index);
	json_put_str(f, h->name);
	fputs(", \"at\": ", f);
	json_put_str(f, h->at);
	fprintf(f, ", \"kind\": \"%s\", \"direction\": %d, \"counters\": %s, \"in\": ", h->kind,
		h->dir, h->counters ? "true" : "false");
	json_put_num(f, h->in);
	fputs(", \"out\": ", f);
	json_put_num(f, h->out);
	fputs(", \"lost\": ", f);
	json_put_num(f, lost);
	fputs(", \"counted\": ", f);
	put_reasons(f, &h->r);
	fputs(", \"unaccounted\": ", f);
	json_put_num(f, hop_unaccounted(h));
	if (counted > lost) {
		fputs(", \"counted_beyond_loss\": ", f);
		json_put_num(f, counted - lost);
	}
	if (h->out > h->in) {
		fputs(", \"extra\": ", f);
		json_put_num(f, h->out - h->in);
	}
	fputc('}', f);
}

/* a hop's name, or null for index -1 */
static void
put_hop_name(FILE *f, const struct trial *t, int idx)
{
	if (idx < 0)
		fputs("null", f);
	else
		json_put_str(f, t->h[idx].name);
}

static void
put_trial(FILE *f, const struct trial *t)
{
	fprintf(f, "{\"trial\": %d, \"phase\": ", t->index);
	json_put_str(f, t->phase);
	fputs(", \"rate_pps_requested\": ", f);
	json_put_num(f, t->requested);
	fputs(", \"duration_s\": ", f);
	json_put_num(f, t->duration);
	fputs(", \"tx_packets\": ", f);
	json_put_num(f, t->tx_total);
	fputs(", \"rx_packets\": ", f);
	json_put_num(f, t->rx_total);
	fputs(",\n \"sources\": {\"dut_ports\": ", f);
	json_put_str(f, t->ports_src);
	fputs(", \"dut_drops\": ", f);
	json_put_str(f, t->drops_src);
	fputs("},\n \"hops\": [", f);
	for (int i = 0; i < t->nh; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		put_hop(f, &t->h[i], i);
	}
	fputs("],\n \"events\": ", f);
	put_reasons(f, &t->events);
	fputs(", \"lost\": ", f);
	json_put_num(f, t->lost);
	fputs(", \"generator_short\": ", f);
	json_put_num(f, t->shortfall);
	fprintf(f, ", \"generator_limited\": %s", t->gen_limited ? "true" : "false");
	fputs(", \"unaccounted\": ", f);
	json_put_num(f, t->unaccounted);
	if (t->unsplit[0]) {
		fputs(", \"unsplit\": ", f);
		json_put_str(f, t->unsplit);
	}
	fputs(",\n \"lost_at\": ", f);
	if (t->lost_at < 0)
		fputs("null", f);
	else
		put_hop(f, &t->h[t->lost_at], t->lost_at);
	fputs(",\n \"bound_at\": ", f);
	put_hop_name(f, t, t->bound_at);
	fputs(",\n \"limited_by\": ", f);
	json_put_str(f, limited_by(t));
	fputs("}\n", f);
}

/* "dut graph (dut port0 -> dut port1) lost 120 (ip4-lookup: drop route 120)" */
static void
lost_text(char *buf, size_t len, const struct trial *t)
{
	const struct hop *h = &t->h[t->bound_at];
	size_t n;

	n = (size_t)snprintf(buf, len, "%s (%s) %s %.0f", h->name, h->at,
			     strcmp(h->name, "generator tx") == 0 ? "did not send" : "lost",
			     hop_lost(h));
	for (int i = 0; i < h->r.n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s %.0f", i ? ", " : " (",
				      h->r.v[i].name, h->r.v[i].n);
	if (h->r.n > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ")");
	if (hop_unaccounted(h) > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %.0f unaccounted%s", hop_unaccounted(h),
				      h->counters ? "" : " (no counters)");
	if (t->bound_at != t->lost_at && n < len)
		snprintf(buf + n, len - n,
			 " of %.0f offered; the generator also fell short by %.0f", h->in,
			 hop_lost(&t->h[t->lost_at]));
}

static const char *
bound_word(const char *lim)
{
	if (strcmp(lim, "dut") == 0)
		return "DUT-bound";
	if (strcmp(lim, "generator") == 0)
		return "generator-bound";
	if (strcmp(lim, "none") == 0)
		return "not bound by a loss";
	return "path-bound";
}

struct figure {
	const char *name; /* NDR, PDR, run */
	double rate;
	int trial; /* the figure's own trial (index into the trials array), -1 */
	int bound; /* the trial that bounded it, -1 */
	const char *limited_by;
	char line[640];
};

/* The figure's bound: its own trial when the generator fell short there, else the lowest-rate
 * trial above it that lost more than the figure allows (loss_allowed: 0 for NDR). */
static void
figure_bound(struct figure *fg, const struct trial *tr, int n, double loss_allowed,
	     const char *tgen_limited)
{
	char what[512];

	fg->bound = -1;
	if (fg->trial >= 0 && strcmp(limited_by(&tr[fg->trial]), "generator") == 0)
		fg->bound = fg->trial;
	for (int i = 0; fg->bound != fg->trial && i < n; i++) {
		if (tr[i].requested <= fg->rate || tr[i].lost_at < 0 ||
		    tr[i].loss_ratio <= loss_allowed)
			continue;
		if (fg->bound < 0 || tr[i].requested < tr[fg->bound].requested)
			fg->bound = i;
	}
	if (fg->bound < 0) {
		fg->limited_by = strcmp(tgen_limited, "max_rate") == 0 ? "max rate" : "none";
		snprintf(fg->line, sizeof(fg->line),
			 "%s %.0f pps: no trial above it lost packets%s", fg->name, fg->rate,
			 strcmp(tgen_limited, "max_rate") == 0 ? " (the search's --max-rate)" : "");
		return;
	}
	fg->limited_by = limited_by(&tr[fg->bound]);
	lost_text(what, sizeof(what), &tr[fg->bound]);
	snprintf(fg->line, sizeof(fg->line), "%s %.0f pps is %s: in %s trial %d (%.0f pps) %s",
		 fg->name, fg->rate, bound_word(fg->limited_by),
		 fg->bound == fg->trial ? "its own" : "the first losing", tr[fg->bound].index,
		 tr[fg->bound].requested, what);
}

static void
print_table(FILE *f, const struct trial *t)
{
	fprintf(f, "   where the packets went: trial %d (%s, %.0f pps, %.0f s)\n", t->index,
		t->phase, t->requested, t->duration);
	fprintf(f, "   %-13s %-30s %10s %10s %10s  %s\n", "hop", "at", "in", "out", "lost/short",
		"counted, unaccounted");
	for (int i = 0; i < t->nh; i++) {
		const struct hop *h = &t->h[i];
		char why[512] = "";
		size_t n = 0;

		for (int k = 0; k < h->r.n && n < sizeof(why); k++)
			n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s %.0f", k ? ", " : "",
					      h->r.v[k].name, h->r.v[k].n);
		if (hop_unaccounted(h) > 0 && n < sizeof(why))
			snprintf(why + n, sizeof(why) - n, "%sunaccounted %.0f%s", n ? ", " : "",
				 hop_unaccounted(h), h->counters ? "" : " (no counters)");
		fprintf(f, "   %-13s %-30s %10.0f %10.0f %10.0f%s%s\n", h->name, h->at, h->in,
			h->out, hop_lost(h), why[0] ? "  " : "", why);
	}
	if (t->unsplit[0])
		fprintf(f, "   note: %s\n", t->unsplit);
	if (strncmp(t->ports_src, "none", 4) == 0)
		fprintf(f, "   note: no DUT port counters of this trial's own (%s)\n",
			t->ports_src);
}

/* ---- the run ------------------------------------------------------------------------ */

static int
index_of(const struct trial *tr, int n, int index)
{
	for (int i = 0; i < n; i++)
		if (tr[i].index == index)
			return i;
	return -1;
}

static int
write_file(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	int ret = file_write_atomic(path, data, len);

	if (ret != 0)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	return ret;
}

int
hops_run(const char *dir, const struct hops_opts *o, FILE *out, char *err, size_t errlen)
{
	char path[4096], jerr[160], *gen_lines = NULL;
	struct json *meta, *tgen;
	struct run_info ri = {.dir = dir};
	const struct json *tj;
	struct trial *tr = NULL;
	struct figure fg[2];
	int n = 0, nfig = 0, run_mode, bidir, ret = 0, show;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	path_of(path, sizeof(path), dir, "meta.json");
	meta = json_parse_file(path, jerr, sizeof(jerr));
	if (meta == NULL) {
		snprintf(err, errlen, "%s: %s", path, jerr);
		return -EINVAL;
	}
	path_of(path, sizeof(path), dir, "tgen.json");
	tgen = json_parse_file(path, jerr, sizeof(jerr));
	if (tgen == NULL) {
		snprintf(err, errlen, "%s: %s", path, jerr);
		json_free(meta);
		return -EINVAL;
	}
	if (o->write && strcmp(json_str(meta, "status", "incomplete"), "incomplete") != 0) {
		snprintf(err, errlen,
			 "%s is %s: a finished run is never rewritten (read it without --write)",
			 dir, json_str(meta, "status", ""));
		json_free(tgen);
		json_free(meta);
		return -EPERM;
	}
	str_copy(ri.backend, sizeof(ri.backend), json_str(meta, "dut.backend", "vfwd"));
	str_copy(ri.generator, sizeof(ri.generator), json_str(meta, "generator.name", "tgen"));
	ri.wire = strcmp(ri.backend, "wire") == 0 ||
		  strcmp(json_str(meta, "topology", ""), "loop") == 0;
	run_mode = strcmp(json_str(tgen, "mode", ""), "run") == 0;
	bidir = json_num(tgen, "profile.bidir", 0) != 0;
	tj = run_mode ? json_get(tgen, "trial") : json_get(tgen, "trials");
	n = run_mode ? (tj != NULL) : (int)json_len(tj);
	tr = calloc(n > 0 ? (size_t)n : 1, sizeof(*tr));
	path_of(path, sizeof(path), dir, "generator-trials.jsonl");
	gen_lines = file_read(path, NULL);
	if (tr == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	{
		const struct json *c = run_mode ? tj : (tj != NULL ? tj->child : NULL);
		char *save = NULL, *line = gen_lines ? strtok_r(gen_lines, "\n", &save) : NULL;

		for (int i = 0; i < n && c != NULL; i++, c = c->next) {
			struct json *g =
				line ? json_parse(line, strlen(line), jerr, sizeof(jerr)) : NULL;
			char tdir[3072];

			trial_read(c, g, bidir, &tr[i]);
			json_free(g);
			line = line ? strtok_r(NULL, "\n", &save) : NULL;
			snprintf(tdir, sizeof(tdir), "%s/trials/%03d", dir, tr[i].index);
			if (!ri.wire)
				dut_read(&ri, tdir, &tr[i]);
			else
				snprintf(tr[i].ports_src, sizeof(tr[i].ports_src), "none (no DUT)");
			if (ri.wire)
				snprintf(tr[i].drops_src, sizeof(tr[i].drops_src), "none (no DUT)");
			trial_hops(&ri, &tr[i]);
		}
	}
	if (run_mode && n == 1) {
		fg[nfig] = (struct figure){
			.name = "run", .rate = tr[0].requested, .trial = 0, .bound = 0};
		fg[nfig].limited_by = limited_by(&tr[0]);
		if (tr[0].lost_at < 0) {
			snprintf(fg[nfig].line, sizeof(fg[nfig].line),
				 "run %.0f pps: no packet lost", tr[0].requested);
		} else {
			char what[512];

			lost_text(what, sizeof(what), &tr[0]);
			snprintf(fg[nfig].line, sizeof(fg[nfig].line), "run %.0f pps is %s: %s",
				 tr[0].requested, bound_word(fg[nfig].limited_by), what);
		}
		nfig++;
	} else if (!run_mode) {
		static const char *const names[] = {"ndr", "pdr"};

		for (int k = 0; k < 2; k++) {
			char key[48];

			snprintf(key, sizeof(key), "%s.rate_pps", names[k]);
			if (json_get(tgen, key) == NULL)
				continue;
			fg[nfig] = (struct figure){.name = k ? "PDR" : "NDR",
						   .rate = json_num(tgen, key, 0)};
			snprintf(key, sizeof(key), "%s.trial.index", names[k]);
			fg[nfig].trial = index_of(tr, n, (int)json_num(tgen, key, -1));
			snprintf(key, sizeof(key), "%s.limited_by", names[k]);
			figure_bound(&fg[nfig], tr, n,
				     k ? json_num(tgen, "params.pdr_loss_ratio", 0.005) : 0,
				     json_str(tgen, key, ""));
			nfig++;
		}
	}
	if (o->write) {
		for (int i = 0; i < n; i++) {
			char tdir[3072];

			snprintf(tdir, sizeof(tdir), "%s/trials/%03d", dir, tr[i].index);
			f = open_memstream(&buf, &len);
			if (f == NULL || mkdir_p(tdir) != 0) {
				ret = -errno;
				snprintf(err, errlen, "%s: %s", tdir, strerror(errno));
				if (f != NULL)
					fclose(f);
				goto out;
			}
			put_trial(f, &tr[i]);
			fclose(f);
			path_of(path, sizeof(path), tdir, "hops.json");
			ret = write_file(path, buf, len, err, errlen);
			free(buf);
			buf = NULL;
			if (ret != 0)
				goto out;
		}
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	fputs("{\"run\": ", f);
	json_put_str(f, json_str(meta, "run", ""));
	fputs(", \"dut\": ", f);
	json_put_str(f, ri.backend);
	fputs(", \"generator\": ", f);
	json_put_str(f, ri.generator);
	fputs(",\n \"trials\": [", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"trial\": %d, \"rate_pps_requested\": ", i ? ",\n  " : "\n  ",
			tr[i].index);
		json_put_num(f, tr[i].requested);
		fputs(", \"lost\": ", f);
		json_put_num(f, tr[i].lost);
		fputs(", \"unaccounted\": ", f);
		json_put_num(f, tr[i].unaccounted);
		fputs(", \"lost_at\": ", f);
		put_hop_name(f, &tr[i], tr[i].lost_at);
		fputs(", \"bound_at\": ", f);
		put_hop_name(f, &tr[i], tr[i].bound_at);
		fputs(", \"limited_by\": ", f);
		json_put_str(f, limited_by(&tr[i]));
		fputc('}', f);
	}
	fputs("],\n \"figures\": [", f);
	for (int k = 0; k < nfig; k++) {
		fprintf(f, "%s{\"figure\": \"%s\", \"rate_pps\": ", k ? ",\n  " : "\n  ",
			fg[k].name);
		json_put_num(f, fg[k].rate);
		fprintf(f, ", \"trial\": %d, \"bounded_by_trial\": %d, \"limited_by\": ",
			fg[k].trial >= 0 ? tr[fg[k].trial].index : -1,
			fg[k].bound >= 0 ? tr[fg[k].bound].index : -1);
		json_put_str(f, fg[k].limited_by);
		fputs(", \"line\": ", f);
		json_put_str(f, fg[k].line);
		fputc('}', f);
	}
	fputs("]}\n", f);
	fclose(f);
	if (o->write) {
		path_of(path, sizeof(path), dir, "hops.json");
		ret = write_file(path, buf, len, err, errlen);
		if (ret != 0)
			goto out;
	}
	if (o->json) {
		fwrite(buf, 1, len, out);
	} else if (!(o->write && o->quiet)) {
		show = o->trial >= 0		      ? index_of(tr, n, o->trial)
		       : nfig > 0 && fg[0].bound >= 0 ? fg[0].bound
		       : nfig > 0 && fg[0].trial >= 0 ? fg[0].trial
						      : n - 1;
		if (o->trial >= 0 && show < 0) {
			snprintf(err, errlen, "%s: no trial %d", dir, o->trial);
			ret = -ENOENT;
			goto out;
		}
		if (show >= 0 && !o->lines)
			print_table(out, &tr[show]);
		for (int k = 0; k < nfig && !o->table; k++)
			fprintf(out, "   %s\n", fg[k].line);
	}
out:
	free(buf);
	free(gen_lines);
	free(tr);
	json_free(tgen);
	json_free(meta);
	return ret;
}
