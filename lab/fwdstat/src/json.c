/* SPDX-License-Identifier: MIT */
/* json.c - recursive-descent JSON reader; depth-limited so hostile input cannot overflow. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

#define JSON_MAX_DEPTH 64

struct jp {
	const char *p, *end, *start;
	char *err;
	size_t errlen;
	int depth;
};

static int
jp_line(const struct jp *jp)
{
	int line = 1;

	for (const char *q = jp->start; q < jp->p; q++)
		line += *q == '\n';
	return line;
}

static struct json *
jp_fail(struct jp *jp, const char *what)
{
	if (jp->err[0] == '\0')
		snprintf(jp->err, jp->errlen, "line %d: %s", jp_line(jp), what);
	return NULL;
}

static void
jp_ws(struct jp *jp)
{
	while (jp->p < jp->end &&
	       (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static struct json *
json_new(enum json_type t)
{
	struct json *j = calloc(1, sizeof(*j));

	if (j != NULL)
		j->type = t;
	return j;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t
utf8_put(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	o[0] = (char)(0xe0 | (cp >> 12));
	o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* Parses a string at jp->p (on the opening quote); returns a malloc'd copy. */
static char *
jp_string(struct jp *jp)
{
	const char *q = ++jp->p;
	char *out, *o;

	while (q < jp->end && *q != '"')
		q += (*q == '\\' && q + 1 < jp->end) ? 2 : 1;
	if (q >= jp->end) {
		jp_fail(jp, "unterminated string");
		return NULL;
	}
	out = malloc((size_t)(q - jp->p) + 1);
	if (out == NULL)
		return NULL;
	for (o = out; jp->p < q; jp->p++) {
		if (*jp->p != '\\') {
			*o++ = *jp->p;
			continue;
		}
		jp->p++;
		switch (*jp->p) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'u': {
			unsigned cp = 0;
			int k;

			for (k = 1; k <= 4 && jp->p + k < q; k++) {
				int h = hexval(jp->p[k]);

				if (h < 0)
					break;
				cp = cp * 16 + (unsigned)h;
			}
			if (k != 5) {
				free(out);
				jp_fail(jp, "bad \\u escape");
				return NULL;
			}
			jp->p += 4;
			o += utf8_put(o, cp);
			break;
		}
		default:
			*o++ = *jp->p;
			break;
		}
	}
	*o = '\0';
	jp->p = q + 1;
	return out;
}

static struct json *jp_value(struct jp *jp);

static struct json *
jp_container(struct jp *jp, enum json_type t)
{
	char close = t == JSON_ARRAY ? ']' : '}';
	struct json *c = json_new(t), **tail;

	if (c == NULL)
		return jp_fail(jp, "out of memory");
	if (++jp->depth > JSON_MAX_DEPTH) {
		free(c);
		return jp_fail(jp, "nested too deep");
	}
	tail = &c->child;
	jp->p++;
	jp_ws(jp);
	if (jp->p < jp->end && *jp->p == close) {
		jp->p++;
		jp->depth--;
		return c;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		jp_ws(jp);
		if (t == JSON_OBJECT) {
			if (jp->p >= jp->end || *jp->p != '"')
				goto fail;
			key = jp_string(jp);
			if (key == NULL)
				goto fail;
			jp_ws(jp);
			if (jp->p >= jp->end || *jp->p != ':') {
				free(key);
				goto fail;
			}
			jp->p++;
		}
		v = jp_value(jp);
		if (v == NULL) {
			free(key);
			goto fail;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		jp_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close) {
			jp->p++;
			jp->depth--;
			return c;
		}
		goto fail;
	}
fail:
	json_free(c);
	return jp_fail(jp, t == JSON_ARRAY ? "bad array" : "bad object");
}

static struct json *
jp_value(struct jp *jp)
{
	struct json *j;
	char *endp;

	jp_ws(jp);
	if (jp->p >= jp->end)
		return jp_fail(jp, "unexpected end of input");
	switch (*jp->p) {
	case '{':
		return jp_container(jp, JSON_OBJECT);
	case '[':
		return jp_container(jp, JSON_ARRAY);
	case '"':
		j = json_new(JSON_STRING);
		if (j == NULL)
			return jp_fail(jp, "out of memory");
		j->str = jp_string(jp);
		if (j->str == NULL) {
			free(j);
			return jp_fail(jp, "bad string");
		}
		return j;
	}
	if (jp->end - jp->p >= 4 && strncmp(jp->p, "true", 4) == 0) {
		jp->p += 4;
		j = json_new(JSON_BOOL);
		if (j != NULL)
			j->num = 1;
		return j;
	}
	if (jp->end - jp->p >= 5 && strncmp(jp->p, "false", 5) == 0) {
		jp->p += 5;
		return json_new(JSON_BOOL);
	}
	if (jp->end - jp->p >= 4 && strncmp(jp->p, "null", 4) == 0) {
		jp->p += 4;
		return json_new(JSON_NULL);
	}
	{
		char num[64];
		size_t n = 0;

		while (jp->p + n < jp->end && n < sizeof(num) - 1 &&
		       strchr("+-0123456789.eE", jp->p[n]) != NULL && jp->p[n] != '\0')
			n++;
		if (n == 0)
			return jp_fail(jp, "unexpected character");
		memcpy(num, jp->p, n);
		num[n] = '\0';
		j = json_new(JSON_NUMBER);
		if (j == NULL)
			return jp_fail(jp, "out of memory");
		j->num = strtod(num, &endp);
		if (*endp != '\0') {
			free(j);
			return jp_fail(jp, "bad number");
		}
		jp->p += n;
		return j;
	}
}

struct json *
json_parse(const char *buf, size_t len, char *err, size_t errlen)
{
	struct jp jp = {buf, buf + len, buf, err, errlen, 0};
	struct json *j;

	err[0] = '\0';
	j = jp_value(&jp);
	if (j == NULL)
		return NULL;
	jp_ws(&jp);
	if (jp.p != jp.end) {
		json_free(j);
		return jp_fail(&jp, "trailing characters");
	}
	return j;
}

struct json *
json_parse_file(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *buf = file_read(path, &len);
	struct json *j;

	if (buf == NULL) {
		str_copy(err, errlen, strerror(errno));
		return NULL;
	}
	j = json_parse(buf, len, err, errlen);
	free(buf);
	return j;
}

void
json_free(struct json *j)
{
	while (j != NULL) {
		struct json *next = j->next;

		json_free(j->child);
		free(j->str);
		free(j->key);
		free(j);
		j = next;
	}
}

const struct json *
json_get(const struct json *j, const char *path)
{
	char part[128];

	while (j != NULL && *path != '\0') {
		const char *dot = strchr(path, '.');
		size_t n = dot != NULL ? (size_t)(dot - path) : strlen(path);
		const struct json *c;

		if (j->type != JSON_OBJECT || n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		for (c = j->child; c != NULL; c = c->next)
			if (c->key != NULL && strcmp(c->key, part) == 0)
				break;
		j = c;
		path += n + (dot != NULL);
	}
	return j;
}

double
json_num(const struct json *j, const char *path, double dflt)
{
	const struct json *v = json_get(j, path);

	return (v != NULL && (v->type == JSON_NUMBER || v->type == JSON_BOOL)) ? v->num : dflt;
}

const char *
json_str(const struct json *j, const char *path, const char *dflt)
{
	const struct json *v = json_get(j, path);

	return (v != NULL && v->type == JSON_STRING) ? v->str : dflt;
}

size_t
json_len(const struct json *arr)
{
	size_t n = 0;

	if (arr == NULL)
		return 0;
	for (const struct json *c = arr->child; c != NULL; c = c->next)
		n++;
	return n;
}

void
json_put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void
json_put_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.12g", v);
}
