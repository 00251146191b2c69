/* board.h — the progress of many runs on one screen (a batch's cards):
 * a line each,
 *   /dev/sdb   --auto: open erase blocks, linear (part 4 of 6), 55% of the plan, about 40s left
 * On a terminal the lines are drawn together and redrawn in place (at
 * most four times a second; cut to the terminal's width); elsewhere, with
 * force (--progress), each card's line goes out as a plain line of its own
 * when its part changes or BOARD_PLAIN_S seconds after its last.  Nothing
 * is shown otherwise.  Each card sets its own line from its own thread;
 * the drawing is under one lock. */
#ifndef FLASHBENCH_BOARD_H
#define FLASHBENCH_BOARD_H

#include <stddef.h>
#include <stdio.h>

#define BOARD_LINE 200
#define BOARD_PLAIN_S 10

struct board;

/* A board of n lines, each headed by its label (kept: they must live as
 * long as the board), on f: redrawn in place when tty (width columns),
 * plain lines when force.  0, or -1 when memory runs out. */
int board_new(struct board **out, FILE *f, size_t n, const char *const *labels, int tty, unsigned width,
	      int force);
/* Card i is at line (a new part: part_changed). */
void board_set(struct board *b, size_t i, const char *line, int part_changed);
/* Draw now, whatever the time (the end of a batch: its last state). */
void board_draw(struct board *b);
/* Leave the board's lines on the screen as they are, below them the
 * cursor, and free it. */
void board_end(struct board *b);

#endif
