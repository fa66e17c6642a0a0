/* SPDX-License-Identifier: MIT */
/* topology.h - the reader and validator of topologies/NAME/topology.conf. */
#ifndef FWDSTAT_TOPOLOGY_H
#define FWDSTAT_TOPOLOGY_H

#include <stddef.h>
#include <stdio.h>

#define TOPO_MAX_FILE (1u << 20) /* bytes */
#define TOPO_MAX_LINE 1024	 /* bytes, without the newline */
#define TOPO_MAX_KEY 64
#define TOPO_MAX_ENTRIES 512
#define TOPO_MAX_ERRORS 64
#define TOPO_MSG_LEN 192

/* host: vfwd and tgen as host processes; vm: nodes (VMs) and links (b2b and its kin). */
enum topo_kind { TOPO_AUTO, TOPO_VM, TOPO_HOST, TOPO_LOOP };

struct topo_entry {
	const char *key, *value; /* point into topo.buf */
	unsigned line;
};

struct topo_error {
	unsigned line; /* 0: about the whole file */
	char msg[TOPO_MSG_LEN];
};

struct topo {
	const char *file;
	char *buf; /* the file's bytes; keys and values are cut out of it in place */
	struct topo_entry v[TOPO_MAX_ENTRIES];
	size_t n;
	struct topo_error err[TOPO_MAX_ERRORS];
	size_t nerr;
	size_t dropped;	     /* errors past TOPO_MAX_ERRORS */
	int lex_bad;	     /* a line was unreadable: what is missing may be on it */
	enum topo_kind kind; /* after topo_validate */
};

/* Reads len bytes named file (the name is used in messages and must outlive t).
 * Syntax errors are recorded in t->err; returns 0, or -ENOMEM. */
int topo_parse(struct topo *t, const char *file, const char *buf, size_t len);
/* topo_parse of a file's contents; -errno when it cannot be read (also recorded). */
int topo_load(struct topo *t, const char *file);
/* Checks the settings against the schema of kind (TOPO_AUTO: guessed from the keys).
 * Returns the number of errors recorded (syntax ones included). */
size_t topo_validate(struct topo *t, enum topo_kind kind);
/* The value of key, or NULL. */
const char *topo_get(const struct topo *t, const char *key);
int topo_kind_parse(const char *s, enum topo_kind *kind);
const char *topo_kind_name(enum topo_kind kind);
/* "FILE:LINE: what" per error, in line order. */
void topo_print_errors(struct topo *t, FILE *f);
/* KEY=VALUE lines in file order, or one JSON object. */
void topo_dump(const struct topo *t, FILE *f, int json);
void topo_free(struct topo *t);

#endif
