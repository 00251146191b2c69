/* preserve.h — the --preserve journal: before a write test overwrites a
 * range, the range is read and appended to a journal file (record: offset,
 * length, CRC-32C, data, see journal.h), and the journal is synced; at the
 * end every range is written back and verified, and the journal removed.
 * After a crash, --restore puts the ranges back from the journal.  Journals
 * in progress are listed in an index (one small file each) in a state
 * directory, so a later write test on that medium is refused wherever the
 * journal was written.  The format is in the README ("Keeping your data"). */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "guard/journal.h"

struct dev;
struct vm_op;
struct journal;

/* journal_create flags */
#define JOURNAL_VOLATILE_OK 1   /* --preserve-volatile: tmpfs/ramfs accepted */
/* journal_restore flags */
#define JOURNAL_DEVICE_CHANGED 1 /* --device-changed: identity mismatch accepted */

/* "flashbench-NAME.journal" for /dev/NAME (or a file NAME). */
void journal_default_path(const char *device, char *buf, size_t len);

/* Refuse (e filled) when path holds an unfinished journal of the medium
 * `device` is on, or the index lists one: a run that did not finish.  With
 * `creating` (the --preserve journal about to be made), also refuse
 * anything else at path (a file, FIFO, directory, the device itself, a
 * journal of another medium, a dangling symlink): the journal is a new
 * file. */
int journal_check_absent(const char *path, const char *device, int creating, struct fb_err *e);

/* Is path a journal (a regular file with a journal's header)?  1 with the
 * device it was written for in device, else 0. */
int journal_holds(const char *path, char *device, size_t len);

/* Refuse a write test on device when it is itself a journal (saved data). */
int journal_check_target(const char *device, struct fb_err *e);

/* The checks journal_create makes of where a journal goes, without making
 * it (a run that creates its journal later, --auto --write's capacity
 * check, is refused before it reads anything): nothing at path, its
 * directory there, not on the medium of `device`, not on tmpfs/ramfs
 * unless flags has JOURNAL_VOLATILE_OK (a simulated card: the directory
 * only). */
int journal_check_place(const char *path, const char *device, unsigned flags, struct fb_err *e);

/* Create a new journal for device d (opened for writing) after checking
 * that it does not lie on the medium under test (medium.h: through loops,
 * image files, btrfs devices), and that neither it nor the index lie on
 * tmpfs/ramfs (unless flags has JOURNAL_VOLATILE_OK); then list it in the
 * index.  A simulated card's journal (--capacity's: a device that holds
 * data only in this process) has no medium to check or record and is not
 * listed: the run removes it at its end, and one a SIGKILL leaves behind
 * holds nothing of a real medium (its default name is the run's own). */
int journal_create(struct journal **out, const char *path, struct dev *d, const char *device, unsigned flags,
		   struct fb_err *e);

/* The most a program saves: the bytes it writes (each byte once) and the
 * records they take. */
int journal_plan(const struct vm_op *prog, struct dev *d, uint64_t *bytes, uint64_t *records, struct fb_err *e);

/* Reserve room in the journal's file system (fallocate, or a free-space
 * check where it cannot) for the most the run will save from now on: bytes
 * of data in at most `records` records, on top of what the journal holds or
 * has reserved already (--auto --write reserves for its areas, then its
 * quick capacity check for its own).  Refused (usage error) when there is not that much room: before anything
 * more is saved or written. */
int journal_reserve(struct journal *j, uint64_t bytes, uint64_t records, struct fb_err *e);

/* Save every range the program will write that is not saved yet (beyond
 * the reserved room only when the file system has room for it), and sync
 * the journal: after this the program may run. */
int journal_protect(struct journal *j, const struct vm_op *prog, struct fb_err *e);

/* Close j and free it, leaving the journal file as it is (for --restore). */
void journal_abandon(struct journal *j);

/* Bytes saved so far. */
uint64_t journal_saved(const struct journal *j);
/* The journal's file name. */
const char *journal_file(const struct journal *j);

/* Saving stops at the next piece once *stop is set (a signal): nothing
 * has been written then, and journal_finish puts nothing back. */
void journal_watch(struct journal *j, const volatile sig_atomic_t *stop);

/* The run wrote (or discarded) [off, off + len): called for every such
 * request before it is made. */
void journal_touch(struct journal *j, uint64_t off, uint64_t len);

/* A rewrite read [off, off + len) into buf and will write it back as it
 * is: save what of it is not saved yet, and sync, before it does (the
 * range is not touched: the end has nothing to put back there; after a
 * crash, --restore writes it back as it was).  0, or -1 with e filled. */
int journal_save_read(struct journal *j, uint64_t off, uint64_t len, const void *buf, struct fb_err *e);

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
int journal_restore(const char *path, struct dev *d, const char *device, unsigned flags,
		    struct restore_report *r, struct fb_err *e);

/* At the end of a run: put back every saved range the run wrote to (the
 * others the device still holds: r->untouched), verify it, remove the
 * journal and free j (also on failure, when the journal is kept for
 * --restore). */
int journal_finish(struct journal *j, struct restore_report *r, struct fb_err *e);

#endif
