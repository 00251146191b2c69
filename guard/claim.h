/* claim.h — the run's one claim on the medium under test.  A write run
 * (a write test, --auto --write, erase, --restore) takes it before it opens
 * the device for writing and holds it to the end: an flock on a lock file
 * named after the medium's identity in the state directory (so two runs on
 * one medium, through whatever names, never overlap), and O_EXCL on every
 * block device whose bytes meet the bytes under test (so none of them can be
 * mounted or claimed meanwhile; the device under test itself is opened
 * O_EXCL by its backend).  Taking it also refuses what uses the medium now
 * (safety.h) and any alias another program holds exclusively. */
#ifndef FLASHBENCH_CLAIM_H
#define FLASHBENCH_CLAIM_H

#include "lib/err.h"

struct claim;

/* Claim the medium under path (a sim: device or a character device needs
 * none: *out is then NULL).  0, or -1 with e saying what uses it. */
int claim_take(const char *path, struct claim **out, struct fb_err *e);
void claim_release(struct claim *c);

#endif
