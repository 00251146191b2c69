/* characterize.h — the --auto plan: which programs to run and in which
 * order, choosing each next step from what the last one showed (adaptive
 * open-AU search, FAT probe that stops when the area ends).  It runs VM
 * programs and collects their figures into the report record
 * (auto_report.h); analyze.c draws the conclusions. */
#ifndef FLASHBENCH_CHARACTERIZE_H
#define FLASHBENCH_CHARACTERIZE_H

#include <signal.h>
#include <stdint.h>

#include "auto/auto_report.h"
#include "lib/err.h"

struct dev;
struct vm_op;
struct auto_progress;

#define AUTO_OPEN_LIMIT 16     /* open-AU search stops here ("at least 16") */
#define AUTO_OPEN_MIN 2        /* a smaller device cannot run the write tests */

struct auto_options {
	int write;                           /* run the write tests */
	const volatile sig_atomic_t *stop;
	/* called once before the first write with the ranges that may be
	 * written; returning non-zero cancels the write tests */
	int (*before_writes)(void *ctx, const uint64_t range[2][2]);
	void *ctx;
	/* called right after before_writes, before the first write: a quick
	 * capacity check (i23), which says and reserves what it writes itself;
	 * non-zero (e filled) stops the write tests on a fake card */
	int (*capacity)(void *ctx, struct dev *d, struct fb_err *e);
	void *capacity_ctx;
	/* told after each request where the run is (may be NULL) */
	void (*progress)(void *ctx, const struct auto_progress *now);
	void *progress_ctx;
	uint64_t budget_ns;                  /* --budget: device time the run may take (0: no bound) */
	int read_speed;                      /* --summary: measure the sequential read speed too */
};

/* Where a run is, for the progress line. */
struct auto_progress {
	enum auto_phase phase;               /* the part running */
	unsigned phases;                     /* parts in the plan (1 without --write) */
	double share;                        /* of the plan done, 0..1: an estimate, the plan adapts */
	uint64_t requests;                   /* made so far */
	uint64_t bytes_written;              /* so far, in all */
};

/* Run the plan.  0 with r filled; also 0 when o->stop stopped it (then
 * r->interrupted is set, the findings it did not finish say "interrupted"
 * and e says it was stopped); -1 with e filled on an error. */
int characterize(struct dev *d, const struct auto_options *o, struct auto_report *r, struct fb_err *e);

#endif
