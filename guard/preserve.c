/* preserve.c — the --preserve journal and its index (see preserve.h). */
#include "guard/preserve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "dev/medium.h"
#include "guard/statedir.h"
#include "lib/crc32c.h"
#include "lib/grow.h"
#include "lib/units.h"
#include "lib/pin.h"
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

/* Every range a program writes (journal_plan: what it may save). */
static void collect(void *ctx, uint64_t off, uint64_t len, int changes)
{
	struct extents *s = ctx;
	(void)changes;
	if (s->cap != SIZE_MAX && extents_add(s, off, off + len))
		s->cap = SIZE_MAX; /* marks failure: nothing more is added */
}

/* Every range it changes (journal_protect: what is saved before it runs; a
 * rewrite saves what it reads as it goes, journal_save_read). */
static void collect_changes(void *ctx, uint64_t off, uint64_t len, int changes)
{
	if (changes)
		collect(ctx, off, len, changes);
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

/* ------------------------------------------------------------ identity */

/* What a journal or an index entry records of the medium: its identity
 * (medium.h), as text too. */
struct recorded {
	struct medium m;
	char text[JOURNAL_IDENTITY];
	int legacy;                      /* written before identities: only numbers */
	int is_block;                    /* legacy: what the numbers are */
	uint64_t number, disk;
};

static void record_of(const struct medium *m, struct recorded *r)
{
	memset(r, 0, sizeof(*r));
	r->m = *m;
	medium_identity(m, r->text, sizeof(r->text));
	r->is_block = m->kind == MEDIUM_DISK || m->how[0];
	r->number = m->kind == MEDIUM_FILE ? m->ino : m->dev;
	r->disk = m->dev;
}

/* Is what was recorded the medium now (exact: the same window too)?  A
 * record from before identities matches only loosely (never exactly). */
static int recorded_is(const struct recorded *was, const struct medium *now, int exact)
{
	if (!was->legacy)
		return medium_matches(&was->m, now, exact);
	if (exact)
		return 0;
	return now->kind == MEDIUM_FILE ? was->number == now->ino && (!was->disk || was->disk == now->dev)
					: was->number == now->dev || was->disk == now->dev;
}

static void describe(const struct recorded *r, char *buf, size_t len)
{
	if (!r->legacy)
		snprintf(buf, len, "%s", r->text);
	else
		snprintf(buf, len, "%s %llu, recorded before flashbench recorded the medium's identity",
			 r->is_block ? "device number" : "inode", (unsigned long long)r->number);
}

struct journal {
	char path[PATH_MAX];
	int fd;
	struct dev *d;
	struct extents saved;
	uint64_t bytes;             /* data saved */
	uint64_t file_bytes;        /* the journal's size: header, records and data */
	uint64_t reserved;          /* journal bytes reserved (or found free) so far */
	uint32_t seq;               /* records written */
	uint64_t id;
	char abspath[PATH_MAX * 2]; /* for the index */
	char device[PATH_MAX];
	struct recorded m;
	int unlisted;               /* a simulated card's: not in the index */
	void *buf;
	const volatile sig_atomic_t *stop; /* set: stop saving at the next piece */
	/* the grains (of 1 << touch_shift bytes) the run wrote to: only the
	 * saved ranges that meet one need putting back */
	unsigned char *touched;
	unsigned touch_shift;
	int touched_all;            /* no room for the map: put back everything */
};

/* ------------------------------------------------------------ index */

static void entry_path(uint64_t id, char *buf, size_t len)
{
	char dir[PATH_MAX];

	state_dir(dir, sizeof(dir));
	snprintf(buf, len, "%s/%016llx.entry", dir, (unsigned long long)id);
}

/* List the journal in the index, with the records and bytes saved and
 * synced so far (what --restore must find in it): written to a temporary
 * name, synced and renamed, so an entry is either whole or absent. */
static int index_write(const struct journal *j, struct fb_err *e)
{
	char dir[PATH_MAX], entry[PATH_MAX + 32], tmp[PATH_MAX + 40], text[PATH_MAX * 4 + 512];
	int fd, n;

	if (j->unlisted)
		return 0;
	if (state_dir_make(dir, sizeof(dir), "the index of unfinished --preserve journals", e))
		return -1;
	entry_path(j->id, entry, sizeof(entry));
	snprintf(tmp, sizeof(tmp), "%s.tmp", entry);
	n = snprintf(text, sizeof(text), "journal %s\ndevice %s\nblock %d\nnumber %llu\ndisk %llu\nmedium %s\n"
		     "saved %u %llu\n", j->abspath, j->device, j->m.is_block, (unsigned long long)j->m.number,
		     (unsigned long long)j->m.disk, j->m.text, j->seq, (unsigned long long)j->bytes);
	unlink(tmp); /* a stale one, whatever it is: ours is made new */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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
	struct recorded m;
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
	en->m.legacy = 1;
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
		else if (!strncmp(line, "medium ", 7) && !medium_parse_identity(line + 7, &en->m.m)) {
			en->m.legacy = 0;
			snprintf(en->m.text, sizeof(en->m.text), "%.*s", JOURNAL_IDENTITY - 1, line + 7);
		}
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

/* What the journal whose header is jh recorded of its medium. */
static void recorded_of_header(const struct journal_header *jh, struct recorded *r)
{
	memset(r, 0, sizeof(*r));
	if (!medium_parse_identity(jh->identity, &r->m)) {
		snprintf(r->text, sizeof(r->text), "%.*s", JOURNAL_IDENTITY - 1, jh->identity);
		return;
	}
	r->legacy = 1;
	r->number = jh->dev_number;
	r->is_block = jh->identity[0] != '\0';
}

/* Is the journal whose header is jh one of the medium m?  exact: the same
 * bytes, for --restore. */
static int journal_of(const struct journal_header *jh, const struct medium *m, int exact)
{
	struct recorded r;

	recorded_of_header(jh, &r);
	return recorded_is(&r, m, exact);
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

	path = pin_path(path);
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
	int rc = 0, have_m = !medium_of(device, &m) && m.kind != MEDIUM_NONE;

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
		if (creating && !stat(pin_path(device), &dst) &&
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
	state_dir(dir, sizeof(dir));
	if (!have_m || !(dp = opendir(dir)))
		return 0;
	while (!rc && (de = readdir(dp))) {
		struct entry en;
		size_t n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 6, ".entry"))
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", dir, de->d_name);
		if (entry_read(entry, &en) || !recorded_is(&en.m, &m, 0))
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

int journal_holds(const char *path, char *device, size_t len)
{
	struct journal_header jh;

	if (header_at(path, &jh))
		return 0;
	snprintf(device, len, "%s", jh.device);
	return 1;
}

int journal_check_target(const char *device, struct fb_err *e)
{
	struct journal_header jh;

	if (header_at(device, &jh))
		return 0;

	return fb_fail(e, EXIT_USAGE, "%s is a flashbench journal (data saved from %.200s): writing to it would "
		       "destroy what it saved; put it back first (flashbench --restore %s %.200s) or name another "
		       "device", device, jh.device, device, jh.device);
}

/* Does the file system holding path lie on medium m (through loops, a
 * btrfs of several devices, an image file on a disk...)?  how says where. */
static int lies_on(const char *path, const struct medium *m, char *how, size_t len)
{
	struct medium under[16];
	size_t n = medium_under(path, under, sizeof(under) / sizeof(under[0]));

	for (size_t i = 0; i < n; i++)
		if (medium_same(&under[i], m)) {
			snprintf(how, len, "%s%.400s", under[i].how[0] ? ": its file system is on " : "", under[i].how);
			return 1;
		}
	return 0;
}

/* Would the journal or the index be lost with it in a power cut? */
static int refuse_volatile(const char *path, const char *dir, struct fb_err *e)
{
	char state[PATH_MAX];
	const char *fs = state_volatile(dir);

	if (fs)
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on %s, which loses it in the power "
			       "cut it is there for; put it on a disk (--preserve=/path/on/disk/FILE), or add "
			       "--preserve-volatile to accept that", path, fs);
	if (state_dir_make(state, sizeof(state), "the index of unfinished --preserve journals", e))
		return -1;
	if ((fs = state_volatile(state)))
		return fb_fail(e, EXIT_USAGE, "--preserve: the index of unfinished journals (%s) is on %s, which a "
			       "power cut empties, and then a journal cut short could no longer be told from a whole "
			       "one; set FLASHBENCH_STATE_DIR to a directory on a disk, or add --preserve-volatile to "
			       "accept that", state, fs);
	return 0;
}

/* Where the journal goes: its directory (absdir: made absolute), not on the
 * medium m (NULL: a simulated card's, which has none), and neither it nor
 * the index on tmpfs/ramfs unless flags has JOURNAL_VOLATILE_OK. */
static int check_place(const char *path, const struct medium *m, unsigned flags, char absdir[PATH_MAX],
		       struct fb_err *e)
{
	char tmp[PATH_MAX], dir[PATH_MAX], how[600];
	struct stat st;

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (stat(dir, &st) || !realpath(dir, absdir))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal's directory %s: %s", dir, strerror(errno));
	if (m && lies_on(dir, m, how, sizeof(how)))
		return fb_fail(e, EXIT_USAGE, "--preserve: the journal %s would be on the device under test%s; "
			       "put it on another disk (--preserve=/other/disk/file.journal)", path, how);
	if (m && !(flags & JOURNAL_VOLATILE_OK) && refuse_volatile(path, dir, e))
		return -1;
	return 0;
}

int journal_check_place(const char *path, const char *device, unsigned flags, struct fb_err *e)
{
	char absdir[PATH_MAX];
	struct medium m;

	if (journal_check_absent(path, device, 1, e))
		return -1;
	medium_of(device, &m);
	return check_place(path, m.kind == MEDIUM_NONE ? NULL : &m, flags, absdir, e);
}

int journal_create(struct journal **out, const char *path, struct dev *d, const char *device, unsigned flags,
		   struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char tmp[PATH_MAX], absdir[PATH_MAX], abspath[PATH_MAX * 2];
	struct journal_header jh;
	struct medium m;
	struct journal *j;
	/* a simulated card (--capacity's): what it holds lives in this process
	 * and dies with it, so there is no medium to name, nothing a later run
	 * could restore and no index entry to make */
	int in_process = !(dev_caps(d) & DEV_CAP_STORES_DATA);

	if (!(dev_caps(d) & DEV_CAP_HOLDS_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	if (journal_check_absent(path, device, 1, e))
		return -1;
	medium_of(device, &m);
	if (m.kind == MEDIUM_NONE && !in_process)
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno ? errno : ENODEV));
	if (check_place(path, in_process ? NULL : &m, flags, absdir, e))
		return -1;
	memset(&jh, 0, sizeof(jh));
	jh.dev_size = dev_size(d);
	jh.sector = dev_sector(d);
	jh.max_record = JOURNAL_PIECE;
	jh.dev_number = m.kind == MEDIUM_FILE ? m.ino : m.dev;
	jh.created = (uint64_t)time(NULL);
	if (getrandom(&jh.id, sizeof(jh.id), 0) != sizeof(jh.id) || !jh.id)
		jh.id = jh.created << 20 ^ (uint64_t)getpid() ^ (uint64_t)clock();
	snprintf(jh.device, sizeof(jh.device), "%s", device);
	medium_identity(&m, jh.identity, sizeof(jh.identity));
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
	j->file_bytes = j->reserved = JOURNAL_HEADER;
	/* listed only once the header is on disk; nothing is saved before */
	j->id = jh.id;
	record_of(&m, &j->m);
	snprintf(j->abspath, sizeof(j->abspath), "%s", abspath);
	snprintf(j->device, sizeof(j->device), "%s", device);
	j->unlisted = in_process;
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

/* ------------------------------------------------------------ room */

/* Make the journal's file system hold `end` bytes of journal: reserved with
 * fallocate (so nothing else can take the room while the run goes on), or
 * where the file system cannot, found free.  what names the bytes in a
 * refusal. */
static int room_for(struct journal *j, uint64_t end, const char *what, struct fb_err *e)
{
	struct statvfs vfs;
	uint64_t avail, have;

	if (end <= j->reserved)
		return 0;
	/* free room is looked at before fallocate: one that fails may have
	 * taken part of it (ext4 keeps what it allocated before ENOSPC) */
	avail = !fstatvfs(j->fd, &vfs) ? (uint64_t)vfs.f_bavail * vfs.f_frsize : 0;
	have = j->reserved > j->file_bytes ? j->reserved - j->file_bytes : 0; /* reserved already */
	if (end <= (uint64_t)INT64_MAX && !fallocate(j->fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)end)) {
		j->reserved = end;
		return 0;
	}
	if (end <= (uint64_t)INT64_MAX && errno != ENOSPC && errno != EFBIG && avail + have >= end - j->file_bytes) {
		j->reserved = end; /* no fallocate here: the room was free when looked at */
		return 0;
	}
	if (end <= (uint64_t)INT64_MAX) { /* give back what the failed fallocate took */
		uint64_t from = j->reserved > j->file_bytes ? j->reserved : j->file_bytes;
		(void)!fallocate(j->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(end - from));
	}
	return fb_fail(e, EXIT_USAGE, "--preserve: the file system of %s has room for %llu more bytes but the "
		       "journal needs up to %llu more (%s); free some space or put it elsewhere (--preserve=FILE)",
		       j->path, (unsigned long long)(avail + have), (unsigned long long)(end - j->file_bytes), what);
}

int journal_reserve(struct journal *j, uint64_t bytes, uint64_t records, struct fb_err *e)
{
	char what[96], sz[32];

	format_size(sz, sizeof(sz), bytes);
	snprintf(what, sizeof(what), "this run saves at most %llu bytes (%s)", (unsigned long long)bytes, sz);
	/* on top of what is held or reserved already */
	return room_for(j, (j->reserved > j->file_bytes ? j->reserved : j->file_bytes) + bytes + records * JOURNAL_RECORD,
			what, e);
}

/* Records a range of len bytes is saved in. */
static uint64_t pieces(uint64_t len)
{
	return len / JOURNAL_PIECE + (len % JOURNAL_PIECE != 0);
}

int journal_plan(const struct vm_op *prog, struct dev *d, uint64_t *bytes, uint64_t *records, struct fb_err *e)
{
	struct extents want = { 0 };

	*bytes = *records = 0;
	if (vm_plan_writes(prog, dev_size(d), dev_sector(d), collect, &want, e)) {
		free(want.v);
		return -1;
	}
	if (want.cap == SIZE_MAX) {
		free(want.v);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	for (size_t i = 0; i < want.n; i++) {
		*bytes += want.v[i].hi - want.v[i].lo;
		*records += pieces(want.v[i].hi - want.v[i].lo);
	}
	free(want.v);
	return 0;
}

/* ------------------------------------------------------------ save */

/* Append [lo, hi) from buf (the bytes of byte lo onwards) as records. */
static int save_bytes(struct journal *j, uint64_t lo, uint64_t hi, const unsigned char *buf, struct fb_err *e)
{
	while (lo < hi) {
		uint64_t n = hi - lo > JOURNAL_PIECE ? JOURNAL_PIECE : hi - lo;
		unsigned char r[JOURNAL_RECORD];

		journal_record_build(r, lo, n, j->seq++, crc32c(0, buf, n));
		if (write_all(j->fd, r, sizeof(r)) || write_all(j->fd, buf, n))
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot write %s: %s", j->path, strerror(errno));
		j->bytes += n;
		j->file_bytes += sizeof(r) + n;
		lo += n;
		buf += n;
	}
	return 0;
}

static int save_range(struct journal *j, uint64_t lo, uint64_t hi, struct fb_err *e)
{
	while (lo < hi) {
		uint64_t n = hi - lo > JOURNAL_PIECE ? JOURNAL_PIECE : hi - lo;
		int rc;

		if (j->stop && *j->stop) /* a request boundary: nothing is written yet */
			return fb_fail(e, EXIT_DEVICE, "stopped by a signal while saving the data to %s (%llu bytes "
				       "saved; %s)", j->path, (unsigned long long)j->bytes, j->touched || j->touched_all ?
				       "nothing more was written" : "the device was not written");
		rc = dev_copy_out(j->d, j->buf, lo, n);
		if (rc)
			return fb_fail(e, EXIT_DEVICE, "--preserve: cannot read %llu bytes at %llu: %s",
				       (unsigned long long)n, (unsigned long long)lo, strerror(-rc));
		if (save_bytes(j, lo, lo + n, j->buf, e))
			return -1;
		lo += n;
	}
	return 0;
}

int journal_save_read(struct journal *j, uint64_t off, uint64_t len, const void *buf, struct fb_err *e)
{
	const unsigned char *b = buf;
	uint64_t lo = off, hi = off + len, records = len / JOURNAL_PIECE + 2;
	uint32_t seq0 = j->seq;
	int rc = 0;

	if (room_for(j, j->file_bytes + len + records * JOURNAL_RECORD, "for a range it rewrites", e))
		return -1;
	/* only what is not saved yet: a second copy would hold no more */
	for (size_t k = 0; k < j->saved.n && lo < hi && !rc; k++) {
		const struct extent *s = &j->saved.v[k];
		if (s->hi <= lo || s->lo >= hi)
			continue;
		if (s->lo > lo)
			rc = save_bytes(j, lo, s->lo, b + (lo - off), e);
		lo = s->hi;
	}
	if (!rc && lo < hi)
		rc = save_bytes(j, lo, hi, b + (lo - off), e);
	if (!rc && extents_add(&j->saved, off, off + len))
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	if (!rc && j->seq != seq0 && fdatasync(j->fd))
		rc = fb_fail(e, EXIT_DEVICE, "--preserve: cannot sync %s: %s", j->path, strerror(errno));
	return rc;
}

int journal_protect(struct journal *j, const struct vm_op *prog, struct fb_err *e)
{
	struct extents want = { 0 };
	uint32_t seq0 = j->seq;
	int rc = 0;

	if (vm_plan_writes(prog, dev_size(j->d), dev_sector(j->d), collect_changes, &want, e))
		return -1;
	if (want.cap == SIZE_MAX) {
		free(want.v);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	if (!want.n) { /* a program that only reads: nothing to save or sync */
		free(want.v);
		return 0;
	}
	{ /* room for what this step saves that is not saved yet: each range once */
		uint64_t bytes = 0, records = 0;
		char what[96];
		for (size_t i = 0; i < want.n; i++) {
			uint64_t lo = want.v[i].lo, hi = want.v[i].hi;
			for (size_t k = 0; k < j->saved.n && lo < hi; k++) {
				const struct extent *sv = &j->saved.v[k];
				if (sv->hi <= lo || sv->lo >= hi)
					continue;
				if (sv->lo > lo) {
					bytes += sv->lo - lo;
					records += pieces(sv->lo - lo);
				}
				lo = sv->hi;
			}
			if (lo < hi) {
				bytes += hi - lo;
				records += pieces(hi - lo);
			}
		}
		snprintf(what, sizeof(what), "for the next %llu bytes to save", (unsigned long long)bytes);
		rc = room_for(j, j->file_bytes + bytes + records * JOURNAL_RECORD, what, e);
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
	free(j->touched);
	free(j->buf);
	free(j);
}

void journal_watch(struct journal *j, const volatile sig_atomic_t *stop)
{
	j->stop = stop;
}

/* The map of written grains: one bit per 4 KiB, coarser on a device so
 * large that the map would pass 1 MiB (a coarser grain only puts back a
 * little more). */
void journal_touch(struct journal *j, uint64_t off, uint64_t len)
{
	uint64_t size = dev_size(j->d);

	if (!len || j->touched_all)
		return;
	if (!j->touched) {
		j->touch_shift = 12;
		while ((size >> j->touch_shift) > (8ULL << 20))
			j->touch_shift++;
		if (!(j->touched = calloc(((size - 1) >> j->touch_shift) / 8 + 1, 1))) {
			j->touched_all = 1;
			return;
		}
	}
	for (uint64_t g = off >> j->touch_shift; g <= (off + len - 1) >> j->touch_shift; g++)
		j->touched[g / 8] |= (unsigned char)(1u << (g % 8));
}

/* Did the run write to the grain of byte off? */
static int grain_touched(const struct journal *j, uint64_t off)
{
	uint64_t g = off >> j->touch_shift;

	return j->touched_all || (j->touched && (j->touched[g / 8] & (1u << (g % 8))));
}

/* Did the run write to any byte of [off, off + len)? */
static int journal_touched(const struct journal *j, uint64_t off, uint64_t len)
{
	if (j->touched_all)
		return 1;
	if (!j->touched || !len)
		return 0;
	for (uint64_t g = off >> j->touch_shift; g <= (off + len - 1) >> j->touch_shift; g++)
		if (j->touched[g / 8] & (1u << (g % 8)))
			return 1;
	return 0;
}

uint64_t journal_saved(const struct journal *j)
{
	return j->bytes;
}

const char *journal_file(const struct journal *j)
{
	return j->path;
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
	const struct journal *only; /* at the end of a run: only what it wrote to */
	void *piece;               /* part of a record, aligned for the device */
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

/* The end of the grain that holds byte off, or end if sooner. */
static uint64_t grain_end(const struct journal *j, uint64_t off, uint64_t end)
{
	uint64_t next = ((off >> j->touch_shift) + 1) << j->touch_shift;

	return j->touched_all || next > end ? end : next;
}

/* Write bytes [lo, hi) of record it back and read them back. */
static void restore_piece(struct restore_ctx *c, const struct journal_item *it, uint64_t lo, uint64_t hi)
{
	const unsigned char *data = (const unsigned char *)it->data + (lo - it->off);
	char what[200];
	int rc;

	if ((uintptr_t)data % 4096) { /* O_DIRECT wants an aligned buffer */
		memcpy(c->piece, data, hi - lo);
		data = c->piece;
	}
	rc = dev_copy_in(c->d, data, lo, hi - lo);
	if (!rc)
		rc = dev_copy_out(c->d, c->back, lo, hi - lo);
	if (rc) {
		snprintf(what, sizeof(what), "bytes %llu to %llu (writing them back failed: %s)", (unsigned long long)lo,
			 (unsigned long long)hi - 1, strerror(-rc));
		note_lost(c, what);
	} else if (memcmp(c->back, data, hi - lo)) {
		snprintf(what, sizeof(what), "bytes %llu to %llu (they read back different)", (unsigned long long)lo,
			 (unsigned long long)hi - 1);
		note_lost(c, what);
	} else {
		c->r->bytes += hi - lo;
		c->r->ranges++;
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
		if (it->range_known && c->only && !journal_touched(c->only, it->off, it->len))
			return 0; /* the device still holds that range: nothing lost */
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
	{ /* put back once all are known, the last saved first (apply_records) */
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
		struct journal_item it = { .off = a->off, .len = a->len, .data = buf };
		char what[200], range[64];

		if (rd(&fd, buf, a->len, a->pos) != (long)a->len || crc32c(0, buf, a->len) != a->crc) {
			bytes_of(&it, range, sizeof(range));
			snprintf(what, sizeof(what), "%s (the journal changed while restoring)", range);
			note_lost(c, what);
			continue;
		}
		if (!c->only) {
			restore_piece(c, &it, it.off, it.off + it.len);
			continue;
		}
		/* the end of a run: the grains it wrote to go back, the device
		 * still holds the others */
		for (uint64_t lo = it.off, hi, end = it.off + it.len; lo < end; lo = hi) {
			int touched = grain_touched(c->only, lo);
			hi = lo;
			while (hi < end && grain_touched(c->only, hi) == touched)
				hi = grain_end(c->only, hi, end);
			if (touched)
				restore_piece(c, &it, lo, hi);
			else
				c->r->untouched += hi - lo;
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

/* A simulated card's journal (journal_create): what it holds lives in this
 * process, so only the journal this run wrote for this very spec is put
 * back. */
static int in_process_journal(const char *path, struct dev *d, const char *device, int fd, struct journal_header *jh,
			      struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	const char *why;

	if (read_fd(&fd, h, sizeof(h), 0) != JOURNAL_HEADER || journal_header_parse(h, jh, &why) ||
	    jh->identity[0] || strcmp(jh->device, device) || jh->dev_size != dev_size(d) || jh->sector != dev_sector(d))
		return fb_fail(e, EXIT_USAGE, "%s is no journal of %s; a simulated card's data live only in the run that "
			       "wrote them, so there is nothing to put back", path, device);
	return 0;
}

/* Open the journal and check that it is one, written for this medium. */
static int open_journal(const char *path, struct dev *d, const char *device, unsigned flags, int *fd,
			struct journal_header *jh, struct restore_report *r, struct fb_err *e)
{
	unsigned char h[JOURNAL_HEADER];
	char wtext[JOURNAL_IDENTITY + 80], ntext[JOURNAL_IDENTITY], how[600];
	struct recorded was;
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
	if (!(dev_caps(d) & DEV_CAP_STORES_DATA)) /* a simulated card's, made by this run: no medium */
		return in_process_journal(path, d, device, *fd, jh, e);
	medium_of(device, &m);
	if (m.kind == MEDIUM_NONE)
		return fb_fail(e, EXIT_DEVICE, "%s: %s", device, strerror(errno ? errno : ENODEV));
	if ((m.kind == MEDIUM_FILE && (dev_t)m.dev == st.st_dev && (ino_t)m.ino == st.st_ino) ||
	    lies_on(path, &m, how, sizeof(how)))
		return fb_fail(e, EXIT_USAGE, "%s lies on %s itself%s: restoring would overwrite the journal while "
			       "reading it; nothing was done (copy the journal to another disk first)", path, device,
			       how);
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
	if (journal_of(jh, &m, 1))
		return 0;
	recorded_of_header(jh, &was);
	describe(&was, wtext, sizeof(wtext));
	medium_identity(&m, ntext, sizeof(ntext));
	if (!(flags & JOURNAL_DEVICE_CHANGED))
		return fb_fail(e, EXIT_USAGE, "%s was written for %.100s (%.160s), and %s is not recognised as the "
			       "same medium (%.160s); nothing was done.  If it is (a card back under a new name), add "
			       "--device-changed", path, jh->device, wtext, device, ntext);
	snprintf(r->warning, sizeof(r->warning), "%.80s was written for %.80s (%.100s); %.60s (%.100s) is taken for "
		 "the same medium because of --device-changed", path, jh->device, wtext, device, ntext);
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

/* Put back the ranges of the journal at path (with `only`, those its run
 * wrote to). */
static int restore_ranges(const char *path, struct dev *d, const char *device, unsigned flags,
			  const struct journal *only, struct restore_report *r, struct fb_err *e)
{
	struct restore_ctx c = { .d = d, .r = r, .only = only };
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
	if (posix_memalign(&buf, 4096, JOURNAL_PIECE) || posix_memalign(&c.back, 4096, JOURNAL_PIECE) ||
	    (only && posix_memalign(&c.piece, 4096, JOURNAL_PIECE))) {
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
	free(c.piece);
	free(c.seen.v);
	free(c.apply);
	close(fd);
	return rc;
}

int journal_restore(const char *path, struct dev *d, const char *device, unsigned flags,
		    struct restore_report *r, struct fb_err *e)
{
	return restore_ranges(path, d, device, flags, NULL, r, e);
}

int journal_finish(struct journal *j, struct restore_report *r, struct fb_err *e)
{
	int rc;

	close(j->fd);
	rc = restore_ranges(j->path, j->d, dev_path(j->d), 0, j, r, e);
	if (!rc && r->bytes + r->untouched != j->bytes)
		rc = fb_fail(e, EXIT_DEVICE, "restored %llu bytes of %llu saved", (unsigned long long)r->bytes,
			     (unsigned long long)j->bytes);
	free(j->saved.v);
	free(j->touched);
	free(j->buf);
	free(j);
	return rc;
}
