/* devinfo.c — reading a block device's description from sysfs (see
 * devinfo.h); the walk to its disk is medium.c's. */
#include "dev/devinfo.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
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

/* USB's bus rates (the speed attribute, Mbit/s) carry about this share as
 * mass storage (a USB 2 reader moves some 40 of its 60 MB/s). */
#define USB_EFFICIENCY 0.67

/* The USB device above the disk's device: the first parent directory with
 * a speed attribute (Mbit/s); 0 when there is none. */
static double usb_speed(const char *disk)
{
	char dev[PATH_MAX + 16], real[PATH_MAX], v[32];

	snprintf(dev, sizeof(dev), "%s/device", disk);
	if (!realpath(dev, real))
		return 0;
	for (char *cut; (cut = strrchr(real, '/')) && cut != real; *cut = '\0')
		if (strstr(real, "/usb") && medium_read_attr(real, "speed", v, sizeof(v)) == 0)
			return strtod(v, NULL);
	return 0;
}

void devinfo_card(const char *path, struct dev_card *c)
{
	static const struct { const char *attr; size_t off, len; } regs[] = {
		{ "device/cid", offsetof(struct dev_card, cid), sizeof(c->cid) },
		{ "device/csd", offsetof(struct dev_card, csd), sizeof(c->csd) },
		{ "device/scr", offsetof(struct dev_card, scr), sizeof(c->scr) },
		{ "device/ssr", offsetof(struct dev_card, ssr), sizeof(c->ssr) },
	};
	char disk[PATH_MAX], self[PATH_MAX], v[256];
	double mbit;

	if (medium_sysfs_dirs(path, disk, self))
		return;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		if (medium_read_attr(disk, regs[i].attr, v, sizeof(v)) == 0 && strlen(v) < regs[i].len)
			strcpy((char *)c + regs[i].off, v);
	if (medium_read_attr(disk, "device/preferred_erase_size", v, sizeof(v)) == 0)
		c->preferred_erase = strtoull(v, NULL, 10);
	if (medium_read_attr(disk, "device/queue_depth", v, sizeof(v)) == 0) { /* SCSI: USB, SATA */
		c->queue_depth = (unsigned)strtoul(v, NULL, 10);
		c->queue_known = c->queue_depth > 0;
	} else if (medium_read_attr(disk, "device/cmdq_en", v, sizeof(v)) == 0) { /* mmc */
		c->queue_depth = strtoul(v, NULL, 10) ? 32 : 1;
		c->queue_known = 1;
	}
	if ((mbit = usb_speed(disk)) > 0) {
		c->link_rate = (uint64_t)(mbit * 1e6 / 8 * USB_EFFICIENCY);
		c->link_known = 1;
		snprintf(c->host, sizeof(c->host), "usb (%.0f Mbit/s)", mbit);
	} else if (c->cid[0]) {
		snprintf(c->host, sizeof(c->host), "mmc");
	}
}
