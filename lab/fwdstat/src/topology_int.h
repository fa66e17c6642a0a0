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

#endif
