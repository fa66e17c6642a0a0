/* SPDX-License-Identifier: MIT */
/* topology.c - topology.conf syntax: one KEY = VALUE a line, '#' starts a comment.
 * The schema (which keys, which values) is in topology_check.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "topology.h"
#include "topology_int.h"
#include "util.h"

/* An empty topology named file; the arrays are not cleared (they are 25 KB), only counted. */
static void
topo_init(struct topo *t, const char *file)
{
	t->file = file;
	t->buf = NULL;
	t->n = 0;
	t->nerr = 0;
	t->dropped = 0;
	t->lex_bad = 0;
	t->kind = TOPO_AUTO;
}

void
topo_error(struct topo *t, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (t->nerr == TOPO_MAX_ERRORS) {
		t->dropped++;
		return;
	}
	t->err[t->nerr].line = line;
	va_start(ap, fmt);
	vsnprintf(t->err[t->nerr].msg, sizeof(t->err[t->nerr].msg), fmt, ap);
	va_end(ap);
	/* A message cut short must not end in half a character of a quoted value. */
	t->err[t->nerr].msg[topo_utf8_prefix(t->err[t->nerr].msg, TOPO_MSG_LEN)] = '\0';
	t->nerr++;
}

size_t
topo_utf8_prefix(const char *s, size_t max)
{
	size_t n = strnlen(s, max), p = n, need;
	unsigned char lead;

	while (p > 0 && n - p < 4 && ((unsigned char)s[p - 1] & 0xc0) == 0x80)
		p--;
	if (p == 0)
		return n;
	lead = (unsigned char)s[p - 1];
	need = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return n - (p - 1) < need ? p - 1 : n;
}

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 when it is not valid UTF-8:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Bytes a line may not hold: NUL, CR, other control characters, invalid UTF-8, a BOM. */
static int
line_bytes_ok(struct topo *t, unsigned line, const unsigned char *s, size_t n)
{
	size_t i = 0, l;

	if (line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		topo_error(t, line, "UTF-8 byte order mark at the start of the file (remove it)");
		return 0;
	}
	while (i < n) {
		if (s[i] == '\0') {
			topo_error(t, line, "NUL byte at column %zu", i + 1);
			return 0;
		}
		if (s[i] == '\r') {
			topo_error(t, line, "carriage return at column %zu", i + 1);
			return 0;
		}
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f) {
			topo_error(t, line, "control character 0x%02x at column %zu", s[i], i + 1);
			return 0;
		}
		l = utf8_len(s + i, n - i);
		if (l == 0) {
			topo_error(t, line, "not valid UTF-8 at column %zu (byte 0x%02x)", i + 1,
				   s[i]);
			return 0;
		}
		i += l;
	}
	return 1;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int
topo_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* One line without its newline (NUL-terminated in place): a setting, a comment or blank. */
static void
parse_line(struct topo *t, unsigned line, char *s)
{
	char *key, *end, *val, *hash;
	size_t klen;

	hash = strchr(s, '#');
	if (hash != NULL)
		*hash = '\0';
	while (is_blank(*s))
		s++;
	if (*s == '\0')
		return;
	key = s;
	while (topo_key_char(*s))
		s++;
	klen = (size_t)(s - key);
	end = s;
	while (is_blank(*s))
		s++;
	if (klen == 0 || *s != '=') {
		topo_error(t, line, "expected KEY = VALUE");
		return;
	}
	if (klen > TOPO_MAX_KEY) {
		topo_error(t, line, "key longer than %d bytes", TOPO_MAX_KEY);
		return;
	}
	*end = '\0';
	val = s + 1;
	while (is_blank(*val))
		val++;
	end = val + strlen(val);
	while (end > val && is_blank(end[-1]))
		end--;
	*end = '\0';
	if (*val == '\0') {
		topo_error(t, line, "%s has no value (leave the line out to get the default)", key);
		return;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].key, key) == 0) {
			topo_error(t, line, "duplicate key %s (first set on line %u)", key,
				   t->v[i].line);
			return;
		}
	}
	if (t->n == TOPO_MAX_ENTRIES) {
		topo_error(t, line, "more than %d settings", TOPO_MAX_ENTRIES);
		t->lex_bad = 1;
		return;
	}
	t->v[t->n++] = (struct topo_entry){key, val, line};
}

int
topo_parse(struct topo *t, const char *file, const char *buf, size_t len)
{
	unsigned line = 0, crlf = 0, crlf_first = 0;
	size_t pos = 0;

	topo_init(t, file);
	if (len > TOPO_MAX_FILE) {
		topo_error(t, 0, "larger than %u bytes", TOPO_MAX_FILE);
		t->lex_bad = 1;
		return 0;
	}
	t->buf = malloc(len + 1);
	if (t->buf == NULL)
		return -ENOMEM;
	memcpy(t->buf, buf, len);
	t->buf[len] = '\0';
	while (pos < len) {
		char *s = t->buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		line++;
		if (n > 0 && s[n - 1] == '\r') {
			/* Reported once for the file, and the line is read without it. */
			if (crlf++ == 0)
				crlf_first = line;
			n--;
		}
		s[n] = '\0';
		if (n > TOPO_MAX_LINE) {
			topo_error(t, line, "line is %zu bytes long; the limit is %d", n,
				   TOPO_MAX_LINE);
			t->lex_bad = 1;
			continue;
		}
		if (!line_bytes_ok(t, line, (const unsigned char *)s, n)) {
			t->lex_bad = 1;
			continue;
		}
		parse_line(t, line, s);
	}
	if (crlf != 0)
		topo_error(t, crlf_first,
			   "CRLF line ending (%u line%s end in \\r\\n; convert the file with "
			   "dos2unix)",
			   crlf, crlf == 1 ? "" : "s");
	return 0;
}

int
topo_load(struct topo *t, const char *file)
{
	struct stat st;
	size_t len;
	char *data = NULL;
	int ret;

	if (stat(file, &st) == 0 && S_ISDIR(st.st_mode))
		errno = EISDIR;
	else
		data = file_read(file, &len);
	if (data == NULL) {
		ret = -errno;
		topo_init(t, file);
		t->lex_bad = 1;
		topo_error(t, 0, "cannot read: %s", strerror(-ret));
		return ret;
	}
	ret = topo_parse(t, file, data, len);
	free(data);
	return ret;
}

const char *
topo_get(const struct topo *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0)
			return t->v[i].value;
	return NULL;
}

const struct topo_entry *
topo_entry(const struct topo *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0)
			return &t->v[i];
	return NULL;
}

int
topo_kind_parse(const char *s, enum topo_kind *kind)
{
	if (strcmp(s, "auto") == 0)
		*kind = TOPO_AUTO;
	else if (strcmp(s, "vm") == 0 || strcmp(s, "b2b") == 0)
		*kind = TOPO_VM;
	else if (strcmp(s, "host") == 0)
		*kind = TOPO_HOST;
	else if (strcmp(s, "loop") == 0)
		*kind = TOPO_LOOP;
	else
		return -EINVAL;
	return 0;
}

const char *
topo_kind_name(enum topo_kind kind)
{
	return kind == TOPO_HOST ? "host" : kind == TOPO_VM ? "vm" : kind == TOPO_LOOP ? "loop" : "auto";
}

void
topo_print_errors(struct topo *t, FILE *f)
{
	/* Line order, stable (insertion sort): file-wide errors (line 0) first, each line's
	 * errors in the order they were found. */
	for (size_t i = 1; i < t->nerr; i++) {
		struct topo_error e = t->err[i];
		size_t j = i;

		for (; j > 0 && t->err[j - 1].line > e.line; j--)
			t->err[j] = t->err[j - 1];
		t->err[j] = e;
	}
	for (size_t i = 0; i < t->nerr; i++) {
		if (t->err[i].line == 0)
			fprintf(f, "%s: %s\n", t->file, t->err[i].msg);
		else
			fprintf(f, "%s:%u: %s\n", t->file, t->err[i].line, t->err[i].msg);
	}
	if (t->dropped != 0)
		fprintf(f, "%s: %zu more errors not shown\n", t->file, t->dropped);
}

void
topo_dump(const struct topo *t, FILE *f, int json)
{
	if (!json) {
		for (size_t i = 0; i < t->n; i++)
			fprintf(f, "%s=%s\n", t->v[i].key, t->v[i].value);
		return;
	}
	fputs("{\"file\": ", f);
	json_put_str(f, t->file);
	fprintf(f, ", \"kind\": \"%s\", \"settings\": {", topo_kind_name(t->kind));
	for (size_t i = 0; i < t->n; i++) {
		fputs(i == 0 ? "\n  " : ",\n  ", f);
		json_put_str(f, t->v[i].key);
		fputs(": ", f);
		json_put_str(f, t->v[i].value);
	}
	fputs(t->n == 0 ? "}}\n" : "\n}}\n", f);
}

void
topo_free(struct topo *t)
{
	free(t->buf);
	t->buf = NULL;
	t->n = 0;
}
