/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd: a thin main; everything lives in libvfwd.so.
 */
#include "vfwd/plugin.h"

int vfwd_main(int argc, char **argv);

int
main(int argc, char **argv)
{
	return vfwd_main(argc, argv);
}
