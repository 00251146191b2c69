/* characterize.h — the --auto plan: which programs to run and in which
 * order, choosing each next step from what the last one showed (adaptive
 * open-AU search, FAT probe that stops when the area ends, reads moved to
 * where data are when the card answers unwritten sectors from its mapping
 * table, an early stop on a medium that shows no flash-like penalty).  The
 * write tests keep to a bound on bytes and device time announced before the
 * first write (budget.h).  It runs VM programs and collects their figures
 * into the report record (auto_report.h); analyze.c draws the conclusions.
 * Each finding is complete as soon as its test is: a run stopped half way
 * still has every finding made before. */
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

/* What --auto --write will do, announced before its first write (and
 * never exceeded): the ranges it may overwrite, the most it writes and the
 * most device time the whole run takes, the reads before included. */
struct write_plan {
	uint64_t range[2][2];
	uint64_t bytes;
	double ns;
	double spent_ns;                     /* device time the reads took already */
	int bytes_given, ns_given;           /* set by --budget (else the defaults) */
	/* the quick capacity check, inside bytes and ns: the most it writes
	 * (0: none made), or the halves of the bound too small for the
	 * least it writes and takes (BUDGET_*: it is left out) */
	uint64_t check_bytes;
	unsigned check_left_out;
};

struct auto_options {
	int write;                           /* run the write tests */
	const volatile sig_atomic_t *stop;
	/* called once before the first write with the plan; returning
	 * non-zero cancels the write tests */
	int (*before_writes)(void *ctx, const struct write_plan *plan);
	void *ctx;
	/* called right after before_writes, before the first write: a quick
	 * capacity check (i23), which says and reserves what it writes itself;
	 * its device time counts in the bound, and max_ns is its share of it
	 * (the most its writes and putting them back may take);
	 * non-zero (e filled) stops the write tests on a fake card; *written:
	 * the bytes it wrote (they count in the bound) */
	int (*capacity)(void *ctx, struct dev *d, double max_ns, uint64_t *written, struct fb_err *e);
	void *capacity_ctx;
	/* told after each request where the run is (may be NULL) */
	void (*progress)(void *ctx, const struct auto_progress *now);
	void *progress_ctx;
	uint64_t budget_ns;                  /* --budget: device time the run may take (0: the default) */
	uint64_t budget_bytes;               /* --budget: bytes it may write (0: the default) */
	int read_speed;                      /* --summary: measure the sequential read speed too */
};

/* Where a run is, for the progress line. */
struct auto_progress {
	enum auto_phase phase;               /* the part running */
	unsigned phases;                     /* parts in the plan (1 without --write) */
	double share;                        /* of the plan done, 0..1: an estimate, the plan adapts */
	uint64_t requests;                   /* made so far */
	uint64_t bytes_written;              /* so far, in all */
	uint64_t bound_bytes;                /* what the run announced (0: read-only, or not yet) */
	double bound_ns;
	int late;                            /* the part has run past its usual time: its share stands still */
};

/* Run the plan.  0 with r filled; also 0 when o->stop stopped it (then
 * r->interrupted is set, the findings it did not finish say "interrupted"
 * and e says it was stopped); -1 with e filled on an error.  Either way
 * every finding is complete or says why not, as each part's findings are
 * final when the part ends. */
int characterize(struct dev *d, const struct auto_options *o, struct auto_report *r, struct fb_err *e);

#endif
