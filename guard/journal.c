/* journal.c — the journal's format and its distrustful reader (journal.h). */
#include "guard/journal.h"

#include <stdio.h>
#include <string.h>

#include "lib/crc32c.h"
#include "lib/version.h"

#define JOURNAL_MAGIC "FBJOURNL"
#define RECORD_MAGIC 0x52424621u   /* "!FBR" little-endian */
#define JOURNAL_MAX_SECTOR 65536

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void journal_header_build(unsigned char h[JOURNAL_HEADER], const struct journal_header *jh)
{
	memset(h, 0, JOURNAL_HEADER);
	memcpy(h, JOURNAL_MAGIC, 8);
	put32(h + 8, JOURNAL_VERSION);
	put32(h + 12, JOURNAL_HEADER);
	put64(h + 16, jh->dev_size);
	put32(h + 24, jh->sector);
	put32(h + 28, jh->max_record);
	put64(h + 32, jh->dev_number);
	put64(h + 40, jh->created);
	memcpy(h + 48, jh->device, strnlen(jh->device, 255));
	put64(h + 304, jh->id);
	memcpy(h + 312, jh->identity, strnlen(jh->identity, JOURNAL_IDENTITY - 1));
	put32(h + JOURNAL_HEADER - 4, crc32c(0, h, JOURNAL_HEADER - 4));
}

/* a NUL-terminated string of at most n bytes at p, copied to out */
static int get_string(const unsigned char *p, size_t n, char *out)
{
	const unsigned char *nul = memchr(p, 0, n);

	if (!nul)
		return -1;
	memcpy(out, p, (size_t)(nul - p) + 1);
	return 0;
}

int journal_header_magic(const unsigned char h[JOURNAL_HEADER])
{
	return !memcmp(h, JOURNAL_MAGIC, 8);
}

/* Why a journal of another format version is refused: a newer flashbench
 * wrote it (or a damaged header says so, its checksum right by chance). */
static const char *version_why(uint32_t v)
{
	static char why[200];

	snprintf(why, sizeof(why), "it is a flashbench journal of format version %u, %s; this flashbench (%s) "
		 "reads version %u%s", v, v > JOURNAL_VERSION ? "written by a newer flashbench" :
		 "which no flashbench writes", FLASHBENCH_VERSION, JOURNAL_VERSION, v > JOURNAL_VERSION ?
		 ": put it back with the flashbench that wrote it" : "");
	return why;
}

int journal_header_parse(const unsigned char h[JOURNAL_HEADER], struct journal_header *jh, const char **why)
{
	memset(jh, 0, sizeof(*jh));
	if (memcmp(h, JOURNAL_MAGIC, 8))
		return *why = "it does not start with the journal magic \"FBJOURNL\"", -1;
	if (get32(h + JOURNAL_HEADER - 4) != crc32c(0, h, JOURNAL_HEADER - 4))
		return *why = "its header's checksum does not match (the header is damaged)", -1;
	jh->version = get32(h + 8);
	if (jh->version != JOURNAL_VERSION)
		return *why = version_why(jh->version), -1;
	if (get32(h + 12) != JOURNAL_HEADER)
		return *why = "its header size is not 512", -1;
	jh->dev_size = get64(h + 16);
	jh->sector = get32(h + 24);
	jh->max_record = get32(h + 28) ? get32(h + 28) : JOURNAL_PIECE; /* 0: written before the field */
	jh->dev_number = get64(h + 32);
	jh->created = get64(h + 40);
	jh->id = get64(h + 304);
	if (jh->sector < 512 || jh->sector > JOURNAL_MAX_SECTOR || (jh->sector & (jh->sector - 1)))
		return *why = "its sector size is not a power of two from 512 to 65536", -1;
	/* a file's tail shorter than a sector is no part of its device (an
	 * earlier flashbench recorded it, and wrote only whole sectors) */
	jh->dev_size -= jh->dev_size % jh->sector;
	if (!jh->dev_size)
		return *why = "its device size is less than one sector", -1;
	if (jh->max_record > JOURNAL_PIECE || jh->max_record < jh->sector || jh->max_record % jh->sector)
		return *why = "its record size limit is not a whole number of sectors up to 1 MiB", -1;
	if (get_string(h + 48, 256, jh->device) || get_string(h + 312, JOURNAL_IDENTITY, jh->identity))
		return *why = "a text field of its header is not terminated", -1;
	return 0;
}

void journal_record_build(unsigned char r[JOURNAL_RECORD], uint64_t off, uint64_t len, uint32_t seq,
			  uint32_t data_crc)
{
	put32(r, RECORD_MAGIC);
	put32(r + 4, data_crc);
	put64(r + 8, off);
	put64(r + 16, len);
	put32(r + 24, seq);
	put32(r + 28, crc32c(0, r, 28));
}

static const char past_end[] = "the record's range ends past the end of the device";

/* A record header that is whole and fits the journal's own limits. */
static const char *record_check(const unsigned char *r, const struct journal_header *jh)
{
	uint64_t off = get64(r + 8), len = get64(r + 16);

	if (get32(r) != RECORD_MAGIC)
		return "no record starts here";
	if (get32(r + 28) != crc32c(0, r, 28))
		return "the record's header checksum does not match";
	if (!len || len > jh->max_record || len % jh->sector || off % jh->sector)
		return "the record's length or offset breaks the header's limits";
	if (off > jh->dev_size || len > jh->dev_size - off)
		return past_end;
	return NULL;
}

/* The next place at or after pos where a valid record header starts, or
 * size when there is none (or -1 when reading fails). */
static int64_t resync(const struct journal_header *jh, uint64_t pos, uint64_t size, journal_read_fn rd, void *rctx,
		      unsigned char *buf)
{
	while (pos + JOURNAL_RECORD <= size) {
		size_t want = size - pos > JOURNAL_PIECE ? JOURNAL_PIECE : (size_t)(size - pos);
		long n = rd(rctx, buf, want, pos);

		if (n < 0 || (size_t)n != want)
			return -1;
		for (size_t i = 0; i + JOURNAL_RECORD <= want; i++)
			if (buf[i] == 0x21 && !record_check(buf + i, jh))
				return (int64_t)(pos + i);
		pos += want - (JOURNAL_RECORD - 1);
	}
	return (int64_t)size;
}

int journal_walk(const struct journal_header *jh, uint64_t size, journal_read_fn rd, void *rctx, void *buf,
		 journal_item_fn fn, void *fctx)
{
	uint64_t pos = JOURNAL_HEADER;
	int rc;

	while (pos < size) {
		unsigned char r[JOURNAL_RECORD];
		struct journal_item it = { .pos = pos, .end = size, .kind = JOURNAL_TORN };
		const char *bad;

		if (size - pos < JOURNAL_RECORD) {
			it.why = "the journal ends inside a record's header";
			return fn(fctx, &it);
		}
		if (rd(rctx, r, JOURNAL_RECORD, pos) != JOURNAL_RECORD)
			return -1;
		if ((bad = record_check(r, jh))) {
			int64_t next = resync(jh, pos + 1, size, rd, rctx, buf);
			if (next < 0)
				return -1;
			it.kind = JOURNAL_BAD;
			it.end = (uint64_t)next;
			it.why = bad;
			if (bad == past_end) { /* an intact header: its range is known, and is no range of ours */
				it.off = get64(r + 8);
				it.len = get64(r + 16);
				it.seq = get32(r + 24);
				it.range_known = 1;
			}
			if ((rc = fn(fctx, &it)))
				return rc;
			pos = (uint64_t)next;
			continue;
		}
		it.off = get64(r + 8);
		it.len = get64(r + 16);
		it.seq = get32(r + 24);
		it.range_known = 1;
		if (it.len > size - pos - JOURNAL_RECORD) {
			it.why = "the journal ends inside a record's data";
			return fn(fctx, &it);
		}
		if (rd(rctx, buf, it.len, pos + JOURNAL_RECORD) != (long)it.len)
			return -1;
		it.end = pos + JOURNAL_RECORD + it.len;
		if (crc32c(0, buf, it.len) == get32(r + 4)) {
			it.kind = JOURNAL_GOOD;
			it.data = buf;
		} else {
			it.kind = JOURNAL_BAD;
			it.why = "the record's data checksum does not match";
		}
		if ((rc = fn(fctx, &it)))
			return rc;
		pos = it.end;
	}
	return 0;
}

struct membuf {
	const unsigned char *p;
	size_t n;
};

static long read_mem(void *ctx, void *buf, size_t len, uint64_t pos)
{
	const struct membuf *m = ctx;

	if (pos >= m->n)
		return 0;
	if (len > m->n - pos)
		len = m->n - (size_t)pos;
	memcpy(buf, m->p + pos, len);
	return (long)len;
}

int journal_walk_buffer(const void *data, size_t size, struct journal_header *jh, const char **why,
			journal_item_fn fn, void *fctx)
{
	static unsigned char buf[JOURNAL_PIECE];
	struct membuf m = { data, size };

	if (size < JOURNAL_HEADER)
		return *why = "it is shorter than a journal header", -1;
	if (journal_header_parse(data, jh, why))
		return -1;
	return journal_walk(jh, size, read_mem, &m, buf, fn, fctx);
}
