/* SPDX-License-Identifier: MIT */
/* plot.h - the plots of a campaign's page (plot.c). */
#ifndef FWDSTAT_PLOT_H
#define FWDSTAT_PLOT_H

#include <stddef.h>
#include <stdio.h>

struct plot {
	char name[160]; /* file name without extension */
	char title[200];
};

struct campaign_out {
	char dir[4096];
	struct plot plots[48];
	size_t nplots;
	FILE *gp; /* gnuplot script */
};

/* A file name: letters, digits, '-' and '.' kept, anything else '_'. */
void safe_name(char *dst, size_t len, const char *src);
/* Text for inside a gnuplot single-quoted string. */
const char *gp_text(char *buf, size_t len, const char *s);
/* DIR/NAME.EXT as a gnuplot single-quoted string. */
void gp_str(FILE *f, const char *dir, const char *name, const char *ext);
/* The plot BODY once per terminal (SVG and PNG, 960x540) into the campaign's script. */
void gp_terminals(FILE *gp, const struct campaign_out *co, const struct plot *p,
		  const char *body);
/* A plot of the campaign's page; NULL when the page has as many as it takes. */
struct plot *plot_add(struct campaign_out *co, const char *name, const char *title);
/* A plot's gnuplot body while it is written. */
struct plot_body {
	struct plot *p;
	FILE *m; /* the body: everything after the "set title" line it starts with */
	char *text;
	size_t size;
};
/* Adds plot NAME to the page and opens its body at "set title 'TITLE'". Returns 1 when
 * open, 0 when the page holds as many plots as it takes, -ENOMEM. */
int plot_begin(struct campaign_out *co, struct plot_body *b, const char *name, const char *title);
/* Closes the body and writes it once per terminal into the campaign's script. Returns 0. */
int plot_end(struct campaign_out *co, struct plot_body *b);

#endif
