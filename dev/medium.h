/* medium.h — what a path really is: the medium its bytes live on, and every
 * other name for those bytes.  A medium is a whole disk (its device number)
 * or a regular file (st_dev + st_ino).  A partition, a loop device and a
 * loop over either resolve down to it, with the window of the medium they
 * show (offset and size in bytes).  Loop devices are followed with
 * LOOP_GET_STATUS64 (lo_device/lo_inode/lo_rdevice), never by the name sysfs
 * shows, so a backing file that was unlinked ("(deleted)") or is reached
 * through a hard link is still the same medium.
 *
 * This file is the one walk through sysfs from a block device to its disk,
 * its partitions, the loop devices over it, its holders (dm, md) and the
 * file behind a loop; every promise about the medium (write refusals, the
 * run's claim, outputs, the --preserve journal, --restore) asks it.  It
 * reads sysfs and /proc (through lib/sysroot.h), and is the one walk of
 * mountinfo and of the btrfs file systems; it opens loop devices for their
 * status and never does I/O to a medium. */
#ifndef FLASHBENCH_MEDIUM_H
#define FLASHBENCH_MEDIUM_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum medium_kind {
	MEDIUM_NONE,    /* not storage we know (sim:, a character device, a name that does not exist) */
	MEDIUM_DISK,    /* a whole block device that is not a loop device */
	MEDIUM_FILE,    /* a regular file */
};

#define MEDIUM_SERIAL 80
#define MEDIUM_HOW 512

struct medium {
	enum medium_kind kind;
	uint64_t dev, ino;           /* DISK: the whole disk's st_rdev and 0; FILE: st_dev and st_ino */
	uint64_t offset, size;       /* the bytes of the medium the path shows */
	char serial[MEDIUM_SERIAL];  /* DISK: what the disk calls itself (sysfs cid, serial or wwid), "" if none */
	char how[MEDIUM_HOW];        /* how the path reaches the medium ("a loop device over /x/a.img"), "" when
				      * it is the medium itself */
};

/* Resolve path (symlinks followed; a name pinned with lib/pin.h is the file
 * it named when it was pinned).  Returns 0 (kind MEDIUM_NONE for what
 * is no block device or regular file, or does not exist: errno says why). */
int medium_of(const char *path, struct medium *m);
/* The same for block device number rdev. */
void medium_of_block(dev_t rdev, struct medium *m);

/* Are a and b the same medium (this boot: by device and inode numbers)? */
int medium_same(const struct medium *a, const struct medium *b);
/* Do their windows share a byte? */
int medium_overlap(const struct medium *a, const struct medium *b);

/* The medium as a journal records it: "medium=file:DEV:INO;offset=N" or
 * "medium=disk:MAJ:MIN;offset=N[;serial=S]" ("" for MEDIUM_NONE). */
void medium_identity(const struct medium *m, char *buf, size_t len);
/* Read it back: 0, or -1 when text is no such identity (a journal written
 * before identities were recorded). */
int medium_parse_identity(const char *text, struct medium *m);
/* Is the recorded medium `was` the medium `now` (a disk by its serial when
 * both have one, so a card replugged under a new number matches)?  exact:
 * also the same window (the same bytes at the same offsets). */
int medium_matches(const struct medium *was, const struct medium *now, int exact);
/* A short name for lock files: "disk-8-16", "file-2049-131075". */
void medium_key(const struct medium *m, char *buf, size_t len);

/* Every block device whose bytes lie on a medium. */
struct medium_alias {
	dev_t rdev;
	char name[64];          /* the kernel's name: "loop3", "sdb1", "dm-0" */
	char node[PATH_MAX];    /* /dev/NAME when it is that device, else "" */
	int partition;          /* a partition (its disk is an alias too) */
	int holder;             /* found as a holder (dm, md) of another alias */
	struct medium m;        /* what it resolves to: its window and how */
};

struct medium_aliases {
	struct medium_alias *v;
	size_t n;
};

/* All block devices on m's medium (whatever their window), plus the
 * holders of any of them and whatever lies on those.  0, or -1 when memory
 * runs out. */
int medium_aliases(const struct medium *m, struct medium_aliases *out);
void medium_aliases_free(struct medium_aliases *a);
/* "/dev/loop3" or "loop3": a name for messages. */
const char *medium_alias_name(const struct medium_alias *a);

/* The media under the file system that holds path (a file or a
 * directory): the block device it was mounted from (btrfs: every device of
 * it), resolved; and when that is a file, the media under that file's file
 * system too, and so on.  Returns how many were stored in out (at most
 * max). */
size_t medium_under(const char *path, struct medium *out, size_t max);

/* One line of a mountinfo file (/proc/PID/mountinfo), octal escapes undone. */
struct mount_line {
	dev_t dev;              /* the file system's device number */
	char point[4096];       /* where it is mounted */
	char fstype[64];
	char source[4096];      /* what it was mounted from ("" if none) */
};
int medium_mount_line(const char *line, struct mount_line *ml);
/* Undo the octal escapes of /proc files ("\040" for a space), in place. */
void medium_unescape(char *s);

/* The one walk of mountinfo: fn for each mount of the mount namespace of
 * process pid (0: this process's), in the file's order; a non-zero return
 * stops the walk and is returned (0 also when the file cannot be read). */
int medium_each_mount(long pid, int (*fn)(void *ctx, const struct mount_line *ml), void *ctx);

/* A btrfs the kernel knows (sysfs: fs/btrfs/FSID/devices/NAME). */
#define MEDIUM_BTRFS_DEVICES 32
struct medium_btrfs {
	char fsid[64];
	char devices[PATH_MAX];                 /* the sysfs directory of its devices */
	dev_t rdev[MEDIUM_BTRFS_DEVICES];       /* their numbers (the first MEDIUM_BTRFS_DEVICES) */
	size_t n;
};
/* The one walk of the btrfs file systems: fn for each; a non-zero return
 * stops the walk and is returned. */
int medium_each_btrfs(int (*fn)(void *ctx, const struct medium_btrfs *fs), void *ctx);
/* Is the block device of kernel name name ("sdb1") one of fs's devices? */
int medium_btrfs_has(const struct medium_btrfs *fs, const char *name);

/* The sysfs directory of the whole disk holding block device path, and of
 * the device itself (the same for a whole disk).  0, or -1 when path is no
 * block device sysfs knows. */
int medium_sysfs_dirs(const char *path, char disk[PATH_MAX], char self[PATH_MAX]);

/* Read a sysfs (or other one-line) file, trailing newline and blanks cut:
 * 0, or -1 when it is missing or empty. */
int medium_read_attr(const char *dir, const char *attr, char *buf, size_t len);

#endif
