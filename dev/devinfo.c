/* devinfo.c — reading a block device's description from sysfs (see
 * devinfo.h); the walk to its disk is medium.c's. */
#include "dev/devinfo.h"

#include <limits.h>
#include <string.h>

#include "dev/medium.h"

void devinfo_read(const char *path, struct devinfo *di)
{
	static const char *const attrs[] = { "device/vendor", "device/model", "device/serial", "device/name",
					     "device/oemid", "device/manfid", "device/date", "device/erase_size",
					     "device/preferred_erase_size", "device/type" };
	char dir[PATH_MAX], self[PATH_MAX];

	memset(di, 0, sizeof(*di));
	if (medium_sysfs_dirs(path, dir, self))
		return;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]) && di->n < DEVINFO_FIELDS; i++)
		if (medium_read_attr(dir, attrs[i], di->value[di->n], sizeof(di->value[0])) == 0)
			di->name[di->n++] = attrs[i] + strlen("device/");
}
