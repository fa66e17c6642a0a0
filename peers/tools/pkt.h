/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame builders, pcap reader/writer and checksum shared by pcaptool's commands
 * (pcaptool.c: one flow; vfwd_traffic.c: the forwarder tests' mixed, malformed and IPv6
 * traffic; mixed.c: the example-rs tests' mixed traffic, summary and dump).
 */
#ifndef PCAPTOOL_PKT_H
#define PCAPTOOL_PKT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PKT_MAX 16384

/* A frame or header under construction: bytes appended at the end. */
struct buf {
	uint8_t d[PKT_MAX];
	size_t n;
};

void buf_put(struct buf *b, const void *p, size_t len);
void buf_u8(struct buf *b, unsigned int v);
void buf_u16(struct buf *b, unsigned int v); /* network order */
void buf_u32(struct buf *b, uint32_t v);     /* network order */
void buf_pad(struct buf *b, size_t len);     /* zeros up to len bytes */

/* The Internet checksum of len bytes (an odd last byte padded with zero). */
uint16_t inet_csum(const uint8_t *p, size_t len, uint32_t sum);
/* An IPv4 header of ihl 32-bit words (NOP options past the fifth) for a packet of
 * total_len bytes, fragment offset 0, its checksum set. */
void buf_ip4_hdr(struct buf *b, const uint8_t src[4], const uint8_t dst[4], int proto, int ttl,
		 int ident, int ihl, size_t total_len);
void put16(uint8_t *p, unsigned int v);
unsigned int get16(const uint8_t *p);

/* A pcap being written: little-endian, microseconds, Ethernet. */
struct pcap_out {
	FILE *f;
	const char *path;
	uint32_t n;
	int err;
};

int pcap_out_open(struct pcap_out *o, const char *path);
void pcap_out_add(struct pcap_out *o, const uint8_t *p, size_t len);
int pcap_out_close(struct pcap_out *o); /* 0 or -EIO, naming the file */

/* Every frame of a pcap (either byte order, micro- or nanosecond timestamps). */
struct pkts {
	size_t n;
	uint8_t **p;
	uint32_t *len;     /* captured length */
	uint32_t *origlen; /* length on the wire */
	uint8_t header[24];
};

int pcap_read(const char *path, struct pkts *out); /* 0, or -errno with a message */
void pkts_free(struct pkts *k);

int mac_parse(const char *s, uint8_t mac[6]);

/* The commands of mixed.c and vfwd_traffic.c: argv[0] is the command. */
int cmd_mixed(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_vfwd_mixed(int argc, char **argv);
int cmd_vfwd_malformed(int argc, char **argv);
int cmd_vfwd_ip6(int argc, char **argv);
int cmd_check_nd6(int argc, char **argv);
int cmd_cmp(int argc, char **argv);

#endif
