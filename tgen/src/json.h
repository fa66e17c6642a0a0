/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef TGEN_JSON_H
#define TGEN_JSON_H

#include <inttypes.h>
#include <stdio.h>

#include "tgen.h"

void tgen_json_str(FILE *f, const char *s);
void tgen_json_dir_lat(FILE *f, const struct tgen_dir_lat *l);
void tgen_json_trial(FILE *f, const struct tgen_result *r);
void tgen_json_build_info(FILE *f);
FILE *tgen_json_open(const char *path);
int tgen_json_close(FILE *f, const char *path);

#endif
