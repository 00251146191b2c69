/* lines.h — a bounded array of text lines (evidence, notes, hints): one
 * more line, formatted, when there is room. */
#ifndef FLASHBENCH_LINES_H
#define FLASHBENCH_LINES_H

#include <stdarg.h>
#include <stddef.h>

/* How a line is added (flags, or-ed) */
enum {
	LINE_UNIQUE = 1,    /* not when the same line is already there */
	LINE_LAST_WORD = 2, /* when full, in place of the last line (it matters more) */
};

/* Adds a line formatted from fmt to lines, an array of cap lines of width
 * bytes each (cut to fit), *n of them used.  Returns 1 when added, 0 when
 * not (full, or a duplicate with LINE_UNIQUE).  LINE_UNIQUE is for arrays
 * that are never full when a line comes (it is not combined with
 * LINE_LAST_WORD). */
int lines_vadd(char *lines, size_t width, int *n, int cap, unsigned flags, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* lines_vadd over a two-dimensional array: LINES(a, n) gives its first four
 * arguments. */
#define LINES(a, n) (a)[0], sizeof((a)[0]), &(n), (int)(sizeof(a) / sizeof((a)[0]))

#endif
