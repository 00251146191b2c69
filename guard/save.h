/* save.h — saving a run's ranges: before a write run overwrites a range,
 * the range is read and appended to a journal file (record: offset, length,
 * CRC-32C, data, see journal.h), and the journal is synced; each write is
 * noted, so that at the end (save_finish) the saved ranges the run wrote to
 * are put back and verified, and the journal removed.  While it is open the
 * journal is listed in the index (index.h); after a crash --restore
 * (restore.h) puts the ranges back.  The format is in
 * doc/journal.md, "The journal's format". */
#ifndef FLASHBENCH_SAVE_H
#define FLASHBENCH_SAVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

struct dev;
struct extents;
struct journal;
struct restore_report;

/* Create a new journal for device d (opened for writing) after checking
 * that it does not lie on the medium under test (medium.h: through loops,
 * image files, btrfs devices), and that neither it nor the index lie on
 * tmpfs/ramfs (unless flags has PLACE_VOLATILE_OK, place.h); then list it in
 * the index.  A simulated card's journal (--capacity's: a device that holds
 * data only in this process) has no medium to check or record and is not
 * listed: the run removes it at its end, and one a SIGKILL leaves behind
 * holds nothing of a real medium (its default name is the run's own). */
int save_create(struct journal **out, const char *path, struct dev *d, const char *device, unsigned flags,
		struct fb_err *e);

/* The most a run that writes the ranges `writes` saves: their bytes and
 * the records they take. */
void save_plan(const struct extents *writes, uint64_t *bytes, uint64_t *records);

/* Reserve room in the journal's file system (fallocate, or a free-space
 * check where it cannot) for the most the run will save from now on: bytes
 * of data in at most `records` records, on top of what the journal holds or
 * has reserved already (--auto --write reserves for its areas, then its
 * quick capacity check for its own).  Refused (usage error) when there is
 * not that much room: before anything more is saved or written. */
int save_reserve(struct journal *j, uint64_t bytes, uint64_t records, struct fb_err *e);

/* Save what of the ranges `changes` is not saved yet (beyond the reserved
 * room only when the file system has room for it), and sync the journal:
 * after this the requests that change them may be made. */
int save_protect(struct journal *j, const struct extents *changes, struct fb_err *e);

/* A rewrite read [off, off + len) into buf and will write it back as it
 * is: save what of it is not saved yet, and sync, before it does (the
 * range is not touched: the end has nothing to put back there; after a
 * crash, --restore writes it back as it was).  0, or -1 with e filled. */
int save_rewrite(struct journal *j, uint64_t off, uint64_t len, const void *buf, struct fb_err *e);

/* Saving stops at the next piece once *stop is set (a signal): nothing
 * has been written then, and save_finish puts nothing back.  *restoring
 * (if not NULL) is set once save_finish starts putting the data back. */
void save_watch(struct journal *j, const volatile sig_atomic_t *stop, volatile sig_atomic_t *restoring);

/* The run wrote (or discarded) [off, off + len): called for every such
 * request before it is made. */
void save_touch(struct journal *j, uint64_t off, uint64_t len);

/* Did the run write to any byte of [off, off + len)?  To the grain of byte
 * off?  Where does that grain end (end, if sooner)?  (What save_finish puts
 * back is what the run wrote to, a grain at a time.) */
int save_touched(const struct journal *j, uint64_t off, uint64_t len);
int save_grain_touched(const struct journal *j, uint64_t off);
uint64_t save_grain_end(const struct journal *j, uint64_t off, uint64_t end);

/* Bytes saved so far. */
uint64_t save_total(const struct journal *j);
/* The journal's file name. */
const char *save_file(const struct journal *j);

/* At the end of a run: put back every saved range the run wrote to (the
 * others the device still holds: r->untouched), verify it, remove the
 * journal and free j (also on failure, when the journal is kept for
 * --restore). */
int save_finish(struct journal *j, struct restore_report *r, struct fb_err *e);

/* Close j and free it, leaving the journal file as it is (for --restore). */
void save_abandon(struct journal *j);

#endif
