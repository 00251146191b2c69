/* extents.c — sorted sets of disjoint byte ranges (extents.h). */
#include "lib/extents.h"

#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"

/* Add [lo, hi) to a sorted set of disjoint ranges, merging neighbours. */
int extents_add(struct extents *s, uint64_t lo, uint64_t hi)
{
	size_t i = 0, j;

	while (i < s->n && s->v[i].hi < lo)
		i++;
	j = i;
	while (j < s->n && s->v[j].lo <= hi) {
		if (s->v[j].lo < lo)
			lo = s->v[j].lo;
		if (s->v[j].hi > hi)
			hi = s->v[j].hi;
		j++;
	}
	if (j == i) { /* insert */
		struct extent *v = grow(s->v, &s->cap, s->n, sizeof(*v), 64);
		if (!v)
			return -1;
		s->v = v;
		memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
		s->n++;
	} else if (j > i + 1) { /* several merged into one */
		memmove(&s->v[i + 1], &s->v[j], (s->n - j) * sizeof(*s->v));
		s->n -= j - i - 1;
	}
	s->v[i].lo = lo;
	s->v[i].hi = hi;
	return 0;
}

int extents_meet(const struct extents *s, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].lo < hi && lo < s->v[i].hi)
			return 1;
	return 0;
}

void extents_free(struct extents *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
