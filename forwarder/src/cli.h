/* SPDX-License-Identifier: BSD-3-Clause
 * The CLI (cli.c: registry, parser, output and argument helpers; cli_server.c: the socket).
 */
#ifndef VFWD_CLI_H
#define VFWD_CLI_H

#include <errno.h>
#include "defs.h"

struct port;

/* ---- CLI (cli.c, cli_server.c) ---- */
struct vfwd_cli_out {
	char *buf;
	size_t len, cap;
	bool error;
};
int cli_execute(const char *line, struct vfwd_cli_out *out);
int cli_exec_file(const char *path);
void cli_out_free(struct vfwd_cli_out *out);
int cli_server_open(const char *path);
int cli_server_poll(int timeout_ms);
void cli_server_close(void);
void cli_help_register(void);
int cli_parse_ip4(const char *s, uint32_t *ip);
int cli_parse_prefix(const char *s, uint32_t *ip, uint8_t *len);
int cli_parse_prefix6(const char *s, uint8_t *ip, uint8_t *len);
bool cli_is_ip6_arg(const char *s);
struct port *cli_arg_port(struct vfwd_cli_out *out, const char *name);
/* For commands that take no arguments: an error naming the first extra word. */
#define NO_ARGS(out, argc, argv, name)                                                             \
	do {                                                                                       \
		if ((argc) > 0)                                                                    \
			return cli_error(out, -EINVAL, "%s takes no arguments, not '%s'", name,    \
					 (argv)[0]);                                               \
	} while (0)
void cli_center(struct vfwd_cli_out *out, int width, const char *s);
int cli_error(struct vfwd_cli_out *out, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* VFWD_CLI_H */
