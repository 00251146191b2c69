/* progress.c — the progress line on stderr (see progress.h). */
#include "lib/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"

double wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A time left as people say it: "12s", "3m20s", "1h05m". */
static const char *left(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 && s < 1e8 ? (unsigned long)(s + 0.5) : 0;

	if (t < 60)
		snprintf(buf, len, "%lus", t);
	else if (t < 3600)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	return buf;
}

void progress_update(struct progress *p, const struct progress_now *n)
{
	double now = wall_ns(), elapsed = (now - p->start) / 1e9, share = n->share;
	const char *pre = p->tty ? "\r" : "", *post = p->tty ? " \033[K" : "\n";
	char line[320], t[32], w[32];
	int at, changed;

	if (!p->active || (!p->force && !p->to && elapsed < 2) || (p->last > 0 && now - p->last < 250e6 && n->part == p->part))
		return;
	changed = n->part != p->part;
	p->part = n->part;
	p->last = now;
	p->shown = 1;
	if (n->total && n->done <= n->total) {
		share = (double)n->done / (double)n->total;
		at = snprintf(line, sizeof(line), "%s %3.0f%% (%llu of %llu requests)", p->test, 100.0 * share,
			      (unsigned long long)n->done, (unsigned long long)n->total);
	} else if (n->part) {
		at = snprintf(line, sizeof(line), "%s: %s", p->test, n->part);
		if (n->parts && at < (int)sizeof(line))
			at += snprintf(line + at, sizeof(line) - (size_t)at, " (part %u of %u)", n->part_no, n->parts);
		if (share >= 0 && at < (int)sizeof(line))
			at += snprintf(line + at, sizeof(line) - (size_t)at, ", %.0f%% of the plan", 100.0 * share);
	} else {
		at = snprintf(line, sizeof(line), "%s: %llu request%s", p->test, (unsigned long long)n->done,
			      n->done == 1 ? "" : "s");
	}
	if (n->writes && at < (int)sizeof(line))
		at += snprintf(line + at, sizeof(line) - (size_t)at, ", %s written", format_size(w, sizeof(w), n->written));
	if (at < (int)sizeof(line)) {
		if (n->late)
			snprintf(line + at, sizeof(line) - (size_t)at, ", longer than planned, %s so far",
				 left(t, sizeof(t), elapsed));
		else if (share > 0.01 && share <= 1)
			snprintf(line + at, sizeof(line) - (size_t)at, ", about %s left",
				 left(t, sizeof(t), elapsed * (1 - share) / share));
		else
			snprintf(line + at, sizeof(line) - (size_t)at, ", %s so far", left(t, sizeof(t), elapsed));
	}
	if (p->to)
		p->to(p->to_ctx, line, changed);
	else
		fprintf(stderr, "%sflashbench: %s%s", pre, line, post);
}

int progress_start(struct progress *p, const char *test, int force)
{
	p->test = test;
	p->start = wall_ns();
	p->last = 0;
	p->shown = 0;
	p->force = force;
	p->tty = !p->to && isatty(2);
	p->active = p->tty || force || p->to;
	p->part = NULL;
	return p->active;
}

void progress_end(struct progress *p)
{
	if (p->shown && p->tty && !p->to)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}
