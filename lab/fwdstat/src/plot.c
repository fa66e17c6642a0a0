/* SPDX-License-Identifier: MIT */
/* plot.c - the plots of a campaign's page: their names, gnuplot quoting, and each plot's
 * body written once per terminal (SVG, PNG) into the campaign's gnuplot script. Used by
 * report.c, latency.c and repeats.c; calls only util.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "util.h"

void
safe_name(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i] != '\0'; i++) {
		char c = src[i];

		dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					 (c >= '0' && c <= '9') || c == '-' || c == '.'
				 ? c
				 : '_';
	}
	dst[i] = '\0';
}

/* Text for inside a gnuplot single-quoted string: quotes and backslashes become '_'. */
const char *
gp_text(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < len && s[i] != '\0'; i++)
		buf[i] = s[i] == '\'' || s[i] == '\\' || s[i] == '\n' ? '_' : s[i];
	buf[i] = '\0';
	return buf;
}

/* Prints a path as a gnuplot single-quoted string ('' stands for one quote). */
void
gp_str(FILE *f, const char *dir, const char *name, const char *ext)
{
	fputc('\'', f);
	for (const char *s = dir; *s != '\0'; s++)
		fputs(*s == '\'' ? "''" : (char[]){*s, 0}, f);
	fprintf(f, "/%s%s'", name, ext);
}

void
gp_terminals(FILE *gp, const struct campaign_out *co, const struct plot *p, const char *body)
{
	static const char *const terms[][2] = {
		{"svg size 960,540 fixed noenhanced font 'sans,12' background '#ffffff'", ".svg"},
		{"pngcairo size 960,540 noenhanced font 'sans,10'", ".png"},
	};

	for (size_t i = 0; i < 2; i++) {
		fprintf(gp, "set terminal %s\nset output ", terms[i][0]);
		gp_str(gp, co->dir, p->name, terms[i][1]);
		fprintf(gp, "\n%s\nunset output\n", body);
	}
}

struct plot *
plot_add(struct campaign_out *co, const char *name, const char *title)
{
	struct plot *p;

	if (co->nplots == sizeof(co->plots) / sizeof(co->plots[0]))
		return NULL;
	p = &co->plots[co->nplots++];
	str_copy(p->name, sizeof(p->name), name);
	str_copy(p->title, sizeof(p->title), title);
	return p;
}

int
plot_begin(struct campaign_out *co, struct plot_body *b, const char *name, const char *title)
{
	char text[sizeof(b->p->title)];

	b->text = NULL;
	b->size = 0;
	b->p = plot_add(co, name, title);
	if (b->p == NULL)
		return 0;
	b->m = open_memstream(&b->text, &b->size);
	if (b->m == NULL)
		return -ENOMEM;
	fprintf(b->m, "set title '%s'\n", gp_text(text, sizeof(text), b->p->title));
	return 1;
}

int
plot_end(struct campaign_out *co, struct plot_body *b)
{
	fclose(b->m);
	gp_terminals(co->gp, co, b->p, b->text);
	free(b->text);
	return 0;
}
