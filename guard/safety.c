/* safety.c — what uses a medium's aliases before a write (see safety.h). */
#include "guard/safety.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev/medium.h"
#include "lib/sysroot.h"

#define MAX_NAMESPACES 4096

void safety_alias_phrase(const char *path, dev_t target, const struct medium_alias *al, char *buf, size_t len)
{
	if (target && al->rdev == target)
		snprintf(buf, len, "%s", path);
	else if (al->m.how[0])
		snprintf(buf, len, "%s, %.400s,", medium_alias_name(al), al->m.how);
	else
		snprintf(buf, len, "%s", medium_alias_name(al));
}

static const struct medium_alias *alias_of(const struct medium_aliases *a, dev_t d)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].rdev == d)
			return &a->v[i];
	return NULL;
}

/* The "flags:" field of an fdinfo file (octal). */
static int read_flags(const char *info, char *buf, size_t len)
{
	FILE *f = sysroot_fopen(info);
	char line[128];
	int rc = -1;

	while (f && rc && fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %31s", buf) == 1 && strlen(buf) < len)
			rc = 0;
	if (f)
		fclose(f);
	return rc;
}

static void comm_of(long pid, char *buf, size_t len)
{
	char p[64];

	sysroot_path(p, sizeof(p), SYSROOT_PROC, "%ld", pid);
	if (medium_read_attr(p, "comm", buf, len))
		snprintf(buf, len, "?");
}

/* ------------------------------------------------------------ mounts */

struct ns_scan {
	const char *path;
	const char *unmount;    /* what to do about a mount: "unmount it first" */
	dev_t target;
	const struct medium_aliases *a;
	struct fb_err *e;
};

/* A mount in the mount namespace of process pid (0 for ours) that shows an
 * alias: refused. */
struct ns_mount {
	const struct ns_scan *s;
	long pid;
};

static int mount_refuses(void *ctx, const struct mount_line *ml)
{
	const struct ns_mount *nm = ctx;
	const struct ns_scan *s = nm->s;
	const struct medium_alias *al = alias_of(s->a, ml->dev);
	char src[PATH_MAX + 64], who[600], ns[128] = "";
	struct stat st;

	if (!al && ml->source[0] == '/') { /* the source as that namespace names it */
		if (nm->pid)
			sysroot_path(src, sizeof(src), SYSROOT_PROC, "%ld/root%s", nm->pid,
				     ml->source);
		else
			snprintf(src, sizeof(src), "%s", ml->source);
		if (!sysroot_stat(src, &st) && S_ISBLK(st.st_mode))
			al = alias_of(s->a, st.st_rdev);
	}
	if (!al)
		return 0;
	safety_alias_phrase(s->path, s->target, al, who, sizeof(who));
	if (nm->pid) {
		char comm[32];
		comm_of(nm->pid, comm, sizeof(comm));
		snprintf(ns, sizeof(ns), " in the mount namespace of process %ld (%s)", nm->pid,
			 comm);
	}
	return fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is mounted on %.300s%s; %s", s->path,
		       who, ml->point, ns, s->unmount);
}

static int scan_mountinfo(const struct ns_scan *s, long pid)
{
	struct ns_mount nm = { s, pid };

	return medium_each_mount(pid, mount_refuses, &nm);
}

/* The mount namespaces read so far, by the inode of /proc/PID/ns/mnt. */
struct ns_seen {
	const struct ns_scan *s;
	ino_t *ino;
	size_t n;
};

static int scan_namespace_of(void *ctx, long pid)
{
	struct ns_seen *seen = ctx;
	char p[64];
	struct stat st;

	if (seen->n == MAX_NAMESPACES ||
	    sysroot_stat(sysroot_path(p, sizeof(p), SYSROOT_PROC, "%ld/ns/mnt", pid), &st))
		return 0; /* gone, or not ours to see */
	for (size_t i = 0; i < seen->n; i++)
		if (seen->ino[i] == st.st_ino)
			return 0;
	seen->ino[seen->n++] = st.st_ino;
	return scan_mountinfo(seen->s, pid);
}

/* Ours first, then every other mount namespace once. */
static int check_mounts(const struct ns_scan *s)
{
	struct ns_seen seen = { s, malloc(MAX_NAMESPACES * sizeof(ino_t)), 0 };
	char p[64];
	struct stat st;
	int rc;

	if (!seen.ino)
		return 0;
	if (!sysroot_stat(sysroot_path(p, sizeof(p), SYSROOT_PROC, "self/ns/mnt"), &st))
		seen.ino[seen.n++] = st.st_ino;
	rc = scan_mountinfo(s, 0);
	if (!rc)
		rc = sysroot_each_pid(scan_namespace_of, &seen);
	free(seen.ino);
	return rc;
}

/* ------------------------------------------------------------ swap */

static int check_swaps(const struct ns_scan *s, const struct medium *m)
{
	char p[64];
	FILE *f = sysroot_fopen(sysroot_path(p, sizeof(p), SYSROOT_PROC, "swaps"));
	char line[4200];
	int rc = 0;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f)) { /* the header */
		fclose(f);
		return 0;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char name[4096], who[600];
		const struct medium_alias *al;
		struct stat st;
		if (sscanf(line, "%4095s", name) != 1)
			continue;
		medium_unescape(name);
		if (sysroot_stat(name, &st))
			continue;
		if (S_ISBLK(st.st_mode) && (al = alias_of(s->a, st.st_rdev))) {
			safety_alias_phrase(s->path, s->target, al, who, sizeof(who));
			rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is an active swap area; run swapoff %s first",
				     s->path, who, name);
		} else if (S_ISREG(st.st_mode) && m->kind == MEDIUM_FILE && st.st_dev == (dev_t)m->dev &&
			   st.st_ino == (ino_t)m->ino) {
			if (s->target)
				rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s, the file behind it, is an active swap "
					     "area; run swapoff %s first", s->path, name, name);
			else
				rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is an active swap area; run swapoff %s "
					     "first", s->path, name, name);
		}
	}
	fclose(f);
	return rc;
}

/* ------------------------------------------------------------ holders */

static int check_holders(const struct ns_scan *s)
{
	for (size_t i = 0; i < s->a->n; i++) {
		const struct medium_alias *al = &s->a->v[i];
		char dir[300], name[128] = "";
		if (!al->holder)
			continue;
		sysroot_path(dir, sizeof(dir), SYSROOT_BLOCK, "%s", al->name);
		medium_read_attr(dir, "dm/name", name, sizeof(name));
		if (!name[0])
			medium_read_attr(dir, "md/level", name, sizeof(name));
		return fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s%s%s%s is %.300s; stop it first (dmsetup remove, "
			       "mdadm --stop)", s->path, medium_alias_name(al), name[0] ? " (" : "", name,
			       name[0] ? ")" : "", al->m.how);
	}
	return 0;
}

/* ------------------------------------------------------------ btrfs */

/* Where btrfs fs is mounted (ours): a mount of it names one of its devices
 * as its source. */
struct btrfs_point {
	const struct medium_btrfs *fs;
	char *point;
	size_t len;
};

static int btrfs_mounted(void *ctx, const struct mount_line *ml)
{
	const struct btrfs_point *bp = ctx;
	const char *name = sysroot_dev_name(ml->source);

	if (strcmp(ml->fstype, "btrfs") || !name || !medium_btrfs_has(bp->fs, name))
		return 0;
	snprintf(bp->point, bp->len, "on %.300s", ml->point);
	return 1;
}

static int btrfs_refuses(void *ctx, const struct medium_btrfs *fs)
{
	const struct ns_scan *s = ctx;
	char who[600], point[400];
	struct btrfs_point bp = { fs, point, sizeof(point) };

	for (size_t i = 0; i < s->a->n; i++) {
		if (!medium_btrfs_has(fs, s->a->v[i].name))
			continue;
		safety_alias_phrase(s->path, s->target, &s->a->v[i], who, sizeof(who));
		snprintf(point, sizeof(point), "in a mount namespace this process cannot see");
		medium_each_mount(0, btrfs_mounted, &bp);
		return fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is a device of the btrfs file "
			       "system %s, mounted %s; %s", s->path, who, fs->fsid, point,
			       s->unmount);
	}
	return 0;
}

static int check_btrfs(const struct ns_scan *s)
{
	return medium_each_btrfs(btrfs_refuses, (void *)s);
}

/* ------------------------------------------------------------ open */

/* Call fn for every descriptor of every other process that this one may
 * see (its fd number as text, and what it names); a non-zero return stops. */
typedef int (*fd_fn)(void *ctx, long pid, const char *fd, const struct stat *st);

struct fd_walk {
	fd_fn fn;
	void *ctx;
};

static int each_fd_of(void *ctx, long pid)
{
	const struct fd_walk *w = ctx;
	char p[64];
	DIR *fds = sysroot_opendir(sysroot_path(p, sizeof(p), SYSROOT_PROC, "%ld/fd", pid));
	struct dirent *fe;
	int rc = 0;

	while (fds && !rc && (fe = readdir(fds))) {
		char fd[600];
		struct stat st;
		snprintf(fd, sizeof(fd), "%s/%s", p, fe->d_name);
		if (fe->d_name[0] != '.' && !sysroot_stat(fd, &st))
			rc = w->fn(w->ctx, pid, fe->d_name, &st);
	}
	if (fds)
		closedir(fds);
	return rc;
}

static int each_open_fd(fd_fn fn, void *ctx)
{
	struct fd_walk w = { fn, ctx };

	return sysroot_each_pid(each_fd_of, &w);
}

struct opener {
	const struct medium_aliases *a;
	char *buf;
	size_t len;
};

static int opens_alias(void *ctx, long pid, const char *fd, const struct stat *st)
{
	struct opener *o = ctx;
	const struct medium_alias *al;
	char comm[32];

	(void)fd;
	if (!S_ISBLK(st->st_mode) || !(al = alias_of(o->a, st->st_rdev)))
		return 0;
	comm_of(pid, comm, sizeof(comm));
	snprintf(o->buf, o->len, "by process %ld (%s), which has %s open", pid, comm, medium_alias_name(al));
	return 1;
}

void safety_who_opens(const struct medium_aliases *a, char *buf, size_t len)
{
	struct opener o = { a, buf, len };

	buf[0] = '\0';
	each_open_fd(opens_alias, &o);
}

/* ------------------------------------------------------------ writers, locks */

/* Is what fd (of /proc/PID/fd) names the medium, or an alias of it?  Its
 * name for a message in buf. */
static int names_medium(const struct ns_scan *s, const struct medium *m, const struct stat *st, char *buf,
			size_t len)
{
	const struct medium_alias *al;

	if (S_ISREG(st->st_mode) && m->kind == MEDIUM_FILE && st->st_dev == (dev_t)m->dev &&
	    st->st_ino == (ino_t)m->ino) {
		snprintf(buf, len, "%s", s->target ? "the file behind it" : s->path);
		return 1;
	}
	if (S_ISBLK(st->st_mode) && (al = alias_of(s->a, st->st_rdev))) {
		snprintf(buf, len, "%s", al->rdev == s->target ? s->path : medium_alias_name(al));
		return 1;
	}
	return 0;
}

struct writer {
	const struct ns_scan *s;
	const struct medium *m;
};

static int writes_medium(void *ctx, long pid, const char *fd, const struct stat *st)
{
	struct writer *w = ctx;
	char info[300], flags[32], what[600], comm[32];

	if (!names_medium(w->s, w->m, st, what, sizeof(what)))
		return 0;
	sysroot_path(info, sizeof(info), SYSROOT_PROC, "%ld/fdinfo/%.100s", pid, fd);
	if (read_flags(info, flags, sizeof(flags)) || (strtoul(flags, NULL, 8) & O_ACCMODE) == O_RDONLY)
		return 0;
	comm_of(pid, comm, sizeof(comm));
	return fb_fail(w->s->e, EXIT_DEVICE, "%s is in use: process %ld (%s) has %s open for writing; stop it first",
		       w->s->path, pid, comm, what);
}

/* A program with the medium (or an alias) open for writing: a virtual
 * machine, dd in another terminal, an NBD server... */
static int check_writers(const struct ns_scan *s, const struct medium *m)
{
	struct writer w = { s, m };

	return each_open_fd(writes_medium, &w);
}

/* A lock on the medium file or an alias's node (/proc/locks): qemu and
 * other programs lock the images they use. */
static int check_locks(const struct ns_scan *s, const struct medium *m)
{
	char p[64];
	FILE *f = sysroot_fopen(sysroot_path(p, sizeof(p), SYSROOT_PROC, "locks"));
	char line[512];
	int rc = 0;

	while (f && !rc && fgets(line, sizeof(line), f)) {
		char kind[16], type[16];
		unsigned ma, mi;
		unsigned long long ino;
		long pid;
		struct stat st = { 0 };
		char what[600], who[64] = "";
		if (sscanf(line, "%*s %15s %*s %15s %ld %x:%x:%llu", kind, type, &pid, &ma, &mi, &ino) != 6 &&
		    sscanf(line, "%*s %*s %15s %*s %15s %ld %x:%x:%llu", kind, type, &pid, &ma, &mi, &ino) != 6)
			continue;
		st.st_dev = makedev(ma, mi);
		st.st_ino = (ino_t)ino;
		st.st_mode = S_IFREG;
		if (!names_medium(s, m, &st, what, sizeof(what))) {
			int hit = 0;
			for (size_t i = 0; i < s->a->n && !hit; i++) {
				struct stat node;
				if (s->a->v[i].node[0] && !sysroot_stat(s->a->v[i].node, &node) &&
				    node.st_dev == st.st_dev && node.st_ino == st.st_ino) {
					snprintf(what, sizeof(what), "%s", s->a->v[i].rdev == s->target ? s->path :
						 medium_alias_name(&s->a->v[i]));
					hit = 1;
				}
			}
			if (!hit)
				continue;
		}
		if (pid > 0 && pid != (long)getpid()) {
			char comm[32];
			comm_of(pid, comm, sizeof(comm));
			snprintf(who, sizeof(who), " (process %ld, %s)", pid, comm);
		} else if (pid == (long)getpid()) {
			continue;
		}
		rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: a program holds a %s lock on %s%s, as programs that "
			     "use an image do (a virtual machine...); stop it first", s->path, type, what, who);
	}
	if (f)
		fclose(f);
	return rc;
}

const char *safety_unmount(enum safety_use use)
{
	switch (use) {
	case SAFETY_ERASE:
		return "unmount it before erasing";
	case SAFETY_RESTORE:
		return "unmount it before --restore";
	case SAFETY_OUTPUT:
		return "name another file";
	case SAFETY_WRITE_TEST:
		break;
	}
	return "unmount it before a write test (read-only tests such as -a still work)";
}

int safety_check(const char *path, const struct medium *m, dev_t target, const struct medium_aliases *a,
		 enum safety_use use, struct fb_err *e)
{
	struct ns_scan s = { .path = path, .unmount = safety_unmount(use), .target = target, .a = a, .e = e };

	return check_mounts(&s) || check_swaps(&s, m) || check_holders(&s) || check_btrfs(&s) ||
	       check_writers(&s, m) || check_locks(&s, m) ? -1 : 0;
}
