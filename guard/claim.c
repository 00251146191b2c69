/* claim.c — the run's claim on its medium (see claim.h). */
#include "guard/claim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev/medium.h"
#include "guard/safety.h"
#include "guard/statedir.h"
#include "lib/pin.h"
#include "lib/sysroot.h"

struct claim {
	int lock;               /* the flock'ed lock file */
	char file[PATH_MAX + 128];
	int *held;              /* O_EXCL descriptors */
	size_t nheld;
	/* what was checked, for claim_recheck */
	const char *path;
	struct medium m;
	dev_t target, target_disk;
	enum safety_use use;
	uint64_t lo, hi;
};

/* The bytes under test: the window path shows, narrowed to [lo, hi) of it
 * when hi > lo (the same rule for a file as for a loop window over it). */
static void narrow(struct medium *m, uint64_t lo, uint64_t hi)
{
	if (hi <= lo || (m->size && hi > m->size) || m->offset > UINT64_MAX - lo)
		return;
	m->offset += lo;
	m->size = hi - lo;
}

void claim_release(struct claim *c)
{
	struct stat ours, named;

	if (!c)
		return;
	for (size_t i = 0; i < c->nheld; i++)
		close(c->held[i]);
	if (c->lock >= 0) { /* removed while still held: a run that opens it after finds another file */
		if (!fstat(c->lock, &ours) && !lstat(c->file, &named) && ours.st_dev == named.st_dev &&
		    ours.st_ino == named.st_ino)
			unlink(c->file);
		close(c->lock);
	}
	free(c->held);
	free(c);
}

/* Hold the lock file: 0, 1 when another run holds it (pid read into pid),
 * or -1 (errno). */
static int lock_once(struct claim *c, char *pid, size_t len)
{
	struct stat held, now;
	ssize_t n;

	/* never truncated or written before it is known to be a lock file of
	 * ours: a regular file with this one name, owned by us (a hard link
	 * planted here would have us write our pid into another file) */
	if ((c->lock = open(c->file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600)) < 0)
		return -1;
	if (fstat(c->lock, &held) || !S_ISREG(held.st_mode))
		return errno = EINVAL, -1;
	if (held.st_nlink != 1 && held.st_nlink != 0)
		return errno = EMLINK, -1;
	if (held.st_uid != geteuid())
		return errno = EPERM, -1;
	if (flock(c->lock, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK)
			return -1;
		n = pread(c->lock, pid, len - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		return 1;
	}
	/* the run before may have removed it between our open and flock */
	if (stat(c->file, &now) || now.st_ino != held.st_ino || now.st_dev != held.st_dev) {
		close(c->lock);
		c->lock = -1;
		return 2;
	}
	return 0;
}

/* The lock of medium m: held by this run from now on, or refused. */
static int take_lock(const char *path, const struct medium *m, struct claim *c, struct fb_err *e)
{
	char dir[PATH_MAX], key[96], pid[32] = "";
	int rc = 2;

	if (state_dir_make(dir, sizeof(dir), "the lock that keeps two runs off one medium", e))
		return -1;
	medium_key(m, key, sizeof(key));
	snprintf(c->file, sizeof(c->file), "%s/%s.lock", dir, key);
	for (int tries = 0; rc == 2 && tries < 100; tries++)
		rc = lock_once(c, pid, sizeof(pid));
	if (rc == 1) {
		close(c->lock);
		c->lock = -1;
		return fb_fail(e, EXIT_DEVICE, "%s is in use: another flashbench run%s%s%s is writing to this medium "
			       "(it holds %s); wait until it ends", path, pid[0] ? " (process " : "", pid,
			       pid[0] ? ")" : "", c->file);
	}
	if (rc) {
		int err = errno;
		if (c->lock >= 0)
			close(c->lock);
		c->lock = -1;
		const char *why = rc == 2 ? "it keeps changing" : err == EMLINK ? "it has other names (hard links), so "
				  "it is not a lock file of ours" : err == EPERM ? "it belongs to another user, so it is not a "
				  "lock file of ours" : err == EINVAL ? "it is not a regular file" : strerror(err);
		return fb_fail(e, EXIT_DEVICE, "cannot lock %s: %s; remove that name if no flashbench run holds it, "
			       "or set FLASHBENCH_STATE_DIR to a writable directory", c->file, why);
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(c->lock, 0) || pwrite(c->lock, pid, strlen(pid), 0) < 0)
		return fb_fail(e, EXIT_DEVICE, "cannot write the lock file %s: %s", c->file, strerror(errno));
	return 0;
}

/* The alias open O_EXCL: its descriptor, or -1 (errno EBUSY: held). */
static int excl(const struct medium_alias *al)
{
	struct stat st;
	int fd = al->node[0] ? sysroot_open(al->node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK)
			     : -2;

	if (fd >= 0 && (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != al->rdev)) {
		close(fd); /* the name in /dev is no longer that device */
		return -2;
	}
	return fd;
}

static int held(const char *path, dev_t target, const struct medium_alias *al, const struct medium_aliases *a,
		struct fb_err *e)
{
	char who[600], opener[400];

	safety_alias_phrase(path, target, al, who, sizeof(who));
	safety_who_opens(a, opener, sizeof(opener));
	return fb_fail(e, EXIT_DEVICE, "%s is in use: %s is held open exclusively %s; stop it first", path, who,
		       opener[0] ? opener : "by the kernel or another program (a mount in a mount namespace this "
		       "process cannot read, a RAID or device-mapper set, a virtual machine...)");
}

/* Keep in a only the aliases whose window meets the bytes under test (a
 * partition's disk among them: a file system on the whole disk covers it
 * too). */
static void meeting(struct medium_aliases *a, const struct medium *m)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++)
		if (medium_overlap(&a->v[i].m, m))
			a->v[k++] = a->v[i];
	a->n = k;
}

int claim_take(const char *path, struct claim **out, struct fb_err *e)
{
	return claim_take_for(path, SAFETY_WRITE_TEST, 0, 0, out, e);
}

int claim_take_for(const char *path, enum safety_use use, uint64_t lo, uint64_t hi, struct claim **out,
		   struct fb_err *e)
{
	struct medium m;
	struct medium_alias busy;
	struct medium_aliases a;
	struct stat st;
	struct claim *c;
	dev_t target = 0, target_disk = 0;
	int rc = 0, is_busy = 0;

	*out = NULL;
	if (!strncmp(path, "sim:", 4))
		return 0;
	if (sysroot_stat(pin_path(path), &st))
		return fb_fail(e, EXIT_DEVICE, "%s: %s", path, errno == ENOENT ? "no such device or file" : strerror(errno));
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return 0; /* the device backend refuses it */
	medium_of(path, &m);
	narrow(&m, lo, hi);
	if (S_ISBLK(st.st_mode)) {
		char disk[PATH_MAX], self[PATH_MAX];
		target = st.st_rdev;
		if (!medium_sysfs_dirs(path, disk, self) && strcmp(disk, self)) {
			/* a partition: its disk is held by the kernel for it once we open it O_EXCL */
			char devno[32];
			unsigned ma, mi;
			if (!medium_read_attr(disk, "dev", devno, sizeof(devno)) &&
			    sscanf(devno, "%u:%u", &ma, &mi) == 2)
				target_disk = makedev(ma, mi);
		}
	}
	if (!(c = calloc(1, sizeof(*c))))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	c->lock = -1;
	c->path = path;
	c->m = m;
	c->target = target;
	c->target_disk = target_disk;
	c->use = use;
	c->lo = lo;
	c->hi = hi;
	if (take_lock(path, &m, c, e)) {
		claim_release(c);
		return -1;
	}
	if (medium_aliases(&m, &a) || !(c->held = calloc(a.n + 1, sizeof(*c->held)))) {
		medium_aliases_free(&a);
		claim_release(c);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	/* the aliases the bytes under test show through: probe partitions and
	 * the device itself (a partition's disk is left alone: its other
	 * partitions may be in use), then hold every other whole device */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < a.n; i++) {
			const struct medium_alias *al = &a.v[i];
			int probe = al->partition || al->rdev == target, fd;
			if (!medium_overlap(&al->m, &m) || al->rdev == target_disk || probe != !pass)
				continue;
			if ((fd = excl(al)) >= 0 && probe)
				close(fd);
			else if (fd >= 0)
				c->held[c->nheld++] = fd;
			else if (fd == -1 && errno == EBUSY && !is_busy)
				busy = *al, is_busy = 1;
		}
	/* what uses the aliases that meet the bytes under test */
	meeting(&a, &m);
	rc = safety_check(path, &m, target, &a, use, e);
	if (!rc && is_busy)
		rc = held(path, target, &busy, &a, e);
	medium_aliases_free(&a);
	if (rc) {
		claim_release(c);
		return -1;
	}
	*out = c;
	return 0;
}

int claim_recheck(struct claim *c, struct fb_err *e)
{
	struct medium now;
	struct medium_aliases a;
	int rc;

	if (!c)
		return 0;
	/* the name is pinned: this is the same file or device node; a loop
	 * device could have been re-attached to another file meanwhile */
	medium_of(c->path, &now);
	narrow(&now, c->lo, c->hi);
	if (!medium_matches(&c->m, &now, 1) || now.size != c->m.size)
		return fb_fail(e, EXIT_DEVICE, "%s changed while it was being checked (it now shows other bytes%s%.300s); "
			       "nothing was written to it", c->path, now.how[0] ? ": " : "", now.how);
	if (medium_aliases(&c->m, &a))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	meeting(&a, &c->m);
	rc = safety_check(c->path, &c->m, c->target, &a, c->use, e);
	medium_aliases_free(&a);
	return rc;
}
