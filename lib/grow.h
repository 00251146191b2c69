/* grow.h — arrays that double as they fill: room for one more item. */
#ifndef FLASHBENCH_GROW_H
#define FLASHBENCH_GROW_H

#include <stddef.h>

/* items holds *cap items of size bytes, n of them used.  Returns an array
 * with room for item n: items itself while n < *cap, else items reallocated
 * to twice *cap (first when *cap is 0), *cap updated.  NULL when memory ran
 * out (items and *cap unchanged, still valid). */
void *grow(void *items, size_t *cap, size_t n, size_t size, size_t first);

#endif
