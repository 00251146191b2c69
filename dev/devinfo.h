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

/* --rating: the card's registers as sysfs shows them (device/cid, csd,
 * scr, ssr, preferred_erase_size: SD and MMC cards on a native host) and
 * what the host says of its limits: a SCSI disk's queue_depth (1 for
 * usb-storage, a USB reader's one command at a time), an mmc card's
 * cmdq_en (0: the kernel runs no command queue for it), the speed of the
 * USB device it hangs off (its link).  Best effort: what is not found is
 * left "not known" (dev.h, struct dev_card). */
struct dev_card;
void devinfo_card(const char *path, struct dev_card *c);

#endif
