/* progress.h — the progress line on stderr: "flashbench: open-au 45% (1234
 * of 2700 requests), about 12s left".  On a terminal it appears once a run
 * has taken about two seconds and is redrawn in place (at most four times a
 * second); nothing is shown when stderr is not a terminal.  --progress forces
 * it from the first request on, also into a file or pipe, where each update
 * is a plain line of its own (no terminal escapes), like dd status=progress. */
#ifndef FLASHBENCH_PROGRESS_H
#define FLASHBENCH_PROGRESS_H

#include <stdint.h>

struct progress {
	const char *test;
	uint64_t total;        /* requests in all; 0 when unknown (--auto) */
	double start, last;
	int shown;
	int force;             /* --progress: from the first request on */
	int tty;               /* stderr is a terminal: redraw one line */
};

/* Monotonic wall time in ns. */
double wall_ns(void);

/* Start timing; returns the callback to hand to the VM (a vm_progress_fn),
 * or NULL when stderr is not a terminal and force is 0. */
void (*progress_start(struct progress *p, const char *test, uint64_t total, int force))(void *, uint64_t);

/* Clear the progress line, if one was drawn on a terminal. */
void progress_end(struct progress *p);

#endif
