/* crosscheck.c — holds each finding to what the other measurements say
 * (see crosscheck.h): the rules compare one test's data with another's,
 * and only ever lower a confidence, saying why. */
#include "auto/crosscheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "auto/auto_report.h"
#include "lib/lines.h"
#include "lib/stats.h"
#include "lib/units.h"

/* a smaller write slower than a larger one by this many sigmas of the two
 * medians is no jitter (the sweep's drift check uses the same) */
#define ORDER_SIGMAS 4.0
/* a collapse is garbage collection when a slow write costs at least this
 * share of copying one erase block at the write speed (cards copy faster
 * than they write by up to about 4x: the erase size's write check) */
#define GC_MIN_COPY_SHARE 0.25
/* the sigma of a median is this share of the writes' middle half (analyze.c's MINW_SIGMA_OF_SPREAD) */
#define MINW_SIGMA_SHARE 0.33

void finding_cap(struct finding *f, enum confidence cap, const char *fmt, ...)
{
	va_list ap;

	if (!f->determined || f->conf <= cap)
		return;
	f->conf = cap;
	va_start(ap, fmt); /* the reason for the cap matters more than the last detail */
	lines_vadd(LINES(f->evidence, f->nevidence), LINE_LAST_WORD, fmt, ap);
	va_end(ap);
}

/* The minimum rests on the writes of its own size and the size below it:
 * when those disagree among themselves far more than the writes of the
 * other sizes (a size whose writes are mixed, some padded, some not), its
 * median is no firm level. */
static void min_write_knee(const struct chunk_time *t, size_t n, struct finding *f)
{
	double rel[64], typical;
	size_t best = n;
	char s1[32];

	if (!f->determined || f->at_least || f->at_most || n > 64)
		return;
	for (size_t i = 0; i < n; i++) {
		rel[i] = t[i].ns > 0 ? chunk_sigma(&t[i]) / t[i].ns : 0;
		if (t[i].size == f->value)
			best = i;
	}
	if (best + 1 >= n)
		return;
	{
		double knee = rel[best], below = rel[best + 1], worst = fmax(knee, below);
		double copy[64];
		memcpy(copy, rel, n * sizeof(rel[0]));
		typical = stats_median(copy, n);
		if (worst <= ORDER_SIGMAS * typical)
			return;
		finding_cap(f, CONF_MEDIUM, "yet the %s writes disagree among themselves (their middle half spans "
			    "%.0f%% of their time, %.0f%% for a typical size): the minimum rests on mixed writes",
			    format_size(s1, sizeof(s1), t[knee >= below ? best : best + 1].size),
			    100 * worst / MINW_SIGMA_SHARE, 100 * typical / MINW_SIGMA_SHARE);
	}
}

void min_write_order(const struct chunk_time *t, size_t n, struct finding *f)
{
	char a[32], b[32], c[32], d[32];

	min_write_knee(t, n, f);
	/* t is largest first: k larger than l */
	for (size_t k = 0; k < n; k++)
		for (size_t l = k + 1; l < n; l++) {
			double sk = chunk_sigma(&t[k]), sl = chunk_sigma(&t[l]);
			if (t[l].size >= t[k].size || t[l].ns - t[k].ns <= ORDER_SIGMAS * sqrt(sk * sk + sl * sl))
				continue;
			finding_cap(f, CONF_MEDIUM, "yet %s %s write took longer than %s %s write (%s against %s): no "
				    "write size model does that, the sweep's writes were disturbed",
				    article(format_size(a, sizeof(a), t[l].size)), a,
				    article(format_size(b, sizeof(b), t[k].size)), b,
				    format_time(c, sizeof(c), t[l].ns), format_time(d, sizeof(d), t[k].ns));
			return;
		}
}

void open_baseline(struct finding *f, double ref, double pace, uint64_t chunk)
{
	char a[32], b[32], c[32];

	if (pace <= 0 || ref <= 0 || !write_collapsed(ref, pace, 0))
		return;
	finding_cap(f, CONF_MEDIUM, "the healthy time per write, %s, is %.0fx what %s %s write took in the size "
		    "sweep (%s): the baseline itself was slowed (a pause or garbage collection)",
		    format_time(a, sizeof(a), ref), ref / pace, article(format_size(b, sizeof(b), chunk)), b,
		    format_time(c, sizeof(c), pace));
}

void open_collapse_is_gc(struct finding *f, const struct open_trial *t, size_t n, double ref, double copy_ns)
{
	unsigned first = 0;
	double level = 0;
	char a[32], b[32];

	if (copy_ns <= 0 || ref <= 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (t[i].collapsed && (!first || t[i].n < first)) {
			first = t[i].n;
			level = t[i].mean_ns;
		}
	for (size_t i = 0; i < n; i++) /* the smallest of its collapses */
		if (t[i].collapsed && t[i].n == first && t[i].mean_ns < level)
			level = t[i].mean_ns;
	if (!first || level - ref >= GC_MIN_COPY_SHARE * copy_ns)
		return;
	finding_cap(f, CONF_LOW, "a slow write cost %s more, far less than copying an erase block would (about "
		    "%s): the access pattern may simply cost more, not garbage collection",
		    format_time(a, sizeof(a), level - ref), format_time(b, sizeof(b), copy_ns));
}

int page_not_every_multiple(const struct finding *page, const struct read_levels *rl, const struct scan_level *lv,
			    size_t n)
{
	unsigned costly = 0;

	if (!page->determined || !n || !page->value || lv[0].step % page->value || rl->page_diff <= 0 ||
	    lv[0].npoints < 4)
		return 0;
	for (unsigned j = 0; j < lv[0].npoints; j++)
		costly += !isnan(lv[0].d[j]) && lv[0].d[j] >= rl->page_diff / 2;
	return 2 * costly < lv[0].npoints;
}

void fat_end_seen(const struct fat_probe *p, size_t n, struct finding *f)
{
	unsigned kinds = 0;
	size_t k = f->value;
	double most;
	struct fat_probe mid = { .ns = { 0 } };
	char a[32], b[32];

	if (!f->determined || f->at_least || !k || k >= n)
		return;
	for (size_t i = 0; i < k; i++)
		kinds |= fat_faster(&p[i], &most);
	if (kinds != 1u << FAT_RANDOM)
		return;
	/* does the middle pay for random order at the block where the area ends? */
	mid.ns[FAT_RANDOM] = p[k].ref[FAT_LINEAR];
	mid.ref[FAT_RANDOM] = p[k].ref[FAT_RANDOM];
	if (fat_faster(&mid, &most) & 1u << FAT_RANDOM)
		return;
	f->at_least = 1;
	finding_cap(f, CONF_MEDIUM, "at least: past erase block %zu the middle's random-order writes cost no more "
		    "than its linear ones (%s and %s), so the probe could not tell a FAT block there", k - 1,
		    format_time(a, sizeof(a), p[k].ref[FAT_RANDOM]), format_time(b, sizeof(b), p[k].ref[FAT_LINEAR]));
}

/* What a trial-sized write took in the size sweep (0: not swept). */
static double sweep_pace(const struct auto_report *r)
{
	for (size_t i = 0; i < r->nchunks; i++)
		if (r->chunks[i].size == r->trial_chunk)
			return r->chunks[i].ns;
	return 0;
}

/* Copying one erase block at the card's write speed (the slope between
 * the sweep's two largest sizes); 0 when not known. */
static double copy_time(const struct auto_report *r)
{
	double rate;

	if (r->nchunks < 2 || r->chunks[0].ns <= r->chunks[1].ns || !r->write_erase)
		return 0;
	rate = (double)(r->chunks[0].size - r->chunks[1].size) * 1e9 / (r->chunks[0].ns - r->chunks[1].ns);
	return (double)r->write_erase * 1e9 / rate;
}

/* f was measured with what `from` found: no surer than it. */
static void derived_from(struct finding *f, const struct finding *from)
{
	enum confidence cap = from->determined ? from->conf : CONF_MEDIUM;

	finding_cap(f, cap, "no surer than the %s it was measured with (%s)", from->title,
		    from->determined ? confidence_name(from->conf) : "a stand-in: not determined");
}

void part_checks(struct auto_report *r, enum auto_phase p)
{
	struct finding *f = p == PHASE_OPEN_LINEAR ? &r->open_linear : &r->open_random;
	const struct open_trial *t = p == PHASE_OPEN_LINEAR ? r->lin : r->rnd;
	size_t n = p == PHASE_OPEN_LINEAR ? r->nlin : r->nrnd;

	switch (p) {
	case PHASE_OPEN_LINEAR:
	case PHASE_OPEN_RANDOM:
		open_baseline(f, r->write_ref, sweep_pace(r), r->trial_chunk);
		open_collapse_is_gc(f, t, n, r->write_ref, copy_time(r));
		if (p == PHASE_OPEN_RANDOM) /* judged against the linear search's healthy time and collapse */
			derived_from(f, &r->open_linear);
		/* the erase block may have lost confidence to the linear search */
		derived_from(&r->min_write, &r->erase);
		break;
	case PHASE_FAT:
		fat_end_seen(r->fat_probe, r->nfat, &r->fat);
		break;
	case PHASE_MIN_WRITE:
		min_write_order(r->chunks, r->nchunks, &r->min_write);
		/* the sweep wrote sizes up to the erase block into fresh ones of that size */
		derived_from(&r->min_write, &r->erase);
		break;
	default:
		break;
	}
}
