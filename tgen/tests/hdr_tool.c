/* SPDX-License-Identifier: BSD-3-Clause */
/* hdr_tool: records the values on stdin (one a line) in tgen's HDR histogram and prints its
 * V2 compressed base64 encoding, then "PCT VALUE" lines for the percentiles given as
 * arguments. The round-trip test decodes the encoding with an independent decoder. */
#include <stdio.h>
#include <stdlib.h>

#include "tgen.h"

int
main(int argc, char **argv)
{
	struct tgen_hdr h;
	unsigned long long v;
	char *s;
	int i;

	if (tgen_hdr_init(&h, TGEN_HDR_HIGHEST_US, TGEN_HDR_SIG) < 0)
		return 1;
	while (scanf("%llu", &v) == 1)
		tgen_hdr_record(&h, v);
	s = tgen_hdr_encode(&h);
	if (s == NULL)
		return 1;
	printf("%s\n", s);
	for (i = 1; i < argc; i++)
		printf("%s %llu\n", argv[i],
		       (unsigned long long)tgen_hdr_value_at(&h, strtod(argv[i], NULL)));
	free(s);
	tgen_hdr_free(&h);
	return 0;
}
