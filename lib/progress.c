/* progress.c — the progress line on stderr (see progress.h). */
#include "lib/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"
#include "lib/wrap.h"

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

/* The columns a line may take: the terminal's width (asked each time: it
 * may have been resized), else $COLUMNS, else 80; one less on a terminal,
 * whose last column would wrap on some.  A plain line (not a terminal)
 * keeps to the 80 of every text a person reads. */
static size_t columns(const struct progress *p)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	long n = 0;

	if (!p->tty)
		return WRAP_LINE;
	if (!ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		n = ws.ws_col;
	else if (env)
		n = strtol(env, NULL, 10);
	if (n <= 1 || n > 1000)
		n = WRAP_LINE;
	return (size_t)n - 1;
}

void progress_update(struct progress *p, const struct progress_now *n)
{
	double now = wall_ns(), elapsed = (now - p->start) / 1e9, share = n->share;
	char head[64], part[160] = "", tail[160], t[32], w[32], line[400];
	size_t width, room, at = 0;
	int changed;

	if (!p->active || (!p->force && !p->to && elapsed < 2) || (p->last > 0 && now - p->last < 250e6 && n->part == p->part))
		return;
	changed = n->part != p->part;
	p->part = n->part;
	p->last = now;
	p->shown = 1;
	/* "flashbench: --auto: " + the part + what is done and left; the
	 * part gives way first when the line is too wide, never the time */
	if (n->parts)
		snprintf(head, sizeof(head), "flashbench: %s %u/%u: ", p->test, n->part_no, n->parts);
	else
		snprintf(head, sizeof(head), "flashbench: %s: ", p->test);
	if (n->part)
		snprintf(part, sizeof(part), "%s, ", n->part);
	if (n->total && n->done <= n->total) {
		share = (double)n->done / (double)n->total;
		at = (size_t)snprintf(tail, sizeof(tail), "%.0f%% (%llu of %llu requests)", 100.0 * share,
				      (unsigned long long)n->done, (unsigned long long)n->total);
	} else if (share >= 0) {
		at = (size_t)snprintf(tail, sizeof(tail), "%.0f%%", 100.0 * share);
	} else {
		at = (size_t)snprintf(tail, sizeof(tail), "%llu request%s", (unsigned long long)n->done,
				      n->done == 1 ? "" : "s");
	}
	if (n->writes && at < sizeof(tail))
		at += (size_t)snprintf(tail + at, sizeof(tail) - at, ", %s written",
				       format_size(w, sizeof(w), n->written));
	if (at < sizeof(tail)) {
		if (n->late)
			snprintf(tail + at, sizeof(tail) - at, ", longer than planned, %s so far",
				 left(t, sizeof(t), elapsed));
		else if (share > 0.01 && share <= 1)
			snprintf(tail + at, sizeof(tail) - at, ", about %s left",
				 left(t, sizeof(t), elapsed * (1 - share) / share));
		else
			snprintf(tail + at, sizeof(tail) - at, ", %s so far", left(t, sizeof(t), elapsed));
	}
	width = columns(p);
	room = width > text_width(head) + text_width(tail) ? width - text_width(head) - text_width(tail) : 0;
	if (text_width(part) > room) { /* the part cut short, "..." saying so */
		if (room > 5) {
			text_cut(part, room - 5);
			strcat(part, "..., ");
		} else {
			part[0] = '\0';
		}
	}
	snprintf(line, sizeof(line), "%s%s%s", head, part, tail);
	if (p->to) { /* a board's line of its own: no "flashbench: " */
		p->to(p->to_ctx, line + strlen("flashbench: "), changed);
		return;
	}
	text_cut(line, width);
	/* on a terminal the line is drawn over the last one, and what was
	 * left of a longer one erased; never wider than the terminal, so it
	 * never wraps onto a line of its own */
	fprintf(stderr, p->tty ? "\r%s\033[K" : "%s\n", line);
	fflush(stderr);
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
