/* devinfo.h — what the system says about the device under test (sysfs:
 * model, vendor, serial; for SD/MMC cards name, OEM and manufacturer ids,
 * date and the erase sizes the card reports).  Best effort, no I/O to the
 * device itself; what medium a path is on is medium.h's. */
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

#endif
