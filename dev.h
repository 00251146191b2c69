/* dev.h — the device under test, behind one interface (struct dev_ops) with
 * three backends, and any number of layers over them:
 *  - block (dev_block.c): a block device or an existing regular file, opened
 *    with O_DIRECT (read-only for read tests; O_RDWR|O_EXCL|O_SYNC for write
 *    tests);
 *  - sim (dev_sim.c): "sim:SPEC", the flash model of sim.h on a virtual clock;
 *  - a layer wraps any device (its ops left NULL pass the request down):
 *    --preserve's (guard/layer.h) saves the byte ranges it is told will
 *    change before they are first written.
 * What a device can do is said by capability flags, never by asking which
 * backend it is.  A device sees byte ranges and requests, never programs.
 * Each request returns the time it took in nanoseconds; nothing is printed
 * here and errors come back as -errno. */
#ifndef FLASHBENCH_DEV_H
#define FLASHBENCH_DEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

struct dev;
struct dev_card;
struct dev_req;
struct extents;
struct json_member;

enum dev_mode {
	DEV_READONLY,
	DEV_READWRITE,
};

/* Capabilities (dev_caps) */
#define DEV_CAP_STORES_DATA   1u  /* holds user data (block device, file): --preserve makes sense */
#define DEV_CAP_REOPEN_RW     2u  /* writing needs a read-write, O_EXCL reopen after the safety checks */
#define DEV_CAP_VIRTUAL_CLOCK 4u  /* times come from a model (sim) */
#define DEV_CAP_DISCARD       8u  /* takes BLKDISCARD-style erase requests (block device, sim) */
#define DEV_CAP_HOLDS_DATA   16u  /* keeps what is written, to be read back: data requests and copies
				     (block device, file, sim) */
#define DEV_CAP_SAVES_FIRST  32u  /* a layer saves the ranges that will change before they are written:
				     tell it with dev_will_write (--preserve's) */

/* One backend or layer.  The dev_* functions check ranges before calling
 * read, write, discard and copy_*; prepare, will_write and describe may be
 * NULL.  A layer leaves NULL each op it passes through: the request goes to
 * the device it wraps. */
struct dev_ops {
	const char *name;
	int (*prepare)(struct dev *d, uint64_t max_len, struct fb_err *e);
	int (*read)(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);
	int (*write)(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns);
	int (*discard)(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);
	int (*write_data)(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns);
	int (*read_data)(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns);
	int (*rewrite)(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns);
	int (*copy_out)(struct dev *d, void *buf, uint64_t off, uint64_t len);
	int (*copy_in)(struct dev *d, const void *buf, uint64_t off, uint64_t len);
	int (*will_write)(struct dev *d, const struct extents *changes, struct fb_err *e);
	void (*describe)(const struct dev *d, struct json_member *model);
	double (*clock)(const struct dev *d);
	void (*idle)(struct dev *d, uint64_t ns);
	int (*phase)(struct dev *d, int on, struct fb_err *e);
	void (*close)(struct dev *d);
	/* --rating: n requests with up to depth in flight (a backend); a layer
	 * that sees writes is told of each queued write first (touch) */
	int (*queue)(struct dev *d, struct dev_req *r, size_t n, unsigned depth, uint64_t *ns);
	void (*touch)(struct dev *d, uint64_t off, uint64_t len);
	void (*card)(const struct dev *d, struct dev_card *c);
};

/* The largest single I/O buffer; longer requests are issued in pieces of
 * this size inside one timed request, so memory stays small. */
#define DEV_MAX_BUFFER (1u << 20)

/* Open path ("sim:..." for a simulated device).  A regular file must exist;
 * it is never created or truncated.  Returns 0 or -1 with e filled. */
int dev_open(struct dev **out, const char *path, enum dev_mode mode, struct fb_err *e);
void dev_close(struct dev *d);
/* Does path name a simulated device ("sim:...")? */
int dev_is_sim(const char *path);

uint64_t dev_size(const struct dev *d);
unsigned dev_sector(const struct dev *d);          /* logical sector */
unsigned dev_physical_sector(const struct dev *d);
const char *dev_path(const struct dev *d);
unsigned dev_caps(const struct dev *d);            /* DEV_CAP_* */

/* The members of the "model" object of the JSON device description (a
 * simulated device's parameters), JM_END-ended in model[DEV_MODEL_MEMBERS];
 * only the end for a real device. */
#define DEV_MODEL_MEMBERS 24
void dev_describe(const struct dev *d, struct json_member *model);

/* Make the I/O buffer ready for requests up to max_len bytes. */
int dev_prepare(struct dev *d, uint64_t max_len, struct fb_err *e);

/* The requests to come will change the byte ranges `changes` (writes and
 * erases; a rewrite, which writes back what it read, is not a change): a
 * no-op except in a layer with DEV_CAP_SAVES_FIRST, which saves what of them
 * it has not saved yet (and syncs) before it returns.  vm_run calls it
 * before a program's first request. */
int dev_will_write(struct dev *d, const struct extents *changes, struct fb_err *e);

/* What write and discard requests made through d so far: bytes written,
 * and the range they touched (lo == hi: none), counted as each request is
 * made (a request that fails may have written part of its range). */
struct dev_tally {
	uint64_t bytes, lo, hi;
};
void dev_written(const struct dev *d, struct dev_tally *t);
/* Set it again (--auto's capacity check: what it wrote was put back and is
 * not --auto's to report). */
void dev_written_set(struct dev *d, const struct dev_tally *t);

/* Timed requests: 0 and *ns, or -errno.  pattern is the byte written. */
int dev_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);
int dev_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns);
int dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);

/* Timed requests that carry data (signatures, lib/sig.h): write len bytes
 * of buf, or read them into buf, a buffer aligned to 4096 bytes of at most
 * DEV_MAX_BUFFER bytes.  Only a device that holds data (DEV_CAP_HOLDS_DATA)
 * takes them: -EOPNOTSUPP. */
int dev_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns);
int dev_read_data(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns);

/* Read len bytes at off into buf (aligned, at most DEV_MAX_BUFFER) and
 * write the same bytes back, as one timed request (the two times added): a
 * card counts it as a write, what it holds stays as it was.  The preserve
 * layer journals what it read (once per range) before it writes it back,
 * so that a card pulled out mid-write can still be given its bytes, and
 * has nothing to put back at the end.  Only a device that holds data takes
 * it: -EOPNOTSUPP. */
int dev_rewrite(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns);

/* Queued requests (--rating's IOPS): n reads or writes of the pattern
 * with up to depth in flight at once, as a host queue keeps them (the
 * block backend: depth threads on the O_DIRECT descriptor; a sim: its
 * host's and card's queues).  Each gets its own time (ns, from its start
 * to its end) and result (rc: 0 or -errno); *ns is the time from the first
 * start to the last end.  Returns 0 (each request's rc says how it went),
 * or -errno for the batch (a range past the end; -EOPNOTSUPP: a layer
 * that must see each write cannot be told of queued ones). */
struct dev_req {
	uint64_t off, len;
	int write;          /* else a read */
	int pattern;        /* the byte written */
	uint64_t ns;
	int rc;
};
int dev_queue(struct dev *d, struct dev_req *r, size_t n, unsigned depth, uint64_t *ns);

/* What the card and its host say of themselves: the card's registers as
 * sysfs shows them (hex text; "" when not shown: a USB reader passes none
 * on), the AU the kernel derived, and the host's limits (0: not known).
 * A simulated card gives what its keys say (ssr, hostqd, link). */
struct dev_card {
	char cid[33], csd[33], scr[17], ssr[129];
	uint64_t preferred_erase;   /* bytes (0: not shown) */
	int queue_known;            /* queue_depth is the host's (else 0: not known) */
	unsigned queue_depth;       /* requests the host keeps in flight (1: one at a time) */
	int link_known;             /* link_rate is the host's (0: no limit); else 0 is "not known" */
	uint64_t link_rate;         /* bytes per second its link carries */
	char host[32];              /* the host ("sim", "usb-storage", "mmc"; "": not known) */
};
void dev_card(const struct dev *d, struct dev_card *c);

/* A virtual clock's device time so far (ns; it counts copies too), or a
 * negative value for a real device, whose time the caller measures. */
double dev_clock(const struct dev *d);

/* The time now on the device's clock (ns): a virtual clock's, else
 * CLOCK_MONOTONIC's; only differences of two readings mean anything. */
double dev_now(const struct dev *d);

/* Leave the device alone for ns nanoseconds (a virtual clock just moves
 * on), so that it finishes the work earlier requests left it. */
void dev_idle(struct dev *d, uint64_t ns);

/* A timing phase begins (on) or ends (vm_run brackets each program with
 * them; the requests between are timed for findings).  A device whose link
 * is shared with others in a batch waits here for its turn (dev/gate.h); a
 * simulated card on a bus uses its link from here to the end of the phase
 * (dev/simlink.h).  0, or -1 with e filled (stopped while it waited, or the
 * card is no longer the one the batch began with); ending never fails. */
int dev_phase(struct dev *d, int on, struct fb_err *e);

/* Untimed copies between the device and a caller's aligned buffer (used to
 * save and restore data); len must be a multiple of the sector size.  Only
 * a device that holds data (DEV_CAP_HOLDS_DATA) takes them: -EOPNOTSUPP.
 * A simulated device takes them too, and its virtual clock counts them. */
int dev_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len);
int dev_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len);

#endif
