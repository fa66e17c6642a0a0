/* SPDX-License-Identifier: MIT */
/* table.c - Markdown and HTML tables with columns padded for a terminal reader. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "util.h"

int
table_init(struct table *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->head = calloc(ncols, sizeof(*t->head));
	t->align = calloc(ncols, 1);
	if (t->head == NULL || t->align == NULL) {
		table_free(t);
		return -ENOMEM;
	}
	memset(t->align, 'l', ncols);
	return 0;
}

static char *
vfmt(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

void
table_head(struct table *t, size_t col, char align, const char *fmt, ...)
{
	va_list ap;

	if (col >= t->ncols)
		return;
	va_start(ap, fmt);
	free(t->head[col]);
	t->head[col] = vfmt(fmt, ap);
	va_end(ap);
	t->align[col] = align;
}

long
table_row(struct table *t)
{
	size_t need = (t->nrows + 1) * t->ncols;

	if (vec_reserve(&t->cells, &t->cap, need, sizeof(*t->cells)) != 0)
		return -ENOMEM;
	return (long)t->nrows++;
}

void
table_set(struct table *t, size_t row, size_t col, const char *fmt, ...)
{
	char **cell;
	va_list ap;

	if (row >= t->nrows || col >= t->ncols)
		return;
	cell = &t->cells[row * t->ncols + col];
	va_start(ap, fmt);
	free(*cell);
	*cell = vfmt(fmt, ap);
	va_end(ap);
}

static const char *
cell(const struct table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncols + c];

	return s != NULL ? s : "";
}

void
table_md(const struct table *t, FILE *f)
{
	size_t *w = calloc(t->ncols, sizeof(*w));

	if (w == NULL)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = t->head[c] != NULL ? strlen(t->head[c]) : 0;
		if (w[c] < 3)
			w[c] = 3;
		for (size_t r = 0; r < t->nrows; r++)
			if (strlen(cell(t, r, c)) > w[c])
				w[c] = strlen(cell(t, r, c));
	}
	for (size_t c = 0; c < t->ncols; c++)
		fprintf(f, "| %-*s ", (int)w[c], t->head[c] != NULL ? t->head[c] : "");
	fputs("|\n", f);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs("|", f);
		for (size_t k = 0; k < w[c] + 1; k++)
			fputc('-', f);
		fputc(t->align[c] == 'r' ? ':' : '-', f);
	}
	fputs("|\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(f, t->align[c] == 'r' ? "| %*s " : "| %-*s ", (int)w[c],
				cell(t, r, c));
		fputs("|\n", f);
	}
	free(w);
}

void
html_put(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
			break;
		}
	}
}

void
table_html(const struct table *t, FILE *f)
{
	fputs("<table>\n<thead><tr>", f);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(t->align[c] == 'r' ? "<th class=\"r\">" : "<th>", f);
		html_put(f, t->head[c]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < t->ncols; c++) {
			fputs(t->align[c] == 'r' ? "<td class=\"r\">" : "<td>", f);
			html_put(f, cell(t, r, c));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n", f);
}

void
table_free(struct table *t)
{
	for (size_t c = 0; t->head != NULL && c < t->ncols; c++)
		free(t->head[c]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->align);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

const char *
fmt_pps(char *buf, size_t len, double pps)
{
	if (isnan(pps))
		snprintf(buf, len, "-");
	else if (pps >= 1e6)
		snprintf(buf, len, "%.3f M", pps / 1e6);
	else if (pps >= 1e3)
		snprintf(buf, len, "%.1f k", pps / 1e3);
	else
		snprintf(buf, len, "%.0f", pps);
	return buf;
}

const char *
fmt_pct(char *buf, size_t len, double ratio, int sign)
{
	if (isnan(ratio))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.1f %%" : "%.1f %%", ratio * 100);
	return buf;
}
