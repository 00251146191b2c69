/* medium.c — a path's medium and its aliases: the one walk through sysfs
 * (see medium.h). */
#include "dev/medium.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/pin.h"
#include "lib/sysroot.h"

#define MAX_DEPTH 8       /* loops over partitions over loops over ... */
#define MAX_MEDIA 64      /* media collected for the aliases: the medium and its holders */

/* ------------------------------------------------------------ sysfs */

int medium_read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char p[PATH_MAX + 64];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	if (!(f = sysroot_fopen(p)))
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n ? 0 : -1;
}

static uint64_t attr_u64(const char *dir, const char *attr)
{
	char buf[32];

	return medium_read_attr(dir, attr, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
}

/* The sysfs directory of block device rdev (links resolved). */
static int sysfs_dir(dev_t rdev, char dir[PATH_MAX])
{
	char link[64];

	sysroot_path(link, sizeof(link), SYSROOT_BLOCK_BY_NUMBER, "%u:%u", major(rdev),
		     minor(rdev));
	return sysroot_realpath(link, dir) ? 0 : -1;
}

/* The device number in dir/dev, 0 if none. */
static dev_t dev_in(const char *dir)
{
	char buf[32];
	unsigned ma, mi;

	if (medium_read_attr(dir, "dev", buf, sizeof(buf)) || sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return 0;
	return makedev(ma, mi);
}

static int is_partition(const char *dir)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/partition", dir);
	return sysroot_exists(p);
}

/* Cut dir to its parent (a partition's disk). */
static void to_parent(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (slash && slash != dir)
		*slash = '\0';
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* /dev/NAME when it is block device rdev. */
static int node_of(const char *name, dev_t rdev, char *node, size_t len)
{
	struct stat st;

	sysroot_path(node, len, SYSROOT_DEV, "%.200s", name);
	if (!sysroot_stat(node, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
		return 0;
	node[0] = '\0';
	return -1;
}

int medium_sysfs_dirs(const char *path, char disk[PATH_MAX], char self[PATH_MAX])
{
	struct stat st;

	if (sysroot_stat(pin_path(path), &st) || !S_ISBLK(st.st_mode) ||
	    sysfs_dir(st.st_rdev, self))
		return -1;
	memcpy(disk, self, PATH_MAX);
	if (is_partition(self))
		to_parent(disk);
	return 0;
}

/* ------------------------------------------------------------ loops */

/* The kernel's encoding of a device number in loop_info64 (huge_encode_dev). */
static dev_t decode_dev(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8), (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

struct backing {
	int known, is_block;
	dev_t dev, rdev;
	uint64_t ino, offset;
	char name[PATH_MAX];     /* as sysfs shows it, for messages */
};

/* What the loop device in sysfs dir (kernel name, number rdev) is backed
 * by: 0, or -1 when it is no loop device or is not bound. */
static int loop_backing(const char *dir, const char *name, dev_t rdev, struct backing *b)
{
	char node[PATH_MAX], file[PATH_MAX];
	struct loop_info64 info;
	struct stat st;
	size_t n;
	int fd;

	memset(b, 0, sizeof(*b));
	if (medium_read_attr(dir, "loop/backing_file", b->name, sizeof(b->name)))
		return -1;
	if (!node_of(name, rdev, node, sizeof(node)) &&
	    (fd = sysroot_open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) >= 0) {
		/* the status of the node we opened, once it is that device (a
		 * name in /dev could have been replaced since node_of looked) */
		int ok = !fstat(fd, &st) && S_ISBLK(st.st_mode) && st.st_rdev == rdev &&
			 ioctl(fd, LOOP_GET_STATUS64, &info) == 0;
		close(fd);
		if (ok) {
			b->known = 1;
			b->is_block = info.lo_rdevice != 0;
			b->dev = decode_dev(info.lo_device);
			b->rdev = decode_dev(info.lo_rdevice);
			b->ino = info.lo_inode;
			b->offset = info.lo_offset;
			return 0;
		}
	}
	/* no node, or no right to open it: follow the name sysfs shows (a file
	 * unlinked since cannot be followed) */
	snprintf(file, sizeof(file), "%s", b->name);
	n = strlen(file);
	if (n > 10 && !strcmp(file + n - 10, " (deleted)"))
		return 0;
	if (sysroot_stat(file, &st))
		return 0;
	b->known = 1;
	b->is_block = S_ISBLK(st.st_mode);
	b->dev = st.st_dev;
	b->rdev = st.st_rdev;
	b->ino = st.st_ino;
	b->offset = attr_u64(dir, "loop/offset");
	return 0;
}

/* ------------------------------------------------------------ resolving */

static void add_how(struct medium *m, const char *fmt, const char *what)
{
	size_t n = strlen(m->how);

	snprintf(m->how + n, sizeof(m->how) - n, n ? ", which is " : "");
	n = strlen(m->how);
	snprintf(m->how + n, sizeof(m->how) - n, fmt, what);
}

/* What the disk calls itself: printable, without the identity's separators. */
static void read_serial(const char *dir, char *out, size_t len)
{
	static const char *const ids[] = { "device/cid", "device/serial", "serial", "wwid", "device/wwid" };
	char v[256];

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!medium_read_attr(dir, ids[i], v, sizeof(v))) {
			size_t k = 0;
			for (const char *s = v; *s && k + 1 < len; s++)
				out[k++] = isgraph((unsigned char)*s) && *s != ';' && *s != '=' ? *s : '_';
			out[k] = '\0';
			return;
		}
}

void medium_of_block(dev_t rdev, struct medium *m)
{
	char dir[PATH_MAX], node[PATH_MAX];
	struct backing b;

	memset(m, 0, sizeof(*m));
	if (!sysfs_dir(rdev, dir))
		m->size = attr_u64(dir, "size") * 512;
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		if (sysfs_dir(rdev, dir)) /* not in sysfs: take it as a disk of its own */
			break;
		if (is_partition(dir)) {
			m->offset += attr_u64(dir, "start") * 512;
			to_parent(dir);
			rdev = dev_in(dir);
			node_of(base_of(dir), rdev, node, sizeof(node));
			add_how(m, "a partition of %s", node[0] ? node : base_of(dir));
		}
		if (loop_backing(dir, base_of(dir), rdev, &b) || !b.known)
			break; /* a disk; or a loop whose backing cannot be told: the loop is the medium */
		m->offset += b.offset;
		add_how(m, "a loop device over %s", b.name);
		if (!b.is_block) {
			m->kind = MEDIUM_FILE;
			m->dev = b.dev;
			m->ino = b.ino;
			return;
		}
		rdev = b.rdev;
	}
	m->kind = MEDIUM_DISK;
	m->dev = rdev;
	if (!sysfs_dir(rdev, dir))
		read_serial(dir, m->serial, sizeof(m->serial));
}

int medium_of(const char *path, struct medium *m)
{
	struct stat st;

	memset(m, 0, sizeof(*m));
	if (sysroot_stat(pin_path(path), &st))
		return 0;
	if (S_ISBLK(st.st_mode)) {
		medium_of_block(st.st_rdev, m);
	} else if (S_ISREG(st.st_mode)) {
		m->kind = MEDIUM_FILE;
		m->dev = st.st_dev;
		m->ino = st.st_ino;
		m->size = (uint64_t)st.st_size;
	}
	return 0;
}

int medium_same(const struct medium *a, const struct medium *b)
{
	return a->kind != MEDIUM_NONE && a->kind == b->kind && a->dev == b->dev && a->ino == b->ino;
}

int medium_overlap(const struct medium *a, const struct medium *b)
{
	/* an unknown size (0) is taken to reach to the end */
	uint64_t ae = a->size ? a->offset + a->size : UINT64_MAX, be = b->size ? b->offset + b->size : UINT64_MAX;

	return medium_same(a, b) && a->offset < be && b->offset < ae;
}

/* ------------------------------------------------------------ identity */

void medium_identity(const struct medium *m, char *buf, size_t len)
{
	int n;

	if (m->kind == MEDIUM_DISK)
		n = snprintf(buf, len, "medium=disk:%u:%u;offset=%llu", major((dev_t)m->dev), minor((dev_t)m->dev),
			     (unsigned long long)m->offset);
	else if (m->kind == MEDIUM_FILE)
		n = snprintf(buf, len, "medium=file:%llu:%llu;offset=%llu", (unsigned long long)m->dev,
			     (unsigned long long)m->ino, (unsigned long long)m->offset);
	else
		n = snprintf(buf, len, "%s", "");
	if (n > 0 && (size_t)n < len && m->kind == MEDIUM_DISK && m->serial[0])
		snprintf(buf + n, len - (size_t)n, ";serial=%s", m->serial);
}

int medium_parse_identity(const char *text, struct medium *m)
{
	unsigned long long a, b, off;
	unsigned ma, mi;
	int used = 0;
	const char *serial;

	memset(m, 0, sizeof(*m));
	if (sscanf(text, "medium=disk:%u:%u;offset=%llu%n", &ma, &mi, &off, &used) == 3 && used) {
		m->kind = MEDIUM_DISK;
		m->dev = makedev(ma, mi);
	} else if (sscanf(text, "medium=file:%llu:%llu;offset=%llu%n", &a, &b, &off, &used) == 3 && used) {
		m->kind = MEDIUM_FILE;
		m->dev = a;
		m->ino = b;
	} else {
		return -1;
	}
	m->offset = off;
	serial = text + used;
	if (!strncmp(serial, ";serial=", 8))
		snprintf(m->serial, sizeof(m->serial), "%s", serial + 8);
	else if (*serial)
		return -1;
	return 0;
}

int medium_matches(const struct medium *was, const struct medium *now, int exact)
{
	int same;

	if (was->kind == MEDIUM_NONE || was->kind != now->kind)
		return 0;
	if (was->kind == MEDIUM_DISK && was->serial[0] && now->serial[0])
		same = !strcmp(was->serial, now->serial);
	else
		same = was->dev == now->dev && was->ino == now->ino;
	return same && (!exact || was->offset == now->offset);
}

void medium_key(const struct medium *m, char *buf, size_t len)
{
	if (m->kind == MEDIUM_DISK)
		snprintf(buf, len, "disk-%u-%u", major((dev_t)m->dev), minor((dev_t)m->dev));
	else
		snprintf(buf, len, "file-%llu-%llu", (unsigned long long)m->dev, (unsigned long long)m->ino);
}

/* ------------------------------------------------------------ aliases */

const char *medium_alias_name(const struct medium_alias *a)
{
	return a->node[0] ? a->node : a->name;
}

void medium_aliases_free(struct medium_aliases *a)
{
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

struct blockdev {
	char name[64];
	dev_t rdev;
	int taken;
};

/* Every block device sysfs lists (disks and partitions). */
static struct blockdev *list_block(size_t *n)
{
	char top[64];
	DIR *dp = sysroot_opendir(sysroot_path(top, sizeof(top), SYSROOT_BLOCK, NULL));
	struct dirent *de;
	struct blockdev *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!dp)
		return NULL;
	while ((de = readdir(dp))) {
		char dir[PATH_MAX + 32];
		dev_t d;
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(v->name))
			continue;
		if (!(d = dev_in(sysroot_path(dir, sizeof(dir), SYSROOT_BLOCK, "%s", de->d_name))))
			continue;
		if (*n == cap) {
			struct blockdev *m = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));
			if (!m) {
				free(v);
				closedir(dp);
				*n = 0;
				return NULL;
			}
			v = m;
		}
		snprintf(v[*n].name, sizeof(v->name), "%.63s", de->d_name);
		v[*n].rdev = d;
		v[*n].taken = 0;
		(*n)++;
	}
	closedir(dp);
	return v;
}

static int add_alias(struct medium_aliases *out, size_t *cap, const struct blockdev *b, const struct medium *m,
		     int holder)
{
	struct medium_alias *a;
	char dir[PATH_MAX];

	if (out->n == *cap) {
		struct medium_alias *v = realloc(out->v, (*cap = *cap ? 2 * *cap : 16) * sizeof(*v));
		if (!v)
			return -1;
		out->v = v;
	}
	a = &out->v[out->n++];
	memset(a, 0, sizeof(*a));
	a->rdev = b->rdev;
	snprintf(a->name, sizeof(a->name), "%s", b->name);
	node_of(b->name, b->rdev, a->node, sizeof(a->node));
	a->partition = !sysfs_dir(b->rdev, dir) && is_partition(dir);
	a->holder = holder;
	a->m = *m;
	return 0;
}

int medium_aliases(const struct medium *m, struct medium_aliases *out)
{
	struct medium *want = calloc(MAX_MEDIA, sizeof(*want)); /* m's medium, then each holder as a disk */
	struct medium *res;
	size_t nwant = 1, nb, cap = 0, done = 0;
	struct blockdev *b;
	int rc = 0;

	out->v = NULL;
	out->n = 0;
	if (!want)
		return -1;
	want[0] = *m;
	if (m->kind == MEDIUM_NONE) {
		free(want);
		return 0;
	}
	b = list_block(&nb);
	if (!(res = calloc(nb ? nb : 1, sizeof(*res)))) {
		free(b);
		free(want);
		return -1;
	}
	for (size_t i = 0; i < nb; i++)
		medium_of_block(b[i].rdev, &res[i]);
	while (!rc && done < nwant) {
		/* the devices on want[done] */
		for (size_t i = 0; i < nb && !rc; i++) {
			struct medium on = res[i];
			if (b[i].taken || !medium_same(&res[i], &want[done]))
				continue;
			if (done) { /* on a holder: its window is the holder's on the medium */
				on.kind = want[0].kind;
				on.dev = want[0].dev;
				on.ino = want[0].ino;
				on.offset = want[done].offset;
				on.size = want[done].size;
				snprintf(on.how, sizeof(on.how), "%s", want[done].how);
			}
			b[i].taken = 1;
			rc = add_alias(out, &cap, &b[i], &on, done > 0);
		}
		/* their holders: disks of their own, on this medium */
		for (size_t k = 0; k < out->n && !rc; k++) {
			char dir[PATH_MAX + 16];
			DIR *dp;
			struct dirent *de;
			if (sysfs_dir(out->v[k].rdev, dir))
				continue;
			strcat(dir, "/holders");
			if (!(dp = sysroot_opendir(dir)))
				continue;
			while ((de = readdir(dp)) && nwant < MAX_MEDIA) {
				char hdir[PATH_MAX + 300];
				struct medium h;
				int seen = 0;
				if (de->d_name[0] == '.')
					continue;
				sysroot_path(hdir, sizeof(hdir), SYSROOT_BLOCK, "%s", de->d_name);
				medium_of_block(dev_in(hdir), &h);
				for (size_t w = 0; w < nwant; w++)
					seen |= medium_same(&want[w], &h);
				if (seen || h.kind == MEDIUM_NONE)
					continue;
				h.offset = out->v[k].m.offset;
				h.size = out->v[k].m.size;
				snprintf(h.how, sizeof(h.how), "a holder (device-mapper, md or similar) of %.200s",
					 medium_alias_name(&out->v[k]));
				want[nwant++] = h;
			}
			closedir(dp);
		}
		done++;
	}
	free(res);
	free(b);
	free(want);
	if (rc)
		medium_aliases_free(out);
	return rc;
}

/* ------------------------------------------------------------ file systems */

void medium_unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

int medium_mount_line(const char *line, struct mount_line *ml)
{
	unsigned ma, mi;
	const char *dash = strstr(line, " - ");

	memset(ml, 0, sizeof(*ml));
	if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, ml->point) != 3 || !dash ||
	    sscanf(dash + 3, "%63s %4095s", ml->fstype, ml->source) < 1)
		return -1;
	ml->dev = makedev(ma, mi);
	medium_unescape(ml->point);
	medium_unescape(ml->source);
	return 0;
}

int medium_each_mount(long pid, int (*fn)(void *ctx, const struct mount_line *ml), void *ctx)
{
	struct mount_line *ml = malloc(sizeof(*ml));
	char p[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = 0;

	if (pid)
		sysroot_path(p, sizeof(p), SYSROOT_PROC, "%ld/mountinfo", pid);
	else
		sysroot_path(p, sizeof(p), SYSROOT_PROC, "self/mountinfo");
	if (!ml || !(f = sysroot_fopen(p))) {
		free(ml);
		return 0;
	}
	while (!rc && getline(&line, &cap, f) > 0)
		if (!medium_mount_line(line, ml))
			rc = fn(ctx, ml);
	free(line);
	free(ml);
	fclose(f);
	return rc;
}

int medium_btrfs_has(const struct medium_btrfs *fs, const char *name)
{
	char p[PATH_MAX + 300];

	snprintf(p, sizeof(p), "%s/%s", fs->devices, name);
	return sysroot_exists(p);
}

int medium_each_btrfs(int (*fn)(void *ctx, const struct medium_btrfs *fs), void *ctx)
{
	struct medium_btrfs *fs = malloc(sizeof(*fs));
	char top[64];
	DIR *fsd = sysroot_opendir(sysroot_path(top, sizeof(top), SYSROOT_BTRFS, NULL));
	struct dirent *de;
	int rc = 0;

	while (fs && fsd && !rc && (de = readdir(fsd))) {
		DIR *dd;
		struct dirent *e;
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(fs->fsid))
			continue;
		sysroot_path(fs->devices, sizeof(fs->devices), SYSROOT_BTRFS, "%s/devices",
			     de->d_name);
		if (!(dd = sysroot_opendir(fs->devices)))
			continue; /* not a file system ("features") */
		snprintf(fs->fsid, sizeof(fs->fsid), "%.63s", de->d_name);
		fs->n = 0;
		while ((e = readdir(dd)) && fs->n < MEDIUM_BTRFS_DEVICES) {
			char p[PATH_MAX * 2], real[PATH_MAX];
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", fs->devices, e->d_name);
			if (sysroot_realpath(p, real) && (fs->rdev[fs->n] = dev_in(real)))
				fs->n++;
		}
		closedir(dd);
		rc = fn(ctx, fs);
	}
	if (fsd)
		closedir(fsd);
	free(fs);
	return rc;
}

/* The block device a file system was mounted from: by its device number in
 * our mountinfo, else (a btrfs subvolume has a number of its own) the mount
 * whose point is the longest prefix of path.  0 if none. */
struct mount_from {
	dev_t d, found, prefix;
	char real[PATH_MAX];    /* path, links resolved ("" if none) */
	size_t best;
};

static int from_mount(void *ctx, const struct mount_line *ml)
{
	struct mount_from *w = ctx;
	struct stat st;
	size_t n = strlen(ml->point);

	if (ml->source[0] != '/' || sysroot_stat(ml->source, &st) || !S_ISBLK(st.st_mode))
		return 0;
	if (ml->dev == w->d) {
		w->found = st.st_rdev;
		return 1;
	}
	if (w->real[0] && n >= w->best && !strncmp(w->real, ml->point, n) &&
	    (w->real[n] == '/' || w->real[n] == '\0' || n == 1)) {
		w->best = n;
		w->prefix = st.st_rdev;
	}
	return 0;
}

static dev_t mounted_from(dev_t d, const char *path)
{
	struct mount_from *w = calloc(1, sizeof(*w));
	dev_t found;

	if (!w)
		return 0;
	w->d = d;
	if (path && !sysroot_realpath(path, w->real))
		w->real[0] = '\0';
	medium_each_mount(0, from_mount, w);
	found = w->found ? w->found : w->prefix;
	free(w);
	return found;
}

/* The devices of the file system over block device d: d, and when d is a
 * btrfs device, every device of that btrfs. */
struct fs_devs {
	const char *name;       /* d's kernel name */
	dev_t d, *v;
	size_t n, max;
};

static int add_fs_devices(void *ctx, const struct medium_btrfs *fs)
{
	struct fs_devs *f = ctx;

	if (!medium_btrfs_has(fs, f->name))
		return 0;
	for (size_t i = 0; i < fs->n && f->n < f->max; i++)
		if (fs->rdev[i] != f->d)
			f->v[f->n++] = fs->rdev[i];
	return 0;
}

static size_t fs_devices(dev_t d, dev_t *v, size_t max)
{
	char dir[PATH_MAX];
	struct fs_devs f = { .d = d, .v = v, .n = 1, .max = max };

	v[0] = d;
	if (sysfs_dir(d, dir))
		return 1;
	f.name = base_of(dir);
	medium_each_btrfs(add_fs_devices, &f);
	return f.n;
}

static size_t under_dev(dev_t d, const char *path, struct medium *out, size_t n, size_t max, int depth)
{
	char dir[PATH_MAX];
	dev_t devs[32];
	size_t nd;

	if (sysfs_dir(d, dir) && !(d = mounted_from(d, path)))
		return n;
	nd = fs_devices(d, devs, sizeof(devs) / sizeof(devs[0]));
	for (size_t i = 0; i < nd && n < max; i++) {
		struct medium m;
		int dup = 0;
		medium_of_block(devs[i], &m);
		for (size_t k = 0; k < n; k++)
			dup |= medium_same(&out[k], &m);
		if (dup)
			continue;
		out[n++] = m;
		if (m.kind == MEDIUM_FILE && depth < MAX_DEPTH)
			n = under_dev((dev_t)m.dev, NULL, out, n, max, depth + 1);
	}
	return n;
}

size_t medium_under(const char *path, struct medium *out, size_t max)
{
	struct stat st;

	if (!max || sysroot_stat(path, &st))
		return 0;
	return under_dev(st.st_dev, path, out, 0, max, 0);
}
