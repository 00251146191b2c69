/* unmapped.c — reads that never reach the flash (unmapped.h). */
#include "auto/unmapped.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

/* A read answered from the mapping table skips the flash read itself (tens
 * to hundreds of microseconds): it is clearly faster than a read of data.
 * Reads of data that differ by less (a FAT area in faster blocks, wear) are
 * not taken for it. */
#define UNMAPPED_FASTER 0.8
/* the two groups must lie this many spreads of single reads apart */
#define UNMAPPED_GAP_NOISES 6.0
/* ... a spread never below this share of a read (timer jitter) */
#define UNMAPPED_NOISE_FLOOR 0.002
/* reads of data show a boundary cost when it exceeds this many spreads;
 * then reads without data must cost less than this share of it across */
#define UNMAPPED_STEP_NOISES 6.0
#define UNMAPPED_FLAT_SHARE (1.0 / 3)

void unmapped_split(const struct data_probe *p, size_t n, struct data_split *s)
{
	double *lv = malloc((n ? n : 1) * sizeof(*lv)), *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	double *cf = malloc((n ? n : 1) * sizeof(*cf)), *cs = malloc((n ? n : 1) * sizeof(*cs));
	size_t cut = 0, nf = 0, ns = 0, run = 0, best = 0, best_end = 0;
	double gap = 0, sf, ss;

	memset(s, 0, sizeof(*s));
	if (!lv || !tmp || !cf || !cs || n < 8)
		goto out;
	for (size_t i = 0; i < n; i++)
		lv[i] = p[i].level;
	stats_median(lv, n); /* sorts lv */
	for (size_t i = 1; i < n; i++) /* the widest gap between two reads */
		if (lv[i] - lv[i - 1] > gap) {
			gap = lv[i] - lv[i - 1];
			cut = i;
		}
	if (!cut)
		goto out;
	s->fast = stats_median(memcpy(tmp, lv, cut * sizeof(*lv)), cut);
	s->slow = stats_median(memcpy(tmp, lv + cut, (n - cut) * sizeof(*lv)), n - cut);
	sf = stats_mad_around(lv, cut, s->fast, tmp);
	ss = stats_mad_around(lv + cut, n - cut, s->slow, tmp);
	s->noise = fmax(sqrt(((double)cut * sf * sf + (double)(n - cut) * ss * ss) / (double)n),
			UNMAPPED_NOISE_FLOOR * s->slow);
	s->threshold = (lv[cut - 1] + lv[cut]) / 2;
	if (gap < UNMAPPED_GAP_NOISES * s->noise || s->fast > UNMAPPED_FASTER * s->slow)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (p[i].level < s->threshold)
			cf[nf++] = p[i].cross;
		else
			cs[ns++] = p[i].cross;
	}
	{ /* flat: reads of data cost extra across the boundary, these do not */
		double xs = stats_median(cs, ns), xf = stats_median(cf, nf);
		if (xs > UNMAPPED_STEP_NOISES * s->noise && xf > UNMAPPED_FLAT_SHARE * xs)
			goto out;
	}
	s->seen = 1;
	s->nfast = (unsigned)nf;
	for (size_t i = 0; i < n; i++) { /* the longest run of probes with data */
		run = p[i].level >= s->threshold ? run + 1 : 0;
		if (run > best) {
			best = run;
			best_end = i;
		}
	}
	if (best) {
		s->lo = p[best_end + 1 - best].pos;
		s->hi = p[best_end].pos;
	}
out:
	free(lv);
	free(tmp);
	free(cf);
	free(cs);
}
