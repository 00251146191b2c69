/* restore.h — putting saved ranges back from a journal and verifying them:
 * --restore after a run that was killed, and the end of a run (save_finish,
 * save.h: only the ranges the run wrote to).  The records are put back the
 * last saved first; a record that overlaps an earlier one, a damaged one or
 * one the index says is missing is named, and the journal is then kept. */
#ifndef FLASHBENCH_RESTORE_H
#define FLASHBENCH_RESTORE_H

#include <stdint.h>

#include "lib/err.h"

struct dev;
struct journal;

/* restore_journal flags */
#define RESTORE_DEVICE_CHANGED 1 /* --device-changed: identity mismatch accepted */

struct restore_report {
	uint64_t bytes;          /* written back and read back equal */
	uint64_t untouched;      /* saved, but never changed (not written to, or written back as read): left as they were */
	unsigned ranges;
	int torn;                /* the last record was cut short (not needed) */
	char warning[512];       /* --device-changed accepted a mismatch: why */
};

/* --restore: put back the ranges of the journal at path on device d (open
 * for writing) and verify them.  Only when every range is back is the
 * journal removed (and its index entry); otherwise every good range is
 * still put back, the journal kept, and e names what could not be. */
int restore_journal(const char *path, struct dev *d, const char *device, unsigned flags,
		    struct restore_report *r, struct fb_err *e);

/* The same with `only` (the run's open journal, save.h): only the saved
 * ranges that run wrote to go back. */
int restore_ranges(const char *path, struct dev *d, const char *device, unsigned flags,
		   const struct journal *only, struct restore_report *r, struct fb_err *e);

#endif
