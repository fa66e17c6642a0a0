/* SPDX-License-Identifier: BSD-3-Clause
 * Start-up (vfwd.c): the entry point and the data plane's set-up, which the tests call too.
 */
#ifndef VFWD_STARTUP_H
#define VFWD_STARTUP_H

#include "defs.h"

/* ---- startup (vfwd.c) ---- */
VFWD_API int vfwd_main(int argc, char **argv);
int vfwd_dataplane_init(char *err, size_t errlen);
int vfwd_pool_create(unsigned n);

void cli_builtin_register(void); /* every subsystem's commands */

#endif /* VFWD_STARTUP_H */
