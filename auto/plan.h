/* plan.h — what the parts of the --auto planner share (characterize.c runs
 * the plan and its reads; write_tests.c the write tests): the run's state,
 * running a program under the cost bound, the built-in programs.  Nothing
 * outside auto/ includes it. */
#ifndef FLASHBENCH_PLAN_H
#define FLASHBENCH_PLAN_H

#include <stdint.h>

#include "auto/budget.h"
#include "auto/characterize.h"
#include "auto/unmapped.h"

struct ctx {
	struct dev *d;
	const struct auto_options *o;
	struct auto_report *r;
	struct fb_err *e;
	uint64_t e_size;                  /* erase size the write tests use */
	uint64_t region, region_aus, cursor;
	unsigned open_limit;              /* largest open-AU count tried */
	struct vm_op *held;               /* the last program run: its results point into it */
	enum auto_phase phase;            /* whose cost the next run is */
	struct budget b;                  /* the cost bound (write tests) and the time shares */
	int writing;                      /* the write tests have started: the bound holds */
	int refused;                      /* the last step was refused: 1 its part's share, 2 the bound */
	unsigned cut_by;                  /* the halves of the bound (BUDGET_*) that cut the part short */
	double last_write;                /* slowest write of the last program run */
	int at_once;                      /* the last open-AU trial collapsed in every erase block at once */
	int queue_clean;                  /* behind a write cache: the trial before this one was healthy */
	double probe_linear, probe_skip;  /* the cautious first probe: a linear write, the skip (0: none) */
	double lin_write;                 /* ns per linear chunk write seen in the cache probe (0: none) */
	uint64_t lin_chunk;               /* its size */
	uint64_t burst_lo, burst_hi;      /* whole erase blocks the cache probe wrote in one run */
	double part_start;                /* device time when the current part began */
	double pace[AUTO_PHASES];         /* slowest ns per byte written of a step in each part so far */
	unsigned done;                    /* parts (1 << phase) whose findings are final */
	int findings_done;                /* every finding's part ran (only --summary's read speed is left) */
	double nodata;                    /* reads faster than this found no data (0: none seen) */
	uint64_t area;                    /* the area to write and read back: its scan's top step (0: none) */
	uint64_t fat_hi, trial_lo, trial_hi; /* the announced ranges: [0, fat_hi) and [trial_lo, trial_hi) */
	/* the scan's points as read (for the look at unmapped reads) */
	struct data_probe scanp[AUTO_MAX_LEVELS * SCAN_POINTS];
	size_t nscanp;
};

/* The expected time of n linear writes of len bytes each into fresh or open
 * erase blocks: twice what linear writes took so far (opening an erase
 * block may cost a garbage collection: the bound adds one). */
double linear_estimate(const struct ctx *c, uint64_t n, uint64_t len);

/* The bytes the minimum-write sweep writes for erase blocks of e (no
 * warm-up): what the parts before it leave for it. */
uint64_t min_write_bytes(uint64_t e, uint64_t ss);

/* Run a program and account for it; the caller frees *res.  The program
 * lives until the next run (results refer to its operations' labels).
 * est_ns: the step's expected device time (0: from the slowest request
 * seen); in the write tests a step the cost bound does not allow is not run:
 * 1 (c->refused says why, *res is NULL); -1 with c->e filled on an error. */
int run_step(struct ctx *c, struct vm_op *prog, double est_ns, struct vm_result **res);

/* A built-in program (scripts/programs/NAME.fbp) for blocks of bs bytes,
 * with these variables set, and the list $offsets (n of them; offsets NULL:
 * its default). */
int builtin_list(struct ctx *c, const char *name, uint64_t bs, unsigned count, const char *var[],
		 const uint64_t val[], int nvar, const int64_t *offsets, size_t n, struct vm_op **prog);

/* Writes of `len` bytes at each offset of off[0..n), in order: the built-in
 * program NAME (its list $offsets); *res gets its results.  est_ns as for
 * run_step (0: n writes as slow as the slowest seen).  0, 1 (refused), -1. */
int write_at(struct ctx *c, const char *name, uint64_t len, const int64_t *off, size_t n, double est_ns,
	     struct vm_result **res);

/* The next n erase blocks of the trial region (cycling through it). */
uint64_t take_aus(struct ctx *c, uint64_t n);

/* Start part p of the run: its share of the time left (and of the bytes,
 * less what the parts after it need); 0 when the bound is spent (the part
 * is left out). */
int phase_start(struct ctx *c, enum auto_phase p);
/* Must the current part stop before its next step (its share is spent, or
 * the last step was refused)?  Marks it cut short. */
int out_of_time(struct ctx *c);
/* A finding of a part the bound cut short: no surer than cap, and it says
 * why. */
void budget_cut(const struct ctx *c, struct finding *f, enum confidence cap, const char *what);

/* The write tests (write_tests.c), in the order they run. */
int cache_phase(struct ctx *c);
int min_write_phase(struct ctx *c);
int open_search(struct ctx *c, int shuffled, double collapse_level);
int fat_phase(struct ctx *c);
/* The caveats a write cache or fast area puts on finding f (r->min_write,
 * open_linear, open_random or fat), applied once its test is done. */
void cache_caveat(struct auto_report *r, struct finding *f);

#endif
