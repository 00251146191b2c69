/* journal.h — the --preserve journal's on-disk format, and a reader that
 * takes any journal apart without trusting it: the header is checked against
 * its own limits, each record against the header, and a damaged record is
 * reported (with the journal bytes it spans and, when its header is intact,
 * the device range it held) without stopping the records after it.  The
 * reader does no I/O of its own: it reads through a callback, so it runs on a
 * file or on a buffer (the fuzz harness).  Layout in
 * doc/journal.md, "The journal's format". */
#ifndef FLASHBENCH_JOURNAL_H
#define FLASHBENCH_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#define JOURNAL_HEADER 512
#define JOURNAL_RECORD 32          /* record header; the data follow */
#define JOURNAL_PIECE (1u << 20)   /* data bytes per record at most */
#define JOURNAL_IDENTITY 192       /* bytes of the device identity field */

struct journal_header {
	uint64_t dev_size;
	uint32_t sector;
	uint32_t max_record;       /* largest data length of one record */
	uint64_t dev_number;       /* the medium: its whole disk's st_rdev, or a file's inode */
	uint64_t created;          /* Unix seconds */
	uint64_t id;               /* random: names the journal in the index */
	char device[257];          /* path it was written for */
	char identity[JOURNAL_IDENTITY + 1]; /* medium_identity() (dev/medium.h); "" or other text: older journals */
};

/* Fill the 512-byte header block. */
void journal_header_build(unsigned char h[JOURNAL_HEADER], const struct journal_header *jh);

/* Check and decode a header block: 0, or -1 with why (a phrase such as "the
 * header's checksum does not match"). */
int journal_header_parse(const unsigned char h[JOURNAL_HEADER], struct journal_header *jh, const char **why);

/* Fill a record header for len bytes of data at device offset off. */
void journal_record_build(unsigned char r[JOURNAL_RECORD], uint64_t off, uint64_t len, uint32_t seq,
			  uint32_t data_crc);

/* What the reader found at one place in the journal. */
enum journal_kind {
	JOURNAL_GOOD,   /* a whole record, checksums right: data holds it */
	JOURNAL_BAD,    /* damaged: off/len are known only when range_known */
	JOURNAL_TORN,   /* the last record, cut short by the end of the file */
};

struct journal_item {
	enum journal_kind kind;
	uint64_t pos, end;         /* journal bytes [pos, end) */
	uint64_t off, len;         /* device range */
	int range_known;
	uint32_t seq;
	const char *why;           /* for BAD and TORN */
	const void *data;          /* for GOOD: len bytes */
};

/* Read up to len bytes at pos; returns the bytes read (fewer only at the end
 * of the journal), or -1 on an error. */
typedef long (*journal_read_fn)(void *ctx, void *buf, size_t len, uint64_t pos);
/* Called for every item in journal order; a non-zero return stops the walk
 * and is returned. */
typedef int (*journal_item_fn)(void *ctx, const struct journal_item *it);

/* Walk the records of a journal of size bytes whose header is jh.  buf
 * holds JOURNAL_PIECE bytes.  Returns 0, -1 when read fails, or what fn
 * returned. */
int journal_walk(const struct journal_header *jh, uint64_t size, journal_read_fn rd, void *rctx, void *buf,
		 journal_item_fn fn, void *fctx);

/* The same over a journal held in memory (header included): 0, -1 when
 * the header is bad (why says how), or what fn returned. */
int journal_walk_buffer(const void *data, size_t size, struct journal_header *jh, const char **why,
			journal_item_fn fn, void *fctx);

#endif
