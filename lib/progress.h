/* progress.h — the progress line on stderr (doc/style.md):
 *   flashbench: --open-au: 45% (1234 of 2700 requests), 12MiB written, about 12s left
 *   flashbench: --auto 5/7: open erase blocks, linear, 55%, 26.4MiB written, about 40s left
 * the mode (and its part: number, name), what is done, what was written,
 * and the time left where it can be estimated.  On a terminal it appears
 * once a run has taken about two seconds and is redrawn in place (at most
 * four times a second, and whenever a new part starts), never wider than
 * the terminal (TIOCGWINSZ, else $COLUMNS: the part's name gives way
 * first), so it never wraps and leaves no trail; nothing is shown when
 * stderr is not a terminal.  --progress forces it from the first request
 * on, also into a file or pipe, where each update is a plain line of its
 * own of at most 80 columns (no terminal escapes), like dd
 * status=progress.  The caller says what to show (struct progress_now);
 * this file only decides when and how. */
#ifndef FLASHBENCH_PROGRESS_H
#define FLASHBENCH_PROGRESS_H

#include <stdint.h>

struct progress {
	const char *test;      /* "open-au", "--auto" */
	double start, last;
	int shown;
	int force;             /* --progress: from the first request on */
	int tty;               /* stderr is a terminal: redraw one line */
	int active;            /* something will be shown */
	const char *part;      /* the part last shown */
	/* set before progress_start: each line goes to to() in place of stderr
	 * (a batch's card: its line of the board, lib/board.h), 4 times a
	 * second at most, and at once when a new part starts */
	void (*to)(void *ctx, const char *line, int part_changed);
	void *to_ctx;
};

/* One moment of a run. */
struct progress_now {
	uint64_t done, total;  /* requests made, and in all (0: not known) */
	const char *part;      /* the part running ("open erase blocks, linear"), or NULL */
	unsigned part_no, parts; /* it is part part_no of parts (0: not said) */
	double share;          /* of the whole run done, 0..1, when total is not known (< 0: unknown) */
	int writes;            /* the run writes: say how much */
	uint64_t written;      /* bytes written so far */
	int late;              /* the part running took longer than planned: no time left to say */
};

/* Monotonic wall time in ns. */
double wall_ns(void);

/* Start timing; returns 1 when a progress line may be shown (stderr is a
 * terminal, or force), else 0 (then progress_update does nothing). */
int progress_start(struct progress *p, const char *test, int force);

/* Show now, if it is time to. */
void progress_update(struct progress *p, const struct progress_now *now);

/* Clear the progress line, if one was drawn on a terminal: at the end, and
 * before results go to the same terminal (the next update draws it again). */
void progress_end(struct progress *p);

#endif
