/* dev.h — the device under test, behind one interface with two backends:
 *  - block: a block device or an existing regular file, opened with O_DIRECT
 *    (read-only for read tests; O_RDWR|O_EXCL|O_SYNC for write tests);
 *  - sim:   "sim:SPEC" — the flash model of sim.h on a virtual clock.
 * Each request returns the time it took in nanoseconds; nothing is printed
 * here and errors come back as -errno. */
#ifndef FLASHBENCH_DEV_H
#define FLASHBENCH_DEV_H

#include <stdint.h>
#include <sys/types.h>

#include "err.h"

struct dev;
struct sim_params;

enum dev_mode {
	DEV_READONLY,
	DEV_READWRITE,
};

/* The largest single I/O buffer; longer requests are issued in pieces of
 * this size inside one timed request, so memory stays small. */
#define DEV_MAX_BUFFER (1u << 20)

/* Open path ("sim:..." for a simulated device).  A regular file must exist;
 * it is never created or truncated.  Returns 0 or -1 with e filled. */
int dev_open(struct dev **out, const char *path, enum dev_mode mode, struct fb_err *e);
void dev_close(struct dev *d);

uint64_t dev_size(const struct dev *d);
unsigned dev_sector(const struct dev *d);          /* logical sector */
unsigned dev_physical_sector(const struct dev *d);
const char *dev_path(const struct dev *d);
int dev_is_sim(const struct dev *d);
int dev_is_block(const struct dev *d);
const struct sim_params *dev_sim_params(const struct dev *d); /* NULL unless sim */

/* Make the I/O buffer ready for requests up to max_len bytes. */
int dev_prepare(struct dev *d, uint64_t max_len, struct fb_err *e);

/* Timed requests: 0 and *ns, or -errno.  pattern is the byte written. */
int dev_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);
int dev_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns);
int dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);

/* Untimed copies between the device and a caller's aligned buffer (used to
 * save and restore data); len must be a multiple of the sector size. */
int dev_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len);
int dev_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len);

#endif
