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
	FILE *f = fopen(info, "re");
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

	snprintf(p, sizeof(p), "/proc/%ld", pid);
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

/* One mountinfo file; root is where that namespace's paths start ("" for
 * ours), pid its process (0 for ours). */
static int scan_mountinfo(const struct ns_scan *s, const char *file, const char *root, long pid)
{
	FILE *f = fopen(file, "re");
	struct mount_line *ml = malloc(sizeof(*ml));
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f || !ml) {
		if (f)
			fclose(f);
		free(ml);
		return 0;
	}
	while (!rc && getline(&line, &cap, f) > 0) {
		const struct medium_alias *al;
		char src[PATH_MAX + 64], who[600], ns[128] = "";
		struct stat st;
		if (medium_mount_line(line, ml))
			continue;
		al = alias_of(s->a, ml->dev);
		snprintf(src, sizeof(src), "%s%s", root, ml->source);
		if (!al && ml->source[0] == '/' && !stat(src, &st) && S_ISBLK(st.st_mode))
			al = alias_of(s->a, st.st_rdev);
		if (!al)
			continue;
		safety_alias_phrase(s->path, s->target, al, who, sizeof(who));
		if (pid) {
			char comm[32];
			comm_of(pid, comm, sizeof(comm));
			snprintf(ns, sizeof(ns), " in the mount namespace of process %ld (%s)", pid, comm);
		}
		rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is mounted on %.300s%s; %s", s->path, who, ml->point, ns,
			     s->unmount);
	}
	free(line);
	free(ml);
	fclose(f);
	return rc;
}

/* Ours first, then every other mount namespace once. */
static int check_mounts(const struct ns_scan *s)
{
	ino_t *seen = malloc(MAX_NAMESPACES * sizeof(*seen));
	size_t nseen = 0;
	struct stat st;
	DIR *dp;
	struct dirent *de;
	int rc;

	if (!seen)
		return 0;
	if (!stat("/proc/self/ns/mnt", &st))
		seen[nseen++] = st.st_ino;
	rc = scan_mountinfo(s, "/proc/self/mountinfo", "", 0);
	if (!rc && (dp = opendir("/proc"))) {
		while (!rc && (de = readdir(dp)) && nseen < MAX_NAMESPACES) {
			char p[300], root[300];
			char *end;
			long pid = strtol(de->d_name, &end, 10);
			int dup = 0;
			if (*end || pid <= 0 || pid == (long)getpid())
				continue;
			snprintf(p, sizeof(p), "/proc/%ld/ns/mnt", pid);
			if (stat(p, &st))
				continue; /* gone, or not ours to see */
			for (size_t i = 0; i < nseen && !dup; i++)
				dup = seen[i] == st.st_ino;
			if (dup)
				continue;
			seen[nseen++] = st.st_ino;
			snprintf(p, sizeof(p), "/proc/%ld/mountinfo", pid);
			snprintf(root, sizeof(root), "/proc/%ld/root", pid);
			rc = scan_mountinfo(s, p, root, pid);
		}
		closedir(dp);
	}
	free(seen);
	return rc;
}

/* ------------------------------------------------------------ swap */

static int check_swaps(const struct ns_scan *s, const struct medium *m)
{
	FILE *f = fopen("/proc/swaps", "re");
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
		if (stat(name, &st))
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
		snprintf(dir, sizeof(dir), "/sys/class/block/%s", al->name);
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

/* Where the btrfs whose devices are listed in devs is mounted (ours). */
static void btrfs_mount(const char *devs, char *point, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct mount_line *ml = malloc(sizeof(*ml));
	char *line = NULL;
	size_t cap = 0;

	snprintf(point, len, "in a mount namespace this process cannot see");
	while (f && ml && getline(&line, &cap, f) > 0) {
		char p[PATH_MAX + 300];
		if (medium_mount_line(line, ml) || strcmp(ml->fstype, "btrfs") || strncmp(ml->source, "/dev/", 5))
			continue;
		snprintf(p, sizeof(p), "%s/%s", devs, ml->source + 5);
		if (!access(p, F_OK)) {
			snprintf(point, len, "on %.300s", ml->point);
			break;
		}
	}
	free(line);
	free(ml);
	if (f)
		fclose(f);
}

static int check_btrfs(const struct ns_scan *s)
{
	DIR *dp = opendir("/sys/fs/btrfs");
	struct dirent *de;
	int rc = 0;

	while (dp && !rc && (de = readdir(dp))) {
		char devs[300], p[700], who[600], point[400];
		if (de->d_name[0] == '.')
			continue;
		snprintf(devs, sizeof(devs), "/sys/fs/btrfs/%.200s/devices", de->d_name);
		for (size_t i = 0; i < s->a->n && !rc; i++) {
			snprintf(p, sizeof(p), "%s/%s", devs, s->a->v[i].name);
			if (access(p, F_OK))
				continue;
			safety_alias_phrase(s->path, s->target, &s->a->v[i], who, sizeof(who));
			btrfs_mount(devs, point, sizeof(point));
			rc = fb_fail(s->e, EXIT_DEVICE, "%s is in use: %s is a device of the btrfs file system %s, "
				     "mounted %s; %s", s->path, who, de->d_name, point, s->unmount);
		}
	}
	if (dp)
		closedir(dp);
	return rc;
}

/* ------------------------------------------------------------ open */

/* Call fn for every descriptor of every other process that this one may
 * see (its fd number as text, and what it names); a non-zero return stops. */
typedef int (*fd_fn)(void *ctx, long pid, const char *fd, const struct stat *st);

static int each_open_fd(fd_fn fn, void *ctx)
{
	DIR *dp = opendir("/proc");
	struct dirent *de;
	int rc = 0;

	while (dp && !rc && (de = readdir(dp))) {
		char p[300];
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		DIR *fds;
		struct dirent *fe;
		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(p, sizeof(p), "/proc/%ld/fd", pid);
		if (!(fds = opendir(p)))
			continue;
		while (!rc && (fe = readdir(fds))) {
			char fd[600];
			struct stat st;
			snprintf(fd, sizeof(fd), "%s/%s", p, fe->d_name);
			if (fe->d_name[0] != '.' && !stat(fd, &st))
				rc = fn(ctx, pid, fe->d_name, &st);
		}
		closedir(fds);
	}
	if (dp)
		closedir(dp);
	return rc;
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
	snprintf(info, sizeof(info), "/proc/%ld/fdinfo/%.100s", pid, fd);
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
	FILE *f = fopen("/proc/locks", "re");
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
				if (s->a->v[i].node[0] && !stat(s->a->v[i].node, &node) && node.st_dev == st.st_dev &&
				    node.st_ino == st.st_ino) {
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
