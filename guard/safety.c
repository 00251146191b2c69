/* safety.c — finding who uses a device before a write test (see safety.h). */
#include "guard/safety.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_DEVS 256

struct devset {
	dev_t dev[MAX_DEVS];
	size_t n;
};

static int in_set(const struct devset *s, dev_t d)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return 1;
	return 0;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The device itself and every partition on it (sysfs). */
static void collect(struct devset *s, dev_t d)
{
	char dir[128], path[512], buf[64];
	DIR *dp;
	struct dirent *de;

	s->dev[s->n++] = d;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d), minor(d));
	if (!(dp = opendir(dir)))
		return;
	while ((de = readdir(dp)) && s->n < MAX_DEVS) {
		unsigned ma, mi;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir, de->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		if (read_line(path, buf, sizeof(buf)) == 0 && sscanf(buf, "%u:%u", &ma, &mi) == 2)
			s->dev[s->n++] = makedev(ma, mi);
	}
	closedir(dp);
}

/* Undo the octal escapes of /proc files ("\040" for a space). */
static void unescape(char *s)
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

static int check_mounts(const char *path, const struct devset *s, struct fb_err *e)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return 0;
	while (!rc && getline(&line, &cap, f) > 0) {
		char mp[4096], src[4096] = "", *dash;
		unsigned ma, mi;
		struct stat st;
		int hit = 0;

		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mp) != 3)
			continue;
		hit = in_set(s, makedev(ma, mi));
		if ((dash = strstr(line, " - ")) && sscanf(dash + 3, "%*s %4095s", src) == 1) {
			unescape(src);
			if (!hit && src[0] == '/' && stat(src, &st) == 0 && S_ISBLK(st.st_mode))
				hit = in_set(s, st.st_rdev);
		}
		if (hit) {
			unescape(mp);
			rc = fb_fail(e, EXIT_DEVICE,
				     "%s is in use: %s is mounted on %s; unmount it before a write test "
				     "(read-only tests such as -a still work)", path, src[0] ? src : "a file system", mp);
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int check_swaps(const char *path, const struct devset *s, const struct stat *file, struct fb_err *e)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4200];
	int rc = 0;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f)) { /* header */
		fclose(f);
		return 0;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char name[4096];
		struct stat st;
		if (sscanf(line, "%4095s", name) != 1)
			continue;
		unescape(name);
		if (stat(name, &st))
			continue;
		if ((S_ISBLK(st.st_mode) && s && in_set(s, st.st_rdev)) ||
		    (file && S_ISREG(st.st_mode) && st.st_dev == file->st_dev && st.st_ino == file->st_ino))
			rc = fb_fail(e, EXIT_DEVICE, "%s is in use: %s is an active swap area; run swapoff %s first",
				     path, name, name);
	}
	fclose(f);
	return rc;
}

static int check_holders(const char *path, const struct devset *s, struct fb_err *e)
{
	for (size_t i = 0; i < s->n; i++) {
		char dir[128], name[300], dm[64] = "";
		DIR *dp;
		struct dirent *de;

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders", major(s->dev[i]), minor(s->dev[i]));
		if (!(dp = opendir(dir)))
			continue;
		while ((de = readdir(dp))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(name, sizeof(name), "/sys/block/%s/dm/name", de->d_name);
			if (read_line(name, dm, sizeof(dm)))
				dm[0] = '\0';
			snprintf(name, sizeof(name), "%s", de->d_name);
			closedir(dp);
			return fb_fail(e, EXIT_DEVICE,
				       "%s is in use: held by %s%s%s%s (device-mapper, md or similar); "
				       "stop that first", path, name, dm[0] ? " (" : "", dm, dm[0] ? ")" : "");
		}
		closedir(dp);
	}
	return 0;
}

#define MAX_LOOP_DEPTH 8   /* loops over loops over ... */

/* What a loop device is backed by: 1 and *st filled, or 0 when name is no
 * loop device (or has no backing). */
static int loop_backing(const char *sysdir, struct stat *st, char *back, size_t len)
{
	char p[PATH_MAX + 32];

	snprintf(p, sizeof(p), "%s/loop/backing_file", sysdir);
	return read_line(p, back, len) == 0 && stat(back, st) == 0;
}

static int check_block(const char *path, dev_t rdev, int depth, struct fb_err *e);

/* The loop devices whose backing is the file `file`, or a block device in
 * set s, are in use: then path is too. */
static int check_loops_over(const char *path, const struct stat *file, const struct devset *s, int depth,
			    struct fb_err *e)
{
	DIR *dp = opendir("/sys/block");
	struct dirent *de;
	int rc = 0;

	if (!dp)
		return 0;
	while (!rc && (de = readdir(dp))) {
		char dir[300], back[4096], dev[64];
		struct stat st;
		unsigned ma, mi;
		struct fb_err inner;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s", de->d_name);
		if (!loop_backing(dir, &st, back, sizeof(back)))
			continue;
		if (file ? (!S_ISREG(st.st_mode) || st.st_dev != file->st_dev || st.st_ino != file->st_ino)
			 : (!S_ISBLK(st.st_mode) || !in_set(s, st.st_rdev)))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s/dev", de->d_name);
		if (read_line(dir, dev, sizeof(dev)) || sscanf(dev, "%u:%u", &ma, &mi) != 2)
			continue;
		snprintf(dir, sizeof(dir), "/dev/%s", de->d_name);
		if (check_block(dir, makedev(ma, mi), depth + 1, &inner))
			rc = fb_fail(e, EXIT_DEVICE, "%s backs %s, which %s", path, dir, inner.msg + strlen(dir) + 1);
	}
	closedir(dp);
	return rc;
}

/* A loop device (or a partition of one) over a block device writes to that
 * device: it must be unused too. */
static int check_loop_under(const char *path, dev_t rdev, int depth, struct fb_err *e)
{
	char link[64], dir[PATH_MAX], back[4096];
	struct stat st;
	struct fb_err inner;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(link, dir))
		return 0;
	if (!loop_backing(dir, &st, back, sizeof(back))) {
		char *slash = strrchr(dir, '/'); /* a partition: its disk */
		if (!slash)
			return 0;
		*slash = '\0';
		if (!loop_backing(dir, &st, back, sizeof(back)))
			return 0;
	}
	if (!S_ISBLK(st.st_mode) || !check_block(back, st.st_rdev, depth + 1, &inner))
		return 0;
	return fb_fail(e, EXIT_DEVICE, "%s is a loop device over %s, which %s", path, back, inner.msg + strlen(back) + 1);
}

static int check_block(const char *path, dev_t rdev, int depth, struct fb_err *e)
{
	struct devset s = { .n = 0 };

	collect(&s, rdev);
	if (check_mounts(path, &s, e) || check_swaps(path, &s, NULL, e) || check_holders(path, &s, e))
		return -1;
	if (depth < MAX_LOOP_DEPTH &&
	    (check_loops_over(path, NULL, &s, depth, e) || check_loop_under(path, rdev, depth, e)))
		return -1;
	return 0;
}

int safety_check_write(const char *path, struct fb_err *e)
{
	struct stat st;

	if (strncmp(path, "sim:", 4) == 0)
		return 0;
	if (stat(path, &st))
		return fb_fail(e, EXIT_DEVICE, "%s: %s", path,
			       errno == ENOENT ? "no such device or file" : strerror(errno));
	if (S_ISBLK(st.st_mode))
		return check_block(path, st.st_rdev, 0, e);
	if (S_ISREG(st.st_mode))
		return check_swaps(path, NULL, &st, e) || check_loops_over(path, &st, NULL, 0, e) ? -1 : 0;
	return 0;
}
