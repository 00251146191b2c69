/* sig.h — signature sectors, the data --capacity writes and checks.  Every
 * sector of a signature says where it was written (its byte offset), which
 * run wrote it (a random 64-bit salt) and which pass of that run (a byte);
 * a header checksum guards those, and the rest of the sector is a
 * pseudo-random stream of all three.  So a sector that is stale (an older
 * pass), moved (written for another offset: an alias), zero-filled, another
 * run's or the user's own data can never pass for the one expected.
 *
 * Layout of a sector: "FBSIGNAT", salt (8 bytes, little-endian), offset (8),
 * pass (4), CRC-32C of those 28 bytes (4), then the stream. */
#ifndef FLASHBENCH_SIG_H
#define FLASHBENCH_SIG_H

#include <stddef.h>
#include <stdint.h>

#define SIG_HEADER 32

/* Fill buf (len bytes, a whole number of sectors) with the signature of the
 * bytes at device offset off. */
void sig_fill(void *buf, uint64_t off, uint64_t len, unsigned sector, uint64_t salt, uint32_t pass);

/* Is this sector a whole, intact signature (of any run)?  Then 1 with its
 * salt, offset and pass; else 0. */
int sig_parse(const void *sector, unsigned size, uint64_t *salt, uint64_t *off, uint32_t *pass);

/* What a read of signatures found, sector by sector. */
struct sig_tally {
	uint32_t good;          /* the signature expected there */
	uint32_t moved;         /* this run's signature of another offset: that place and this one share flash */
	uint32_t stale;         /* this run's signature of this offset, another pass */
	uint32_t foreign;       /* anything else: zeros, old data, another run's */
	uint32_t blank;         /* of those, sectors of one repeated byte (zeros, 0xff): no data at all */
	uint64_t moved_from;    /* the offset the first moved sector was written for */
	uint64_t moved_at;      /* where that sector was read */
	uint32_t moved_pass;    /* and the pass it was written in */
	uint64_t bad_lo, bad_hi; /* the bytes from the first sector that was not good to the end of the
				  * last one (bad_hi 0: every sector was good) */
};

/* Check len bytes read at off against the signature of salt and pass. */
void sig_check(const void *buf, uint64_t off, uint64_t len, unsigned sector, uint64_t salt, uint32_t pass,
	       struct sig_tally *t);

/* Add b's counts to a (a's first moved sector stays first). */
void sig_tally_add(struct sig_tally *a, const struct sig_tally *b);

#endif
