/* SPDX-License-Identifier: BSD-3-Clause
 * vfwdctl: send CLI commands to a running vfwd.
 *   vfwdctl [-s SOCK] COMMAND...   run one command; exit 1 if it failed
 *   vfwdctl [-s SOCK]              interactive prompt (reads stdin)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

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

/* Sends one line and copies the reply to stdout; 0 ok, 1 command error, -1 I/O error. */
static int
run_command(int fd, const char *cmd)
{
	size_t len = strlen(cmd);
	char buf[65536];
	bool first = true, failed = false;

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
		fwrite(buf, 1, nul ? (size_t)(nul - buf) : (size_t)n, stdout);
		if (nul)
			break;
	}
	fflush(stdout);
	return failed ? 1 : 0;
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
	for (;;) {
		char *nl;

		if (isatty(STDIN_FILENO)) {
			fputs("vfwd# ", stdout);
			fflush(stdout);
		}
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
