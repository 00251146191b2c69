/* layer.h — the --preserve layer: wraps any device that stores data (like
 * f3's safe device) with a journal (save.h).  Before requests change a
 * range (dev_will_write: vm_run tells it the ranges before a program's
 * first request) the layer saves what of it is not saved yet; each write and
 * discard is noted, so that the end puts back only the saved ranges the run
 * wrote to.  A rewrite is saved as it reads.  Every request goes on to the
 * device below. */
#ifndef FLASHBENCH_LAYER_H
#define FLASHBENCH_LAYER_H

#include "lib/err.h"

struct dev;
struct journal;
struct restore_report;

/* Wrap *d (which must hold data) in the layer; the layer owns j from then
 * on.  0, or -1 with e filled (*d unchanged). */
int layer_wrap(struct dev **d, struct journal *j, struct fb_err *e);

/* The layer's journal (NULL for any other device, or once finished). */
struct journal *layer_journal(const struct dev *d);

/* Put back every saved range the run wrote to (r: the bytes put back, and
 * those saved but never written), verify it and remove the journal (1), or
 * do nothing (0) when d is no layer with a journal; -1 with e filled keeps
 * the journal for --restore.  Closing an unfinished layer keeps the journal
 * on disk. */
int layer_finish(struct dev *d, struct restore_report *r, struct fb_err *e);

/* Take the layer off again (after layer_finish): frees it and returns the
 * device it wraps; any other device is returned as it is. */
struct dev *layer_unwrap(struct dev *d);

#endif
