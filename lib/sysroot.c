/* sysroot.c — the paths of /sys, /proc and /dev, and the reads of them
 * (see sysroot.h, which says why only the unit tests' build of this file
 * can move them under a test root). */
#include "lib/sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *const dirs[] = {
	[SYSROOT_BLOCK_BY_NUMBER] = "/sys/dev/block",
	[SYSROOT_BLOCK] = "/sys/class/block",
	[SYSROOT_BTRFS] = "/sys/fs/btrfs",
	[SYSROOT_PROC] = "/proc",
	[SYSROOT_DEV] = "/dev",
};

#define SELF_FD "/proc/self/fd/"

#ifdef SYSROOT_TEST_HOOK
/* The unit tests' build: a root set by sysroot_test_root (tests/unit/unit.h)
 * puts every absolute path but this process's own descriptors under it. */
static char test_root[PATH_MAX];

void sysroot_test_root(const char *dir);
void sysroot_test_root(const char *dir)
{
	if (!dir || !realpath(dir, test_root))
		test_root[0] = '\0';
}

static const char *mapped(const char *path, char buf[PATH_MAX])
{
	if (!test_root[0] || path[0] != '/' || !strncmp(path, SELF_FD, strlen(SELF_FD)))
		return path;
	if ((size_t)snprintf(buf, PATH_MAX, "%s%s", test_root, path) >= PATH_MAX)
		buf[0] = '\0';
	return buf;
}

/* The name under the root of a file found there ("" when it lies outside). */
static char *unmapped(char *real)
{
	size_t n = strlen(test_root);

	if (!test_root[0])
		return real;
	if (strncmp(real, test_root, n) || (real[n] != '/' && real[n] != '\0'))
		return errno = ENOENT, NULL;
	memmove(real, real[n] ? real + n : "/", strlen(real[n] ? real + n : "/") + 1);
	return real;
}

/* A fixture cannot make device nodes without root: under the test root, a
 * regular file that holds "block MAJ:MIN" stands for a block device. */
static void fake_node(const char *file, struct stat *st)
{
	char buf[32] = "";
	unsigned ma, mi;
	FILE *f;

	if (!test_root[0] || !S_ISREG(st->st_mode) || st->st_size >= (off_t)sizeof(buf) ||
	    !(f = fopen(file, "re")))
		return;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "block %u:%u", &ma, &mi) == 2) {
		st->st_mode = S_IFBLK | (st->st_mode & 07777);
		st->st_rdev = makedev(ma, mi);
	}
	fclose(f);
}
#else
/* The tool's build: the system's names are the files read. */
static const char *mapped(const char *path, char buf[PATH_MAX])
{
	(void)buf;
	return path;
}

static char *unmapped(char *real)
{
	return real;
}

static void fake_node(const char *file, struct stat *st)
{
	(void)file;
	(void)st;
}
#endif

char *sysroot_path(char *buf, size_t len, enum sysroot_dir dir, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s%s", dirs[dir], fmt ? "/" : "");

	if (n > 0 && (size_t)n < len && fmt) {
		va_start(ap, fmt);
		n += vsnprintf(buf + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	if (n < 0 || (size_t)n >= len)
		buf[0] = '\0';
	return buf;
}

const char *sysroot_dev_name(const char *path)
{
	size_t n = strlen(dirs[SYSROOT_DEV]);

	if (strncmp(path, dirs[SYSROOT_DEV], n) || path[n] != '/' || !path[n + 1])
		return NULL;
	return path + n + 1;
}

void sysroot_self_fd(int fd, char *buf, size_t len)
{
	snprintf(buf, len, SELF_FD "%d", fd);
}

FILE *sysroot_fopen(const char *path)
{
	char buf[PATH_MAX];

	return fopen(mapped(path, buf), "re");
}

DIR *sysroot_opendir(const char *path)
{
	char buf[PATH_MAX];

	return opendir(mapped(path, buf));
}

int sysroot_stat(const char *path, struct stat *st)
{
	char buf[PATH_MAX];
	const char *file = mapped(path, buf);

	if (stat(file, st))
		return -1;
	fake_node(file, st);
	return 0;
}

int sysroot_open(const char *path, int flags)
{
	char buf[PATH_MAX];

	return open(mapped(path, buf), flags);
}

int sysroot_exists(const char *path)
{
	char buf[PATH_MAX];

	return access(mapped(path, buf), F_OK) == 0;
}

char *sysroot_realpath(const char *path, char out[PATH_MAX])
{
	char buf[PATH_MAX];

	return realpath(mapped(path, buf), out) ? unmapped(out) : NULL;
}

int sysroot_each_pid(int (*fn)(void *ctx, long pid), void *ctx)
{
	DIR *dp = sysroot_opendir(dirs[SYSROOT_PROC]);
	struct dirent *de;
	int rc = 0;

	while (dp && !rc && (de = readdir(dp))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (!*end && pid > 0 && pid != (long)getpid())
			rc = fn(ctx, pid);
	}
	if (dp)
		closedir(dp);
	return rc;
}
