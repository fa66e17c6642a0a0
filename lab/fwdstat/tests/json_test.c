/* SPDX-License-Identifier: MIT */
/* json_test.c - the JSON reader fwdstat uses for meta.json, tgen.json and vfwd dumps. */
#include <string.h>

#include "json.h"
#include "tap.h"

static struct json *
parse(const char *s, char *err, size_t errlen)
{
	return json_parse(s, strlen(s), err, errlen);
}

int
main(void)
{
	char err[128], deep[300];
	struct json *j;

	j = parse("{\"a\": {\"b\": [1, 2.5e3, -3]}, \"s\": \"x\\\"y\\u00e9\\n\", \"t\": true, "
		  "\"n\": null}",
		  err, sizeof(err));
	if (tap_ok(j != NULL, "nested_object_parses")) {
		tap_ok(json_len(json_get(j, "a.b")) == 3, "array_length");
		tap_near(json_get(j, "a.b")->child->next->num, 2500, 0, "exponent_number");
		tap_ok(strcmp(json_str(j, "s", ""), "x\"y\xc3\xa9\n") == 0,
		       "string_escapes_and_unicode");
		tap_near(json_num(j, "t", 0), 1, 0, "true_reads_as_one");
		tap_ok(json_get(j, "n")->type == JSON_NULL, "null_value");
		tap_near(json_num(j, "a.missing", 42), 42, 0, "missing_path_gives_default");
		tap_ok(json_str(j, "a.b", NULL) == NULL, "wrong_type_gives_default");
		json_free(j);
	}
	tap_ok(parse("{\"a\": 1,\n \"b\": }", err, sizeof(err)) == NULL &&
		       strncmp(err, "line 2:", 7) == 0,
	       "error_names_the_line");
	tap_ok(parse("{\"a\": 1} x", err, sizeof(err)) == NULL, "trailing_garbage_is_refused");
	tap_ok(parse("\"open", err, sizeof(err)) == NULL, "unterminated_string_is_refused");
	tap_ok(parse("[1, 2", err, sizeof(err)) == NULL, "unterminated_array_is_refused");
	tap_ok(parse("{\"a\": 1e}", err, sizeof(err)) == NULL, "bad_number_is_refused");
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	tap_ok(parse(deep, err, sizeof(err)) == NULL && strstr(err, "deep") != NULL,
	       "nesting_is_depth_limited");
	j = parse("  [ ]  ", err, sizeof(err));
	tap_ok(j != NULL && json_len(j) == 0, "empty_array_with_spaces");
	json_free(j);
	return tap_done();
}
