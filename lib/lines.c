/* lines.c — a bounded array of text lines (lines.h). */
#include "lib/lines.h"

#include <stdio.h>
#include <string.h>

int lines_vadd(char *lines, size_t width, int *n, int cap, unsigned flags, const char *fmt, va_list ap)
{
	char *line;

	if (*n >= cap) {
		if (!(flags & LINE_LAST_WORD) || cap < 1)
			return 0;
		*n = cap - 1;
	}
	line = lines + (size_t)*n * width;
	vsnprintf(line, width, fmt, ap);
	if (flags & LINE_UNIQUE)
		for (int i = 0; i < *n; i++)
			if (!strcmp(lines + (size_t)i * width, line))
				return 0;
	(*n)++;
	return 1;
}
