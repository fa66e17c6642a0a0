/* SPDX-License-Identifier: BSD-3-Clause
 * CLI: the command registry, the line parser (VPP's word prefixes), the output
 * helpers and the argument parsers every subsystem's commands share. The
 * commands themselves sit beside their subsystems and register here with
 * vfwd_cli_register(), as plugins do; this file calls none of them. Commands
 * run on the main lcore only; an unknown or malformed command changes nothing
 * and answers "error: ...".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <rte_common.h>

#include "cli.h"
#include "state.h"

#define MAX_WORDS 8
#define MAX_ARGS 32

struct cli_cmd {
	unsigned n_words;
	char words[MAX_WORDS][24];
	char path[96];
	const char *help;
	vfwd_cli_fn fn;
};

static struct cli_cmd cli_cmds[128];
static unsigned n_cli_cmds;

VFWD_API int
vfwd_cli_printf(struct vfwd_cli_out *out, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = out->cap - out->len;

		va_start(ap, fmt);
		n = vsnprintf(out->buf ? out->buf + out->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < room) {
			out->len += (size_t)n;
			return n;
		}
		size_t cap = out->cap ? out->cap * 2 : 4096;
		while (cap < out->len + (size_t)n + 1)
			cap *= 2;
		char *b = realloc(out->buf, cap);
		if (b == NULL)
			return -ENOMEM;
		out->buf = b;
		out->cap = cap;
	}
}

void
cli_center(struct vfwd_cli_out *out, int width, const char *s)
{
	int len = (int)strlen(s), left = 0, right = 0;

	/* like VPP's %=Ns: an odd padding puts the extra space on the left */
	if (len < width) {
		left = (width - len + 1) / 2;
		right = width - len - left;
	}
	vfwd_cli_printf(out, "%*s%s%*s", left, "", s, right, "");
}

int
cli_error(struct vfwd_cli_out *out, int rc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vfwd_cli_printf(out, "error: %s\n", msg);
	out->error = true;
	return rc;
}

void
cli_out_free(struct vfwd_cli_out *out)
{
	free(out->buf);
	memset(out, 0, sizeof(*out));
}

VFWD_API int
vfwd_cli_register(const char *path, const char *help, vfwd_cli_fn fn)
{
	struct cli_cmd *c;
	char buf[96], *w, *save = NULL;

	if (path == NULL || fn == NULL || strlen(path) >= sizeof(buf))
		return -EINVAL;
	if (n_cli_cmds >= RTE_DIM(cli_cmds))
		return -ENOSPC;
	c = &cli_cmds[n_cli_cmds];
	memset(c, 0, sizeof(*c));
	strcpy(buf, path);
	snprintf(c->path, sizeof(c->path), "%s", path);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (c->n_words >= MAX_WORDS || strlen(w) >= sizeof(c->words[0]))
			return -EINVAL;
		strcpy(c->words[c->n_words++], w);
	}
	if (c->n_words == 0)
		return -EINVAL;
	for (unsigned i = 0; i < n_cli_cmds; i++)
		if (strcmp(cli_cmds[i].path, c->path) == 0)
			return -EEXIST;
	c->help = help;
	c->fn = fn;
	n_cli_cmds++;
	return 0;
}

static int cli_execute_words(const char *line, int argc, char **argv, struct vfwd_cli_out *out);

int
cli_execute(const char *line, struct vfwd_cli_out *out)
{
	char *buf, *argv[MAX_ARGS], *save = NULL, *w;
	int argc = 0, rc;

	buf = strdup(line);
	if (buf == NULL)
		return cli_error(out, -ENOMEM, "out of memory");
	for (w = strtok_r(buf, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc >= MAX_ARGS) {
			free(buf);
			return cli_error(out, -E2BIG, "too many words (max %d)", MAX_ARGS);
		}
		argv[argc++] = w;
	}
	rc = argc == 0 || argv[0][0] == '#' ? 0 : cli_execute_words(line, argc, argv, out);
	free(buf);
	return rc;
}

/* The word at position k the typed word selects among the live commands, as
 * VPP does: an exact match, else the only word it is a prefix of (words of
 * commands with the same handler, i.e. aliases, count as one; a hyphenated word
 * competes only once typed up to its hyphen, or when nothing else matches). NULL when none
 * matches; *ambiguous is set when several distinct commands do. */
static const char *
cli_word_pick(const bool *alive, unsigned k, const char *typed, bool *ambiguous)
{
	const char *pick = NULL;
	vfwd_cli_fn pick_fn = NULL;
	size_t len = strlen(typed);

	*ambiguous = false;
	for (unsigned i = 0; i < n_cli_cmds; i++)
		if (alive[i] && cli_cmds[i].n_words > k && strcmp(cli_cmds[i].words[k], typed) == 0)
			return cli_cmds[i].words[k];
	/* first without the words whose hyphen is past what was typed, so that "nei" is
	 * "neighbors" beside "neighbor-config" (typed up to its hyphen, it is chosen) */
	for (int pass = 0; pass < 2 && pick == NULL; pass++)
		for (unsigned i = 0; i < n_cli_cmds; i++) {
			const struct cli_cmd *c = &cli_cmds[i];
			const char *hy;

			if (!alive[i] || c->n_words <= k || strncmp(c->words[k], typed, len) != 0)
				continue;
			hy = strchr(c->words[k], '-');
			if (pass == 0 && hy != NULL && (size_t)(hy - c->words[k]) >= len)
				continue;
			if (pick == NULL || (strcmp(pick, c->words[k]) != 0 && pick_fn == c->fn &&
					     strlen(c->words[k]) < strlen(pick))) {
				pick = c->words[k];
				pick_fn = c->fn;
			} else if (strcmp(pick, c->words[k]) != 0 && pick_fn != c->fn) {
				*ambiguous = true;
			}
		}
	return pick;
}

static int
cli_execute_words(const char *line, int argc, char **argv, struct vfwd_cli_out *out)
{
	bool alive[RTE_DIM(cli_cmds)];
	struct cli_cmd *best = NULL;
	unsigned k;
	int rc;

	for (unsigned i = 0; i < n_cli_cmds; i++)
		alive[i] = true;
	for (k = 0;; k++) {
		const char *w;
		bool ambiguous;

		for (unsigned i = 0; i < n_cli_cmds; i++)
			if (alive[i] && cli_cmds[i].n_words == k)
				best = &cli_cmds[i];
		if (k >= (unsigned)argc)
			break;
		w = cli_word_pick(alive, k, argv[k], &ambiguous);
		if (w == NULL)
			break; /* the rest are the arguments of best */
		if (ambiguous)
			return cli_error(out, -EINVAL, "ambiguous command: '%s' in '%.200s'", argv[k],
					 line);
		for (unsigned i = 0; i < n_cli_cmds; i++)
			alive[i] = alive[i] && cli_cmds[i].n_words > k &&
				   strcmp(cli_cmds[i].words[k], w) == 0;
	}
	if (best == NULL)
		return cli_error(out, -ENOENT, "unknown command '%.200s' (try 'help')", line);
	rc = best->fn(out, argc - (int)best->n_words, argv + best->n_words);
	if (rc < 0)
		out->error = true;
	return rc;
}

#define EXEC_LINE_MAX 65536

int
cli_exec_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -errno;
	}
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct vfwd_cli_out out = {0};

		lineno++;
		if (len > EXEC_LINE_MAX) {
			fprintf(stderr, "%s:%d: line too long (%zd bytes, max %d)\n", path, lineno,
				len, EXEC_LINE_MAX);
			rc = -E2BIG;
			break;
		}
		if (memchr(line, '\0', (size_t)len) != NULL) {
			fprintf(stderr, "%s:%d: NUL byte in line\n", path, lineno);
			rc = -EINVAL;
			break;
		}
		if (cli_execute(line, &out) < 0 || out.error) {
			fprintf(stderr, "%s:%d: %.*s", path, lineno, (int)out.len,
				out.buf ? out.buf : "");
			rc = -EINVAL;
		} else if (out.len) {
			fwrite(out.buf, 1, out.len, stdout);
		}
		cli_out_free(&out);
		if (rc < 0)
			break;
	}
	free(line);
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc == 0)
		printf("exec %s: %d lines in %.2f s\n", path, lineno,
		       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return rc;
}

/* ---- argument helpers ---- */

struct port *
cli_arg_port(struct vfwd_cli_out *out, const char *name)
{
	struct port *p = port_by_name(name);

	if (p == NULL)
		cli_error(out, -ENODEV, "unknown interface '%s'", name);
	return p;
}

int
cli_parse_ip4(const char *s, uint32_t *ip)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*ip = ntohl(a.s_addr);
	return 0;
}

/* Splits "ADDR/LEN" into buf (the address) and *len (at most max); -EINVAL when malformed. */
static int
prefix_split(const char *s, char *buf, size_t size, unsigned long max, uint8_t *len)
{
	char *slash, *end;
	unsigned long l;

	if (strlen(s) >= size)
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	l = strtoul(slash + 1, &end, 10);
	if (*end || end == slash + 1 || l > max)
		return -EINVAL;
	*len = (uint8_t)l;
	return 0;
}

int
cli_parse_prefix(const char *s, uint32_t *ip, uint8_t *len)
{
	char buf[32];

	if (prefix_split(s, buf, sizeof(buf), 32, len) < 0)
		return -EINVAL;
	return cli_parse_ip4(buf, ip);
}

int
cli_parse_prefix6(const char *s, uint8_t *ip, uint8_t *len)
{
	char buf[64];

	if (prefix_split(s, buf, sizeof(buf), 128, len) < 0)
		return -EINVAL;
	return inet_pton(AF_INET6, buf, ip) == 1 ? 0 : -EINVAL;
}

bool
cli_is_ip6_arg(const char *s)
{
	return strchr(s, ':') != NULL;
}

static int
cmd_help(struct vfwd_cli_out *out, int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	for (unsigned i = 0; i < n_cli_cmds; i++)
		vfwd_cli_printf(out, "  %-32s %s\n", cli_cmds[i].path,
				cli_cmds[i].help ? cli_cmds[i].help : "");
	return 0;
}

void
cli_help_register(void)
{
	vfwd_cli_register("help", "", cmd_help);
}
