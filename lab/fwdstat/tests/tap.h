/* SPDX-License-Identifier: MIT */
/* tap.h - TAP output for fwdstat's C tests (tests/runner.sh counts each line). */
#ifndef FWDSTAT_TAP_H
#define FWDSTAT_TAP_H

#include <math.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int
tap_ok(int cond, const char *name)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++tap_n, name);
	tap_failed += !cond;
	return cond;
}

static inline int
tap_near(double got, double want, double tol, const char *name)
{
	int ok = fabs(got - want) <= tol || (isnan(got) && isnan(want));

	if (!ok)
		printf("# %s: got %.6g, want %.6g (tolerance %.3g)\n", name, got, want, tol);
	return tap_ok(ok, name);
}

static inline int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
