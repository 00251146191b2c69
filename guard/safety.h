/* safety.h — may this device be written?  Finds who uses a block device (or
 * the partitions on it): a mounted file system (/proc/self/mountinfo), an
 * active swap area (/proc/swaps), or a holder such as device-mapper or md
 * (sysfs).  Devices are matched by device number, never by name, so an alias
 * like /dev/disk/by-id/... is caught too.  A regular file is checked for use
 * as swap and as the backing file of a loop device that is in use.  Loop
 * devices are followed both ways over block devices too: a mounted loop over
 * /dev/sdb1 makes /dev/sdb1 (and /dev/sdb) in use, and a loop over a mounted
 * /dev/sdb1 is in use. */
#ifndef FLASHBENCH_SAFETY_H
#define FLASHBENCH_SAFETY_H

#include "lib/err.h"

/* 0 when nothing uses path; -1 with e naming the mount point, swap area or
 * holder otherwise (or when path cannot be examined). */
int safety_check_write(const char *path, struct fb_err *e);

#endif
