/* SPDX-License-Identifier: BSD-3-Clause
 * Plugins (plugin.c): loading, `show plugins`, `show version`.
 */
#ifndef VFWD_PLUGINS_H
#define VFWD_PLUGINS_H

#include "conf.h"

/* ---- plugins (plugin.c) ---- */
int plugins_load(const struct vfwd_conf *conf, char *err, size_t errlen);
int plugin_load_one(const char *path, char *err, size_t errlen);
void plugins_show(struct vfwd_cli_out *out);
const char *vfwd_install_dir(void);
void plugin_cli_register(void);

#endif /* VFWD_PLUGINS_H */
