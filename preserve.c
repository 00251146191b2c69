/* preserve.c — the --preserve journal (see preserve.h). */
#include "preserve.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "crc32c.h"
#include "dev.h"
#include "vm.h"

#define JOURNAL_MAGIC "FBJOURNL"
#define RECORD_MAGIC 0x52424621u   /* "!FBR" little-endian */

struct extent {
	uint64_t lo, hi;
};

struct extents {
	struct extent *v;
	size_t n, cap;
};

struct journal {
	char path[PATH_MAX];
	int fd;
	struct dev *d;
	struct extents saved;
	uint64_t bytes;
	uint32_t seq;
	void *buf;
};

/* ------------------------------------------------------------ extents */

/* Add [lo, hi) to a sorted set of disjoint ranges, merging neighbours. */
static int extents_add(struct extents *s, uint64_t lo, uint64_t hi)
{
	size_t i = 0, j;

	while (i < s->n && s->v[i].hi < lo)
		i++;
	j = i;
	while (j < s->n && s->v[j].lo <= hi) {
		if (s->v[j].lo < lo)
			lo = s->v[j].lo;
		if (s->v[j].hi > hi)
			hi = s->v[j].hi;
		j++;
	}
	if (j == i) { /* insert */
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 64;
			struct extent *v = realloc(s->v, cap * sizeof(*v));
			if (!v)
				return -1;
			s->v = v;
			s->cap = cap;
		}
		memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
		s->n++;
	} else if (j > i + 1) { /* several merged into one */
		memmove(&s->v[i + 1], &s->v[j], (s->n - j) * sizeof(*s->v));
		s->n -= j - i - 1;
	}
	s->v[i].lo = lo;
	s->v[i].hi = hi;
	return 0;
}

static void collect(void *ctx, uint64_t off, uint64_t len)
{
	struct extents *s = ctx;
	if (extents_add(s, off, off + len))
		s->cap = SIZE_MAX; /* marks failure */
}

/* ------------------------------------------------------------ helpers */

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* 1: read all, 0: end of file before len, -1: error */
static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		p += n;
		len -= (size_t)n;
	}
	return 1;
}

/* The device number of the whole disk holding block device dev. */
static dev_t whole_disk(dev_t dev)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16], devfile[PATH_MAX + 16], buf[32];
	unsigned ma, mi;
	FILE *f;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return dev;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK))
		return dev;
	snprintf(devfile, sizeof(devfile), "%s/../dev", real);
	if (!(f = fopen(devfile, "re")))
		return dev;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		ma = major(dev), mi = minor(dev);
	fclose(f);
	return makedev(ma, mi);
}

static uint64_t device_id(const char *device)
{
	struct stat st;

	if (stat(device, &st))
		return 0;
	return S_ISBLK(st.st_mode) ? (uint64_t)st.st_rdev : (uint64_t)st.st_ino;
}

void journal_default_path(const char *device, char *buf, size_t len)
{
	const char *base = strrchr(device, '/');
	char name[NAME_MAX];
	size_t i;

	snprintf(name, sizeof(name), "%s", base ? base + 1 : device);
	for (i = 0; name[i]; i++)
		if (name[i] == ':' || name[i] == ',' || name[i] == '=')
			name[i] = '_';
	snprintf(buf, len, "flashbench-%s.journal", name);
}

int journal_check_absent(const char *path, const char *device, struct fb_err *e)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return fb_fail(e, EXIT_DEVICE,
			       "%s holds data saved by an unfinished run on %s; put it back first with: "
			       "flashbench --restore %s %s", path, device, path, device);
	return 0;
}

/* ------------------------------------------------------------ create */

int journal_create(struct journal **out, const char *path, struct dev *d, const char *device,
		   uint64_t room, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char tmp[PATH_MAX], dir[PATH_MAX];
	struct statvfs vfs;
	struct stat jst, dst;
	struct journal *j;
	int dfd;

	if (dev_is_sim(d))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	if (journal_check_absent(path, device, e))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (stat(dir, &jst))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal's directory %s: %s", dir, strerror(errno));
	if (stat(device, &dst) == 0 && S_ISBLK(dst.st_mode) && whole_disk(jst.st_dev) == whole_disk(dst.st_rdev))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on the device under test; "
			       "put it on another disk (--preserve=/other/disk/file.journal)", path);
	if (statvfs(dir, &vfs) == 0) {
		uint64_t pieces = room / JOURNAL_PIECE + 1024;
		uint64_t need = room + pieces * JOURNAL_RECORD + JOURNAL_HEADER;
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (avail < need)
			return fb_fail(e, EXIT_USAGE, "--preserve: %s has room for %llu bytes but the journal needs up to "
				       "%llu; free some space or put it elsewhere (--preserve=FILE)", dir,
				       (unsigned long long)avail, (unsigned long long)need);
	}
	if (!(j = calloc(1, sizeof(*j))) || posix_memalign(&j->buf, 4096, JOURNAL_PIECE)) {
		free(j);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->d = d;
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		int err = errno;
		free(j->buf);
		free(j);
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot create %s: %s", path, strerror(err));
	}
	memset(h, 0, sizeof(h));
	memcpy(h, JOURNAL_MAGIC, 8);
	put32(h + 8, 1);
	put32(h + 12, JOURNAL_HEADER);
	put64(h + 16, dev_size(d));
	put32(h + 24, dev_sector(d));
	put64(h + 32, device_id(device));
	put64(h + 40, (uint64_t)time(NULL));
	snprintf((char *)h + 48, 256, "%s", device);
	put32(h + JOURNAL_HEADER - 4, crc32c(0, h, JOURNAL_HEADER - 4));
	if (write_all(j->fd, h, sizeof(h)) || fsync(j->fd)) {
		fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
	*out = j;
	return 0;
fail:
	close(j->fd);
	unlink(path);
	free(j->buf);
	free(j);
	return -1;
}

/* ------------------------------------------------------------ save */

static int save_range(struct journal *j, uint64_t lo, uint64_t hi, struct fb_err *e)
{
	while (lo < hi) {
		uint64_t n = hi - lo > JOURNAL_PIECE ? JOURNAL_PIECE : hi - lo;
		unsigned char r[JOURNAL_RECORD];
		int rc = dev_copy_out(j->d, j->buf, lo, n);

		if (rc)
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot read %llu bytes at %llu: %s",
				       (unsigned long long)n, (unsigned long long)lo, strerror(-rc));
		put32(r, RECORD_MAGIC);
		put32(r + 4, crc32c(0, j->buf, n));
		put64(r + 8, lo);
		put64(r + 16, n);
		put32(r + 24, j->seq++);
		put32(r + 28, crc32c(0, r, 28));
		if (write_all(j->fd, r, sizeof(r)) || write_all(j->fd, j->buf, n))
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", j->path, strerror(errno));
		j->bytes += n;
		lo += n;
	}
	return 0;
}

int journal_protect(struct journal *j, const struct vm_op *prog, struct fb_err *e)
{
	struct extents want = { 0 };
	int rc = 0;

	if (vm_plan_writes(prog, dev_size(j->d), dev_sector(j->d), collect, &want, e))
		return -1;
	if (want.cap == SIZE_MAX) {
		free(want.v);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	{ /* is there room for the worst case (nothing saved yet)? */
		struct statvfs vfs;
		uint64_t total = 0;
		for (size_t i = 0; i < want.n; i++)
			total += want.v[i].hi - want.v[i].lo;
		if (fstatvfs(j->fd, &vfs) == 0 &&
		    (uint64_t)vfs.f_bavail * vfs.f_frsize < total + (total / JOURNAL_PIECE + want.n + 1) * JOURNAL_RECORD)
			rc = fb_fail(e, EXIT_DEVICE, "--preserve: the file system of %s is too full for the next %llu bytes",
				     j->path, (unsigned long long)total);
	}
	for (size_t i = 0; i < want.n && !rc; i++) {
		uint64_t lo = want.v[i].lo, hi = want.v[i].hi;
		/* save only what is not saved yet: a second copy would hold
		 * the test's data, not the user's */
		for (size_t k = 0; k < j->saved.n && lo < hi && !rc; k++) {
			const struct extent *s = &j->saved.v[k];
			if (s->hi <= lo || s->lo >= hi)
				continue;
			if (s->lo > lo)
				rc = save_range(j, lo, s->lo, e);
			lo = s->hi;
		}
		if (!rc && lo < hi)
			rc = save_range(j, lo, hi, e);
		if (!rc && extents_add(&j->saved, want.v[i].lo, want.v[i].hi))
			rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	free(want.v);
	if (!rc && fdatasync(j->fd))
		rc = fb_fail(e, EXIT_DEVICE, "--preserve: cannot sync %s: %s", j->path, strerror(errno));
	return rc;
}

uint64_t journal_saved(const struct journal *j)
{
	return j->bytes;
}

/* ------------------------------------------------------------ restore */

static int restore_fd(int fd, const char *path, struct dev *d, void *buf, uint64_t *bytes, unsigned *ranges,
		      unsigned *torn, struct fb_err *e)
{
	unsigned char r[JOURNAL_RECORD];

	*bytes = 0;
	*ranges = 0;
	*torn = 0;
	memset(r, 0, sizeof(r));
	for (;;) {
		uint64_t off, len;
		int got = read_all(fd, r, sizeof(r)), rc;

		if (got < 0)
			return fb_fail(e, EXIT_DEVICE, "cannot read %s: %s", path, strerror(errno));
		if (got == 0 && r[0] == 0)
			break; /* clean end */
		off = get64(r + 8);
		len = get64(r + 16);
		if (got == 0 || get32(r) != RECORD_MAGIC || get32(r + 28) != crc32c(0, r, 28) || len > JOURNAL_PIECE ||
		    read_all(fd, buf, len) != 1 || crc32c(0, buf, len) != get32(r + 4)) {
			*torn = 1; /* written while interrupted: its range was not touched yet */
			break;
		}
		rc = dev_copy_in(d, buf, off, len);
		if (!rc)
			rc = dev_copy_out(d, buf, off, len);
		if (rc)
			return fb_fail(e, EXIT_DEVICE, "restoring %llu bytes at %llu failed: %s; the journal %s is kept",
				       (unsigned long long)len, (unsigned long long)off, strerror(-rc), path);
		if (crc32c(0, buf, len) != get32(r + 4))
			return fb_fail(e, EXIT_DEVICE, "the %llu bytes restored at %llu read back different; the "
				       "journal %s is kept", (unsigned long long)len, (unsigned long long)off, path);
		*bytes += len;
		(*ranges)++;
		memset(r, 0, sizeof(r));
	}
	return 0;
}

static int remove_journal(const char *path, struct fb_err *e)
{
	char dir[PATH_MAX];
	int dfd;

	if (unlink(path))
		return fb_fail(e, EXIT_DEVICE, "data restored, but %s could not be removed: %s", path, strerror(errno));
	snprintf(dir, sizeof(dir), "%s", path);
	if ((dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

static int open_journal(const char *path, struct dev *d, const char *device, int *fd, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	int got;

	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return fb_fail(e, EXIT_DEVICE, "cannot open the journal %s: %s", path, strerror(errno));
	got = read_all(*fd, h, sizeof(h));
	if (got == 0) /* torn header: nothing was overwritten yet */
		return 1;
	if (got < 0 || memcmp(h, JOURNAL_MAGIC, 8) || get32(h + JOURNAL_HEADER - 4) != crc32c(0, h, JOURNAL_HEADER - 4)) {
		close(*fd);
		return fb_fail(e, EXIT_USAGE, "%s is not a flashbench journal", path);
	}
	if (get32(h + 8) != 1) {
		close(*fd);
		return fb_fail(e, EXIT_USAGE, "%s has journal version %u; this flashbench reads version 1", path,
			       get32(h + 8));
	}
	if (get64(h + 16) != dev_size(d) || get64(h + 32) != device_id(device)) {
		close(*fd);
		return fb_fail(e, EXIT_USAGE, "%s was written for %.256s (%llu bytes), not for %s (%llu bytes)", path,
			       (const char *)h + 48, (unsigned long long)get64(h + 16), device,
			       (unsigned long long)dev_size(d));
	}
	return 0;
}

int journal_restore(const char *path, struct dev *d, const char *device, uint64_t *bytes, unsigned *ranges,
		    unsigned *torn, struct fb_err *e)
{
	void *buf;
	int fd, rc;

	*bytes = 0;
	*ranges = 0;
	*torn = 0;
	rc = open_journal(path, d, device, &fd, e);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		close(fd);
		*torn = 1;
		return remove_journal(path, e);
	}
	if (posix_memalign(&buf, 4096, JOURNAL_PIECE)) {
		close(fd);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	rc = restore_fd(fd, path, d, buf, bytes, ranges, torn, e);
	free(buf);
	close(fd);
	return rc ? rc : remove_journal(path, e);
}

int journal_finish(struct journal *j, uint64_t *restored, struct fb_err *e)
{
	unsigned ranges, torn;
	int rc;

	close(j->fd);
	rc = journal_restore(j->path, j->d, dev_path(j->d), restored, &ranges, &torn, e);
	if (!rc && *restored != j->bytes)
		rc = fb_fail(e, EXIT_DEVICE, "restored %llu bytes of %llu saved", (unsigned long long)*restored,
			     (unsigned long long)j->bytes);
	free(j->saved.v);
	free(j->buf);
	free(j);
	return rc;
}
