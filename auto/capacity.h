/* capacity.h — --capacity: is the medium as large as it says?  A fake card
 * claims more than the flash it has: what is written past the real end
 * wraps around onto the start, is lost, is kept a while in a cache of the
 * latest writes and then lost, or is lost except a working region at the
 * end; a damaged card loses writes in scattered bad regions.
 *
 * The plan (doc/capacity.md, "How it decides"): signatures (lib/sig.h) at a
 * reference block at the start and at probes spread over the whole device
 * (one in each of K strata, at a place drawn from the device size, and one
 * at the very end), read back at once; one-sector reads on a grid over the
 * whole device that find the reference wherever it reappears (an address
 * that wraps onto it); then, when nothing is wrong yet, a window of
 * --max-cache bytes of distinct places below the end probe rewritten with
 * the bytes they hold (nothing changes, nothing is saved), the probes read
 * again after each doubling (a cache of the latest writes past the real
 * end, kept by count or by address, then has let go of them); then bisection of each boundary found, down to 1 MiB, each round
 * read back after as many bytes as it took the card to lose its first
 * probe.  Every program runs through the device it is given: the caller
 * wraps it in the journal's preserve layer so that every range written is
 * saved first and put back afterwards (the save reads also show aliasing:
 * a place that already holds our signature of another offset).
 *
 * The verdict (a kind, the usable size with a confidence and evidence, the
 * chance that a fake of a given missing share could pass) follows from what
 * the probes read; nothing here prints. */
#ifndef FLASHBENCH_CAPACITY_H
#define FLASHBENCH_CAPACITY_H

#include <signal.h>
#include <stdint.h>

#include "auto/analyze.h"
#include "lib/err.h"
#include "lib/progress.h"

struct dev;

#define CAP_RESOLUTION (1ULL << 20)     /* boundaries are found to within this */
#define CAP_MAX_CACHE (256ULL << 20)    /* default flush: caches up to this are defeated */
#define CAP_MIN_SIZE (64ULL << 20)      /* smaller devices are not checked */
#define CAP_MAX_PROBES 256              /* probes written in all (strata, end, bisection) */
#define CAP_MAX_SPANS 2                 /* stretches written whole, one at each edge (struct capacity_plan's span_max) */
/* The quick check's writes and putting them back take about this much
 * device time at most (capacity_options.max_ns): on most cards all the
 * strata asked for (a garbage collection of a 4 MiB erase block takes
 * 0.2 s), four on a card with 12 or 16 MiB erase blocks, none but its
 * ends on a card that copies 100x slower than it writes */
#define CAP_QUICK_NS 8e9
#define CAP_QUICK_MIN_STRATA 4          /* ... but quarters at least, when they take at most: */
#define CAP_QUICK_MAX_NS 60e9

enum cap_kind { CAP_GENUINE, CAP_WRAP, CAP_DROP, CAP_CACHE, CAP_END, CAP_BAD, CAP_KINDS };
extern const char *const cap_kind_name[CAP_KINDS];   /* "genuine", "wrap", ... (JSON) */
extern const char *const cap_kind_title[CAP_KINDS];  /* "genuine", "wraps around", ... (text) */

/* What one probe read at each look. */
enum cap_state { CAP_UNREAD, CAP_GOOD, CAP_LOST, CAP_MOVED };
struct cap_probe {
	uint64_t off;
	uint64_t flushed;        /* bytes written after it when it was last read */
	uint64_t flushed_lost;   /* bytes written after it when it was first read lost */
	uint8_t seen_lost;
	uint8_t held_old;        /* read lost, but what it held was data (an older pass, old bytes), not blank:
	                            there is flash there that did not take the write */
	uint8_t first;           /* state read at once */
	uint8_t last;            /* state at its last look */
	uint8_t round;           /* 0: the spread; 1...: bisection rounds (a control: the round it was written again in) */
	uint8_t proven;          /* a good reading proven: a place written after it read lost in the same look */
	uint8_t spread;          /* one of the spread's (round 0 when written) */
	uint64_t moved_from;     /* CAP_MOVED: the offset whose signature it held */
};

/* What the run may write, said before it writes. */
struct capacity_plan {
	uint64_t probe_len;                /* bytes per probe */
	unsigned max_probes;               /* probes at most */
	uint64_t ref_len;                  /* the reference block at byte 0 */
	uint64_t window_off, window_len;   /* the flush window: distinct places rewritten with their own bytes */
	uint64_t flush;                    /* bytes rewritten there before the probes are trusted (0: no flush) */
	uint64_t span_max;                 /* each edge's last round: one stretch this long at most */
	uint64_t max_saved;                /* bytes the journal saves at most (each byte once) */
};

/* The plan the quick check (capacity_options.quick) makes on d, without a
 * request: what its before_writes is told, and the least it writes (its
 * reference and the end probe).  -1: d is too small to be checked. */
int capacity_quick_plan(const struct dev *d, struct capacity_plan *p, uint64_t *least);

struct capacity_options {
	const volatile sig_atomic_t *stop;
	uint64_t salt;                     /* the run's signatures (random) */
	uint64_t max_cache;                /* flush up to this (0: CAP_MAX_CACHE) */
	unsigned strata;                   /* spread probes (0: the default) */
	int quick;                         /* no flush: what is lost at once is found, a cache is not sought */
	/* quick: the device time its writes and putting them back may take
	 * (0: CAP_QUICK_NS); the spread's strata are fewer on a card whose
	 * garbage collection would take longer (capacity_report.strata) */
	double max_ns;
	/* quick: never more than this, even for the quarters of
	 * CAP_QUICK_MIN_STRATA (0: CAP_QUICK_MAX_NS; --auto's share of a
	 * --budget) */
	double hard_ns;
	/* called once before the first write with what may be written (the
	 * flush window, probe count and size); non-zero cancels, e says why */
	int (*before_writes)(void *ctx, const struct capacity_plan *p, struct fb_err *e);
	void *ctx;
	/* where the check is: requests so far, its part (1 the signatures,
	 * 2 the flush, 3 the edges), the share done when it can be told */
	void (*progress)(void *ctx, const struct progress_now *now);
	void *progress_ctx;
};

struct capacity_report {
	uint64_t size;
	unsigned sector;
	enum cap_kind kind;
	struct finding verdict;            /* value: the kind; evidence: why */
	struct finding usable;             /* the usable size from byte 0 */
	uint64_t period;                   /* wrap: addresses repeat every period bytes */
	uint64_t lost_from, lost_to;       /* drop, cache, end: the lost part [from, to) */
	uint64_t cache_lo, cache_hi;       /* cache: it kept the latest cache_lo bytes, not cache_hi */
	double bad_share, bad_lo, bad_hi;  /* bad: share of probes lost and its 95% interval */
	uint64_t flushed;                  /* bytes written between each probe and its last look */
	uint64_t flush_distinct;           /* of them, distinct places (a cache by address counts only these) */
	int flush_full;                    /* the flush went to max_cache, all of it distinct places */
	uint64_t max_cache;
	struct capacity_plan plan;
	unsigned strata;
	double pass_chance[4];             /* chance a card missing 1%, 5%, 10%, 20% in pieces passes */
	uint64_t piece_caught;             /* a missing piece this large (anywhere) cannot pass */
	struct cap_probe probe[CAP_MAX_PROBES];
	unsigned nprobes;
	struct cap_span {                  /* an edge's last round: a stretch written whole */
		uint64_t off, len;
		uint64_t bad_lo, bad_hi;   /* what did not keep its signature (bad_hi 0: none) */
		int up;                    /* where loss begins (else where it ends) */
	} spans[CAP_MAX_SPANS];
	unsigned nspans;
	uint64_t exact_from, exact_to;     /* the edges to the sector the spans gave (0: none) */
	uint64_t resolution;               /* the usable size is found to within this */
	uint64_t grid_step;                /* the alias grid: one-sector reads this far apart */
	unsigned grid_reads, grid_moved;
	uint64_t alias_at, alias_from;     /* wrap: the nearest pair found sharing flash */
	unsigned aliases;                  /* reads that found this run's signature of another offset */
	uint64_t period_seen;              /* wrap: the greatest common divisor of the distances seen */
	unsigned period_checks, period_agree; /* wrap: reads past the period that found the start again */
	uint64_t needed;                   /* bytes written before a read was trusted */
	unsigned unproven;                 /* bisection rounds whose flush could not make the card let go of
	                                      its newest write past the end: their readings were set aside */
	/* what it cost */
	uint64_t reads, writes, bytes_written;
	uint64_t rewritten;                /* of bytes_written: the flush's, written back as they were read */
	uint64_t written_lo, written_hi;
	double device_ns;                  /* the device's time (virtual clock), or wall time */
	int virtual_clock;
	double clock0;                     /* the clock when the check began */
	uint64_t saved;                    /* bytes the journal saved (set by the caller) */
	uint64_t put_back;                 /* bytes put back and verified (set by the caller) */
	uint64_t untouched;                /* saved but never written to: left as they were (set by the caller) */
	int interrupted;                   /* a signal stopped it before its verdict (set by the caller): kind,
	                                      usable and the edges are not determined, the data go back after */
};

extern const double cap_missing_share[4];

/* Does p's reading say the card keeps its data there?  Once a cache was
 * seen (r->needed), only a proven good reading does (cap_probe.proven);
 * one read while the card may still have held it says nothing. */
static inline int cap_kept(const struct capacity_report *r, const struct cap_probe *p)
{
	return p->last == CAP_GOOD && (!r->needed || p->proven);
}

int capacity_check(struct dev *d, const struct capacity_options *o, struct capacity_report *r, struct fb_err *e);

/* The device time from the start of the check until now (after the data
 * were put back): r->device_ns. */
void capacity_account(struct capacity_report *r, const struct dev *d);

/* The verdict from the probes (capacity_verdict.c): kind, usable size,
 * confidences, evidence and the chances to pass. */
void capacity_judge(struct capacity_report *r);

#endif
