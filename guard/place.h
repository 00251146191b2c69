/* place.h — where a --preserve journal may go, and what a write run must
 * find absent first: its default name, no unfinished journal of the medium
 * (at the path or in the index), never the device under test or a journal
 * as the device, not on the medium under test, not on tmpfs/ramfs unless
 * accepted. */
#ifndef FLASHBENCH_PLACE_H
#define FLASHBENCH_PLACE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "dev/medium.h"
#include "lib/err.h"

/* place_check and save_create flags */
#define PLACE_VOLATILE_OK 1   /* --preserve-volatile: tmpfs/ramfs accepted */

/* Where the journal goes when --preserve names none:
 * "flashbench-NAME.journal" for /dev/NAME (or a file NAME); a simulated
 * card's in $TMPDIR, named for this run ("flashbench-sd-4m.4711.journal"). */
void place_default_path(const char *device, char *buf, size_t len);

/* Where the journal of a mode that keeps one of its own (--capacity,
 * --rating, --auto --write's capacity check) goes without --preserve: the
 * state directory (statedir.h; made when missing), "NAME.journal" there,
 * so that no run leaves hundreds of MiB in the current directory; a
 * simulated card's as place_default_path.  0, or -1 with e filled (the
 * directory cannot be made).  place_check then refuses it on the medium
 * under test or on tmpfs, as any journal. */
int place_own_path(const char *device, char *buf, size_t len, struct fb_err *e);

/* Refuse (e filled) when path holds an unfinished journal of the medium
 * `device` is on, or the index lists one: a run that did not finish.  With
 * `creating` (the --preserve journal about to be made), also refuse
 * anything else at path (a file, FIFO, directory, the device itself, a
 * journal of another medium, a dangling symlink): the journal is a new
 * file. */
int place_check_absent(const char *path, const char *device, int creating, struct fb_err *e);

/* Is path a journal (a regular file with a journal's header)?  1 with the
 * device it was written for in device, else 0. */
int place_holds(const char *path, char *device, size_t len);

/* The journal in dir written for the medium device is now (whatever name
 * it had then: a batch's card back under another name), by the identity
 * its header recorded: 1 with its path, 0 when dir holds none, -1 with e
 * filled when it holds more than one (which to put back is not clear). */
int place_journal_for(const char *dir, const char *device, char *path, size_t len, struct fb_err *e);

/* Refuse a write test on device when it is itself a journal (saved data). */
int place_check_target(const char *device, struct fb_err *e);

/* The checks save_create makes of where a journal goes, without making
 * it (a run that creates its journal later, --auto --write's capacity
 * check, is refused before it reads anything): nothing at path, its
 * directory there, not on the medium of `device`, not on tmpfs/ramfs
 * unless flags has PLACE_VOLATILE_OK (a simulated card: the directory
 * only). */
int place_check(const char *path, const char *device, unsigned flags, struct fb_err *e);

/* Where the journal at path goes: its directory (absdir: made absolute),
 * not on the medium m (NULL: a simulated card's, which has none), and
 * neither it nor the index on tmpfs/ramfs unless flags has
 * PLACE_VOLATILE_OK. */
int place_dir_check(const char *path, const struct medium *m, unsigned flags, char absdir[PATH_MAX],
		    struct fb_err *e);

/* Does the file system holding path lie on medium m (through loops, a
 * btrfs of several devices, an image file on a disk...)?  how says where. */
int place_lies_on(const char *path, const struct medium *m, char *how, size_t len);

/* What is at a path that is no regular file, as a refusal names it: "a
 * directory", "a FIFO"... */
const char *place_file_kind(mode_t mode);

#endif
