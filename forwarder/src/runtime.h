/* SPDX-License-Identifier: BSD-3-Clause
 * `show runtime`, `show threads`, `show buffers` (runtime.c).
 */
#ifndef VFWD_RUNTIME_H
#define VFWD_RUNTIME_H

#include "defs.h"

/* ---- `show runtime` (runtime.c) ---- */
int runtime_show(struct vfwd_cli_out *out, bool json);
void runtime_clear(void);
void runtime_start(void);
void runtime_cli_register(void);

#endif /* VFWD_RUNTIME_H */
