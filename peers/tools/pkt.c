/* SPDX-License-Identifier: BSD-3-Clause */
/* pcaptool's frame builders and its pcap reader and writer (see pkt.h). */
#include "pkt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void
buf_put(struct buf *b, const void *p, size_t len)
{
	if (b->n + len > sizeof(b->d))
		len = sizeof(b->d) - b->n;
	memcpy(b->d + b->n, p, len);
	b->n += len;
}

void
buf_u8(struct buf *b, unsigned int v)
{
	uint8_t c = (uint8_t)v;

	buf_put(b, &c, 1);
}

void
buf_u16(struct buf *b, unsigned int v)
{
	buf_u8(b, v >> 8);
	buf_u8(b, v);
}

void
buf_u32(struct buf *b, uint32_t v)
{
	buf_u16(b, v >> 16);
	buf_u16(b, v & 0xffff);
}

void
buf_pad(struct buf *b, size_t len)
{
	while (b->n < len && b->n < sizeof(b->d))
		b->d[b->n++] = 0;
}

void
put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

unsigned int
get16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

uint16_t
inet_csum(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void
buf_ip4_hdr(struct buf *b, const uint8_t src[4], const uint8_t dst[4], int proto, int ttl,
	    int ident, int ihl, size_t total_len)
{
	size_t h0 = b->n;
	int i;

	buf_u8(b, 0x40 | (unsigned int)ihl);
	buf_u8(b, 0);
	buf_u16(b, (unsigned int)total_len);
	buf_u16(b, (unsigned int)ident);
	buf_u16(b, 0);
	buf_u8(b, (unsigned int)ttl);
	buf_u8(b, (unsigned int)proto);
	buf_u16(b, 0);
	buf_put(b, src, 4);
	buf_put(b, dst, 4);
	for (i = 0; i < (ihl - 5) * 4; i++)
		buf_u8(b, 1); /* NOP options */
	put16(b->d + h0 + 10, inet_csum(b->d + h0, b->n - h0, 0));
}

static void
le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int
pcap_out_open(struct pcap_out *o, const char *path)
{
	uint8_t h[24] = { 0 };

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->f = fopen(path, "wb");
	if (o->f == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	le32(h, 0xa1b2c3d4);
	h[4] = 2; /* version 2.4 */
	h[6] = 4;
	le32(h + 16, 65535); /* snaplen */
	le32(h + 20, 1);     /* Ethernet */
	if (fwrite(h, sizeof(h), 1, o->f) != 1)
		o->err = 1;
	return 0;
}

void
pcap_out_add(struct pcap_out *o, const uint8_t *p, size_t len)
{
	uint8_t h[16];

	le32(h, 1700000000);
	le32(h + 4, o->n % 1000000);
	le32(h + 8, (uint32_t)len);
	le32(h + 12, (uint32_t)len);
	if (fwrite(h, sizeof(h), 1, o->f) != 1 || (len && fwrite(p, len, 1, o->f) != 1))
		o->err = 1;
	o->n++;
}

int
pcap_out_close(struct pcap_out *o)
{
	if (fclose(o->f) != 0)
		o->err = 1;
	if (o->err) {
		fprintf(stderr, "pcaptool: %s: write failed\n", o->path);
		return -EIO;
	}
	return 0;
}

static uint32_t
rd32(const uint8_t *p, int swap)
{
	if (swap)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int
pkts_push(struct pkts *k, const uint8_t *p, uint32_t len, uint32_t origlen)
{
	uint8_t **np = realloc(k->p, (k->n + 1) * sizeof(*np));
	uint32_t *nl, *no;

	if (np == NULL)
		return -ENOMEM;
	k->p = np;
	nl = realloc(k->len, (k->n + 1) * sizeof(*nl));
	if (nl == NULL)
		return -ENOMEM;
	k->len = nl;
	no = realloc(k->origlen, (k->n + 1) * sizeof(*no));
	if (no == NULL)
		return -ENOMEM;
	k->origlen = no;
	k->p[k->n] = malloc(len ? len : 1);
	if (k->p[k->n] == NULL)
		return -ENOMEM;
	memcpy(k->p[k->n], p, len);
	k->len[k->n] = len;
	k->origlen[k->n] = origlen;
	k->n++;
	return 0;
}

static int
pcap_parse(const char *path, FILE *f, struct pkts *k)
{
	uint8_t h[16], *data = NULL;
	uint32_t magic, caplen;
	long off = 24;
	int swap, rc = 0;

	if (fread(k->header, 24, 1, f) != 1) {
		fprintf(stderr, "pcaptool: %s: shorter than a pcap header\n", path);
		return -EINVAL;
	}
	magic = rd32(k->header, 0);
	if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d) {
		swap = 0;
	} else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
		swap = 1;
	} else {
		fprintf(stderr, "pcaptool: %s: not a pcap file (magic %08x)\n", path, magic);
		return -EINVAL;
	}
	if (rd32(k->header + 20, swap) != 1) {
		fprintf(stderr, "pcaptool: %s: link type %u is not Ethernet\n", path,
			rd32(k->header + 20, swap));
		return -EINVAL;
	}
	data = malloc(PKT_MAX * 16);
	if (data == NULL)
		return -ENOMEM;
	for (;;) {
		size_t got = fread(h, 1, sizeof(h), f);

		if (got == 0)
			break;
		caplen = rd32(h + 8, swap);
		if (got != sizeof(h) || caplen > PKT_MAX * 16 ||
		    (caplen && fread(data, caplen, 1, f) != 1)) {
			fprintf(stderr, "pcaptool: %s: truncated packet record at offset %ld\n",
				path, off);
			rc = -EINVAL;
			break;
		}
		rc = pkts_push(k, data, caplen, rd32(h + 12, swap));
		if (rc < 0)
			break;
		off += 16 + (long)caplen;
	}
	free(data);
	return rc;
}

int
pcap_read(const char *path, struct pkts *k)
{
	FILE *f;
	int rc;

	memset(k, 0, sizeof(*k));
	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "pcaptool: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	rc = pcap_parse(path, f, k);
	fclose(f);
	if (rc < 0)
		pkts_free(k);
	return rc;
}

void
pkts_free(struct pkts *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->p[i]);
	free(k->p);
	free(k->len);
	free(k->origlen);
	memset(k, 0, sizeof(*k));
}

int
mac_parse(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}
