/* devinfo.h — what the system says about the device under test (sysfs:
 * model, vendor, serial; for SD/MMC cards name, OEM and manufacturer ids,
 * date and the erase sizes the card reports), and an identity that outlives
 * a replug.  Best effort, no I/O to the device itself. */
#ifndef FLASHBENCH_DEVINFO_H
#define FLASHBENCH_DEVINFO_H

#include <stddef.h>
#include <stdint.h>

struct dev;

#define DEVINFO_FIELDS 10
struct devinfo {
	/* name/value pairs that were found, e.g. {"model", "SD32G"} */
	const char *name[DEVINFO_FIELDS];
	char value[DEVINFO_FIELDS][128];
	int n;
};

void devinfo_read(const char *path, struct devinfo *di);

/* What names this medium whatever node it appears as, for telling after a
 * replug that a journal belongs to it: the card's CID, the disk's serial or
 * WWID, or for a loop device the file (device and inode) or block device
 * behind it and the offset; a partition adds its start sector.  "key=value"
 * pairs separated by ';', or "" when the system offers none (or path is not
 * a block device). */
void devinfo_identity(const char *path, char *buf, size_t len);

#endif
