/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcaptool: the packet side of the peers tests and bench.
 *
 *   pcaptool gen FILE [--count N] [--size BYTES] [--src-mac M] [--dst-mac M]
 *                     [--src-ip A] [--dst-ip A] [--sport N] [--dport N] [--ttl N] [--proto N]
 *   pcaptool check FILE [--count N] [--src-ip A] [--dst-ip A] [--sport N] [--dport N]
 *                       [--ttl N] [--dst-mac M] [--src-mac M] [--src-mac-not M]
 *   pcaptool count FILE
 *   pcaptool tsc-hz
 *   pcaptool mixed|dump|summary ...                     (mixed.c: the example-rs tests)
 *   pcaptool vfwd-mixed|vfwd-malformed|vfwd-ip6|check-nd6|cmp ...
 *                                                       (vfwd_traffic.c, vfwd_ip6.c: the
 *                                                       forwarder tests)
 *
 * gen writes N copies of one Ethernet/IPv4/UDP frame (the TRex udp_for_benchmarks flow by
 * default: 16.0.0.1:1025 -> 48.0.0.1:12, TTL 64, 64-byte frames without FCS).
 * --proto sets the IPv4 protocol field (1: ICMP; the 8 bytes after the IPv4 header stay as
 * they are), so a feature that drops ICMP can be fed a flow of it.
 * check counts the frames of that flow and verifies TTL, the IPv4 header checksum and the
 * MACs of each; it prints one summary line and exits 0 only when every frame of the flow
 * passed and there were exactly --count of them (when given).
 * --dst-ips N: the destination cycles over N consecutive addresses from --dst-ip (gen), and
 * any of them belongs to the flow (check).
 * This is the one pcap tool of the tree: the forwarder's, peers' and example-rs's tests
 * call it (built by `make -C peers tools` into build/peers/tools/pcaptool).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "pkt.h"

#define ETH_HLEN 14
#define IP4_HLEN 20
#define UDP_HLEN 8
#define MIN_FRAME (ETH_HLEN + IP4_HLEN + UDP_HLEN)
#define MAX_FRAME 9000

struct flow {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	uint32_t src_ip; /* network order */
	uint32_t dst_ip;
	uint16_t sport;
	uint16_t dport;
	int ttl;
	int proto;
	unsigned int size;
	long count;
	long dst_ips;
	int have_src_mac, have_dst_mac, have_src_mac_not;
	uint8_t src_mac_not[6];
};

static int
parse_num(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static uint16_t
ip4_csum(const uint8_t *hdr)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < IP4_HLEN; i += 2)
		sum += (uint32_t)(hdr[i] << 8 | hdr[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static int
parse_opts(int argc, char **argv, struct flow *f)
{
	long v;
	int i;

	for (i = 0; i < argc; i++) {
		const char *k = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;
		struct in_addr in;
		int rc = 0;

		if (a == NULL) {
			fprintf(stderr, "pcaptool: %s needs a value\n", k);
			return -EINVAL;
		}
		if (!strcmp(k, "--count")) {
			rc = parse_num(a, 0, 1L << 40, &f->count);
		} else if (!strcmp(k, "--dst-ips")) {
			rc = parse_num(a, 1, 1L << 24, &f->dst_ips);
		} else if (!strcmp(k, "--size")) {
			rc = parse_num(a, MIN_FRAME, MAX_FRAME, &v);
			f->size = (unsigned int)v;
		} else if (!strcmp(k, "--ttl")) {
			rc = parse_num(a, 0, 255, &v);
			f->ttl = (int)v;
		} else if (!strcmp(k, "--proto")) {
			rc = parse_num(a, 0, 255, &v);
			f->proto = (int)v;
		} else if (!strcmp(k, "--sport") || !strcmp(k, "--dport")) {
			rc = parse_num(a, 0, 65535, &v);
			*(k[2] == 's' ? &f->sport : &f->dport) = htons((uint16_t)v);
		} else if (!strcmp(k, "--src-ip") || !strcmp(k, "--dst-ip")) {
			rc = inet_pton(AF_INET, a, &in) == 1 ? 0 : -EINVAL;
			*(k[2] == 's' ? &f->src_ip : &f->dst_ip) = in.s_addr;
		} else if (!strcmp(k, "--src-mac")) {
			rc = mac_parse(a, f->src_mac);
			f->have_src_mac = 1;
		} else if (!strcmp(k, "--dst-mac")) {
			rc = mac_parse(a, f->dst_mac);
			f->have_dst_mac = 1;
		} else if (!strcmp(k, "--src-mac-not")) {
			rc = mac_parse(a, f->src_mac_not);
			f->have_src_mac_not = 1;
		} else {
			fprintf(stderr, "pcaptool: unknown option %s\n", k);
			return -EINVAL;
		}
		if (rc < 0) {
			fprintf(stderr, "pcaptool: bad value for %s: %s\n", k, a);
			return -EINVAL;
		}
		i++;
	}
	return 0;
}

static void
frame_build(const struct flow *f, uint8_t *p)
{
	uint8_t *ip = p + ETH_HLEN, *udp = ip + IP4_HLEN;
	uint16_t ip_len = (uint16_t)(f->size - ETH_HLEN);
	uint16_t udp_len = (uint16_t)(ip_len - IP4_HLEN);
	uint16_t csum;
	unsigned int i;

	memset(p, 0, f->size);
	memcpy(p, f->dst_mac, 6);
	memcpy(p + 6, f->src_mac, 6);
	p[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)(ip_len >> 8);
	ip[3] = (uint8_t)ip_len;
	ip[8] = (uint8_t)f->ttl;
	ip[9] = (uint8_t)f->proto;
	memcpy(ip + 12, &f->src_ip, 4);
	memcpy(ip + 16, &f->dst_ip, 4);
	csum = ip4_csum(ip);
	ip[10] = (uint8_t)(csum >> 8);
	ip[11] = (uint8_t)csum;
	memcpy(udp, &f->sport, 2);
	memcpy(udp + 2, &f->dport, 2);
	udp[4] = (uint8_t)(udp_len >> 8);
	udp[5] = (uint8_t)udp_len;
	for (i = UDP_HLEN; i < udp_len; i++)
		udp[i] = 'x'; /* payload; UDP checksum 0 = none */
}

static int
cmd_gen(const char *file, const struct flow *f)
{
	uint8_t frame[MAX_FRAME];
	struct pcap_pkthdr h = { 0 };
	pcap_dumper_t *d;
	pcap_t *p;
	long i;
	int rc = 0;

	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (p == NULL)
		return -ENOMEM;
	d = pcap_dump_open(p, file);
	if (d == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", file, pcap_geterr(p));
		rc = -EIO;
		goto out_close;
	}
	h.caplen = h.len = f->size;
	for (i = 0; i < f->count; i++) {
		if (i == 0 || f->dst_ips > 1) {
			struct flow fi = *f;

			fi.dst_ip = htonl(ntohl(f->dst_ip) + (uint32_t)(i % f->dst_ips));
			frame_build(&fi, frame);
		}
		h.ts.tv_usec = (suseconds_t)(i % 1000000);
		pcap_dump((u_char *)d, &h, frame);
	}
	pcap_dump_close(d);
out_close:
	pcap_close(p);
	return rc;
}

struct check_counts {
	long total, flow, other, bad_ttl, bad_csum, bad_dst_mac, bad_src_mac, bad_len;
};

static void
check_one(const struct flow *f, const uint8_t *p, unsigned int len, struct check_counts *c)
{
	const uint8_t *ip = p + ETH_HLEN, *udp = ip + IP4_HLEN;
	uint32_t dst;
	int bad = 0;

	c->total++;
	if (len >= MIN_FRAME) {
		memcpy(&dst, ip + 16, 4);
		dst = ntohl(dst) - ntohl(f->dst_ip);
	}
	if (len < MIN_FRAME || p[12] != 0x08 || p[13] != 0 || ip[0] != 0x45 || ip[9] != 17 ||
	    memcmp(ip + 12, &f->src_ip, 4) || dst >= (uint32_t)f->dst_ips ||
	    memcmp(udp, &f->sport, 2) || memcmp(udp + 2, &f->dport, 2)) {
		c->other++;
		return;
	}
	c->flow++;
	if (f->ttl >= 0 && ip[8] != f->ttl)
		bad = ++c->bad_ttl;
	if (ip4_csum(ip) != 0)
		bad = ++c->bad_csum;
	if (f->have_dst_mac && memcmp(p, f->dst_mac, 6))
		bad = ++c->bad_dst_mac;
	if (f->have_src_mac && memcmp(p + 6, f->src_mac, 6))
		bad = ++c->bad_src_mac;
	if (f->have_src_mac_not && !memcmp(p + 6, f->src_mac_not, 6))
		bad = ++c->bad_src_mac;
	if (f->size && len != f->size)
		bad = ++c->bad_len;
	if (bad && c->bad_ttl + c->bad_csum + c->bad_dst_mac + c->bad_src_mac + c->bad_len == 1)
		fprintf(stderr,
			"first bad frame: ttl %u csum %s dst %02x:%02x:%02x:%02x:%02x:%02x "
			"src %02x:%02x:%02x:%02x:%02x:%02x len %u\n",
			ip[8], ip4_csum(ip) ? "bad" : "ok", p[0], p[1], p[2], p[3], p[4], p[5],
			p[6], p[7], p[8], p[9], p[10], p[11], len);
}

static int
cmd_check(const char *file, const struct flow *f, int count_only)
{
	char err[PCAP_ERRBUF_SIZE];
	struct check_counts c = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	p = pcap_open_offline(file, err);
	if (p == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", file, err);
		return -EIO;
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1)
		check_one(f, data, h->caplen, &c);
	pcap_close(p);
	if (count_only) {
		printf("%ld\n", c.total);
		return 0;
	}
	printf("frames %ld flow %ld other %ld bad_ttl %ld bad_csum %ld bad_dst_mac %ld "
	       "bad_src_mac %ld bad_len %ld\n",
	       c.total, c.flow, c.other, c.bad_ttl, c.bad_csum, c.bad_dst_mac, c.bad_src_mac,
	       c.bad_len);
	if (c.bad_ttl || c.bad_csum || c.bad_dst_mac || c.bad_src_mac || c.bad_len)
		return -EBADMSG;
	if (f->count >= 0 && c.flow != f->count) {
		fprintf(stderr, "pcaptool: want %ld frames of the flow, got %ld\n", f->count,
			c.flow);
		return -EBADMSG;
	}
	return 0;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmd_tsc_hz(void)
{
	double t0 = now_s(), t1;
	uint64_t c0 = __rdtsc(), c1;

	do {
		t1 = now_s();
	} while (t1 - t0 < 0.2);
	c1 = __rdtsc();
	printf("%.0f\n", (double)(c1 - c0) / (t1 - t0));
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "mixed", cmd_mixed },
	{ "dump", cmd_dump },
	{ "summary", cmd_summary },
	{ "vfwd-mixed", cmd_vfwd_mixed },
	{ "vfwd-malformed", cmd_vfwd_malformed },
	{ "vfwd-ip6", cmd_vfwd_ip6 },
	{ "check-nd6", cmd_check_nd6 },
	{ "cmp", cmd_cmp },
};

int
main(int argc, char **argv)
{
	size_t i;
	struct flow f = {
		.src_mac = { 0x02, 0, 0, 0, 0, 0x02 },
		.dst_mac = { 0x02, 0, 0, 0, 0, 0x01 },
		.sport = htons(1025),
		.dport = htons(12),
		.ttl = -1,
		.proto = 17,
		.count = -1,
		.dst_ips = 1,
	};
	int rc;

	f.src_ip = htonl(0x10000001); /* 16.0.0.1 */
	f.dst_ip = htonl(0x30000001); /* 48.0.0.1 */
	if (argc >= 2 && !strcmp(argv[1], "tsc-hz"))
		return cmd_tsc_hz();
	for (i = 0; argc >= 2 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1) < 0 ? 1 : 0;
	if (argc < 3) {
		fprintf(stderr, "usage: pcaptool gen|check|count FILE [options] | tsc-hz | "
				"mixed|dump|summary|vfwd-mixed|vfwd-malformed|vfwd-ip6|check-nd6|cmp ...\n");
		return 2;
	}
	if (parse_opts(argc - 3, argv + 3, &f) < 0)
		return 2;
	if (!strcmp(argv[1], "gen")) {
		if (f.ttl < 0)
			f.ttl = 64;
		if (f.size == 0)
			f.size = 64;
		if (f.count < 0)
			f.count = 1;
		rc = cmd_gen(argv[2], &f);
	} else if (!strcmp(argv[1], "check")) {
		rc = cmd_check(argv[2], &f, 0);
	} else if (!strcmp(argv[1], "count")) {
		rc = cmd_check(argv[2], &f, 1);
	} else {
		fprintf(stderr, "pcaptool: unknown command %s\n", argv[1]);
		return 2;
	}
	return rc < 0 ? 1 : 0;
}
