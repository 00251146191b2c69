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

#include <stdint.h>

#include "guard/safety.h"
#include "lib/err.h"

struct claim;

/* Claim the medium under path (a sim: device or a character device needs
 * none: *out is then NULL) for use (what a refusal advises), writing bytes
 * [lo, hi) of path (hi <= lo: all of it): what uses an alias whose window
 * meets those bytes refuses it, whether path is a file or a loop window of
 * it.  0, or -1 with e saying what uses it.  claim_take is claim_take_for a
 * write test of the whole device.  path
 * should be pinned (lib/pin.h), so that the claim, the checks and the
 * device's opens concern one file. */
int claim_take(const char *path, struct claim **out, struct fb_err *e);
int claim_take_for(const char *path, enum safety_use use, uint64_t lo, uint64_t hi, struct claim **out,
		   struct fb_err *e);

/* Once the device is open for writing (O_EXCL on a block device: nothing
 * can mount it from now on): is it still the medium claimed, with the same
 * window, and does nothing use it now (a mount or swapon that came between
 * the checks and the open)?  0, or -1 with e filled. */
int claim_recheck(struct claim *c, struct fb_err *e);
void claim_release(struct claim *c);

/* During the run (the --preserve layer asks before each step that writes,
 * and before it puts the data back, save.h): has the medium got another
 * user?  An alias over the bytes under test that was not there when the
 * claim was taken (a loop device attached over the file meanwhile) is held
 * O_EXCL from now on; what safety.h refuses (a mount of it) is refused.
 * 0 when nothing changed (or there is no claim); 1 with e saying what when
 * a new alias appeared but nothing uses the medium (it is held now, so
 * nothing can mount it); -1 with e saying what uses it. */
int claim_check_again(struct fb_err *e);

#endif
