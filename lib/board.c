/* board.c — a line per run on one screen (board.h). */
#include "lib/board.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/progress.h"

#define BOARD_REDRAW_NS 250e6

struct board {
	pthread_mutex_t mu;
	FILE *f;
	size_t n;
	const char *const *labels;
	int tty, force;
	unsigned width;
	size_t label_w;
	char (*line)[BOARD_LINE];
	double *plain_at;       /* plain lines: when each card's last went out */
	int drawn;              /* terminal: the lines are on the screen */
	double last;
};

int board_new(struct board **out, FILE *f, size_t n, const char *const *labels, int tty, unsigned width,
	      int force)
{
	struct board *b = calloc(1, sizeof(*b));

	if (!b || !(b->line = calloc(n ? n : 1, sizeof(*b->line))) ||
	    !(b->plain_at = calloc(n ? n : 1, sizeof(*b->plain_at)))) {
		if (b)
			free(b->line);
		free(b);
		return -1;
	}
	pthread_mutex_init(&b->mu, NULL);
	b->f = f;
	b->n = n;
	b->labels = labels;
	b->tty = tty;
	b->force = force;
	b->width = width >= 20 ? width : 80;
	for (size_t i = 0; i < n; i++)
		if (strlen(labels[i]) > b->label_w)
			b->label_w = strlen(labels[i]);
	if (b->label_w > 24)
		b->label_w = 24;
	*out = b;
	return 0;
}

/* One card's line as shown: its label, padded, then its state, cut to fit
 * a terminal's width. */
static void put_line(struct board *b, size_t i)
{
	char text[BOARD_LINE + 64];
	int n = snprintf(text, sizeof(text), "%-*.*s  %s", (int)b->label_w, 60, b->labels[i], b->line[i]);

	if (b->tty && n >= 0 && (unsigned)n >= b->width)
		text[b->width - 1] = '\0';
	fprintf(b->f, b->tty ? "\r%s\033[K\n" : "flashbench: %s\n", text);
}

static void draw(struct board *b)
{
	if (b->drawn)
		fprintf(b->f, "\033[%zuA", b->n); /* back to the first line */
	for (size_t i = 0; i < b->n; i++)
		put_line(b, i);
	fflush(b->f);
	b->drawn = 1;
}

void board_set(struct board *b, size_t i, const char *line, int part_changed)
{
	double now;

	if (!b || i >= b->n || (!b->tty && !b->force))
		return;
	pthread_mutex_lock(&b->mu);
	snprintf(b->line[i], sizeof(b->line[i]), "%s", line);
	now = wall_ns();
	if (b->tty) {
		if (!b->drawn || part_changed || now - b->last >= BOARD_REDRAW_NS) {
			b->last = now;
			draw(b);
		}
	} else if (part_changed || !b->plain_at[i] || now - b->plain_at[i] >= BOARD_PLAIN_S * 1e9) {
		b->plain_at[i] = now;
		put_line(b, i);
		fflush(b->f);
	}
	pthread_mutex_unlock(&b->mu);
}

void board_draw(struct board *b)
{
	if (!b || (!b->tty && !b->force))
		return;
	pthread_mutex_lock(&b->mu);
	if (b->tty)
		draw(b);
	else
		for (size_t i = 0; i < b->n; i++)
			put_line(b, i);
	fflush(b->f);
	pthread_mutex_unlock(&b->mu);
}

void board_end(struct board *b)
{
	if (!b)
		return;
	pthread_mutex_destroy(&b->mu);
	free(b->line);
	free(b->plain_at);
	free(b);
}
