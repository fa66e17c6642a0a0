/* SPDX-License-Identifier: MIT */
/* util.h - small helpers shared by fwdstat's files. */
#ifndef FWDSTAT_UTIL_H
#define FWDSTAT_UTIL_H

#include <stddef.h>

/* Reads a whole file, NUL-terminated; NULL with errno set on failure. */
char *file_read(const char *path, size_t *len);
/* Writes data to path through a temporary name and a rename. 0 or -errno. */
int file_write_atomic(const char *path, const char *data, size_t len);
int path_exists(const char *path);
int mkdir_p(const char *path);

/* Grows *arr (of elements of size sz) so that index n fits. 0 or -ENOMEM. */
int vec_reserve(void *arr, size_t *cap, size_t n, size_t sz);

/* "10G", "25e9", "100M" -> bits/s; -1 when malformed. */
double parse_rate(const char *s);

/* "12345678" -> "12,345,678" into buf. */
const char *fmt_thousands(char *buf, size_t len, double v);

/* Copies src into dst (len bytes), cutting it short when needed; returns its length. */
size_t str_copy(char *dst, size_t len, const char *src);

void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
