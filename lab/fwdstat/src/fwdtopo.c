/* fwdtopo: the lab's topology reader. One definition of a valid topology.conf (which keys,
 * which values; FILE:LINE: for each error) and of its values:
 *   fwdtopo check [--kind host|vm|loop] FILE
 *   fwdtopo get FILE KEY [DEFAULT]
 *   fwdtopo dump [--kind host|vm|loop] [--json] FILE   every key at once (fwdlab reads
 *                                                       its topology once per verb)
 * `fwdstat topology VERB ...` is the same command under its older name. */
#include <stdio.h>
#include <string.h>

#include "topo_cmd.h"

int
main(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		puts("usage: fwdtopo check [--kind host|vm|loop] FILE\n"
		     "       fwdtopo get FILE KEY [DEFAULT]\n"
		     "       fwdtopo dump [--kind host|vm|loop] [--json] FILE\n"
		     "the lab's topology reader: check validates (one FILE:LINE: message per error,\n"
		     "exit 1), get prints one value, dump prints every key (--json: one object)");
		return 0;
	}
	return topo_cmd("fwdtopo", argc - 1, argv + 1);
}
