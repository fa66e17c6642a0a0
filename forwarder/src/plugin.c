/* SPDX-License-Identifier: BSD-3-Clause
 * Plugin loader: dlopen()s every *.so in the plugin path (unless the startup
 * file disables it), checks its ABI version and calls its init.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <rte_common.h>
#include <rte_version.h>

#include "cli.h"
#include "conf.h"
#include "plugins.h"

struct loaded_plugin {
	char file[PATH_LEN * 2 + 8];
	const struct vfwd_plugin *desc;
	void *handle;
};

static struct loaded_plugin loaded[32];
static unsigned n_loaded;
static char plugin_dir[PATH_LEN];

/* The build folder vfwd runs from: the parent of the folder holding libvfwd. */
const char *
vfwd_install_dir(void)
{
	static char dir[PATH_LEN];
	Dl_info info;
	char tmp[PATH_LEN];

	if (dir[0])
		return dir;
	if (dladdr((void *)vfwd_install_dir, &info) == 0 || info.dli_fname == NULL ||
	    realpath(info.dli_fname, tmp) == NULL) {
		snprintf(dir, sizeof(dir), "/opt/vfwd");
		return dir;
	}
	snprintf(dir, sizeof(dir), "%s", dirname(dirname(tmp)));
	return dir;
}

int
plugin_load_one(const char *path, char *err, size_t errlen)
{
	const struct vfwd_plugin *desc;
	struct loaded_plugin *lp;
	void *h;
	int rc;

	if (n_loaded >= RTE_DIM(loaded)) {
		snprintf(err, errlen, "%s: too many plugins", path);
		return -ENOSPC;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(err, errlen, "plugin %s: %s", path, dlerror());
		return -ENOENT;
	}
	desc = dlsym(h, "vfwd_plugin");
	if (desc == NULL) {
		snprintf(err, errlen, "plugin %s: no vfwd_plugin symbol; not a vfwd plugin", path);
		rc = -EINVAL;
		goto out_close;
	}
	if (desc->abi_version != VFWD_PLUGIN_ABI_VERSION) {
		snprintf(err, errlen,
			 "plugin %s: ABI version %u does not match vfwd's %u; refusing to load "
			 "(rebuild it against this vfwd/plugin.h)",
			 path, desc->abi_version, VFWD_PLUGIN_ABI_VERSION);
		rc = -EPROTO;
		goto out_close;
	}
	if (desc->init != NULL && (rc = desc->init()) < 0) {
		snprintf(err, errlen, "plugin %s: init failed: %s", path, strerror(-rc));
		goto out_close;
	}
	lp = &loaded[n_loaded++];
	snprintf(lp->file, sizeof(lp->file), "%s", path);
	lp->desc = desc;
	lp->handle = h;
	return 0;
out_close:
	dlclose(h);
	return rc;
}

static bool
plugin_disabled(const struct vfwd_conf *conf, const char *name)
{
	for (unsigned i = 0; i < conf->n_plugins; i++)
		if (strcmp(conf->plugins[i].name, name) == 0)
			return conf->plugins[i].disable;
	return false;
}

static int
so_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && strcmp(d->d_name + n - 3, ".so") == 0;
}

int
plugins_load(const struct vfwd_conf *conf, char *err, size_t errlen)
{
	char dir[PATH_LEN], path[PATH_LEN * 2];
	struct dirent **list = NULL;
	int n, rc = 0;

	if (conf->plugin_path[0])
		snprintf(dir, sizeof(dir), "%s", conf->plugin_path);
	else
		snprintf(dir, sizeof(dir), "%s/plugins", vfwd_install_dir());
	snprintf(plugin_dir, sizeof(plugin_dir), "%s", dir);
	n = scandir(dir, &list, so_filter, alphasort);
	if (n < 0) {
		if (conf->plugin_path[0] == '\0')
			return 0; /* no default plugin folder: nothing to load */
		snprintf(err, errlen, "plugin path %s: %s", dir, strerror(errno));
		return -errno;
	}
	for (unsigned i = 0; i < conf->n_plugins; i++) {
		bool found = false;

		for (int k = 0; k < n; k++)
			found |= strcmp(list[k]->d_name, conf->plugins[i].name) == 0;
		if (!found && !conf->plugins[i].disable) {
			snprintf(err, errlen, "plugin %s not found in %s", conf->plugins[i].name,
				 dir);
			rc = -ENOENT;
		}
	}
	for (int k = 0; k < n && rc == 0; k++) {
		if (plugin_disabled(conf, list[k]->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, list[k]->d_name);
		rc = plugin_load_one(path, err, errlen);
	}
	for (int k = 0; k < n; k++)
		free(list[k]);
	free(list);
	return rc;
}

void
plugins_show(struct vfwd_cli_out *out)
{
	vfwd_cli_printf(out, " Plugin path is: %s\n\n", plugin_dir[0] ? plugin_dir : "(none)");
	vfwd_cli_printf(out, "     %-40s%-12s%s\n", "Plugin", "Version", "Description");
	for (unsigned i = 0; i < n_loaded; i++) {
		const struct vfwd_plugin *d = loaded[i].desc;
		char tmp[sizeof(loaded[i].file)];

		snprintf(tmp, sizeof(tmp), "%s", loaded[i].file);
		vfwd_cli_printf(out, " %2u. %-40s%-12s%s\n", i + 1, basename(tmp),
				d->version ? d->version : "", d->description ? d->description : "");
	}
}

/* ---- commands ---- */

static int
cmd_show_plugins(struct vfwd_cli_out *out, int argc, char **argv)
{
	NO_ARGS(out, argc, argv, "show plugins");
	plugins_show(out);
	return 0;
}

static int
cmd_show_version(struct vfwd_cli_out *out, int argc, char **argv)
{
	char path[PATH_LEN + 32], buf[4096];
	FILE *f;
	size_t n;

	NO_ARGS(out, argc, argv, "show version");
	vfwd_cli_printf(out, "vfwd %s (%s, %s, plugin ABI %d)\n", VFWD_VERSION, vfwd_install_dir(),
			rte_version(), VFWD_PLUGIN_ABI_VERSION);
	snprintf(path, sizeof(path), "%s/build-info.json", vfwd_install_dir());
	f = fopen(path, "r");
	if (f == NULL) {
		vfwd_cli_printf(out, "build-info: %s: %s\n", path, strerror(errno));
		return 0;
	}
	while ((n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
		buf[n] = '\0';
		vfwd_cli_printf(out, "%s", buf);
	}
	fclose(f);
	return 0;
}

void
plugin_cli_register(void)
{
	static const struct {
		const char *path, *help;
		vfwd_cli_fn fn;
	} b[] = {
		{"show plugins", "", cmd_show_plugins},
		{"show version", "", cmd_show_version},
	};

	for (unsigned i = 0; i < RTE_DIM(b); i++)
		vfwd_cli_register(b[i].path, b[i].help, b[i].fn);
}
