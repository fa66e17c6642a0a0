/* SPDX-License-Identifier: BSD-3-Clause
 * vfwdctl: send CLI commands to a running vfwd.
 *   vfwdctl [-s SOCK] COMMAND...   run one command; exit 1 if it failed
 *   vfwdctl [-s SOCK]              interactive prompt: on a terminal with line
 *                                  editing, history ($HOME/.vfwdctl_history) and TAB
 *                                  completion of the command words vfwd lists in `help`;
 *                                  otherwise lines are read from stdin
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <editline/readline.h>

#define DEFAULT_SOCK "/run/vfwd/cli.sock"

static int
connect_cli(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "vfwdctl: socket path too long\n");
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "vfwdctl: cannot connect to %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Sends one line and copies the reply to `to` (NULL: stdout) or, when `capture`
 * is given, into *capture (malloc'd); 0 ok, 1 command error, -1 I/O error. */
static int run_command_to(int fd, const char *cmd, char **capture);

static int
run_command(int fd, const char *cmd)
{
	return run_command_to(fd, cmd, NULL);
}

static int
run_command_to(int fd, const char *cmd, char **capture)
{
	size_t clen = 0;
	size_t len = strlen(cmd);
	char buf[65536];
	bool first = true, failed = false;
	int out_err = 0; /* errno of a failed write to stdout: the reply is still read to its end */

	if (write(fd, cmd, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
		fprintf(stderr, "vfwdctl: write: %s\n", strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		char *nul;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "vfwdctl: connection closed by vfwd\n");
			return -1;
		}
		if (first && strncmp(buf, "error:", n < 6 ? (size_t)n : 6) == 0)
			failed = true;
		first = false;
		nul = memchr(buf, '\0', (size_t)n);
		size_t k = nul ? (size_t)(nul - buf) : (size_t)n;

		if (capture != NULL) {
			char *c = realloc(*capture, clen + k + 1);

			if (c == NULL)
				return -1;
			memcpy(c + clen, buf, k);
			clen += k;
			c[clen] = '\0';
			*capture = c;
		} else if (fwrite(buf, 1, k, stdout) != k && out_err == 0) {
			out_err = errno ? errno : EIO;
		}
		if (nul)
			break;
	}
	if (capture == NULL && fflush(stdout) != 0 && out_err == 0)
		out_err = errno ? errno : EIO;
	if (out_err != 0) {
		fprintf(stderr, "vfwdctl: writing the reply to '%s' to stdout: %s\n", cmd,
			strerror(out_err));
		return -1;
	}
	return failed ? 1 : 0;
}

/* ---- the interactive prompt ---- */

#define MAX_CMDS 256
#define MAX_CMD_WORDS 8

/* the command paths vfwd lists in `help`, split into words */
static char *cmd_words[MAX_CMDS][MAX_CMD_WORDS];
static unsigned n_cmds;

static void
commands_load(int fd)
{
	char *help = NULL, *save = NULL;

	if (run_command_to(fd, "help", &help) != 0 || help == NULL) {
		free(help);
		return;
	}
	for (char *l = strtok_r(help, "\n", &save); l && n_cmds < MAX_CMDS;
	     l = strtok_r(NULL, "\n", &save)) {
		char path[128], *w, *ws = NULL;
		unsigned k = 0;

		/* "  PATH (padded to 32) HELP": the path is the text before two spaces */
		while (*l == ' ')
			l++;
		snprintf(path, sizeof(path), "%s", l);
		w = strstr(path, "  ");
		if (w != NULL)
			*w = '\0';
		for (w = strtok_r(path, " ", &ws); w && k < MAX_CMD_WORDS;
		     w = strtok_r(NULL, " ", &ws))
			cmd_words[n_cmds][k++] = strdup(w);
		if (k > 0)
			n_cmds++;
	}
	free(help);
}

/* Does `typed` (a word the user gave) select `word`: equal, or a prefix of it, as vfwd
 * takes unique prefixes */
static bool
word_selects(const char *typed, const char *word)
{
	return strncmp(typed, word, strlen(typed)) == 0;
}

static char *cand[MAX_CMDS];
static unsigned n_cand;

/* The words that may follow the complete words before the cursor */
static void
candidates_collect(const char *text)
{
	char line[1024], *words[MAX_CMD_WORDS], *save = NULL;
	unsigned nw = 0, start = (unsigned)(rl_point - (int)strlen(text));

	n_cand = 0;
	snprintf(line, sizeof(line), "%.*s", (int)start, rl_line_buffer);
	for (char *w = strtok_r(line, " \t", &save); w && nw < MAX_CMD_WORDS;
	     w = strtok_r(NULL, " \t", &save))
		words[nw++] = w;
	for (unsigned c = 0; c < n_cmds; c++) {
		const char *next;
		bool dup = false;
		unsigned i;

		for (i = 0;
		     i < nw && cmd_words[c][i] != NULL && word_selects(words[i], cmd_words[c][i]);
		     i++)
			;
		if (i < nw || i >= MAX_CMD_WORDS || (next = cmd_words[c][i]) == NULL ||
		    !word_selects(text, next))
			continue;
		for (unsigned k = 0; k < n_cand; k++)
			dup |= strcmp(cand[k], next) == 0;
		if (!dup)
			cand[n_cand++] = (char *)next;
	}
}

static char *
completion_next(const char *text, int state)
{
	static unsigned i;

	if (state == 0) {
		candidates_collect(text);
		i = 0;
	}
	return i < n_cand ? strdup(cand[i++]) : NULL;
}

static char **
completion(const char *text, int start, int end)
{
	(void)start;
	(void)end;
	rl_attempted_completion_over = 1; /* never complete file names */
	return rl_completion_matches(text, completion_next);
}

static void
history_path(char *buf, size_t len)
{
	const char *home = getenv("HOME");

	buf[0] = '\0';
	if (home != NULL && home[0] != '\0')
		snprintf(buf, len, "%s/.vfwdctl_history", home);
}

/* One command a line, plain text, so other tools read it too */
static void
history_load(const char *path)
{
	char line[1024];
	FILE *f = path[0] ? fopen(path, "r") : NULL;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			add_history(line);
	}
	fclose(f);
}

static void
history_append(const char *path, const char *line)
{
	FILE *f = path[0] ? fopen(path, "a") : NULL;

	add_history(line);
	if (f != NULL) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

static int
interactive(int fd)
{
	char hist[1024];
	char *line;
	int rc = 0;

	commands_load(fd);
	history_path(hist, sizeof(hist));
	using_history();
	history_load(hist);
	rl_attempted_completion_function = completion;
	while ((line = readline("vfwd# ")) != NULL) {
		char *l = line;

		while (*l == ' ' || *l == '\t')
			l++;
		l[strcspn(l, "\r\n")] = '\0';
		for (size_t n = strlen(l); n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t'); n--)
			l[n - 1] = '\0'; /* completion leaves a space after the last word */
		if (strcmp(l, "quit") == 0 || strcmp(l, "exit") == 0) {
			free(line);
			break;
		}
		if (l[0] != '\0') {
			history_append(hist, l);
			if (run_command(fd, l) < 0) {
				free(line);
				rc = 2;
				break;
			}
		}
		free(line);
	}
	return rc;
}

int
main(int argc, char **argv)
{
	const char *sock = getenv("VFWD_CLI_SOCK");
	char line[1024];
	int opt, fd, rc = 0;

	if (sock == NULL)
		sock = DEFAULT_SOCK;
	while ((opt = getopt(argc, argv, "+s:h")) != -1) {
		switch (opt) {
		case 's':
			sock = optarg;
			break;
		default:
			fprintf(stderr, "usage: vfwdctl [-s SOCK] [COMMAND...]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	fd = connect_cli(sock);
	if (fd < 0)
		return 2;
	if (optind < argc) {
		size_t n = 0;

		line[0] = '\0';
		for (int i = optind; i < argc; i++) {
			int k = snprintf(line + n, sizeof(line) - n, "%s%s", i > optind ? " " : "",
					 argv[i]);

			if (k < 0 || (size_t)k >= sizeof(line) - n) {
				fprintf(stderr, "vfwdctl: command too long\n");
				close(fd);
				return 2;
			}
			n += (size_t)k;
		}
		rc = run_command(fd, line);
		close(fd);
		return rc < 0 ? 2 : rc;
	}
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		rc = interactive(fd);
		close(fd);
		return rc;
	}
	for (;;) {
		char *nl;

		if (fgets(line, sizeof(line), stdin) == NULL)
			break;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
			break;
		if (line[0] == '\0')
			continue;
		if (run_command(fd, line) < 0) {
			rc = 2;
			break;
		}
	}
	close(fd);
	return rc;
}
