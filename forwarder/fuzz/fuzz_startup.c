/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer entry point for the startup-file parser.
 */
#include <stdlib.h>
#include <string.h>

#include "vfwd_int.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vfwd_conf *conf = malloc(sizeof(*conf));
	char *text = malloc(size + 1), err[512];

	if (conf == NULL || text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	conf_defaults(conf);
	if (conf_parse_string("fuzz.conf", text, conf, err, sizeof(err)) < 0 &&
	    strncmp(err, "fuzz.conf:", 10) != 0)
		abort(); /* every error names FILE:LINE */
	free(text);
	free(conf);
	return 0;
}
