/* volatile.c — would a power cut empty the file system a path is on
 * (volatile.h)?  Followed down to what holds its data. */
#include "guard/volatile.h"

#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "dev/medium.h"
#include "lib/sysroot.h"

#define MAX_DEPTH 8 /* overlays over loops over overlays ... */

/* The mount of file system dev in /proc/self/mountinfo, with its super
 * options' upperdir= (an overlay's, "" if none): 0, or -1 when none. */
static int mount_of(dev_t dev, struct mount_line *ml, char *upper, size_t len)
{
	char where[64];
	FILE *f = sysroot_fopen(sysroot_path(where, sizeof(where), SYSROOT_PROC, "self/mountinfo"));
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	if (!f)
		return -1;
	while (found && getline(&line, &cap, f) > 0) {
		const char *dash = strstr(line, " - "), *opts, *up;
		if (medium_mount_line(line, ml) || ml->dev != dev)
			continue;
		found = 0;
		upper[0] = '\0';
		/* " - FSTYPE SOURCE SUPEROPTS": the third field */
		opts = dash ? strchr(dash + 3, ' ') : NULL;
		opts = opts ? strchr(opts + 1, ' ') : NULL;
		if (opts && ((up = strstr(opts, " upperdir=")) || (up = strstr(opts, ",upperdir=")))) {
			size_t n = strcspn(up + 10, ", \n");
			snprintf(upper, len, "%.*s", (int)(n < len ? n : len - 1), up + 10);
			medium_unescape(upper);
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* tmpfs or ramfs: say so in what, with how it was reached (chain). */
static int fs_type(unsigned long t, const char *chain, char *what, size_t len)
{
	const char *fs = t == TMPFS_MAGIC ? "tmpfs" : t == RAMFS_MAGIC ? "ramfs" : NULL;

	if (!fs)
		return 0;
	snprintf(what, len, "%s%s%s%s", fs, chain[0] ? " (" : "", chain, chain[0] ? ")" : "");
	return 1;
}

/* Is the file system of device number dev held in memory?  chain says how
 * it was reached from the path asked about ("/m is an overlay that writes
 * to /u; ..."). */
static int dev_volatile(dev_t dev, int depth, const char *chain, char *what, size_t len)
{
	struct mount_line *ml = malloc(sizeof(*ml));
	char upper[PATH_MAX], next[1500];
	const char *sep = chain[0] ? "; " : "";
	struct medium m;
	struct statfs fs;
	struct stat st;
	int rc = 0, found;

	if (!ml || depth > MAX_DEPTH) {
		free(ml);
		return 0;
	}
	if (!(found = !mount_of(dev, ml, upper, sizeof(upper))))
		ml->point[0] = ml->source[0] = '\0';
	if (found && !statfs(ml->point, &fs) && fs_type((unsigned long)fs.f_type, chain, what, len)) {
		rc = 1;
	} else if (found && !strcmp(ml->fstype, "overlay")) {
		/* what is written goes to the upper directory */
		snprintf(next, sizeof(next), "%.500s%s%.300s is an overlay that writes to %.300s", chain, sep, ml->point,
			 upper);
		if (upper[0] && !stat(upper, &st))
			rc = (!statfs(upper, &fs) && fs_type((unsigned long)fs.f_type, next, what, len)) ||
			     dev_volatile(st.st_dev, depth + 1, next, what, len);
	} else {
		if (!major(dev) && ml->source[0] == '/' && !sysroot_stat(ml->source, &st) && S_ISBLK(st.st_mode))
			dev = st.st_rdev; /* a btrfs: a number of its own, mounted from a device */
		/* on a loop device, the backing file lies on another file system */
		if (major(dev) && (medium_of_block(dev, &m), m.kind == MEDIUM_FILE)) {
			snprintf(next, sizeof(next), "%.500s%s%.250s is on %.100s, %.300s", chain, sep,
				 found ? ml->point : "the file system", found ? ml->source : "a loop device", m.how);
			rc = dev_volatile((dev_t)m.dev, depth + 1, next, what, len);
		}
	}
	free(ml);
	return rc;
}

int volatile_under(const char *path, char *what, size_t len)
{
	struct statfs fs;
	struct stat st;

	if (statfs(path, &fs))
		return 0;
	if (fs_type((unsigned long)fs.f_type, "", what, len))
		return 1;
	return !stat(path, &st) && dev_volatile(st.st_dev, 0, "", what, len);
}
