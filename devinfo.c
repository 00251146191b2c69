/* devinfo.c — reading a block device's identity from sysfs (see devinfo.h). */
#include "devinfo.h"

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

void devinfo_read(const char *path, struct devinfo *di)
{
	static const char *const attrs[] = { "device/vendor", "device/model", "device/serial", "device/name",
					     "device/oemid", "device/manfid", "device/date", "device/erase_size",
					     "device/preferred_erase_size", "device/type" };
	char link[128], dir[PATH_MAX], part[PATH_MAX + 16];
	struct stat st;

	memset(di, 0, sizeof(*di));
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, dir))
		return;
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (access(part, F_OK) == 0) { /* a partition: the disk is its parent */
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
	}
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]) && di->n < DEVINFO_FIELDS; i++)
		if (read_attr(dir, attrs[i], di->value[di->n], sizeof(di->value[0])) == 0)
			di->name[di->n++] = attrs[i] + strlen("device/");
}
