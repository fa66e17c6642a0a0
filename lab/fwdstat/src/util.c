/* SPDX-License-Identifier: MIT */
/* util.c - file, memory and number helpers. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

char *
file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

int
file_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	FILE *f;
	int ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "wb");
	if (f == NULL)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		ret = -EIO;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) != 0)
		ret = -errno;
	if (ret != 0)
		remove(tmp);
	return ret;
}

int
path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int
mkdir_p(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int
vec_reserve(void *arr, size_t *cap, size_t n, size_t sz)
{
	void **p = arr;
	size_t ncap;
	void *nb;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap <= n)
		ncap *= 2;
	nb = realloc(*p, ncap * sz);
	if (nb == NULL)
		return -ENOMEM;
	memset((char *)nb + *cap * sz, 0, (ncap - *cap) * sz);
	*p = nb;
	*cap = ncap;
	return 0;
}

double
parse_rate(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v > 0) || isinf(v))
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		v *= 1e3;
		end++;
		break;
	case 'm':
	case 'M':
		v *= 1e6;
		end++;
		break;
	case 'g':
	case 'G':
		v *= 1e9;
		end++;
		break;
	case 't':
	case 'T':
		v *= 1e12;
		end++;
		break;
	}
	if (*end == 'b' && end[1] == 'p' && end[2] == 's')
		end += 3;
	return *end == '\0' ? v : -1;
}

const char *
fmt_thousands(char *buf, size_t len, double v)
{
	char digits[64];
	size_t n, o = 0;
	int neg = v < 0;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	n = strlen(digits);
	if (neg && o + 1 < len)
		buf[o++] = '-';
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		buf[o++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

void
warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("fwdstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

size_t
str_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (len == 0)
		return n;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}
