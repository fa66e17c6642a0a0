/* The topology reader's verbs: check, get, dump (topo_cmd.h). */
#include "topo_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "topology.h"
#include "util.h"

enum { TOPO_EXIT_INPUT = 1, TOPO_EXIT_USAGE = 2 };

static int
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s check [--kind host|vm|loop] FILE\n"
		"       %s get FILE KEY [DEFAULT]\n"
		"       %s dump [--kind host|vm|loop] [--json] FILE\n",
		prog, prog, prog);
	return TOPO_EXIT_USAGE;
}

/* get FILE KEY [DEFAULT]: reads what it can; validation is check's. */
static int
topo_cmd_get(const char *prog, int argc, char **argv, struct topo *t)
{
	const char *v;

	if (argc < 3 || argc > 4)
		return usage(prog);
	if (topo_load(t, argv[1]) != 0 && t->buf == NULL && t->nerr == 0) {
		warnx_("%s: out of memory", argv[1]);
		return TOPO_EXIT_INPUT;
	}
	v = topo_get(t, argv[2]);
	if (v == NULL && t->buf == NULL)
		topo_print_errors(t, stderr);
	if (v == NULL && argc == 4)
		v = argv[3];
	if (v == NULL)
		return TOPO_EXIT_INPUT;
	printf("%s\n", v);
	return 0;
}

int
topo_cmd(const char *prog, int argc, char **argv)
{
	static struct topo t; /* 40 KB: not on the stack */
	enum topo_kind kind = TOPO_AUTO;
	const char *verb = argc > 0 ? argv[0] : "", *file = NULL, *kind_s = NULL;
	int json = 0, ret;

	if (strcmp(verb, "get") == 0) {
		ret = topo_cmd_get(prog, argc, argv, &t);
		topo_free(&t);
		return ret;
	}
	if (strcmp(verb, "check") != 0 && strcmp(verb, "dump") != 0)
		return usage(prog);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && verb[0] == 'd')
			json = 1;
		else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc)
			kind_s = argv[++i];
		else if (strncmp(argv[i], "--kind=", 7) == 0)
			kind_s = argv[i] + 7;
		else if (argv[i][0] == '-' || file != NULL)
			return usage(prog);
		else
			file = argv[i];
	}
	if (file == NULL || (kind_s != NULL && topo_kind_parse(kind_s, &kind) != 0))
		return usage(prog);
	if (topo_load(&t, file) == -ENOMEM) {
		warnx_("%s: out of memory", file);
		return TOPO_EXIT_INPUT;
	}
	ret = 0;
	if (topo_validate(&t, kind) != 0) {
		topo_print_errors(&t, stderr);
		ret = TOPO_EXIT_INPUT;
	} else if (verb[0] == 'd') {
		topo_dump(&t, stdout, json);
	}
	topo_free(&t);
	return ret;
}
