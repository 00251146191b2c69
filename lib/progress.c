/* progress.c — the progress line on stderr (see progress.h). */
#include "lib/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void show(void *ctx, uint64_t done)
{
	struct progress *p = ctx;
	double now = wall_ns(), elapsed = (now - p->start) / 1e9;
	const char *pre = p->tty ? "\r" : "", *post = p->tty ? " \033[K" : "\n";

	if ((!p->force && elapsed < 2) || (p->shown && now - p->last < 250e6))
		return;
	p->last = now;
	p->shown = 1;
	if (p->total && done <= p->total)
		fprintf(stderr, "%sflashbench: %s %3.0f%% (%llu of %llu requests), about %.0fs left%s", pre, p->test,
			100.0 * (double)done / (double)p->total, (unsigned long long)done, (unsigned long long)p->total,
			elapsed * (double)(p->total - done) / (double)(done ? done : 1), post);
	else
		fprintf(stderr, "%sflashbench: %s: %llu requests, %.0fs%s", pre, p->test, (unsigned long long)done,
			elapsed, post);
}

void (*progress_start(struct progress *p, const char *test, uint64_t total, int force))(void *, uint64_t)
{
	p->test = test;
	p->total = total;
	p->start = wall_ns();
	p->last = 0;
	p->shown = 0;
	p->force = force;
	p->tty = isatty(2);
	return p->tty || force ? show : NULL;
}

void progress_end(struct progress *p)
{
	if (p->shown && p->tty)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
