/* SPDX-License-Identifier: MIT */
/* json.h - a small JSON reader (DOM) and writer helpers for fwdstat. */
#ifndef FWDSTAT_JSON_H
#define FWDSTAT_JSON_H

#include <stddef.h>
#include <stdio.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double num;	    /* JSON_NUMBER, JSON_BOOL (0/1) */
	char *str;	    /* JSON_STRING */
	char *key;	    /* member name when the parent is an object */
	struct json *child; /* first element/member */
	struct json *next;  /* next sibling */
};

/* Parses len bytes; returns NULL on error with a message "line N: what" in err. */
struct json *json_parse(const char *buf, size_t len, char *err, size_t errlen);
struct json *json_parse_file(const char *path, char *err, size_t errlen);
void json_free(struct json *j);

/* Dotted path lookup: json_get(j, "ndr.rate_pps"). NULL when absent. */
const struct json *json_get(const struct json *j, const char *path);
double json_num(const struct json *j, const char *path, double dflt);
const char *json_str(const struct json *j, const char *path, const char *dflt);
size_t json_len(const struct json *arr);

/* Writer: prints a string with JSON escapes, quotes included. */
void json_put_str(FILE *f, const char *s);
/* Prints a number, or null when it is NaN/inf. */
void json_put_num(FILE *f, double v);

#endif
