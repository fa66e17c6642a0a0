/* SPDX-License-Identifier: BSD-3-Clause
 * Startup file parser: `section { key value ... }`, comments with '#',
 * quoted strings. Every error names FILE:LINE.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "rx_mode.h"

struct lexer {
	const char *file;
	const char *p;
	int line;
	char tok[1024];
	int tok_line;
	bool quoted;
	char *err;
	size_t errlen;
	int open_line; /* line of the innermost '{' */
	int cpu_line;  /* line of the cpu settings, for cross-checks */
};

static int
lex_error(struct lexer *lx, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(lx->err, lx->errlen, "%s:%d: ", lx->file, line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < lx->errlen)
		vsnprintf(lx->err + n, lx->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Reads the next token; returns 1 on a token, 0 at end of input, <0 on error. */
static int
lex_next(struct lexer *lx)
{
	size_t n = 0;

	for (;;) {
		while (*lx->p && isspace((unsigned char)*lx->p)) {
			if (*lx->p == '\n')
				lx->line++;
			lx->p++;
		}
		if (*lx->p != '#')
			break;
		while (*lx->p && *lx->p != '\n')
			lx->p++;
	}
	lx->tok_line = lx->line;
	lx->quoted = false;
	if (*lx->p == '\0')
		return 0;
	if (*lx->p == '{' || *lx->p == '}') {
		lx->tok[0] = *lx->p++;
		lx->tok[1] = '\0';
		return 1;
	}
	if (*lx->p == '"') {
		lx->p++;
		lx->quoted = true;
		while (*lx->p && *lx->p != '"' && *lx->p != '\n') {
			if (n + 1 >= sizeof(lx->tok))
				return lex_error(lx, lx->line, "string too long");
			lx->tok[n++] = *lx->p++;
		}
		if (*lx->p != '"')
			return lex_error(lx, lx->tok_line, "unterminated string");
		lx->p++;
		lx->tok[n] = '\0';
		return 1;
	}
	while (*lx->p && !isspace((unsigned char)*lx->p) && *lx->p != '{' && *lx->p != '}' &&
	       *lx->p != '#') {
		if (n + 1 >= sizeof(lx->tok))
			return lex_error(lx, lx->line, "word too long");
		lx->tok[n++] = *lx->p++;
	}
	lx->tok[n] = '\0';
	return 1;
}

static bool
tok_is(struct lexer *lx, const char *s)
{
	return !lx->quoted && strcmp(lx->tok, s) == 0;
}

/* Reads the value of key `key` into buf. */
static int
lex_value(struct lexer *lx, const char *key, char *buf, size_t len)
{
	int line = lx->tok_line;
	int rc = lex_next(lx);

	if (rc < 0)
		return rc;
	if (rc == 0 || (!lx->quoted && (tok_is(lx, "{") || tok_is(lx, "}"))))
		return lex_error(lx, line, "'%s' needs a value", key);
	if (strlen(lx->tok) >= len)
		return lex_error(lx, line, "value of '%s' is too long", key);
	strcpy(buf, lx->tok);
	return 0;
}

static int
lex_uint(struct lexer *lx, const char *key, unsigned min, unsigned max, unsigned *v)
{
	char buf[32], *end;
	unsigned long x;
	int rc = lex_value(lx, key, buf, sizeof(buf));

	if (rc < 0)
		return rc;
	errno = 0;
	x = strtoul(buf, &end, 0);
	if (errno || *end || buf[0] == '-' || x < min || x > max)
		return lex_error(lx, lx->tok_line, "'%s' wants a number in %u..%u, not '%s'", key,
				 min, max, buf);
	*v = (unsigned)x;
	return 0;
}

static int
expect_open(struct lexer *lx, const char *what)
{
	int line = lx->tok_line;
	int rc = lex_next(lx);

	if (rc < 0)
		return rc;
	if (rc == 0 || !tok_is(lx, "{"))
		return lex_error(lx, rc ? lx->tok_line : line, "expected '{' after '%s'", what);
	lx->open_line = lx->tok_line;
	return 0;
}

static int
parse_corelist(struct lexer *lx, struct vfwd_conf *conf)
{
	char buf[256], *s, *save = NULL;
	int rc = lex_value(lx, "corelist-workers", buf, sizeof(buf));

	if (rc < 0)
		return rc;
	conf->n_workers = 0;
	for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			goto bad;
		if (*end == '-') {
			char *e2;

			b = strtoul(end + 1, &e2, 10);
			if (e2 == end + 1 || *e2)
				goto bad;
		} else if (*end) {
			goto bad;
		}
		if (b < a || b >= RTE_MAX_LCORE)
			goto bad;
		for (; a <= b; a++) {
			if (conf->n_workers >= MAX_WORKERS)
				return lex_error(lx, lx->tok_line, "too many workers (max %d)",
						 MAX_WORKERS);
			for (unsigned i = 0; i < conf->n_workers; i++)
				if (conf->workers[i] == a)
					return lex_error(lx, lx->tok_line,
							 "worker core %lu listed twice in '%s'", a,
							 lx->tok);
			conf->workers[conf->n_workers++] = (unsigned)a;
		}
	}
	if (conf->n_workers == 0)
		goto bad;
	return 0;
bad:
	return lex_error(lx, lx->tok_line, "bad core list '%s'", lx->tok);
}

static int
parse_rx_mode(struct lexer *lx, struct vfwd_conf *conf)
{
	/* the names of rx_mode.c, here so that the parser links alone (fuzz_startup) */
	static const char *const names[RX_MODE_N] = {[RX_MODE_POLL] = "poll",
						     [RX_MODE_ADAPTIVE] = "adaptive",
						     [RX_MODE_INTERRUPT] = "interrupt"};
	char buf[32];
	int rc = lex_value(lx, "rx-mode", buf, sizeof(buf));

	if (rc < 0)
		return rc;
	for (int m = 0; m < RX_MODE_N; m++)
		if (strcmp(buf, names[m]) == 0) {
			conf->rx_mode = m;
			return 0;
		}
	return lex_error(lx, lx->tok_line, "rx-mode '%s': expected poll, adaptive or interrupt",
			 buf);
}

/* what an option's parser returns for a key it does not know (no parser returns it else) */
#define OPT_UNKNOWN (-ENOKEY)

/* Reads a section's options up to its '}', each with `opt` (its key is lx->tok). */
static int
parse_section(struct lexer *lx, struct vfwd_conf *conf, const char *what,
	      int (*opt)(struct lexer *lx, struct vfwd_conf *conf))
{
	int rc, open = lx->open_line;

	while ((rc = lex_next(lx)) > 0 && !tok_is(lx, "}")) {
		rc = opt(lx, conf);
		if (rc == OPT_UNKNOWN)
			return lex_error(lx, lx->tok_line, "unknown %s option '%s'", what, lx->tok);
		lx->open_line = open; /* a nested block moved it */
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc
		      : (rc == 0 ? lex_error(lx, lx->open_line, "missing '}' for this '{'") : 0);
}

static int
unix_opt(struct lexer *lx, struct vfwd_conf *conf)
{
	char scratch[PATH_LEN];

	if (tok_is(lx, "cli-listen"))
		return lex_value(lx, "cli-listen", conf->cli_listen, sizeof(conf->cli_listen));
	if (tok_is(lx, "exec") || tok_is(lx, "startup-config"))
		return lex_value(lx, "exec", conf->exec, sizeof(conf->exec));
	if (tok_is(lx, "log"))
		return lex_value(lx, "log", scratch, sizeof(scratch));
	if (tok_is(lx, "nodaemon") || tok_is(lx, "interactive"))
		return 0;
	return OPT_UNKNOWN;
}

static int
cpu_opt(struct lexer *lx, struct vfwd_conf *conf)
{
	unsigned v;
	int rc;

	lx->cpu_line = lx->tok_line;
	if (tok_is(lx, "main-core")) {
		conf->main_core_line = lx->tok_line;
		rc = lex_uint(lx, "main-core", 0, RTE_MAX_LCORE - 1, &v);
		conf->main_core = (int)v;
		return rc;
	}
	if (tok_is(lx, "corelist-workers")) {
		conf->workers_line = lx->tok_line;
		return parse_corelist(lx, conf);
	}
	if (tok_is(lx, "rx-mode"))
		return parse_rx_mode(lx, conf);
	if (tok_is(lx, "adaptive-max-sleep-us"))
		return lex_uint(lx, "adaptive-max-sleep-us", 1, RX_MODE_MAX_SLEEP_US_LIMIT,
				&conf->adaptive_max_sleep_us);
	return OPT_UNKNOWN;
}

/* hw-addr MAC: a unicast MAC in six hex pairs, as VPP's `create interface ... hw-addr` */
static int
parse_hw_addr(struct lexer *lx, struct port_conf *pc)
{
	char buf[32], tail;
	unsigned b[6];
	int rc = lex_value(lx, "hw-addr", buf, sizeof(buf));

	if (rc < 0)
		return rc;
	if (sscanf(buf, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6 ||
	    strlen(buf) != 17 || (b[0] & 1) != 0)
		return lex_error(lx, lx->tok_line,
				 "hw-addr '%s': want a unicast MAC like 02:00:00:00:00:01", buf);
	for (unsigned i = 0; i < 6; i++)
		pc->mac[i] = (uint8_t)b[i];
	pc->has_mac = true;
	return 0;
}

static int
parse_port(struct lexer *lx, struct vfwd_conf *conf, bool is_vdev)
{
	struct port_conf *pc;
	const char *p = lx->p;
	int line = lx->tok_line, save_line = lx->line, rc;
	unsigned v;

	if (conf->n_ports >= MAX_PORTS)
		return lex_error(lx, line, "too many ports (max %d)", MAX_PORTS);
	pc = &conf->ports[conf->n_ports];
	memset(pc, 0, sizeof(*pc));
	pc->is_vdev = is_vdev;
	pc->nb_rxd = 1024;
	pc->nb_txd = 1024;
	pc->nb_rxq = 1;
	pc->line = line;
	rc = lex_value(lx, is_vdev ? "vdev" : "dev", pc->devargs, sizeof(pc->devargs));
	if (rc < 0)
		return rc;
	snprintf(pc->name, sizeof(pc->name), "port%u", conf->n_ports);
	conf->n_ports++;
	/* optional { ... } */
	p = lx->p;
	save_line = lx->line;
	rc = lex_next(lx);
	if (rc <= 0 || !tok_is(lx, "{")) {
		lx->p = p;
		lx->line = save_line;
		return rc < 0 ? rc : 0;
	}
	lx->open_line = lx->tok_line;
	while ((rc = lex_next(lx)) > 0 && !tok_is(lx, "}")) {
		if (tok_is(lx, "name")) {
			rc = lex_value(lx, "name", pc->name, sizeof(pc->name));
		} else if (tok_is(lx, "num-rx-desc")) {
			rc = lex_uint(lx, "num-rx-desc", 64, 32768, &v);
			pc->nb_rxd = (uint16_t)v;
		} else if (tok_is(lx, "num-tx-desc")) {
			rc = lex_uint(lx, "num-tx-desc", 64, 32768, &v);
			pc->nb_txd = (uint16_t)v;
		} else if (tok_is(lx, "num-rx-queues")) {
			rc = lex_uint(lx, "num-rx-queues", 1, MAX_WORKERS, &v);
			pc->nb_rxq = (uint16_t)v;
		} else if (tok_is(lx, "hw-addr")) {
			rc = parse_hw_addr(lx, pc);
		} else {
			return lex_error(lx, lx->tok_line, "unknown device option '%s'", lx->tok);
		}
		if (rc < 0)
			return rc;
	}
	if (rc == 0)
		return lex_error(lx, lx->open_line, "missing '}' for this '{'");
	for (unsigned i = 0; rc >= 0 && i + 1 < conf->n_ports; i++)
		if (strcmp(conf->ports[i].name, pc->name) == 0)
			return lex_error(lx, line, "duplicate interface name '%s'", pc->name);
	return rc;
}

static int
dpdk_opt(struct lexer *lx, struct vfwd_conf *conf)
{
	if (tok_is(lx, "eal-args"))
		return lex_value(lx, "eal-args", conf->eal_args, sizeof(conf->eal_args));
	if (tok_is(lx, "num-mbufs"))
		return lex_uint(lx, "num-mbufs", 1024, 1U << 24, &conf->num_mbufs);
	if (tok_is(lx, "rx-burst"))
		return lex_uint(lx, "rx-burst", 1, PORT_RX_BURST_MAX, &conf->rx_burst);
	if (tok_is(lx, "dev") || tok_is(lx, "vdev"))
		return parse_port(lx, conf, tok_is(lx, "vdev"));
	return OPT_UNKNOWN;
}

static int
parse_plugin(struct lexer *lx, struct vfwd_conf *conf)
{
	struct plugin_conf *pc;
	int rc, line = lx->tok_line;

	if (conf->n_plugins >= RTE_DIM(conf->plugins))
		return lex_error(lx, line, "too many plugins");
	pc = &conf->plugins[conf->n_plugins];
	memset(pc, 0, sizeof(*pc));
	rc = lex_value(lx, "plugin", pc->name, sizeof(pc->name));
	if (rc < 0)
		return rc;
	rc = expect_open(lx, "plugin NAME");
	if (rc < 0)
		return rc;
	while ((rc = lex_next(lx)) > 0 && !tok_is(lx, "}")) {
		if (tok_is(lx, "enable"))
			pc->disable = false;
		else if (tok_is(lx, "disable"))
			pc->disable = true;
		else
			return lex_error(lx, lx->tok_line,
					 "plugin option is enable or disable, "
					 "not '%s'",
					 lx->tok);
	}
	if (rc == 0)
		return lex_error(lx, lx->open_line, "missing '}' for this '{'");
	conf->n_plugins++;
	return rc < 0 ? rc : 0;
}

static int
plugins_opt(struct lexer *lx, struct vfwd_conf *conf)
{
	if (tok_is(lx, "path"))
		return lex_value(lx, "path", conf->plugin_path, sizeof(conf->plugin_path));
	if (tok_is(lx, "plugin"))
		return parse_plugin(lx, conf);
	return OPT_UNKNOWN;
}

static int
fib_opt(struct lexer *lx, struct vfwd_conf *conf)
{
	if (tok_is(lx, "ip4-max-routes"))
		return lex_uint(lx, "ip4-max-routes", 1024, 1u << 24, &conf->ip4_max_routes);
	if (tok_is(lx, "ip4-tbl8s"))
		return lex_uint(lx, "ip4-tbl8s", 256, 1u << 24, &conf->ip4_tbl8s);
	return OPT_UNKNOWN;
}

static const struct {
	const char *name;
	int (*opt)(struct lexer *lx, struct vfwd_conf *conf);
} sections[] = {
	{"unix", unix_opt},	  {"cpu", cpu_opt}, {"dpdk", dpdk_opt},
	{"plugins", plugins_opt}, {"fib", fib_opt},
};

void
conf_defaults(struct vfwd_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	strcpy(conf->cli_listen, "/run/vfwd/cli.sock");
	conf->main_core = 0;
	conf->n_workers = 1;
	conf->workers[0] = 1;
	conf->num_mbufs = 16384;
	conf->rx_burst = PORT_RX_BURST_DEFAULT;
	conf->adaptive_max_sleep_us = RX_MODE_MAX_SLEEP_US;
	conf->ip4_max_routes = 65536;
	conf->ip4_tbl8s = 1024;
}

int
conf_parse_string(const char *name, const char *text, struct vfwd_conf *conf, char *err,
		  size_t errlen)
{
	struct lexer lx = {.file = name, .p = text, .line = 1, .err = err, .errlen = errlen};
	int rc;

	snprintf(conf->file, sizeof(conf->file), "%s", name);
	while ((rc = lex_next(&lx)) > 0) {
		unsigned k = 0;

		while (k < RTE_DIM(sections) && (lx.quoted || strcmp(lx.tok, sections[k].name)))
			k++;
		if (k == RTE_DIM(sections))
			return lex_error(&lx, lx.tok_line, "unknown section '%s'", lx.tok);
		rc = expect_open(&lx, sections[k].name);
		if (rc < 0)
			return rc;
		rc = parse_section(&lx, conf, sections[k].name, sections[k].opt);
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < conf->n_workers; i++)
		if ((int)conf->workers[i] == conf->main_core)
			return lex_error(&lx, lx.cpu_line, "worker core %u is also the main core",
					 conf->workers[i]);
	return 0;
}

/* Every core the file names must be one this process may run on; checked when
 * vfwd starts (and by --check), not by the parser, so a file can be checked
 * for another machine's layout with conf_parse_string alone. */
/* cpus_online SET: the CPUs in /sys/devices/system/cpu/online ("0-3,6"), else this
 * process's affinity; -1 when neither can be read. */
static int
cpus_online(cpu_set_t *set)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	unsigned a, b;
	int got = -1;

	CPU_ZERO(set);
	if (f != NULL) {
		while (fscanf(f, "%u", &a) == 1) {
			b = a;
			if (fscanf(f, "-%u", &b) != 1)
				b = a;
			for (unsigned c = a; c <= b && c < CPU_SETSIZE; c++)
				CPU_SET(c, set);
			got = 0;
			if (fgetc(f) != ',')
				break;
		}
		fclose(f);
	}
	if (got < 0 && sched_getaffinity(0, sizeof(*set), set) == 0)
		got = 0;
	return got;
}

int
conf_check_cores(const struct vfwd_conf *conf, char *err, size_t errlen)
{
	cpu_set_t set;
	char avail[128] = "";
	int n = 0;

	/* Online CPUs, not this process's affinity: an isolated CPU (isolcpus, as the DUT VM
	 * boots) is outside the default affinity yet is exactly where a worker belongs. */
	if (cpus_online(&set) < 0)
		return 0; /* cannot tell: leave it to the EAL */
	for (int c = 0; c < CPU_SETSIZE && n < (int)sizeof(avail) - 8; c++)
		if (CPU_ISSET(c, &set))
			n += snprintf(avail + n, sizeof(avail) - (size_t)n, "%s%d", n ? "," : "",
				      c);
	if (conf->main_core >= CPU_SETSIZE || !CPU_ISSET(conf->main_core, &set)) {
		snprintf(err, errlen,
			 "%s:%d: main-core %d is not a CPU this machine has online (%s)",
			 conf->file, conf->main_core_line ? conf->main_core_line : 1,
			 conf->main_core, avail);
		return -EINVAL;
	}
	for (unsigned i = 0; i < conf->n_workers; i++) {
		if (conf->workers[i] < CPU_SETSIZE && CPU_ISSET(conf->workers[i], &set))
			continue;
		snprintf(err, errlen,
			 "%s:%d: worker core %u is not a CPU this machine has online (%s)",
			 conf->file, conf->workers_line ? conf->workers_line : 1, conf->workers[i],
			 avail);
		return -EINVAL;
	}
	return 0;
}

int
conf_parse_file(const char *path, struct vfwd_conf *conf, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	long size;
	int rc;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot read", path);
		goto out_close;
	}
	text = calloc(1, (size_t)size + 1);
	if (text == NULL) {
		rc = -ENOMEM;
		goto out_close;
	}
	if (size > 0 && fread(text, 1, (size_t)size, f) != (size_t)size) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot read", path);
		goto out_free;
	}
	if (memchr(text, '\0', (size_t)size) != NULL) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s:1: binary data in startup file", path);
		goto out_free;
	}
	rc = conf_parse_string(path, text, conf, err, errlen);
out_free:
	free(text);
out_close:
	fclose(f);
	return rc;
}
