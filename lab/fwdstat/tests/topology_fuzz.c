/* SPDX-License-Identifier: MIT */
/*
 * topology_fuzz.c - libFuzzer target for the topology reader (topology.c, topology_check.c).
 * Whatever the bytes, for every kind: the reader never crashes; the settings it keeps are
 * well formed (key of [A-Za-z0-9_.-], value trimmed, no '#', valid UTF-8, no control
 * characters, no duplicates) and topo_get finds each; every message is one line of valid
 * UTF-8 about a line of the input; and a file found valid dumps to KEY=VALUE lines that
 * read back to the same settings and are valid too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
utf8_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		size_t n = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;

		if (n == 0 || (*p < 0x20 && *p != '\t') || *p == 0x7f)
			return 0;
		for (size_t i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return 0;
		p += n;
	}
	return 1;
}

static void
check_settings(const struct topo *t, size_t lines)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct topo_entry *e = &t->v[i];
		size_t kl = strlen(e->key), vl = strlen(e->value);

		if (kl == 0 || kl > TOPO_MAX_KEY ||
		    strspn(e->key, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_.-") != kl)
			abort();
		if (vl == 0 || e->value[0] == ' ' || e->value[0] == '\t' ||
		    e->value[vl - 1] == ' ' || e->value[vl - 1] == '\t' ||
		    strchr(e->value, '#') != NULL || !utf8_text(e->value))
			abort();
		if (e->line == 0 || e->line > lines || topo_get(t, e->key) != e->value)
			abort();
	}
	if (t->nerr > TOPO_MAX_ERRORS)
		abort();
	for (size_t i = 0; i < t->nerr; i++)
		if (t->err[i].line > lines || !utf8_text(t->err[i].msg) || t->err[i].msg[0] == '\0')
			abort();
}

/* A valid file's dump is a valid file with the same settings. */
static void
check_round_trip(const struct topo *t)
{
	static struct topo back;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	topo_dump(t, f, 0);
	fclose(f);
	if (topo_parse(&back, "dump", buf, len) != 0)
		abort();
	if (topo_validate(&back, t->kind) != 0 || back.n != t->n)
		abort();
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(back.v[i].key, t->v[i].key) != 0 ||
		    strcmp(back.v[i].value, t->v[i].value) != 0)
			abort();
	topo_free(&back);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum topo_kind kinds[] = {TOPO_AUTO, TOPO_VM, TOPO_HOST};
	static struct topo t;
	static FILE *devnull;
	size_t lines = 1;

	if (devnull == NULL)
		devnull = fopen("/dev/null", "w");
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t nerr;

		if (topo_parse(&t, "fuzz", (const char *)data, size) != 0)
			abort();
		nerr = topo_validate(&t, kinds[k]);
		if (nerr != t.nerr + t.dropped || (kinds[k] != TOPO_AUTO && t.kind != kinds[k]))
			abort();
		check_settings(&t, lines);
		topo_print_errors(&t, devnull);
		topo_dump(&t, devnull, 1);
		if (nerr == 0 && kinds[k] == TOPO_AUTO) /* the kind it found, once */
			check_round_trip(&t);
		topo_free(&t);
	}
	return 0;
}
