/* SPDX-License-Identifier: MIT */
/* topology_value.c - the shapes of topology.conf values (numbers, CPU lists, MACs, URIs,
 * link speeds) and the unknown-key message; the schema that uses them is topology_check.c. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topology.h"
#include "topology_int.h"

int
topo_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number of at most 9 digits and no leading zero at s, its length in *len. */
int
topo_scan_uint(const char *s, unsigned long *v, size_t *len)
{
	size_t n = 0;

	while (topo_is_digit(s[n]))
		n++;
	if (n == 0 || n > 9 || (n > 1 && s[0] == '0'))
		return -EINVAL;
	*v = strtoul(s, NULL, 10);
	*len = n;
	return 0;
}

int
topo_check_uint(struct topo *t, const struct topo_entry *e, unsigned long min, unsigned long max,
		unsigned long *out)
{
	unsigned long v;
	size_t n;

	if (topo_scan_uint(e->value, &v, &n) != 0 || e->value[n] != '\0' || v < min || v > max) {
		topo_error(t, e->line, "%s = %.*s: expected a whole number from %lu to %lu%s",
			   e->key, QUOTE(e->value), min, max,
			   e->value[0] == '0' && topo_is_digit(e->value[1]) ? " (no leading zeros)"
									    : "");
		return -EINVAL;
	}
	if (out != NULL)
		*out = v;
	return 0;
}

/* Edit distance of two short strings (capped), for "did you mean". */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[TOPO_MAX_KEY + 2];

	if (la > TOPO_MAX_KEY || lb > TOPO_MAX_KEY)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

void
topo_unknown_key(struct topo *t, const struct topo_entry *e, const char *prefix,
		 const char *const *cand, size_t ncand)
{
	char full[2 * TOPO_MAX_KEY + 2];
	const char *best = NULL;
	size_t bestd = 3;

	for (size_t i = 0; i < ncand; i++) {
		size_t d;

		snprintf(full, sizeof(full), "%s%s", prefix, cand[i]);
		d = edit_distance(e->key, full);
		if (d < bestd) {
			bestd = d;
			best = cand[i];
		}
	}
	if (best != NULL)
		topo_error(t, e->line, "unknown key %s (did you mean %s%s?)", e->key, prefix, best);
	else
		topo_error(t, e->line, "unknown key %s", e->key);
}

/* "A.B.C", the first three octets of a /24. */
void
topo_check_subnet(struct topo *t, const struct topo_entry *e)
{
	const char *s = e->value;
	unsigned long v;
	size_t n;

	for (int i = 0; i < 3; i++) {
		if (topo_scan_uint(s, &v, &n) != 0 || v > 255 || s[n] != (i < 2 ? '.' : '\0')) {
			topo_error(t, e->line,
				   "mgmt_subnet = %.*s: expected the first three octets of a /24, "
				   "like 192.168.150",
				   QUOTE(e->value));
			return;
		}
		s += n + 1;
	}
}

/* "N", "N-M", comma-separated (a Linux CPU list); ranges when ranges != 0. */
int
topo_check_cpulist(struct topo *t, const struct topo_entry *e, unsigned long max, int ranges)
{
	const char *s = e->value;
	unsigned long a, b;
	size_t n;

	for (;;) {
		if (topo_scan_uint(s, &a, &n) != 0)
			break;
		s += n;
		b = a;
		if (*s == '-' && ranges) {
			if (topo_scan_uint(s + 1, &b, &n) != 0)
				break;
			s += n + 1;
		}
		if (a > b || b > max)
			break;
		if (*s == '\0')
			return 0;
		if (*s++ != ',')
			break;
	}
	topo_error(t, e->line, "%s = %.*s: expected a CPU list like %s (CPUs 0 to %lu)", e->key,
		   QUOTE(e->value), ranges ? "0-3,6" : "1,2", max);
	return -EINVAL;
}

/* Bits per second as tgen --link reads them: a number, then gbps, mbps, kbps or bps. */
void
topo_check_link_rate(struct topo *t, const struct topo_entry *e)
{
	static const char *const units[] = {"gbps", "mbps", "kbps", "bps", ""};
	const char *s = e->value;
	char *end;
	double v;

	if (topo_is_digit(*s)) {
		v = strtod(s, &end);
		for (size_t i = 0; i < N_OF(units) && v > 0 && v <= 1e15; i++)
			if (strcasecmp(end, units[i]) == 0 &&
			    strspn(s, "0123456789.") == (size_t)(end - s))
				return;
	}
	topo_error(t, e->line, "%s = %.*s: expected a link speed like 10gbps or 25000mbps", e->key,
		   QUOTE(e->value));
}

/* xx:xx:xx:xx:xx:xx, unicast and not all zero. */
void
topo_check_mac(struct topo *t, const struct topo_entry *e)
{
	const char *s = e->value;
	unsigned octet[6];
	int ok = strlen(s) == 17, any = 0;

	for (int i = 0; ok && i < 6; i++) {
		char hex[3] = {s[3 * i], s[3 * i + 1], '\0'};

		ok = isxdigit((unsigned char)hex[0]) && isxdigit((unsigned char)hex[1]) &&
		     (i == 5 || s[3 * i + 2] == ':');
		octet[i] = (unsigned)strtoul(hex, NULL, 16);
		any |= ok && octet[i] != 0;
	}
	if (!ok || !any)
		topo_error(t, e->line, "%s = %.*s: expected a MAC address like 02:00:00:00:00:01",
			   e->key, QUOTE(e->value));
	else if (octet[0] & 1)
		topo_error(t, e->line, "%s = %s: a multicast MAC; a port needs a unicast one",
			   e->key, e->value);
}

int
topo_has_blank(const char *s)
{
	return strpbrk(s, " \t") != NULL;
}

/* qemu:///system or qemu+TRANSPORT://[USER@]HOST[:PORT]/system, or .../session. */
void
topo_check_uri(struct topo *t, const struct topo_entry *e)
{
	static const char *const transports[] = {"",	 "+ssh", "+libssh", "+libssh2",
						 "+tcp", "+tls", "+unix",   "+ext"};
	const char *s = e->value, *rest = NULL, *path;

	if (strncmp(s, "qemu", 4) == 0) {
		for (size_t i = 0; i < N_OF(transports) && rest == NULL; i++) {
			size_t n = strlen(transports[i]);

			if (strncmp(s + 4, transports[i], n) == 0 &&
			    strncmp(s + 4 + n, "://", 3) == 0)
				rest = s + 4 + n + 3;
		}
	}
	if (rest != NULL && !topo_has_blank(rest)) {
		path = strchr(rest, '/');
		if (path != NULL &&
		    (strncmp(path, "/system", 7) == 0 || strncmp(path, "/session", 8) == 0)) {
			char c = path[path[2] == 'y' ? 7 : 8];

			if (c == '\0' || c == '?')
				return;
		}
	}
	topo_error(t, e->line,
		   "%s = %.*s: expected a libvirt QEMU URI like qemu:///system or "
		   "qemu+ssh://user@host/system",
		   e->key, QUOTE(e->value));
}

void
topo_check_image(struct topo *t, const struct topo_entry *e)
{
	size_t n = strlen(e->value);

	if (topo_has_blank(e->value) || n < 7 || strcmp(e->value + n - 6, ".qcow2") != 0)
		topo_error(t, e->line,
			   "%s = %.*s: expected the path of a .qcow2 image (its kernel and initrd "
			   "lie beside it), without spaces",
			   e->key, QUOTE(e->value));
}
