/* record.h — what a journal and an index entry record of the medium they
 * hold data of: its identity (dev/medium.h), as text too, matched loosely
 * (a run on that medium is refused) or exactly (--restore puts the bytes
 * back).  Journals written before identities were recorded hold only
 * numbers: they match loosely, never exactly. */
#ifndef FLASHBENCH_RECORD_H
#define FLASHBENCH_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "dev/medium.h"
#include "guard/journal.h"

struct record {
	struct medium m;
	char text[JOURNAL_IDENTITY];
	int legacy;                      /* written before identities: only numbers */
	int is_block;                    /* legacy: what the numbers are */
	uint64_t number, disk;
};

/* The record of medium m. */
void record_of(const struct medium *m, struct record *r);

/* Is what was recorded the medium now (exact: the same window too)? */
int record_is(const struct record *was, const struct medium *now, int exact);

/* The record as a message names it. */
void record_describe(const struct record *r, char *buf, size_t len);

/* What the journal whose header is jh recorded of its medium. */
void record_of_header(const struct journal_header *jh, struct record *r);

/* Is the journal whose header is jh one of the medium m?  exact: the same
 * bytes, for --restore. */
int record_header_is(const struct journal_header *jh, const struct medium *m, int exact);

#endif
