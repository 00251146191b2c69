/* progress.h — progress on stderr for runs longer than about two seconds,
 * only when stderr is a terminal: "flashbench: open-au 45% (1234 of 2700
 * requests), about 12s left".  Nothing at all otherwise. */
#ifndef FLASHBENCH_PROGRESS_H
#define FLASHBENCH_PROGRESS_H

#include <stdint.h>

struct progress {
	const char *test;
	uint64_t total;        /* requests in all; 0 when unknown (--auto) */
	double start, last;
	int shown;
};

/* Monotonic wall time in ns. */
double wall_ns(void);

/* Start timing; returns the callback to hand to the VM (a vm_progress_fn),
 * or NULL when stderr is not a terminal. */
void (*progress_start(struct progress *p, const char *test, uint64_t total))(void *, uint64_t);

/* Clear the progress line, if one was shown. */
void progress_end(struct progress *p);

#endif
