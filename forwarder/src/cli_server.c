/* SPDX-License-Identifier: BSD-3-Clause
 * CLI server: a unix stream socket (mode 0600) served by the main lcore with
 * poll(). Protocol: the client sends one command per line; the server answers
 * with the command's output followed by a NUL byte. Writes never block: a
 * reply the client does not read waits in that client's buffer, and the
 * client's next command is not read until its reply has gone, so a client that
 * never reads stalls only itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"

#define MAX_CLIENTS 16
#define LINE_MAX_LEN 1024
#define OUT_MAX (256u << 20) /* a reply larger than this closes the client */

struct cli_client {
	int fd;
	size_t len;
	char buf[LINE_MAX_LEN];
	struct vfwd_cli_out out; /* reply not yet sent */
	size_t out_off;
};

static int listen_fd = -1;
static char listen_path[PATH_LEN];
static struct cli_client clients[MAX_CLIENTS];

static int
mkdir_parent(const char *path)
{
	char dir[PATH_LEN], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int
cli_server_open(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	mode_t old;
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	rc = mkdir_parent(path);
	if (rc < 0)
		return rc;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(path);
	old = umask(0177);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc < 0 || chmod(path, 0600) < 0 || listen(fd, 8) < 0) {
		rc = -errno;
		goto out_close;
	}
	listen_fd = fd;
	snprintf(listen_path, sizeof(listen_path), "%s", path);
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		clients[i].fd = -1;
	return 0;
out_close:
	close(fd);
	return rc;
}

static void
client_close(struct cli_client *c)
{
	close(c->fd);
	c->fd = -1;
	c->len = 0;
	cli_out_free(&c->out);
	c->out_off = 0;
}

static bool
client_pending(const struct cli_client *c)
{
	return c->out_off < c->out.len;
}

/* Sends what the socket takes now; 0, or -1 when the client was closed. */
static int
client_flush(struct cli_client *c)
{
	while (client_pending(c)) {
		ssize_t n = send(c->fd, c->out.buf + c->out_off, c->out.len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0) {
			client_close(c);
			return -1;
		}
		c->out_off += (size_t)n;
	}
	cli_out_free(&c->out);
	c->out_off = 0;
	return 0;
}

/* Runs the complete lines in the client's buffer, one reply at a time. */
static void
client_lines(struct cli_client *c)
{
	char *nl;

	while (!client_pending(c) && (nl = memchr(c->buf, '\n', c->len)) != NULL) {
		size_t used = (size_t)(nl - c->buf) + 1;

		*nl = '\0';
		/* a NUL inside the line would hide the rest of it from the parser */
		if (memchr(c->buf, '\0', used - 1) != NULL)
			cli_error(&c->out, -EINVAL, "NUL byte in command; nothing done");
		else
			cli_execute(c->buf, &c->out);
		vfwd_cli_printf(&c->out, "%c", '\0');
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
		if (c->out.len > OUT_MAX || client_flush(c) < 0) {
			if (c->fd >= 0)
				client_close(c);
			return;
		}
	}
	if (!client_pending(c) && c->len == sizeof(c->buf)) {
		static const char msg[] = "error: line too long\n";

		(void)!send(c->fd, msg, sizeof(msg), MSG_NOSIGNAL | MSG_DONTWAIT);
		client_close(c);
	}
}

static void
client_read(struct cli_client *c)
{
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);

	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		client_close(c);
		return;
	}
	c->len += (size_t)n;
	client_lines(c);
}

static void
client_accept(void)
{
	int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	for (unsigned i = 0; i < MAX_CLIENTS; i++) {
		if (clients[i].fd < 0) {
			memset(&clients[i], 0, sizeof(clients[i]));
			clients[i].fd = fd;
			return;
		}
	}
	{
		static const char msg[] = "error: too many CLI clients\n";

		(void)!send(fd, msg, sizeof(msg), MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	close(fd);
}

int
cli_server_poll(int timeout_ms)
{
	struct pollfd pfd[MAX_CLIENTS + 1];
	unsigned map[MAX_CLIENTS + 1], n = 0;
	int rc;

	if (listen_fd < 0) {
		poll(NULL, 0, timeout_ms);
		return 0;
	}
	pfd[n].fd = listen_fd;
	pfd[n++].events = POLLIN;
	for (unsigned i = 0; i < MAX_CLIENTS; i++) {
		if (clients[i].fd < 0)
			continue;
		map[n] = i;
		pfd[n].fd = clients[i].fd;
		pfd[n++].events = client_pending(&clients[i]) ? POLLOUT : POLLIN;
	}
	rc = poll(pfd, n, timeout_ms);
	if (rc <= 0)
		return rc < 0 && errno != EINTR ? -errno : 0;
	for (unsigned k = 1; k < n; k++) {
		struct cli_client *c = &clients[map[k]];

		if (pfd[k].revents == 0)
			continue;
		if (client_pending(c)) {
			if (pfd[k].revents & (POLLERR | POLLHUP | POLLNVAL))
				client_close(c);
			else if (client_flush(c) == 0)
				client_lines(c); /* commands that arrived with the last one */
			continue;
		}
		client_read(c);
	}
	if (pfd[0].revents & POLLIN)
		client_accept();
	return rc;
}

void
cli_server_close(void)
{
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].fd >= 0)
			client_close(&clients[i]);
	if (listen_fd >= 0) {
		close(listen_fd);
		unlink(listen_path);
		listen_fd = -1;
	}
}
