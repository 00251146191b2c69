/* sysroot.h — where the tool reads what the kernel says about the system.
 * Every path under /sys and /proc, and the device nodes of /dev looked up
 * by name, is written here and nowhere else, and every read of them goes
 * through these calls.  Callers hold the system's own names
 * ("/sys/class/block/sdb1", "/dev/sdb1", a mount point, a loop's backing
 * file): those are what messages show.
 *
 * The test root.  The unit tests replay dumped trees of /sys, /proc and
 * /dev (tests/sysroot/) in a temporary directory and point these calls at
 * it, so that every refusal is tested without root.  A root is also a way
 * to make the tool believe anything about the system, such as that a
 * mounted disk is free, so the tool itself cannot be given one: compiled
 * as the tool's (lib/sysroot.o) this file maps nothing, and there is no
 * environment variable, option or setter for it to honour.  Only the
 * unit-test program compiles it again with SYSROOT_TEST_HOOK
 * (tests/unit/sysroot_hook.c), which adds sysroot_test_root() and the
 * mapping; a call of that from the tool does not link, and tests/sysroot.sh
 * checks that the tool's binaries carry no hook.  (So no shell test runs
 * the tool over a fixture: a run over a fake tree would still open the
 * real device node it names.) */
#ifndef FLASHBENCH_SYSROOT_H
#define FLASHBENCH_SYSROOT_H

#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* The places the tool looks. */
enum sysroot_dir {
	SYSROOT_BLOCK_BY_NUMBER, /* /sys/dev/block: MAJ:MIN, a link to each block device */
	SYSROOT_BLOCK,           /* /sys/class/block: every block device (and partition) by name */
	SYSROOT_BTRFS,           /* /sys/fs/btrfs: FSID/devices/NAME for each btrfs known */
	SYSROOT_PROC,            /* /proc: PID/..., self/..., swaps, locks */
	SYSROOT_DEV,             /* /dev: device nodes */
};

/* "DIR/REST" (REST made from fmt, printf-style; fmt NULL: DIR itself) in
 * buf, which is returned; a path that does not fit comes back as "", which
 * names nothing. */
char *sysroot_path(char *buf, size_t len, enum sysroot_dir dir, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* NAME when path is /dev/NAME, else NULL. */
const char *sysroot_dev_name(const char *path);

/* "/proc/self/fd/N": this process's own descriptor fd, by a name that
 * reaches its file.  Never mapped: the tool's descriptors are its own in
 * every build. */
void sysroot_self_fd(int fd, char *buf, size_t len);

/* The reads, for a path in the system's names (what sysroot_path gives,
 * what the kernel or the user names): fopen "re", opendir, stat, open,
 * access(F_OK), realpath (the result in the system's names too). */
FILE *sysroot_fopen(const char *path);
DIR *sysroot_opendir(const char *path);
int sysroot_stat(const char *path, struct stat *st);
int sysroot_open(const char *path, int flags);
int sysroot_exists(const char *path);
char *sysroot_realpath(const char *path, char out[PATH_MAX]);

/* Call fn for every process but this one that /proc lists, in its order; a
 * non-zero return stops the walk and is returned. */
int sysroot_each_pid(int (*fn)(void *ctx, long pid), void *ctx);

#endif
