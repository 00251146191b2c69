/* preserve.h — the --preserve journal: before a write test overwrites a
 * range, the range is read and appended to a journal file (record: offset,
 * length, CRC-32C, data), and the journal is synced; at the end every range
 * is written back and verified, and the journal removed.  After a crash,
 * --restore puts the ranges back from the journal.  A torn last record means
 * its range had not been overwritten yet, and is skipped.  The format is in
 * the README ("Keeping your data"). */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct dev;
struct vm_op;
struct journal;

#define JOURNAL_HEADER 512
#define JOURNAL_RECORD 32      /* record header; the data follow */
#define JOURNAL_PIECE (1u << 20)  /* data bytes per record at most */

/* "./flashbench-NAME.journal" for /dev/NAME (or a file NAME). */
void journal_default_path(const char *device, char *buf, size_t len);

/* Refuse (e filled) when path exists: a run that did not finish. */
int journal_check_absent(const char *path, const char *device, struct fb_err *e);

/* Create a new journal for device d (opened for writing) after checking
 * that it is not on the same disk and that its file system has room for
 * `room` bytes of saved data. */
int journal_create(struct journal **out, const char *path, struct dev *d, const char *device,
		   uint64_t room, struct fb_err *e);

/* Save every range the program will write that is not saved yet, and sync
 * the journal: after this the program may run. */
int journal_protect(struct journal *j, const struct vm_op *prog, struct fb_err *e);

/* Bytes saved so far. */
uint64_t journal_saved(const struct journal *j);

/* Put every saved range back, verify it, remove the journal and free j
 * (also on failure, when the journal is kept for --restore). */
int journal_finish(struct journal *j, uint64_t *restored, struct fb_err *e);

/* --restore: put back the ranges of the journal at path on device d (open
 * for writing), verify them and remove the journal. */
int journal_restore(const char *path, struct dev *d, const char *device, uint64_t *bytes, unsigned *ranges,
		    unsigned *torn, struct fb_err *e);

#endif
