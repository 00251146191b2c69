/* devinfo.c — reading a block device's identity from sysfs (see devinfo.h). */
#include "dev/devinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char p[PATH_MAX + 64];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	if (!(f = fopen(p, "re")))
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n ? 0 : -1;
}

/* The sysfs directory of the disk holding block device path, and of the
 * partition itself (the same when path is a whole disk).  -1 if none. */
static int sysfs_dirs(const char *path, char disk[PATH_MAX], char self[PATH_MAX])
{
	char link[128], part[PATH_MAX + 16];
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, self))
		return -1;
	memcpy(disk, self, PATH_MAX);
	snprintf(part, sizeof(part), "%s/partition", self);
	if (access(part, F_OK) == 0) { /* a partition: the disk is its parent */
		char *slash = strrchr(disk, '/');
		if (slash)
			*slash = '\0';
	}
	return 0;
}

void devinfo_read(const char *path, struct devinfo *di)
{
	static const char *const attrs[] = { "device/vendor", "device/model", "device/serial", "device/name",
					     "device/oemid", "device/manfid", "device/date", "device/erase_size",
					     "device/preferred_erase_size", "device/type" };
	char dir[PATH_MAX], self[PATH_MAX];

	memset(di, 0, sizeof(*di));
	if (sysfs_dirs(path, dir, self))
		return;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]) && di->n < DEVINFO_FIELDS; i++)
		if (read_attr(dir, attrs[i], di->value[di->n], sizeof(di->value[0])) == 0)
			di->name[di->n++] = attrs[i] + strlen("device/");
}

static void append(char *buf, size_t len, const char *key, const char *value)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s=%s", n ? ";" : "", key, value);
}

void devinfo_identity(const char *path, char *buf, size_t len)
{
	/* attributes that name one medium, most specific first */
	static const char *const ids[] = { "device/cid", "device/serial", "serial", "wwid", "device/wwid" };
	char dir[PATH_MAX], self[PATH_MAX], v[PATH_MAX];

	buf[0] = '\0';
	if (sysfs_dirs(path, dir, self))
		return;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (read_attr(dir, ids[i], v, sizeof(v)) == 0) {
			append(buf, len, ids[i], v);
			break;
		}
	if (read_attr(dir, "loop/backing_file", v, sizeof(v)) == 0) {
		struct stat st;
		char what[96], off[32];
		if (stat(v, &st) == 0) {
			if (S_ISBLK(st.st_mode))
				snprintf(what, sizeof(what), "block:%u:%u", major(st.st_rdev), minor(st.st_rdev));
			else
				snprintf(what, sizeof(what), "file:%llu:%llu", (unsigned long long)st.st_dev,
					 (unsigned long long)st.st_ino);
			append(buf, len, "loop", what);
			if (read_attr(dir, "loop/offset", off, sizeof(off)) == 0)
				append(buf, len, "loop_offset", off);
		}
	}
	if (buf[0] && strcmp(dir, self) && read_attr(self, "start", v, sizeof(v)) == 0)
		append(buf, len, "start", v);
}
