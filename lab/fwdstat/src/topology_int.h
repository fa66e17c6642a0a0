/* SPDX-License-Identifier: MIT */
/* topology_int.h - what topology.c and topology_check.c share. */
#ifndef FWDSTAT_TOPOLOGY_INT_H
#define FWDSTAT_TOPOLOGY_INT_H

#include "topology.h"

void topo_error(struct topo *t, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int topo_key_char(char c);
/* The length of the longest prefix of s, at most max bytes, that does not end inside a
 * UTF-8 character (s is valid UTF-8 but may have been cut anywhere). */
size_t topo_utf8_prefix(const char *s, size_t max);
const struct topo_entry *topo_entry(const struct topo *t, const char *key);

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define SHOW 48 /* bytes of a value quoted in a message */
/* The "%.*s" arguments that quote s in a message: at most SHOW bytes, whole characters. */
#define QUOTE(s) (int)topo_utf8_prefix((s), SHOW), (s)

/* topology_value.c: each check records its error against e's line; 0 or -EINVAL. */
int topo_is_digit(char c);
/* A decimal number of at most 9 digits and no leading zero at s, its length in *len. */
int topo_scan_uint(const char *s, unsigned long *v, size_t *len);
int topo_check_uint(struct topo *t, const struct topo_entry *e, unsigned long min,
		    unsigned long max, unsigned long *out);
/* "unknown key K", with "(did you mean PREFIX+CAND?)" for a candidate at most 2 edits off. */
void topo_unknown_key(struct topo *t, const struct topo_entry *e, const char *prefix,
		      const char *const *cand, size_t ncand);
void topo_check_subnet(struct topo *t, const struct topo_entry *e);
int topo_check_cpulist(struct topo *t, const struct topo_entry *e, unsigned long max, int ranges);
void topo_check_link_rate(struct topo *t, const struct topo_entry *e);
void topo_check_mac(struct topo *t, const struct topo_entry *e);
int topo_has_blank(const char *s);
void topo_check_uri(struct topo *t, const struct topo_entry *e);
void topo_check_image(struct topo *t, const struct topo_entry *e);

#endif
