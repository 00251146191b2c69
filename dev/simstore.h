/* simstore.h — what a simulated card holds, kept sparsely so that memory
 * grows with what was written (in distinct pieces), never with the card's
 * size.  The store is a sorted set of extents of sectors, each one of: a
 * pattern byte, the signatures of one run (lib/sig.h: consecutive offsets),
 * the factory content of another place (a copy), or raw bytes (bounded).
 * A sector in no extent holds its factory content ("made": pseudo-random
 * user data that names its own sector), or reads as zeros when the store
 * is made without factory content (a cache: absent means not held).
 *
 * Each extent may carry a stamp, a write counter for the first of its
 * sectors (sector k: stamp + k * sector size), so a cache can forget what
 * was written longest ago. */
#ifndef FLASHBENCH_SIMSTORE_H
#define FLASHBENCH_SIMSTORE_H

#include <stddef.h>
#include <stdint.h>

struct simstore;

#define STORE_MAX_EXTENTS (1u << 17)   /* about 7 MiB of extents */
#define STORE_MAX_RAW (8u << 20)       /* raw bytes held at most */

/* made: absent sectors read their factory content (else zeros). */
int store_create(struct simstore **out, unsigned sector, uint64_t seed, int made);
void store_destroy(struct simstore *s);

/* Write n sectors from sector sec: the pattern byte (buf NULL) or buf's
 * bytes.  stamp: the write counter before the first sector.  0, or
 * -ENOSPC when the store would grow past its bounds (nothing changed). */
int store_write(struct simstore *s, uint64_t sec, uint64_t n, const void *buf, int pattern, uint64_t stamp);

/* Read n sectors from sec into buf. */
void store_read(const struct simstore *s, uint64_t sec, uint64_t n, void *buf);

/* Forget every sector whose stamp is below `before` (they read as absent). */
void store_forget(struct simstore *s, uint64_t before);

/* Keep only the n most recently stamped sectors, forgetting the older ones
 * (stamps as a write counter gives them: one per sector written). */
void store_keep_latest(struct simstore *s, uint64_t n);

/* Sectors that hold something else than their factory content. */
uint64_t store_changed(const struct simstore *s);

/* The factory content of sector sec (for tests): size bytes. */
void store_made(const struct simstore *s, uint64_t sec, void *buf);

#endif
