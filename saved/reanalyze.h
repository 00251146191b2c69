/* reanalyze.h — --analyze: the findings that saved results support.  The
 * rows read back from text (classic_read.h) go through the same analysis
 * as --auto's measurements (analyze.h: analyze_page, analyze_erase,
 * analyze_open); what differs is only what a classic table offers — one row
 * per alignment, no repeated probes, the erase size a sweep was run with —
 * and that is reflected in the confidence.  When the rows do not decide, it
 * says what to run next.  Pure: no I/O, no printing. */
#ifndef FLASHBENCH_REANALYZE_H
#define FLASHBENCH_REANALYZE_H

#include "auto/auto_report.h"
#include "saved/classic_read.h"
#include "saved/saved_json.h"

/* A read step above this is not a page: NAND pages, even read two or four
 * at a time across planes, are at most 64KiB; a lone step higher up is an
 * erase-block (allocation-unit) boundary. */
#define CLASSIC_PAGE_MAX (256ULL << 10)

#define NEXT_MAX 8
#define SAVED_CARDS 8

/* A single open-au sweep (one --open-au-nr) judged on its own: the extra
 * time its smallest writes take beyond their transfer, against the time
 * to write one whole erase block at the sweep's own large-write rate.
 * Garbage collection copies (the rest of) an erase block per write: with a
 * copy at most a few times faster than the card writes, at least
 * SWEEP_COLLAPSE_SHARE of it.  A write that does not collect costs a
 * command's overhead: at most SWEEP_FLAT_SHARE of it.  Between the two a
 * fixed cost per write (a slow stick's 15ms) and a fast copy look alike, so
 * nothing is said; and since a copy-back inside the chip can be fast, even
 * a flat sweep says "at least N" only at low confidence. */
#define SWEEP_COLLAPSE_SHARE (1.0 / 8)
#define SWEEP_FLAT_SHARE (1.0 / 64)

/* A run of a sweep is judged against the sweep's reference run cell by
 * cell, at the chunk sizes below the erase size: a cell collapses when its
 * extra time per write is a garbage collection's (SWEEP_COLLAPSE_SHARE of
 * writing a whole erase block; in random order 1/N of it, as only one of
 * N erase blocks pays), or when it is more than a small write's
 * (SWEEP_FLAT_SHARE) and the run takes the collapse's multiple of the
 * reference's time (analyze.h write_collapsed, random_collapsed).  The
 * sweep's collapse shows at the cells where its most collapsed run
 * collapses: two or more, not only among the reference's smallest
 * SWEEP_VOTE_CHUNKS sizes (of a reference with twice as many: one erase
 * block faster for small writes than several is no collapse); of those,
 * the larger ones when two or more are.  Each run is judged at those sizes
 * by majority (at least two cells; a tie decides nothing), so a collapse
 * that shows only from the middle sizes up, or one cell out of line (a
 * pause), is judged on what is consistent. */
#define SWEEP_VOTE_CHUNKS 3
/* The count is low when the first run that collapses is less than this
 * many times slower than the reference where the collapse shows (a mild
 * slowdown, not surely garbage collection) */
#define SWEEP_CLEAR_COLLAPSE 2.0

/* One card of the input: a column of a table that compares several, or
 * the tables under a card heading or of one device, when the input holds
 * more than one card. */
struct saved_card {
	char name[SAVED_CARD_NAME + 16];     /* from the header line, heading or device, or "column N" */
	unsigned line;                       /* its first table */
	size_t tables;
	int column;                          /* a column of a table of several */
	int align, linear, random, fat;      /* it has tables of that kind */
	struct finding page, erase, open_linear, open_random, fat_area;
};

struct saved_report {
	struct auto_report r;                /* findings and the rows they rest on, as --auto's */
	struct finding run_erase[SAVED_ALIGN_RUNS];  /* each -a run on its own */
	size_t primary, second;              /* runs used as rows and rows2 (SIZE_MAX: none) */
	uint64_t sweep_erase[2];             /* erase size of the linear and random sweep used */
	unsigned open_unused;                /* open-au tables without --open-au-nr */
	int erase_thirds;                    /* -a cannot tell the erase block from 3 times it */
	char next[NEXT_MAX][320];            /* what to run next */
	int nnext;
	const struct saved_findings *found;  /* an --auto or --analyze result read, or NULL */
	struct saved_card cards[SAVED_CARDS]; /* the cards of the input, each analysed on its own */
	size_t ncards;
	unsigned cards_left;                 /* more cards than SAVED_CARDS: not analysed */
};

void reanalyze(const struct saved_text *t, struct saved_report *s);

/* One -a run on its own, as --analyze judges it: its page and erase-block
 * findings (a chart of the run marks only what these say). */
void reanalyze_align_run(const struct saved_align_run *run, struct finding *page, struct finding *erase);

/* A saved --auto (or --analyze) result: its findings as that run made them,
 * not a second analysis of its measurements.  --auto chose each probe from
 * what the last one showed (a second boundary scan with more tries, the
 * open-AU knee tried again, the FAT probe stopped where the area ended), so
 * the measurements it saved are not all its findings rest on.  The advice
 * is this version's, from those findings; the next steps say when the
 * result comes from another version or did not write. */
void reanalyze_findings(const struct saved_findings *found, struct saved_report *s);

#endif
