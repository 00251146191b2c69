/* grow.c — arrays that double as they fill (see grow.h). */
#include "lib/grow.h"

#include <stdlib.h>

void *grow(void *items, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t want;
	void *more;

	if (n < *cap)
		return items;
	want = *cap ? 2 * *cap : first;
	if (!(more = realloc(items, want * size)))
		return NULL;
	*cap = want;
	return more;
}
