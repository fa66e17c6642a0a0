/* SPDX-License-Identifier: BSD-3-Clause
 * A plugin built for a different ABI version; vfwd must refuse it.
 */
#include "vfwd/plugin.h"

VFWD_API const struct vfwd_plugin vfwd_plugin = {
	.abi_version = VFWD_PLUGIN_ABI_VERSION + 1,
	.name = "bad-abi",
	.version = "0",
	.description = "built against a future plugin.h",
};
