/* extents.h — a sorted set of disjoint byte ranges [lo, hi), neighbours
 * merged: what a run writes or changes, what a journal saved. */
#ifndef FLASHBENCH_EXTENTS_H
#define FLASHBENCH_EXTENTS_H

#include <stddef.h>
#include <stdint.h>

struct extent {
	uint64_t lo, hi;
};

struct extents {
	struct extent *v;
	size_t n, cap;
};

/* Add [lo, hi), merging it with the ranges it meets or touches: 0, or -1
 * when memory ran out (s unchanged). */
int extents_add(struct extents *s, uint64_t lo, uint64_t hi);

/* Does [lo, hi) meet a range of s? */
int extents_meet(const struct extents *s, uint64_t lo, uint64_t hi);

/* Free the ranges (s is empty again). */
void extents_free(struct extents *s);

#endif
