/* crosscheck.h — holds each finding to what the other measurements say: a
 * finding is never surer than the data it rests on, nor than a finding it
 * is derived from.  Pure functions over numbers (analyze.c decides each
 * finding from its own test; these rules compare tests). */
#ifndef FLASHBENCH_CROSSCHECK_H
#define FLASHBENCH_CROSSCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "auto/analyze.h"
#include "auto/auto_report.h"

/* Lower f to at most cap (when it is surer), saying why. */
void finding_cap(struct finding *f, enum confidence cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* No model of a write (a fixed time plus its transfer, small writes padded
 * to the minimum) makes a smaller write slower than a larger one: when the
 * sweep shows one, beyond the spread of both, its writes were disturbed
 * and the minimum is at most medium. */
void min_write_order(const struct chunk_time *t, size_t n, struct finding *f);

/* The healthy time per trial write (ref) against what a write of the same
 * size took in the size sweep (pace, 0: not known): a baseline already
 * COLLAPSE times slower was itself paused or collapsed, and counts judged
 * against it are at most medium. */
void open_baseline(struct finding *f, double ref, double pace, uint64_t chunk);

/* A collapse is garbage collection when each slow write costs about an
 * erase block's copy: the trials' first collapse costing less than a
 * quarter of copying one erase block (copy_ns at the card's write speed)
 * may be a fixed cost of the access pattern (random order costs more on
 * some cards): at most low. */
void open_collapse_is_gc(struct finding *f, const struct open_trial *t, size_t n, double ref, double copy_ns);

/* The page (read unit) costs extra at every one of its multiples: when
 * most multiples of it the boundary scan read cost nothing, the step the
 * align rows saw is a larger boundary (an erase block that is not a power
 * of two) seen through power-of-two alignments.  1 when the scan's
 * smallest step is a multiple of the page and most of its points do not
 * show the page's cost. */
int page_not_every_multiple(const struct finding *page, const struct read_levels *rl, const struct scan_level *lv,
			    size_t n);

/* A FAT area found by random-order writes alone ends where the probe's
 * erase block writes like the middle; when the middle's random-order
 * writes there cost no more than its linear ones, the probe cannot see a
 * FAT block there: the count is only a lower bound (at least), medium at
 * most. */
void fat_end_seen(const struct fat_probe *p, size_t n, struct finding *f);

/* The rules above for the findings of part p, once its test is done (and
 * the findings they derive from): min write, open counts. */
void part_checks(struct auto_report *r, enum auto_phase p);

#endif
