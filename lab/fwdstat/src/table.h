/* SPDX-License-Identifier: MIT */
/* table.h - a table of text cells printed as Markdown or HTML. */
#ifndef FWDSTAT_TABLE_H
#define FWDSTAT_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct table {
	size_t ncols, nrows, cap;
	char **head;
	char *align;  /* 'l' or 'r' per column */
	char **cells; /* nrows * ncols */
};

int table_init(struct table *t, size_t ncols);
void table_head(struct table *t, size_t col, char align, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Adds an empty row; returns its index or -ENOMEM. */
long table_row(struct table *t);
void table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void table_md(const struct table *t, FILE *f);
void table_html(const struct table *t, FILE *f);
void table_free(struct table *t);

/* HTML-escapes s onto f. */
void html_put(FILE *f, const char *s);
/* Rate in pps: "14.881 M", "45.2 k". */
const char *fmt_pps(char *buf, size_t len, double pps);
/* "+3.2 %" or "-" for NaN. */
const char *fmt_pct(char *buf, size_t len, double ratio, int sign);

#endif
