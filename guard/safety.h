/* safety.h — may these bytes be written?  Given the medium under test and
 * every alias of it whose window meets the bytes under test (medium.h),
 * finds what uses any of them: a mounted file system in any mount namespace
 * (/proc/PID/mountinfo, matched by device number, where readable), an
 * active swap area (/proc/swaps, a block device by number, a file by its
 * identity), a holder such as device-mapper or md (sysfs), a btrfs that has
 * the device as one of its devices (/sys/fs/btrfs), and a program that
 * holds a device open (named for EBUSY).  The message names the alias, how
 * it lies on the medium, and what uses it.  The run's claim (claim.h) calls
 * this after taking its locks. */
#ifndef FLASHBENCH_SAFETY_H
#define FLASHBENCH_SAFETY_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/err.h"

struct medium;
struct medium_alias;
struct medium_aliases;

/* What the bytes are wanted for: the advice of a refusal names it (a mount
 * is to be undone "before erasing", an output is to "name another file"). */
enum safety_use {
	SAFETY_WRITE_TEST,      /* a write test, --auto --write */
	SAFETY_ERASE,           /* flashbench-erase */
	SAFETY_RESTORE,         /* --restore */
	SAFETY_OUTPUT,          /* -o, --plot replacing a file */
};

/* 0 when nothing uses the aliases in a (or, for a file, the file itself as
 * swap, or open for writing or locked by another program); -1 with e
 * filled.  path is the device under test as named (or "--out=F"), m its
 * medium, target its device number (0 for a regular file). */
int safety_check(const char *path, const struct medium *m, dev_t target, const struct medium_aliases *a,
		 enum safety_use use, struct fb_err *e);

/* What a refusal for a mount advises for use: "unmount it before erasing". */
const char *safety_unmount(enum safety_use use);

/* "ALIAS" when it is the device under test, else "ALIAS, a loop device over
 * X,": how a message names an alias. */
void safety_alias_phrase(const char *path, dev_t target, const struct medium_alias *al, char *buf, size_t len);

/* Who has one of the aliases in a open, for a message: "by process 123
 * (python3), which has /dev/loop1 open", or "" when no process shows one. */
void safety_who_opens(const struct medium_aliases *a, char *buf, size_t len);

#endif
