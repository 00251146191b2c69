/* preserve.h — "protect this run's writes": the shared start and end of
 * every run of a device, and the one way every writing mode keeps its data
 * (a test with --preserve, --auto --write and its quick capacity check,
 * --capacity).  check, before the device is opened: the outputs and the
 * journal's place.  begin, once the run knows the bytes it writes: the
 * claim on the medium (claim.h), the device reopened for writing, -o
 * opened (the setup's opened hook called on the device), and the journal (save.h) with the device wrapped in the layer
 * that saves each range before it is first changed (layer.h).  reserve
 * makes room for what the run may save, once it knows; journal_begin makes
 * a journal later (a part of a run that keeps its own).  put_back puts
 * back what the run wrote to, verifies it and removes the journal; end
 * does what is left of that, commits -o, closes the device and lets the
 * claim go; abandon leaves the journal on disk for --restore.  Every
 * journal stops saving at its next piece once the stop flag is set.  The
 * messages are the caller's. */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <signal.h>
#include <stdint.h>

#include "guard/restore.h"
#include "lib/err.h"
#include "lib/outfile.h"

struct claim;
struct dev;
struct extents;

/* What a run asks to be protected (the CLI fills it from the mode's row
 * and the options). */
struct preserve_setup {
	const char *device;                  /* the device as named (pinned) */
	const char *out, *plot;              /* -o, --plot (NULL: not given) */
	const char *journal;                 /* --preserve=FILE (NULL: the default place) */
	int writes;                          /* it writes: a claim, the device opened for writing */
	int whole;                           /* it may write anywhere: the whole device claimed */
	int journal_now;                     /* a journal from the start (--preserve, --capacity) */
	int journal_kept;                    /* a journal at some point (also one made later) */
	int own_journal;                     /* the mode's own, not --preserve's: without a
						journal named, it goes to the state directory
						(place_own_path), never the current one */
	int needs_data;                      /* --preserve asked for it: a device that stores data */
	int volatile_ok;                     /* --preserve-volatile: tmpfs/ramfs accepted */
	volatile sig_atomic_t *stop;         /* a signal: saving stops at its next piece; set to
					      * SAVE_STOP_OTHER_USER (save.h) when the file under
					      * test gets another user */
	volatile sig_atomic_t *restoring;    /* set while the saved data go back (NULL: none) */
	/* the device as the run will use it (reopened for writing), before the
	 * journal's layer: a batch wraps it in its turns (NULL: nothing) */
	int (*opened)(void *ctx, struct dev **d, struct fb_err *e);
	void *opened_ctx;
};

/* A run's protection, from check to end. */
struct preserve {
	struct preserve_setup s;
	char journal[4096];                  /* where its journal goes */
	char default_path[4096];             /* the default place, which must hold no journal */
	struct claim *claim;                 /* its hold on the medium (NULL: none) */
	struct outfile out;                  /* -o, opened at begin (out.f NULL: none) */
	int finished;                        /* a journal was finished (put back): */
	struct restore_report back;          /* what went back */
};

/* Before the device is opened: fill p from s; the outputs can be written
 * and are not the medium, nor is the journal's place; a device that
 * writes is no journal.  0, or -1 with e filled. */
int preserve_check(struct preserve *p, const struct preserve_setup *s, struct fb_err *e);

/* With *d open read-only and the run's writes known (bytes [lo, hi)):
 * claim the medium, refuse one with an unfinished journal, reopen *d for
 * writing, open -o and make the journal a run keeps from the start.  0, or
 * -1 with e filled (preserve_end then lets go of what was taken). */
int preserve_begin(struct preserve *p, struct dev **d, uint64_t lo, uint64_t hi, struct fb_err *e);

/* Make the journal now (at p->journal) and wrap *d in the layer.  0, or -1
 * with e filled and nothing left behind (*d as it was, no journal). */
int preserve_journal_begin(struct preserve *p, struct dev **d, struct fb_err *e);

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
 * journal; with unwrap, take the layer off too (*d is the device below: a
 * part's own journal), else it was the run's and p->finished, p->back say
 * what went back.  1, 0 when *d has no journal, -1 with e filled (the
 * journal kept for --restore). */
int preserve_put_back(struct preserve *p, struct dev **d, int unwrap, struct restore_report *r,
		      struct fb_err *e);

/* The end of a run: put back what is still saved, commit -o (with
 * keep_out and when that worked; else -o is left as it was), close *d and
 * let the claim go.  0, or -1 with e filled.  Again after an end: 0. */
int preserve_end(struct preserve *p, struct dev **d, int keep_out, struct fb_err *e);

/* The end without putting back: the journal stays on disk as it is, for
 * --restore; -o is left as it was, *d closed, the claim let go. */
void preserve_abandon(struct preserve *p, struct dev **d);

/* When the run failed because the layer refused a request (the file
 * under test got another user; a rewrite the journal could not take), e is
 * replaced by why: 1, else 0.  Called where the run's failure is worded. */
int preserve_explain(const struct dev *d, struct fb_err *e);

/* The journal's file (NULL: d keeps none), and the bytes saved so far. */
const char *preserve_journal(const struct dev *d);
uint64_t preserve_saved(const struct dev *d);

#endif
