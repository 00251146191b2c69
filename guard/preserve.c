/* preserve.c — the --preserve journal and its index (see preserve.h). */
#include "guard/preserve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/crc32c.h"
#include "dev.h"
#include "dev/devinfo.h"
#include "lib/grow.h"
#include "vm.h"

struct extent {
	uint64_t lo, hi;
};

struct extents {
	struct extent *v;
	size_t n, cap;
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
		struct extent *v = grow(s->v, &s->cap, s->n, sizeof(*v), 64);
		if (!v)
			return -1;
		s->v = v;
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
	if (s->cap != SIZE_MAX && extents_add(s, off, off + len))
		s->cap = SIZE_MAX; /* marks failure: nothing more is added */
}

/* ------------------------------------------------------------ helpers */

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

static void sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	int dfd;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(dfd);
		close(dfd);
	}
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

/* ------------------------------------------------------------ identity */

/* What a journal or an index entry records of the medium a path is on. */
struct medium {
	int is_block;
	uint64_t number;                 /* st_rdev, or the inode of a file */
	uint64_t disk;                   /* the whole disk's st_rdev, or a file's st_dev */
	char identity[JOURNAL_IDENTITY]; /* devinfo_identity(), "" if none */
};

static int medium_of(const char *path, struct medium *m)
{
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (!strncmp(path, "sim:", 4)) { /* a simulated card (--capacity): its spec names it */
		uint64_t h = 0xcbf29ce484222325ULL;
		for (const char *p = path; *p; p++)
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
		m->number = h;
		return 0;
	}
	if (stat(path, &st))
		return -1;
	m->is_block = S_ISBLK(st.st_mode);
	m->number = m->is_block ? (uint64_t)st.st_rdev : (uint64_t)st.st_ino;
	m->disk = m->is_block ? (uint64_t)whole_disk(st.st_rdev) : (uint64_t)st.st_dev;
	if (m->is_block)
		devinfo_identity(path, m->identity, sizeof(m->identity));
	return 0;
}

/* The identity of the whole disk: without a partition's start. */
static void disk_identity(const char *id, char *out, size_t len)
{
	const char *start = strstr(id, ";start=");

	snprintf(out, len, "%.*s", start ? (int)(start - id) : (int)strlen(id), id);
}

/* Is b on the same disk (or the same file) as a? */
static int same_disk(const struct medium *a, const struct medium *b)
{
	char da[JOURNAL_IDENTITY], db[JOURNAL_IDENTITY];

	if (a->is_block != b->is_block)
		return 0;
	if (!a->is_block)
		return a->number == b->number && a->disk == b->disk;
	disk_identity(a->identity, da, sizeof(da));
	disk_identity(b->identity, db, sizeof(db));
	if (da[0] && db[0])
		return strcmp(da, db) == 0;
	return a->disk == b->disk;
}

/* Where a medium's data finally live: the file or whole disk under its loop
 * devices (loops over loops followed), else the medium itself; with the
 * byte offset there (0 for a whole file or disk). */
struct bottom {
	int is_file;
	uint64_t a, b;          /* file: st_dev and inode; disk: st_rdev and 0 */
	int offset_known_zero;  /* no loop offset, no partition start on the way */
};

static void bottom_block(dev_t rdev, struct bottom *b)
{
	*b = (struct bottom){ 0, 0, 0, 1 };
	for (int depth = 0; depth < 8; depth++) {
		char p[128], file[PATH_MAX], off[32] = "0";
		struct stat st;
		FILE *f;
		int got = 0;

		if (whole_disk(rdev) != rdev)
			b->offset_known_zero = 0;
		rdev = whole_disk(rdev);
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/backing_file", major(rdev), minor(rdev));
		if ((f = fopen(p, "re"))) {
			got = fscanf(f, "%4095[^\n]", file) == 1;
			fclose(f);
		}
		if (!got || stat(file, &st))
			break;
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/offset", major(rdev), minor(rdev));
		if ((f = fopen(p, "re"))) {
			if (fscanf(f, "%31s", off) != 1 || strcmp(off, "0"))
				b->offset_known_zero = 0;
			fclose(f);
		}
		if (!S_ISBLK(st.st_mode)) {
			b->is_file = 1;
			b->a = st.st_dev;
			b->b = st.st_ino;
			return;
		}
		rdev = st.st_rdev;
	}
	b->a = rdev;
}

/* The bottom of a medium as recorded (a loop device's backing as its
 * identity names it, so that it is known after the loop is gone).  0 when
 * the medium is a plain block device (no loop, no file). */
static int bottom_of(const struct medium *m, struct bottom *b)
{
	unsigned long long d, i;
	unsigned ma, mi;
	const char *loop = strstr(m->identity, "loop=");

	if (!m->is_block) {
		*b = (struct bottom){ 1, m->disk, m->number, 1 };
		return 1;
	}
	if (!loop)
		return 0;
	if (sscanf(loop, "loop=file:%llu:%llu", &d, &i) == 2)
		*b = (struct bottom){ 1, d, i, 1 };
	else if (sscanf(loop, "loop=block:%u:%u", &ma, &mi) == 2)
		bottom_block(makedev(ma, mi), b);
	else
		return 0;
	if (strstr(m->identity, ";start=") || (strstr(m->identity, "loop_offset=") &&
						  !strstr(m->identity, "loop_offset=0")))
		b->offset_known_zero = 0;
	return 1;
}

/* Are a and b one medium seen through loop devices: a file and the loop
 * devices over it, or a disk and the loops over it (either way round)?
 * exact: the same bytes at the same offsets, not just the same medium. */
static int same_bottom(const struct medium *a, const struct medium *b, int exact)
{
	struct bottom x, y;
	int hx = bottom_of(a, &x), hy = bottom_of(b, &y);

	if (!hx && !hy)
		return 0; /* two plain block devices: same_disk decides */
	if (!hx)
		bottom_block((dev_t)a->number, &x);
	if (!hy)
		bottom_block((dev_t)b->number, &y);
	if (exact && (!x.offset_known_zero || !y.offset_known_zero))
		return 0;
	return x.is_file == y.is_file && x.a == y.a && x.b == y.b;
}

static void describe_medium(const char *identity, uint64_t number, int is_block, char *buf, size_t len)
{
	if (identity[0])
		snprintf(buf, len, "%s", identity);
	else if (is_block)
		snprintf(buf, len, "device number %u:%u", major((dev_t)number), minor((dev_t)number));
	else
		snprintf(buf, len, "inode %llu", (unsigned long long)number);
}

struct journal {
	char path[PATH_MAX];
	int fd;
	struct dev *d;
	struct extents saved;
	uint64_t bytes;
	uint32_t seq;               /* records written */
	uint64_t id;
	char abspath[PATH_MAX * 2]; /* for the index */
	char device[PATH_MAX];
	struct medium m;
	void *buf;
};

/* ------------------------------------------------------------ index */

void journal_state_dir(char *buf, size_t len)
{
	const char *s = getenv("FLASHBENCH_STATE_DIR"), *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");

	if (s && *s)
		snprintf(buf, len, "%s", s);
	else if (geteuid() == 0)
		snprintf(buf, len, "/var/lib/flashbench");
	else if (x && x[0] == '/')
		snprintf(buf, len, "%s/flashbench", x);
	else if (h && h[0] == '/')
		snprintf(buf, len, "%s/.local/state/flashbench", h);
	else
		snprintf(buf, len, "/var/tmp/flashbench-%u", (unsigned)getuid());
}

static int mkdir_p(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0700) && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

static void entry_path(uint64_t id, char *buf, size_t len)
{
	char dir[PATH_MAX];

	journal_state_dir(dir, sizeof(dir));
	snprintf(buf, len, "%s/%016llx.entry", dir, (unsigned long long)id);
}

/* List the journal in the index, with the records and bytes saved and
 * synced so far (what --restore must find in it): written to a temporary
 * name, synced and renamed, so an entry is either whole or absent. */
static int index_write(const struct journal *j, struct fb_err *e)
{
	char dir[PATH_MAX], entry[PATH_MAX + 32], tmp[PATH_MAX + 40], text[PATH_MAX * 4 + 512];
	int fd, n;

	journal_state_dir(dir, sizeof(dir));
	if (mkdir_p(dir))
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot create the journal index %s: %s (set "
			       "FLASHBENCH_STATE_DIR to a writable directory)", dir, strerror(errno));
	entry_path(j->id, entry, sizeof(entry));
	snprintf(tmp, sizeof(tmp), "%s.tmp", entry);
	n = snprintf(text, sizeof(text), "journal %s\ndevice %s\nblock %d\nnumber %llu\ndisk %llu\nidentity %s\n"
		     "saved %u %llu\n", j->abspath, j->device, j->m.is_block, (unsigned long long)j->m.number,
		     (unsigned long long)j->m.disk, j->m.identity, j->seq, (unsigned long long)j->bytes);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, text, (size_t)n) || fsync(fd) || close(fd) || rename(tmp, entry)) {
		int err = errno;
		if (fd >= 0)
			unlink(tmp);
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot write the journal index entry %s: %s", entry,
			       strerror(err));
	}
	sync_dir_of(entry);
	return 0;
}

struct entry {
	char journal[PATH_MAX];
	struct medium m;
	unsigned records;       /* saved and synced */
};

static int entry_read(const char *path, struct entry *en)
{
	FILE *f = fopen(path, "re");
	char line[PATH_MAX + 32];
	int got = 0;

	if (!f)
		return -1;
	memset(en, 0, sizeof(*en));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "journal ", 8))
			got |= 1, snprintf(en->journal, sizeof(en->journal), "%.*s", PATH_MAX - 1, line + 8);
		else if (sscanf(line, "block %llu", &v) == 1)
			got |= 2, en->m.is_block = v != 0;
		else if (sscanf(line, "number %llu", &v) == 1)
			en->m.number = v;
		else if (sscanf(line, "disk %llu", &v) == 1)
			got |= 4, en->m.disk = v;
		else if (sscanf(line, "saved %u", &en->records) == 1)
			continue;
		else if (!strncmp(line, "identity ", 9))
			snprintf(en->m.identity, sizeof(en->m.identity), "%.*s", JOURNAL_IDENTITY - 1, line + 9);
	}
	fclose(f);
	return got == 7 ? 0 : -1;
}

/* ------------------------------------------------------------ checks */

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

static const char *kind_of(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device" :
	       S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* Is the journal whose header is jh one of the medium m (by its identity,
 * its device number or inode, or through its index entry: the file behind
 * a loop device)?  exact: the same bytes, for --restore. */
static int journal_of(const struct journal_header *jh, const struct medium *m, int exact)
{
	char entry[PATH_MAX + 32];
	struct entry en;

	if (jh->identity[0] && m->identity[0] ? !strcmp(jh->identity, m->identity) : jh->dev_number == m->number)
		return 1;
	entry_path(jh->id, entry, sizeof(entry));
	return jh->id && entry_read(entry, &en) == 0 && (exact ? same_bottom(&en.m, m, 1) :
							  same_disk(&en.m, m) || same_bottom(&en.m, m, 0));
}

/* The header of the journal at path: 0, or -1 when path is no regular
 * file with a journal's header (never waits on a FIFO). */
static int header_at(const char *path, struct journal_header *jh)
{
	unsigned char h[JOURNAL_HEADER];
	const char *why;
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	n = pread(fd, h, sizeof(h), 0);
	close(fd);
	return n == JOURNAL_HEADER && !journal_header_parse(h, jh, &why) ? 0 : -1;
}

int journal_check_absent(const char *path, const char *device, int creating, struct fb_err *e)
{
	char dir[PATH_MAX], entry[PATH_MAX + 300];
	struct journal_header jh;
	struct medium m;
	struct stat st, lst, dst;
	struct dirent *de;
	DIR *dp;
	int rc = 0, have_m = !medium_of(device, &m);

	if (!lstat(path, &lst) && stat(path, &st)) {
		if (creating)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s is a dangling symlink: the journal is never created "
				       "through a link; name another path (or remove the link)", path);
	} else if (!lstat(path, &lst)) {
		int is_journal = !header_at(path, &jh);
		if (is_journal && have_m && journal_of(&jh, &m, 0))
			return fb_fail(e, EXIT_DEVICE,
				       "%s holds data saved by an unfinished run on %s; put it back first with: "
				       "flashbench --restore %s %s", path, device, path, device);
		if (creating && !stat(device, &dst) &&
		    ((st.st_dev == dst.st_dev && st.st_ino == dst.st_ino) ||
		     (S_ISBLK(st.st_mode) && S_ISBLK(dst.st_mode) && st.st_rdev == dst.st_rdev)))
			return fb_fail(e, EXIT_USAGE, "--preserve=%s is the device under test; name a new file on "
				       "another disk", path);
		if (creating && is_journal)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s holds the unfinished journal of another medium "
				       "(%.200s); put it back there first (flashbench --restore %s DEVICE), or name "
				       "another path", path, jh.device, path);
		if (creating)
			return fb_fail(e, EXIT_USAGE, "--preserve=%s exists and is %s, not a flashbench journal: "
				       "--preserve writes a new file; name another path", path,
				       S_ISREG(st.st_mode) ? "a file" : kind_of(st.st_mode));
	}
	journal_state_dir(dir, sizeof(dir));
	if (!have_m || !(dp = opendir(dir)))
		return 0;
	while (!rc && (de = readdir(dp))) {
		struct entry en;
		size_t n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 6, ".entry"))
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", dir, de->d_name);
		if (entry_read(entry, &en) || !(same_disk(&en.m, &m) || same_bottom(&en.m, &m, 0)))
			continue;
		if (access(en.journal, F_OK) == 0)
			rc = fb_fail(e, EXIT_DEVICE, "%s: an unfinished --preserve run saved data of this medium in %s; "
				     "put it back first with: flashbench --restore %s %s", device, en.journal,
				     en.journal, device);
		else
			rc = fb_fail(e, EXIT_DEVICE, "%s: an unfinished --preserve run saved data of this medium in %s, "
				     "which is gone; restore it from where it is now (flashbench --restore FILE %s), or, "
				     "if you are sure the data are back, remove %s", device, en.journal, device, entry);
	}
	closedir(dp);
	return rc;
}

/* ------------------------------------------------------------ create */

int journal_create(struct journal **out, const char *path, struct dev *d, const char *device,
		   uint64_t room, unsigned flags, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char tmp[PATH_MAX], dir[PATH_MAX], absdir[PATH_MAX], abspath[PATH_MAX * 2];
	struct journal_header jh;
	struct statvfs vfs;
	struct statfs fs;
	struct stat jst, dst;
	struct medium m;
	struct journal *j;

	if (!(dev_caps(d) & DEV_CAP_HOLDS_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	if (journal_check_absent(path, device, 1, e))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (stat(dir, &jst) || !realpath(dir, absdir))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal's directory %s: %s", dir, strerror(errno));
	if (stat(device, &dst) == 0 && S_ISBLK(dst.st_mode) && whole_disk(jst.st_dev) == whole_disk(dst.st_rdev))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on the device under test; "
			       "put it on another disk (--preserve=/other/disk/file.journal)", path);
	if (!(flags & JOURNAL_VOLATILE_OK) && statfs(dir, &fs) == 0 &&
	    ((unsigned long)fs.f_type == TMPFS_MAGIC || (unsigned long)fs.f_type == RAMFS_MAGIC))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on %s, which loses it in the power "
			       "cut it is there for; put it on a disk (--preserve=/path/on/disk/FILE), or add "
			       "--preserve-volatile to accept that", path,
			       (unsigned long)fs.f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs");
	if (statvfs(dir, &vfs) == 0) {
		uint64_t pieces = room / JOURNAL_PIECE + 1024;
		uint64_t need = room + pieces * JOURNAL_RECORD + JOURNAL_HEADER;
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (avail < need)
			return fb_fail(e, EXIT_USAGE, "--preserve: %s has room for %llu bytes but the journal needs up to "
				       "%llu; free some space or put it elsewhere (--preserve=FILE)", dir,
				       (unsigned long long)avail, (unsigned long long)need);
	}
	if (medium_of(device, &m))
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno));
	memset(&jh, 0, sizeof(jh));
	jh.dev_size = dev_size(d);
	jh.sector = dev_sector(d);
	jh.max_record = JOURNAL_PIECE;
	jh.dev_number = m.number;
	jh.created = (uint64_t)time(NULL);
	if (getrandom(&jh.id, sizeof(jh.id), 0) != sizeof(jh.id) || !jh.id)
		jh.id = jh.created << 20 ^ (uint64_t)getpid() ^ (uint64_t)clock();
	snprintf(jh.device, sizeof(jh.device), "%s", device);
	snprintf(jh.identity, sizeof(jh.identity), "%s", m.identity);
	journal_header_build(h, &jh);
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(abspath, sizeof(abspath), "%s/%s", absdir, basename(tmp));

	if (!(j = calloc(1, sizeof(*j))) || posix_memalign(&j->buf, 4096, JOURNAL_PIECE)) {
		free(j);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->d = d;
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		int err = errno;
		free(j->buf);
		free(j);
		return fb_fail(e, EXIT_DEVICE, "--preserve: cannot create %s: %s", path, strerror(err));
	}
	if (write_all(j->fd, h, sizeof(h)) || fsync(j->fd)) {
		fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	sync_dir_of(path);
	/* listed only once the header is on disk; nothing is saved before */
	j->id = jh.id;
	j->m = m;
	snprintf(j->abspath, sizeof(j->abspath), "%s", abspath);
	snprintf(j->device, sizeof(j->device), "%s", device);
	if (index_write(j, e))
		goto fail;
	*out = j;
	return 0;
fail:
	close(j->fd);
	unlink(path); /* created by this run, and empty of saved data */
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
		journal_record_build(r, lo, n, j->seq++, crc32c(0, j->buf, n));
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
	uint32_t seq0 = j->seq;
	int rc = 0;

	if (vm_plan_writes(prog, dev_size(j->d), dev_sector(j->d), collect, &want, e))
		return -1;
	if (want.cap == SIZE_MAX) {
		free(want.v);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	if (!want.n) { /* a program that only reads: nothing to save or sync */
		free(want.v);
		return 0;
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
	if (!rc && j->seq == seq0) /* every range was saved before */
		return 0;
	if (!rc && fdatasync(j->fd))
		rc = fb_fail(e, EXIT_DEVICE, "--preserve: cannot sync %s: %s", j->path, strerror(errno));
	if (!rc) /* what --restore must find: a shorter journal was cut */
		rc = index_write(j, e);
	return rc;
}

void journal_abandon(struct journal *j)
{
	if (!j)
		return;
	close(j->fd);
	free(j->saved.v);
	free(j->buf);
	free(j);
}

uint64_t journal_saved(const struct journal *j)
{
	return j->bytes;
}

/* ------------------------------------------------------------ restore */

/* A good record, to be put back once all are known. */
struct to_apply {
	uint64_t pos, off, len;
	uint32_t crc;
};

struct restore_ctx {
	struct dev *d;
	struct to_apply *apply;    /* the good records, in journal order */
	size_t napply, capply;
	void *back;                /* read-back buffer */
	struct restore_report *r;
	char lost[320];            /* what could not be restored, as text */
	unsigned nlost, shown;
	uint32_t records;          /* 1 + the highest sequence number seen */
	struct extents seen;       /* the device ranges of the records so far */
	const struct journal_item *torn; /* the cut last record, if any */
	struct journal_item torn_copy;
};

/* Does [lo, hi) meet a range of s? */
static int extents_meet(const struct extents *s, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].lo < hi && lo < s->v[i].hi)
			return 1;
	return 0;
}

/* "bytes A to B" of a record (B clamped where a hostile length overflows) */
static void bytes_of(const struct journal_item *it, char *buf, size_t len)
{
	unsigned long long hi = it->len > UINT64_MAX - it->off ? UINT64_MAX : it->off + it->len - 1;

	snprintf(buf, len, "bytes %llu to %llu", (unsigned long long)it->off, hi);
}

static void note_lost(struct restore_ctx *c, const char *what)
{
	size_t n = strlen(c->lost);

	c->nlost++;
	if (n + strlen(what) + 3 < sizeof(c->lost) - 24) {
		snprintf(c->lost + n, sizeof(c->lost) - n, "%s%s", n ? "; " : "", what);
		c->shown++;
	}
}

static int restore_item(void *ctx, const struct journal_item *it)
{
	struct restore_ctx *c = ctx;
	char what[200], range[64];
	int overlaps;

	bytes_of(it, range, sizeof(range));
	if (it->kind != JOURNAL_TORN && it->range_known && it->seq >= c->records)
		c->records = it->seq + 1;
	switch (it->kind) {
	case JOURNAL_TORN:
		c->torn_copy = *it;
		c->torn = &c->torn_copy;
		return 0;
	case JOURNAL_BAD:
		if (it->range_known)
			snprintf(what, sizeof(what), "%s (%s)", range, it->why);
		else
			snprintf(what, sizeof(what), "an unknown range (journal bytes %llu to %llu: %s)",
				 (unsigned long long)it->pos, (unsigned long long)it->end - 1, it->why);
		note_lost(c, what);
		if (it->range_known && it->len <= UINT64_MAX - it->off && extents_add(&c->seen, it->off, it->off + it->len))
			return 1;
		return 0;
	case JOURNAL_GOOD:
		break;
	}
	/* a range is saved once, before its first write: the earliest record
	 * of a byte holds the original, and a later one over it is damage */
	overlaps = extents_meet(&c->seen, it->off, it->off + it->len);
	if (extents_add(&c->seen, it->off, it->off + it->len))
		return 1;
	if (overlaps) {
		snprintf(what, sizeof(what), "%s from journal bytes %llu to %llu (the record overlaps an earlier one, "
			 "which holds the original data: not applied)", range, (unsigned long long)it->pos,
			 (unsigned long long)it->end - 1);
		note_lost(c, what);
		return 0;
	}
	{
		struct to_apply *a = grow(c->apply, &c->capply, c->napply, sizeof(*a), 64);
		if (!a)
			return 1;
		c->apply = a;
		a[c->napply++] = (struct to_apply){ it->pos + JOURNAL_RECORD, it->off, it->len, crc32c(0, it->data, it->len) };
	}
	return 0;
}

/* Put the good records back, the last saved first.  Two addresses may reach
 * the same flash (a fake card that wraps around): both are saved, the later
 * one after the earlier was overwritten, so its copy is the test's data.
 * The earliest record of any flash was saved before anything wrote to it,
 * and put back last it is what the flash keeps. */
static void apply_records(struct restore_ctx *c, int fd, void *buf,
			  long (*rd)(void *ctx, void *buf, size_t len, uint64_t pos))
{
	for (size_t i = c->napply; i-- > 0;) {
		const struct to_apply *a = &c->apply[i];
		struct journal_item it = { .off = a->off, .len = a->len };
		char what[200], range[64];
		int rc;

		bytes_of(&it, range, sizeof(range));
		if (rd(&fd, buf, a->len, a->pos) != (long)a->len || crc32c(0, buf, a->len) != a->crc) {
			snprintf(what, sizeof(what), "%s (the journal changed while restoring)", range);
			note_lost(c, what);
			continue;
		}
		rc = dev_copy_in(c->d, buf, a->off, a->len);
		if (!rc)
			rc = dev_copy_out(c->d, c->back, a->off, a->len);
		if (rc) {
			snprintf(what, sizeof(what), "%s (writing them back failed: %s)", range, strerror(-rc));
			note_lost(c, what);
		} else if (memcmp(c->back, buf, a->len)) {
			snprintf(what, sizeof(what), "%s (they read back different)", range);
			note_lost(c, what);
		} else {
			c->r->bytes += a->len;
			c->r->ranges++;
		}
	}
}

static long read_fd(void *ctx, void *buf, size_t len, uint64_t pos)
{
	const int *fd = ctx;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(*fd, (char *)buf + done, len - done, (off_t)(pos + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (long)done;
}

/* Open the journal and check that it is one, written for this medium. */
static int open_journal(const char *path, struct dev *d, const char *device, unsigned flags, int *fd,
			struct journal_header *jh, struct restore_report *r, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char was[JOURNAL_IDENTITY + 40], now[JOURNAL_IDENTITY + 40];
	struct medium m;
	struct stat st;
	const char *why;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0 && errno == ENOENT)
		return fb_fail(e, EXIT_DEVICE, "there is no journal %s (a journal is removed only once all its data "
			       "are back and verified; if it was restored before, they are)", path);
	if (*fd < 0)
		return fb_fail(e, EXIT_DEVICE, "cannot open the journal %s: %s", path, strerror(errno));
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "%s is not a journal: it is %s; nothing was done", path, kind_of(st.st_mode));
	if (st.st_size < JOURNAL_HEADER)
		return fb_fail(e, EXIT_USAGE, "%s is not a flashbench journal (%lld bytes, shorter than a journal "
			       "header); nothing was done and it is kept (a run killed while creating its journal, "
			       "before any write, leaves such a file: then delete it by hand)", path,
			       (long long)st.st_size);
	if (read_fd(fd, h, sizeof(h), 0) != JOURNAL_HEADER)
		return fb_fail(e, EXIT_DEVICE, "cannot read the journal %s: %s", path, strerror(errno));
	if (journal_header_parse(h, jh, &why))
		return fb_fail(e, EXIT_USAGE, "%s is not a usable flashbench journal: %s; nothing was done and it is "
			       "kept", path, why);
	if (jh->dev_size != dev_size(d) || jh->sector != dev_sector(d))
		return fb_fail(e, EXIT_USAGE, "%s was written for %.200s (%llu bytes, %u-byte sectors), not for %s "
			       "(%llu bytes, %u-byte sectors); nothing was done", path, jh->device,
			       (unsigned long long)jh->dev_size, jh->sector, device, (unsigned long long)dev_size(d),
			       dev_sector(d));
	if (medium_of(device, &m))
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno));
	if (journal_of(jh, &m, 1))
		return 0;
	describe_medium(jh->identity, jh->dev_number, m.is_block, was, sizeof(was));
	describe_medium(m.identity, m.number, m.is_block, now, sizeof(now));
	if (!(flags & JOURNAL_DEVICE_CHANGED))
		return fb_fail(e, EXIT_USAGE, "%s was written for %.100s (%.120s), and %s is not recognised as the "
			       "same medium (%.120s); nothing was done.  If it is (a card back under a new name), add "
			       "--device-changed", path, jh->device, was, device, now);
	snprintf(r->warning, sizeof(r->warning), "%.100s was written for %.100s (%.80s); %.60s (%.80s) is taken for "
		 "the same medium because of --device-changed", path, jh->device, was, device, now);
	return 0;
}

/* Forget a journal: its index entry first (a journal without an entry is
 * still refused by name and restoring it again is harmless), then the file. */
static int remove_journal(const char *path, uint64_t id, struct fb_err *e)
{
	char entry[PATH_MAX + 32];

	entry_path(id, entry, sizeof(entry));
	if (id && unlink(entry) && errno != ENOENT)
		return fb_fail(e, EXIT_DEVICE, "data restored and verified, but the index entry %s could not be "
			       "removed: %s; the journal %s is kept (remove both by hand)", entry, strerror(errno), path);
	if (id)
		sync_dir_of(entry);
	if (unlink(path))
		return fb_fail(e, EXIT_DEVICE, "data restored and verified, but %s could not be removed: %s", path,
			       strerror(errno));
	sync_dir_of(path);
	return 0;
}

int journal_restore(const char *path, struct dev *d, const char *device, unsigned flags,
		    struct restore_report *r, struct fb_err *e)
{
	struct restore_ctx c = { .d = d, .r = r };
	struct journal_header jh;
	struct stat st;
	void *buf = NULL;
	int fd, rc = 0;

	memset(r, 0, sizeof(*r));
	if (open_journal(path, d, device, flags, &fd, &jh, r, e)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (posix_memalign(&buf, 4096, JOURNAL_PIECE) || posix_memalign(&c.back, 4096, JOURNAL_PIECE)) {
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
		goto out;
	}
	if (fstat(fd, &st) ||
	    (rc = journal_walk(&jh, (uint64_t)st.st_size, read_fd, &fd, buf, restore_item, &c))) {
		rc = fb_fail(e, EXIT_DEVICE, "%s %s: %s; put back %llu bytes in %u range%s, the journal is kept",
			     rc > 0 ? "out of memory restoring" : "cannot read the journal", path,
			     rc > 0 ? "no room to track its ranges" : strerror(errno), (unsigned long long)r->bytes,
			     r->ranges, r->ranges == 1 ? "" : "s");
		goto out;
	}
	apply_records(&c, fd, buf, read_fd);
	{ /* the index knows how many records were saved before any write */
		char entry[PATH_MAX + 32], what[320], range[64];
		struct entry en;
		int have = jh.id && (entry_path(jh.id, entry, sizeof(entry)), entry_read(entry, &en) == 0);
		if (have && en.records > c.records) {
			snprintf(what, sizeof(what), "the ranges of its last %u record%s (the journal was cut short: "
				 "the index says %u were saved)", en.records - c.records, en.records - c.records == 1 ?
				 "" : "s", en.records);
			note_lost(&c, what);
		} else if (c.torn && have) { /* every synced record is there: the cut one was never used */
			r->torn = 1;
		} else if (c.torn) {
			if (c.torn->range_known)
				bytes_of(c.torn, range, sizeof(range));
			else
				snprintf(range, sizeof(range), "the range of the record at journal byte %llu",
					 (unsigned long long)c.torn->pos);
			snprintf(what, sizeof(what), "%s (the journal ends inside its record: either the run was stopped "
				 "while saving it, before overwriting it, or the journal was cut later and it is lost; "
				 "without the journal's index entry this cannot be told)", range);
			note_lost(&c, what);
		}
	}
	if (c.nlost) {
		char more[48] = "";
		if (c.shown < c.nlost)
			snprintf(more, sizeof(more), "; and %u more", c.nlost - c.shown);
		rc = fb_fail(e, EXIT_DEVICE, "%s: put back %llu bytes in %u range%s and verified them, but could not "
			     "restore %s%s; the journal is kept", path, (unsigned long long)r->bytes, r->ranges,
			     r->ranges == 1 ? "" : "s", c.lost, more);
		goto out;
	}
	rc = remove_journal(path, jh.id, e);
out:
	free(buf);
	free(c.back);
	free(c.seen.v);
	free(c.apply);
	close(fd);
	return rc;
}

int journal_finish(struct journal *j, uint64_t *restored, struct fb_err *e)
{
	struct restore_report r;
	int rc;

	close(j->fd);
	rc = journal_restore(j->path, j->d, dev_path(j->d), 0, &r, e);
	*restored = r.bytes;
	if (!rc && r.bytes != j->bytes)
		rc = fb_fail(e, EXIT_DEVICE, "restored %llu bytes of %llu saved", (unsigned long long)r.bytes,
			     (unsigned long long)j->bytes);
	free(j->saved.v);
	free(j->buf);
	free(j);
	return rc;
}
