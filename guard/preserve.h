/* preserve.h — "protect this run's writes": the one way every writing mode
 * keeps its data (--preserve, --capacity, --auto --write's quick capacity
 * check).  begin makes the journal (save.h) and wraps the device in the
 * layer that saves each range before it is first changed (layer.h);
 * reserve makes room for what the run may save, once it knows; end puts
 * back what the run wrote to, verifies it and removes the journal; abandon
 * leaves the journal on disk for --restore.  The messages are the caller's. */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <signal.h>
#include <stdint.h>

#include "lib/err.h"

struct dev;
struct extents;
struct restore_report;

struct preserve_setup {
	const char *journal;                 /* the journal's path */
	const char *device;                  /* the device as named */
	unsigned flags;                      /* PLACE_VOLATILE_OK (place.h) */
	const volatile sig_atomic_t *stop;   /* a signal: saving stops at its next piece */
	volatile sig_atomic_t *restoring;    /* set while the saved data go back (NULL: none) */
};

/* Make the journal for *d (open for writing; it must hold data) and wrap
 * *d in the layer.  0, or -1 with e filled and nothing left behind (*d as
 * it was, no journal). */
int preserve_begin(struct dev **d, const struct preserve_setup *s, struct fb_err *e);

/* Reserve the journal's room, on top of what it holds or reserved already
 * (0 at once when d has no journal), for what the run may save from now on:
 *  - ranges: the ranges a program writes, each saved once (*bytes: their
 *    bytes);
 *  - areas: any bytes of the areas, each once, but no more than limit
 *    bytes (0: no limit), saved as small as a sector (*bytes: the most);
 *  - bytes: up to that many bytes anywhere, saved as small as a sector.
 * A usage error when the journal's file system has not that much room. */
int preserve_reserve_ranges(struct dev *d, const struct extents *writes, uint64_t *bytes,
			    struct fb_err *e);
int preserve_reserve_areas(struct dev *d, const struct extents *areas, uint64_t limit,
			   uint64_t *bytes, struct fb_err *e);
int preserve_reserve_bytes(struct dev *d, uint64_t bytes, struct fb_err *e);

/* Save now what the ranges `changes` hold that is not saved yet (a run that
 * says what it saved before it starts; the VM finds nothing new then). */
int preserve_save(struct dev *d, const struct extents *changes, struct fb_err *e);

/* Put back every saved range the run wrote to, verify it and remove the
 * journal; with unwrap, take the layer off too (*d is the device below).
 * 1 with r filled, 0 when *d has no journal, -1 with e filled (the journal
 * kept for --restore). */
int preserve_end(struct dev **d, int unwrap, struct restore_report *r, struct fb_err *e);

/* Take the layer off and leave the journal on disk as it is, for
 * --restore (closing the device does the same). */
void preserve_abandon(struct dev **d);

/* The journal's file (NULL: d keeps none), and the bytes saved so far. */
const char *preserve_journal(const struct dev *d);
uint64_t preserve_saved(const struct dev *d);

#endif
