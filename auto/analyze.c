/* analyze.c — from measurements to findings and recommendations (analyze.h).
 *
 * The thresholds are relative to what was measured on this device: the noise
 * of two reads that should cost the same, the page-crossing cost, the
 * healthy time per write.  How flash works gives the shape of each claim:
 * crossing a boundary the card cares about costs extra; an erase block of
 * q*2^n bytes makes exactly every q-th multiple of 2^n a boundary; a write
 * below the minimum takes as long as the minimum; one open erase block too
 * many makes every write pay for garbage collection. */
#include "auto/analyze.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lines.h"
#include "lib/stats.h"
#include "lib/units.h"

/* ------------------------------------------------------------ thresholds
 * Every number the analysis decides with, in one place: name, value, why.
 * Times are never fixed: each is relative to what was measured on this
 * device (the noise of equal reads, a read's own time, the healthy write). */
/* reads: a step is a diff above 4 noises (the median |pre - post| of equal
 * reads; 4x keeps noise from faking one) ... */
#define READ_STEP_NOISES 4.0
/* ... and above 2% of a read (timer and bus jitter a noise-free median of
 * pre and post cannot show) */
#define READ_STEP_SHARE 0.02
/* a pre/post asymmetry is the card's when every row from some alignment up
 * shows it (at least ASYM_MIN_ROWS on either side of that alignment) and
 * the two levels lie ASYM_NOISES spreads of pre - post apart, the spread
 * never taken below ASYM_FLOOR of a read; noise could make a perfect split
 * of that size about once in a thousand tables of 20 rows */
#define ASYM_MIN_ROWS 3
#define ASYM_NOISES 6.0
#define ASYM_FLOOR 0.005
/* page: high (and medium without a second block size) needs a step this
 * many times the threshold */
#define PAGE_CLEAR 3.0
/* plot: an alignment above the page whose diffs exceed the page level by
 * 15% (or the step) is marked as the erase block's power-of-two part */
#define UPPER_STEP_SHARE 0.15
/* write trials: a collapse costs this many times the healthy write (one
 * erase block copied per write: far more on any card; pauses are kept out by
 * judging the upper quartile) */
#define COLLAPSE 2.5
/* random order: one erase block too many makes only one pay, a smaller step */
#define COLLAPSE_RANDOM 1.5
/* writes agree with the erase size when the copy a collapse costs is within
 * 2x of one erase block; beyond 4x they disagree (cards copy faster or
 * slower than they write: a doubt, never a refutation) */
#define COPY_AGREE 2.0
#define COPY_DISAGREE 4.0
/* min write: sigma of a median of 8 writes from their middle half
 * (interquartile range / 1.349 for one write, x 1.25 / sqrt(8) for a median) */
#define MINW_SIGMA_OF_SPREAD 0.33
/* ... but never below 0.2% of the time: jitter a spread of 8 cannot show */
#define MINW_SIGMA_FLOOR 0.002
/* the best minimum write must explain the sizes better than the next best
 * candidate by this much chi^2 (25: five sigma; 9: three sigma) */
/* the smallest size faster per byte than the largest by this much (beyond
 * the jitter of two medians) is not the flash's timing */
#define MINW_FASTER_SMALL 1.1
#define MINW_HIGH 25.0
/* two write times within this factor are "about as long" in the evidence */
#define MINW_SAME 1.25
#define MINW_MEDIUM 9.0
/* writes below the minimum that still pay for their own bytes (an
 * interface slower than the flash): that model is used when it explains
 * the sizes better than the flat one by this much chi^2 (five sigma: it
 * has one parameter more) */
#define MINW_BUS_GAIN 25.0
/* ... whose knee rests on the flash's share of the writes alone, with a
 * parameter more fitted: a sigma more for each level (16: four, 36: six) */
#define MINW_MEDIUM_BUS 16.0
/* ... and whose knee shows: the flash's time for the minimum at least this
 * many sigmas of that size's own median */
#define MINW_KNEE_SIGMAS 3.0
#define MINW_HIGH_BUS 36.0
/* the same size timed after the sweep: a card that went this much slower
 * or faster (and by more than MINW_DRIFT_SIGMAS of the two medians'
 * spread) changed pace during it (thermal throttling: 2-3x) */
#define MINW_DRIFT 1.3
#define MINW_DRIFT_SIGMAS 4.0
/* erase block: a candidate needs this many odd multiples and other
 * positions probed; high needs this many multiples in all, each costing
 * extra, and nothing else costing extra */
#define ERASE_MIN_ODD 3
#define ERASE_MIN_OTHERS 4
#define ERASE_HIGH_MULTIPLES 4
/* at most 1 in ERASE_FREE_SHARE multiples may cost nothing extra (real cards
 * leave some boundaries free; a divisor of the erase block misses half) */
#define ERASE_FREE_SHARE 3
/* a coarser lattice among the multiples that stands out on its own, the
 * lower third of its odd multiples costing this many times what the
 * multiples cost, leaves the erase block in doubt between the two */
#define ERASE_NESTED 2.0
/* the lower third of the multiples must lie this many standard errors
 * (of a difference of medians) above the other positions */
#define ERASE_Z 4.0
/* the odd multiples are what tells e from 2e: the lower third of them must
 * cost at least this share of what the even multiples cost above the other
 * positions (interleaved chips make every other boundary cost as little as
 * half; a divisor of the erase block has odd multiples that cost nothing,
 * and noise may lift them a little above the others, never this far) */
#define ERASE_ODD_SHARE 0.25
/* open erase blocks: high needs the collapse at the first count too many
 * to be less likely than this under the pauses the healthy trials showed */
#define OPEN_PAUSE_ODDS 1e-5
/* a coarser lattice among the others counts from this many standard errors */
#define ERASE_Z_COARSER 3.0
/* a step must exceed this many spreads of the single probes */
#define ERASE_NOISE_STEPS 4
/* high needs even costs: the costliest boundary at most this times the cheapest */
#define ERASE_EVEN 1.5
/* an erase block is determined only when the positions at its multiples
 * separate from every other position: the cheapest multiple costs more than
 * the costliest other by this many noises of a read (the spread of pre
 * against post, or of repeated rows); one row per alignment leaves no room
 * for an outlier, so any overlap means not determined */
#define ERASE_SEPARATE_NOISES 2.0
/* write cache: after writes that make the card collect garbage, linear
 * writes that take CACHE_LAG times their steady time are late (they waited
 * for earlier work); CACHE_MIN_LATE of them show a cache (one may pay for
 * its own erase block's opening, a rare pause for one more) */
#define CACHE_LAG 3.0
#define CACHE_MIN_LATE 3
/* ... in a long burst: late writes come in a run (the queued garbage
 * collections retire one after the other), pauses alone; CACHE_RUN_OF of
 * CACHE_RUN writes in a row late start the run */
#define CACHE_RUN 4
#define CACHE_RUN_OF 3
/* a cache that fills makes linear writes drop from the bus's speed to the
 * flash's: the median of CACHE_WINDOW writes in a row this much slower than
 * an earlier window, and the rest of the burst too (a drift of a few percent
 * or a pause cannot do it; a card whose bus and flash are this close is
 * one whose cache changes little) */
#define CACHE_DROP 1.4
#define CACHE_WINDOW 8
/* no cache: garbage collection paid as it happened, the later half of the
 * one-chunk-per-erase-block writes this many times a linear write */
#define CACHE_GC_PAID CACHE_LAG
/* FAT area: a kind of write at least this much faster than in the middle
 * (medians of 15 writes, reference timed right before) marks a FAT block */
#define FAT_FASTER 1.25
/* high confidence only if the FAT blocks are this far apart from the middle
 * and the first ordinary block is within FAT_SAME of it */
#define FAT_SHARP 2.0
#define FAT_SAME 1.15
/* a classic find-fat table (--analyze) compares with its own last erase
 * block, near the start too, at an erase size that may be a guess (4MiB
 * parts of a 16MiB erase block write alike, and unlike the next one), so a
 * FAT block there must write 1.5x faster or slower than that reference */
#define FAT_TABLE_APART 1.5

const char *confidence_name(enum confidence c)
{
	static const char *const n[] = { "none", "low", "medium", "high" };
	return n[c];
}

void finding_init(struct finding *f, const char *key, const char *title, int is_size)
{
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->title = title;
	f->is_size = is_size;
}

void finding_evidence(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lines_vadd(LINES(f->evidence, f->nevidence), 0, fmt, ap);
	va_end(ap);
}

void finding_not(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	f->determined = 0;
	f->conf = CONF_NONE;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

double analyze_median(double *v, size_t n)
{
	return stats_median(v, n);
}

static const char *fmt_time(char *buf, double ns)
{
	format_time(buf, 32, ns);
	return buf;
}

static const char *fmt_size(char *buf, uint64_t bytes)
{
	format_size(buf, 32, bytes);
	return buf;
}

/* ------------------------------------------------------------ page */

static int cmp_align(const void *a, const void *b)
{
	const struct align_row *x = a, *y = b;
	return (x->align > y->align) - (x->align < y->align);
}

/* Index (in ascending rows) of the smallest alignment from which every
 * diff exceeds step; n when none does. */
static size_t first_step(const struct align_row *r, size_t n, double step)
{
	size_t i = n;

	while (i > 0 && r[i - 1].diff > step)
		i--;
	return i;
}

/* Index (in ascending rows) of the smallest alignment from which every
 * diff exceeds the level of the rows below it (their median; none below
 * 0) by step: a step above a steady cost that every small row pays, not
 * that cost itself; n when there is none. */
static size_t level_step(const struct align_row *r, size_t n, double step)
{
	double *below = malloc((n ? n : 1) * sizeof(*below));

	if (!below)
		return first_step(r, n, step);
	for (size_t i = 0; i < n; i++) {
		double lo = r[i].diff, base;
		for (size_t j = i; j < n; j++)
			lo = fmin(lo, r[j].diff);
		for (size_t j = 0; j < i; j++)
			below[j] = r[j].diff;
		base = fmax(0, stats_median(below, i));
		if (lo > base + step) {
			free(below);
			return i;
		}
	}
	free(below);
	return n;
}

static struct align_row *sorted_rows(const struct align_row *rows, size_t n)
{
	struct align_row *r = malloc((n ? n : 1) * sizeof(*r));

	if (!r)
		return NULL;
	if (n)
		memcpy(r, rows, n * sizeof(*r));
	qsort(r, n, sizeof(*r), cmp_align);
	return r;
}

/* The spread of pre - post around o_lo below row s and o_hi from it: the
 * median distance (*sum: the sum of them, which every row moves). */
static double split_spread(const struct align_row *r, size_t n, size_t s, double o_lo, double o_hi, double *tmp,
			   double *sum)
{
	*sum = 0;
	for (size_t i = 0; i < n; i++) {
		tmp[i] = fabs(r[i].pre - r[i].post - (i < s ? o_lo : o_hi));
		*sum += tmp[i];
	}
	return stats_median(tmp, n);
}

/* The median of pre - post over rows [a, b). */
static double offset_of(const struct align_row *r, size_t a, size_t b, double *tmp)
{
	for (size_t i = a; i < b; i++)
		tmp[i - a] = r[i].pre - r[i].post;
	return stats_median(tmp, b - a);
}

void pre_post_noise(const struct align_row *r, size_t n, double *tmp, struct read_levels *lv)
{
	double offset = offset_of(r, 0, n, tmp), best, sum;
	size_t at = 0;

	lv->asym_from = 0;
	lv->asym_ns = lv->asym_lo = lv->asym_hi = 0;
	lv->noise = split_spread(r, n, 0, offset, offset, tmp, &best);
	/* the split that explains pre - post best (least absolute distance),
	 * with ASYM_MIN_ROWS rows on either side */
	for (size_t s = ASYM_MIN_ROWS; s + ASYM_MIN_ROWS <= n; s++) {
		double lo = offset_of(r, 0, s, tmp), hi = offset_of(r, s, n, tmp);
		split_spread(r, n, s, lo, hi, tmp, &sum);
		if (sum < best) {
			best = sum;
			at = s;
		}
	}
	if (!at)
		return;
	{
		double lo = offset_of(r, 0, at, tmp), hi = offset_of(r, at, n, tmp), mid = (lo + hi) / 2;
		double top = -1e300, bottom = 1e300, sp = split_spread(r, n, at, lo, hi, tmp, &sum);
		int up = hi > lo;
		/* every row on its own side of the middle, and the two levels
		 * ASYM_NOISES spreads apart */
		for (size_t i = 0; i < n; i++) {
			double x = r[i].pre - r[i].post;
			if ((i >= at) != (up ? x > mid : x < mid))
				return;
			if (i >= at) {
				top = fmax(top, x - lo);
				bottom = fmin(bottom, x - lo);
			}
		}
		if (fabs(hi - lo) < ASYM_NOISES * fmax(sp, ASYM_FLOOR * fabs(r[0].post)))
			return;
		lv->noise = sp;
		lv->asym_from = r[at].align;
		lv->asym_ns = hi - lo;
		lv->asym_lo = up ? bottom : top;
		lv->asym_hi = up ? top : bottom;
	}
}

void analyze_page(const struct align_row *rows, size_t n, uint64_t bs,
		  const struct align_row *rows2, size_t n2, uint64_t bs2,
		  struct finding *page, struct read_levels *lv)
{
	analyze_page_steady(rows, n, bs, rows2, n2, bs2, 0, page, lv);
}

void analyze_page_steady(const struct align_row *rows, size_t n, uint64_t bs,
			 const struct align_row *rows2, size_t n2, uint64_t bs2, int steady,
			 struct finding *page, struct read_levels *lv)
{
	struct align_row *r = sorted_rows(rows, n), *r2 = sorted_rows(rows2, n2);
	double *tmp = malloc((n + n2 + 1) * sizeof(double));
	char a[32], b[32], c[32], d[32], e[32];
	size_t i, i2 = 0;
	int agree = 0, have2 = 0;

	finding_init(page, "page", "page size (read unit)", 1);
	memset(lv, 0, sizeof(*lv));
	if (!r || !r2 || !tmp || n < 3) {
		finding_not(page, "too few alignment measurements");
		goto out;
	}
	pre_post_noise(r, n, tmp, lv);
	for (i = 0; i < n; i++)
		tmp[i] = r[i].pre;
	lv->step = fmax(READ_STEP_NOISES * lv->noise, READ_STEP_SHARE * stats_median(tmp, n));

	i = steady ? level_step(r, n, lv->step) : first_step(r, n, lv->step);
	if (i == n) {
		finding_not(page, "no boundary from %s to %s costs more to read across than %s "
			    "(alignment does not seem to matter for reads)",
			    fmt_size(a, r[0].align), fmt_size(b, r[n - 1].align), fmt_time(c, lv->step));
		goto out;
	}
	if (i == 0) {
		page->determined = 1;
		page->value = r[0].align;
		page->conf = CONF_LOW;
		finding_evidence(page, "every boundary down to %s costs %s or more to read across; "
				 "the read unit may be smaller (try a smaller block size)",
				 fmt_size(a, r[0].align), fmt_time(b, r[0].diff));
		lv->unit = r[0].align;
		lv->page_diff = r[0].diff;
		goto out;
	}
	lv->unit = r[i].align;
	{ /* the page level: the diffs at the next few alignments */
		size_t k, m = 0;
		for (k = i; k < n && k < i + 3; k++)
			tmp[m++] = r[k].diff;
		lv->page_diff = stats_median(tmp, m);
	}
	page->determined = 1;
	page->value = lv->unit;
	fmt_size(b, r[i].align);
	fmt_size(d, r[i - 1].align);
	finding_evidence(page, "with %s reads, crossing %s %s boundary costs %s, crossing %s %s boundary %s",
			 fmt_size(a, bs), article(b), b, fmt_time(c, r[i].diff), article(d), d, fmt_time(e, r[i - 1].diff));
	if (n2 >= 2) {
		size_t j = steady ? level_step(r2, n2, lv->step) : first_step(r2, n2, lv->step);
		have2 = 1;
		if (lv->unit < r2[0].align)
			agree = j == 0; /* too small to see with the larger blocks */
		else
			agree = j < n2 && r2[j].align == lv->unit;
		i2 = j;
		if (agree)
			finding_evidence(page, "reads of %s show the same step%s", fmt_size(a, bs2),
					 lv->unit < r2[0].align ? " (every boundary they can see costs extra)" : "");
		else
			finding_evidence(page, "reads of %s disagree: their step is at %s", fmt_size(a, bs2),
					 i2 < n2 ? fmt_size(b, r2[i2].align) : "no alignment");
	}
	if (agree && r[i].diff >= PAGE_CLEAR * lv->step)
		page->conf = CONF_HIGH;
	else if (agree || (!have2 && r[i].diff >= PAGE_CLEAR * lv->step))
		page->conf = CONF_MEDIUM;
	else
		page->conf = CONF_LOW;
out:
	free(r);
	free(r2);
	free(tmp);
}

void page_plausible(struct finding *page, uint64_t dev_size)
{
	char a[32], c[32];

	if (page->determined && (page->value > PAGE_MAX || 4 * page->value > dev_size)) {
		finding_not(page, "reads step at %s boundaries, but a read unit that large is not plausible (larger than "
			    "%s or a quarter of the device)", fmt_size(a, page->value),
			    fmt_size(c, PAGE_MAX));
		page->nevidence = 0;
	}
}

uint64_t align_upper_step(const struct align_row *rows, size_t n, const struct read_levels *lv)
{
	struct align_row *r = sorted_rows(rows, n);
	uint64_t found = 0;
	size_t i;

	if (!r || !lv->unit) {
		free(r);
		return 0;
	}
	i = first_step(r, n, lv->page_diff + fmax(lv->step, UPPER_STEP_SHARE * lv->page_diff));
	if (i < n && r[i].align > lv->unit)
		found = r[i].align;
	free(r);
	return found;
}

/* ------------------------------------------------------------ erase */

/* One boundary position of the scan: the median of its probes (a position
 * is probed at several levels: j*A at level A is also j/2*2A). */
struct spot {
	uint64_t pos;
	double d;
};

static int cmp_spot(const void *a, const void *b)
{
	const struct spot *x = a, *y = b;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Distinct probed positions with the median of their probes; returns how
 * many (out has room for every probe).  A probe that is not a number (its
 * reads found no data: --auto on a card that answers those from its
 * mapping table) is left out. */
static size_t scan_spots(const struct scan_level *lv, size_t n, struct spot *out, double *v)
{
	size_t m = 0, k = 0;

	for (size_t L = 0; L < n; L++)
		for (unsigned j = 1; j <= lv[L].npoints; j++) {
			if (isnan(lv[L].d[j - 1]))
				continue;
			out[m].pos = j * lv[L].step;
			out[m++].d = lv[L].d[j - 1];
		}
	qsort(out, m, sizeof(*out), cmp_spot);
	for (size_t i = 0; i < m;) {
		size_t e = i, nv = 0;
		while (e < m && out[e].pos == out[i].pos)
			v[nv++] = out[e++].d;
		out[k].pos = out[i].pos;
		out[k++].d = stats_median(v, nv);
		i = e;
	}
	return k;
}

/* The positions at multiples of e against all the others: each group's
 * cheapest and costliest, and where. */
struct separation {
	unsigned nin, nout;
	double in_lo, in_hi, out_lo, out_hi;
	uint64_t in_lo_at, out_hi_at;
};

static void separate(const struct spot *sp, size_t n, uint64_t e, struct separation *s)
{
	memset(s, 0, sizeof(*s));
	s->in_lo = s->out_lo = 1e300;
	s->in_hi = s->out_hi = -1e300;
	for (size_t i = 0; i < n; i++) {
		double d = sp[i].d;
		if (sp[i].pos % e == 0) {
			s->nin++;
			if (d < s->in_lo) {
				s->in_lo = d;
				s->in_lo_at = sp[i].pos;
			}
			s->in_hi = fmax(s->in_hi, d);
		} else {
			s->nout++;
			if (d > s->out_hi) {
				s->out_hi = d;
				s->out_hi_at = sp[i].pos;
			}
			s->out_lo = fmin(s->out_lo, d);
		}
	}
}

/* Do the multiples stand apart from every other position by margin? */
static int separated(const struct separation *s, double margin)
{
	return s->nin && s->nout && s->in_lo - s->out_hi > margin;
}

/* Why e is not determined: the two groups overlap, or lie too close. */
static void not_separated(struct finding *erase, uint64_t e, const struct separation *s, double margin)
{
	char a[32], b[32], c[32], d[32], g[32], h[32], k[32], l[32], m[32];

	fmt_size(a, e);
	fmt_time(b, s->in_lo);
	fmt_time(c, s->in_hi);
	fmt_time(d, s->out_lo);
	fmt_time(g, s->out_hi);
	fmt_size(h, s->out_hi_at);
	fmt_time(k, s->out_hi);
	fmt_size(l, s->in_lo_at);
	/* "460µs", not "460µs to 460µs" */
	if (!strcmp(b, c))
		c[0] = '\0';
	if (!strcmp(d, g))
		g[0] = '\0';
	if (s->in_lo <= s->out_hi)
		finding_not(erase, "crossing a multiple of %s costs %s%s%s (%u rows), crossing the %u others %s%s%s: "
			    "they overlap (%s costs %s, %s %s's %s), so no step is determined", a, b, c[0] ? " to " : "", c,
			    s->nin, s->nout, d, g[0] ? " to " : "", g, h, k, s->in_lo < s->out_hi ? "more than" : "as much as",
			    l, fmt_time(m, s->in_lo));
	else
		finding_not(erase, "crossing a multiple of %s costs %s%s%s (%u rows), crossing the %u others %s%s%s: "
			    "only %s apart, less than %g x the reads' own noise (%s), so no step is determined", a, b,
			    c[0] ? " to " : "", c, s->nin, s->nout, d, g[0] ? " to " : "", g,
			    fmt_time(h, s->in_lo - s->out_hi), ERASE_SEPARATE_NOISES, fmt_time(k, margin / ERASE_SEPARATE_NOISES));
}


/* Standard error of a difference of two medians of na and nb values. */
static double median_se(double sigma, size_t na, size_t nb)
{
	return 1.2533 * sigma * sqrt(1.0 / (double)na + 1.0 / (double)nb);
}

/* How well "the erase block is e" explains the scan, judged with rank
 * statistics so that uneven boundary costs (interleaved chips, a spread from
 * block to block) and a share of free boundaries do not move the verdict.
 * The odd multiples of e (S) must cost clearly more than the positions that
 * are not multiples (N): the lower third of S lies significantly above the
 * median of N (so at most a third may be free; for a divisor of the erase
 * block, most odd multiples are no boundary).  And no finer lattice hides
 * among N (multiples of e/2 or e/3 costing more than the rest: then the
 * erase block is smaller and e one of its multiples). */
struct fit {
	unsigned multiples, others, misses, falses;
	/* the finer lattice e/q (q = 2, 3) that the probes do not rule out:
	 * most of its other multiples probed cost extra (finer_hits of
	 * finer_n), or none was probed; 0 when every finer one is ruled out */
	unsigned finer_q, finer_hits, finer_n;
	double base, extra, lo, hi;   /* median of N; median, lowest and highest of M above base */
	double gap;                   /* lower third of S - median of N */
	double z;                     /* gap in standard errors */
	int holds;
};

static void fit_erase(const struct spot *sp, size_t n, uint64_t e, uint64_t finest, double te, double *w,
		      struct fit *f)
{
	double *vm = w, *vn = w + n, *tmp = w + 2 * n, theta, sigma;
	unsigned nm = 0, nn = 0, nodd = 0, neven = 0;
	double even = 0;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < n; i++)
		if (sp[i].pos % e == 0 && sp[i].pos / e % 2 == 0)
			vn[neven++] = sp[i].d;
	if (neven)
		even = stats_median(vn, neven);
	for (size_t i = 0; i < n; i++)
		if (sp[i].pos % e == 0 && sp[i].pos / e % 2)
			tmp[nodd++] = sp[i].d;
	for (size_t i = 0; i < n; i++) {
		if (sp[i].pos % e == 0)
			vm[nm++] = sp[i].d;
		else
			vn[nn++] = sp[i].d;
	}
	f->multiples = nm;
	f->others = nn;
	if (nodd < ERASE_MIN_ODD || nn < ERASE_MIN_OTHERS)
		return;
	f->gap = stats_quantile(tmp, nodd, 1.0 / ERASE_FREE_SHARE);
	sigma = stats_mad(vn, nn, tmp);
	f->base = stats_median(vn, nn);
	f->gap -= f->base;
	f->extra = stats_median(vm, nm) - f->base;
	f->z = sigma > 0 ? f->gap / median_se(sigma, nodd, nn) : f->gap > 0 ? 1e9 : 0;
	theta = f->base + f->extra / 2;
	f->lo = 1e300;
	f->hi = -1e300;
	for (unsigned i = 0; i < nm; i++) {
		f->misses += vm[i] <= theta;
		if (vm[i] > theta) {
			f->lo = fmin(f->lo, vm[i] - f->base);
			f->hi = fmax(f->hi, vm[i] - f->base);
		}
	}
	for (unsigned i = 0; i < nn; i++)
		f->falses += vn[i] > theta;
	for (uint64_t q = 2; q <= 3 && !f->finer_q; q++) {
		unsigned hits = 0, k = 0;
		if (e % q || e / q < finest)
			continue;
		for (size_t i = 0; i < n; i++)
			if (sp[i].pos % e && sp[i].pos % (e / q) == 0) {
				k++;
				hits += sp[i].d > theta;
			}
		/* most cost extra, or none was probed (reads left out where
		 * the card holds no data): e/q is not ruled out */
		if (2 * hits > k || k == 0) {
			f->finer_q = (unsigned)q;
			f->finer_hits = hits;
			f->finer_n = k;
		}
	}
	f->holds = f->gap > te && f->z >= ERASE_Z && (!neven || f->gap >= ERASE_ODD_SHARE * (even - f->base));
	for (uint64_t q = 2; q <= 3 && f->holds; q++) {
		uint64_t d = e / q;
		unsigned nd = 0, nr = 0;
		double gd;
		if (e % q || d < finest)
			continue;
		for (size_t i = 0; i < n; i++)
			if (sp[i].pos % e) {
				if (sp[i].pos % d == 0)
					vm[nd++] = sp[i].d;
				else
					tmp[nr++] = sp[i].d;
			}
		if (nd < 2 || nr < 2)
			continue;
		gd = stats_median(vm, nd) - stats_median(tmp, nr);
		if (gd > te && (sigma <= 0 || gd >= ERASE_Z_COARSER * median_se(sigma, nd, nr)))
			f->holds = 0;
	}
}

/* A coarser lattice d among the multiples of e: the lower third of what its
 * multiples cost above base, when that is ERASE_NESTED times what the other
 * multiples of e cost (median) and both have enough positions; else 0. */
static double nested_gap(const struct spot *sp, size_t n, uint64_t e, uint64_t d, double base, double *w)
{
	double *vd = w, *vr = w + n;
	unsigned nd = 0, nr = 0;
	double lo, rest;

	for (size_t i = 0; i < n; i++)
		if (sp[i].pos % d == 0)
			vd[nd++] = sp[i].d;
		else if (sp[i].pos % e == 0)
			vr[nr++] = sp[i].d;
	if (nd < ERASE_MIN_ODD || nr < ERASE_MIN_OTHERS)
		return 0;
	lo = stats_quantile(vd, nd, 1.0 / ERASE_FREE_SHARE) - base;
	rest = stats_median(vr, nr) - base;
	return rest > 0 && lo >= ERASE_NESTED * rest ? lo : 0;
}

/* Noise of single probes: spread of the lower quarter of the first level
 * (which lies below the erase size unless the erase block is tiny). */
static double probe_noise(const struct scan_level *l)
{
	double v[SCAN_POINTS];
	unsigned n = 0;

	for (unsigned j = 0; j < l->npoints; j++)
		if (!isnan(l->d[j])) /* left out: no data there */
			v[n++] = l->d[j];
	if (n < 4)
		return 0;
	qsort(v, n, sizeof(v[0]), stats_cmp_double);
	return v[n / 4] - v[n / 16];
}

/* Whether the device size is a multiple of the erase block (a cross-check). */
static void size_evidence(struct finding *erase, uint64_t dev_size, uint64_t e)
{
	char a[32];

	if (dev_size % e == 0)
		finding_evidence(erase, "the device size is %llu x %s", (unsigned long long)(dev_size / e), fmt_size(a, e));
	else
		finding_evidence(erase, "the device size is not a multiple of %s (common: cards hide spare blocks)",
				 fmt_size(a, e));
}

/* The largest diff of the align rows (for "not determined" notes). */
static double largest_diff(const struct align_row *rows, size_t nrows)
{
	double top = 0;

	for (size_t k = 0; k < nrows; k++)
		top = fmax(top, rows[k].diff);
	return top;
}

/* Sparse probes (one per level, as the alignments of a classic -a table):
 * too few for rank statistics; a two-cluster split, and the smallest size
 * whose multiples explain (nearly) every probe. */
static int is_boundary(double d, double base, double te)
{
	return d > base + te;
}

/* How well "every multiple of e is a boundary" explains all levels. */
struct fit_exact {
	unsigned points, mismatches, predicted, seen;
	double extra;      /* mean extra cost at the boundaries seen */
};

static void fit_exact(const struct scan_level *lv, size_t n, double base, double te, uint64_t e, struct fit_exact *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t L = 0; L < n; L++)
		for (unsigned j = 1; j <= lv[L].npoints; j++) {
			int want = (j * lv[L].step) % e == 0, got = is_boundary(lv[L].d[j - 1], base, te);
			f->points++;
			f->predicted += want;
			f->mismatches += want != got;
			if (got) {
				f->seen++;
				f->extra += lv[L].d[j - 1] - base;
			}
		}
	if (f->seen)
		f->extra /= f->seen;
}

/* Two-means split of all probes; returns the threshold between the
 * clusters, or 0 when they are not clearly apart (no boundary shows). */
static double boundary_split(const struct scan_level *lv, size_t n, double base, double te)
{
	double lo = 1e300, hi = -1e300, noise = probe_noise(&lv[0]);

	for (size_t L = 0; L < n; L++)
		for (unsigned j = 0; j < lv[L].npoints; j++) {
			lo = fmin(lo, lv[L].d[j]);
			hi = fmax(hi, lv[L].d[j]);
		}
	for (int it = 0; it < 50; it++) {
		double mid = (lo + hi) / 2, s0 = 0, s1 = 0;
		unsigned n0 = 0, n1 = 0;
		for (size_t L = 0; L < n; L++)
			for (unsigned j = 0; j < lv[L].npoints; j++) {
				double x = lv[L].d[j];
				if (x > mid) {
					s1 += x;
					n1++;
				} else {
					s0 += x;
					n0++;
				}
			}
		if (!n0 || !n1)
			return 0;
		lo = s0 / n0;
		hi = s1 / n1;
	}
	if (hi - lo < fmax(te, 4 * noise) || hi < base + te)
		return 0;
	return (lo + hi) / 2;
}

static void erase_sparse(const struct scan_level *lv, size_t n, const struct read_levels *rl,
			 const struct align_row *rows, size_t nrows, uint64_t dev_size, struct finding *erase)
{
	double base = rl->page_diff, te = rl->step, split;
	char a[32], b[32], c[32], d[32];

	/* Each probe is a single position, noisier than the averaged align
	 * rows: split the probes into two clusters and call a boundary whatever
	 * lies above the middle, if the clusters are far enough apart. */
	split = boundary_split(lv, n, base, te);
	if (split > 0)
		te = split - base;
	/* candidates: at the first level that shows any boundary, e = q * step
	 * for the first boundary j = q; keep the first candidate that explains
	 * every level (noise may fake a boundary at a low level) */
	for (size_t L = 0; L < n; L++) {
		const struct scan_level *l = &lv[L];
		unsigned q = 0, allowed;
		struct fit_exact f;
		uint64_t e;

		for (unsigned j = 1; j <= l->npoints && !q; j++)
			if (is_boundary(l->d[j - 1], base, te))
				q = j;
		if (!q)
			continue;
		e = (uint64_t)q * l->step;
		if (e > MAX_ERASE_BLOCK)
			break; /* only larger candidates follow */
		fit_exact(lv + L, n - L, base, te, e, &f);
		allowed = f.points / 20 > 1 ? f.points / 20 : 1;
		if (f.predicted < 2 || f.mismatches > allowed)
			continue;
		{ /* the pattern must separate the rows, not just fit them */
			size_t np = 0;
			struct spot *sp;
			double *v, margin = ERASE_SEPARATE_NOISES * rl->noise;
			struct separation sep;
			for (size_t k = 0; k < n; k++)
				np += lv[k].npoints;
			sp = malloc((np ? np : 1) * sizeof(*sp));
			v = malloc((np ? np : 1) * sizeof(*v));
			if (!sp || !v) {
				free(sp);
				free(v);
				finding_not(erase, "out of memory");
				return;
			}
			separate(sp, scan_spots(lv, n, sp, v), e, &sep);
			free(sp);
			free(v);
			if (!separated(&sep, margin)) {
				not_separated(erase, e, &sep, margin);
				return;
			}
		}
		erase->determined = 1;
		erase->value = e;
		{ /* describe the finest level where two boundaries show */
			size_t k = L;
			while (k + 1 < n && (uint64_t)2 * e > (uint64_t)lv[k].npoints * lv[k].step)
				k++;
			finding_evidence(erase, "reads across multiples of %s cost %s more than across page boundaries; "
					 "probing every %s, exactly the multiples of %s do", fmt_size(a, e), fmt_time(b, f.extra),
					 fmt_size(c, lv[k].step), fmt_size(d, e));
		}
		finding_evidence(erase, "%u of %u probes from %s to %s fit that pattern%s", f.points - f.mismatches,
				 f.points, fmt_size(a, l->step), fmt_size(b, lv[n - 1].step * lv[n - 1].npoints),
				 f.mismatches ? " (noise in the rest)" : "");
		size_evidence(erase, dev_size, e);
		if (f.mismatches == 0 && f.predicted >= 4 && f.extra >= 2 * te)
			erase->conf = CONF_HIGH;
		else if (f.mismatches <= 1 && f.predicted >= 3)
			erase->conf = CONF_MEDIUM;
		else
			erase->conf = CONF_LOW;
		return;
	}
	fmt_size(a, lv[0].step);
	fmt_size(b, lv[n - 1].step * lv[n - 1].npoints);
	if (split <= 0)
		finding_not(erase, "no boundary from %s to %s costs clearly more to read across than page boundaries", a, b);
	else
		finding_not(erase, "no regular pattern of boundaries from %s to %s that cost more to read across "
			    "than page boundaries (largest align diff %s, threshold %s)", a, b,
			    fmt_time(c, largest_diff(rows, nrows)), fmt_time(d, base + te));
}

void analyze_erase(const struct scan_level *lv, size_t n, const struct read_levels *rl,
		   const struct align_row *rows, size_t nrows, uint64_t dev_size, struct finding *erase)
{
	double te, *work;
	unsigned nvalid = 0;
	int stands_out = 0;
	struct spot *sp;
	struct fit f, best_fit;
	struct separation sep;
	size_t ns;
	uint64_t best = 0, deeper = 0; /* deeper: a coarser lattice, far dearer */
	double deeper_extra = 0;
	char a[32], b[32], c[32], d[32];

	finding_init(erase, "erase_block", "erase block size", 1);
	if (!n) {
		finding_not(erase, "the device is too small to scan for erase-block boundaries");
		return;
	}
	{
		int dense = 0;
		for (size_t L = 0; L < n; L++)
			dense |= lv[L].npoints >= 4;
		if (!dense) {
			erase_sparse(lv, n, rl, rows, nrows, dev_size, erase);
			return;
		}
	}
	sp = malloc(n * SCAN_POINTS * sizeof(*sp));
	work = malloc(3 * n * SCAN_POINTS * sizeof(*work));
	if (!sp || !work) {
		free(sp);
		free(work);
		finding_not(erase, "out of memory");
		return;
	}
	ns = scan_spots(lv, n, sp, work);
	/* a step must stand out from the noise of the align rows and of the
	 * single probes alike */
	te = fmax(rl->step, ERASE_NOISE_STEPS * probe_noise(&lv[0]));
	/* Candidates: every 2^k and 3x2^k from the finest step up.  A divisor
	 * of the erase block fails (half or more of its multiples are not
	 * boundaries), a multiple fails (boundaries among the others); the
	 * candidate with the fewest errors wins. */
	for (uint64_t p2 = lv[0].step; p2 <= MAX_ERASE_BLOCK; p2 *= 2)
		for (uint64_t q = 1; q <= 3; q += 2) {
			uint64_t e = q * p2;
			if (e > MAX_ERASE_BLOCK)
				continue;
			fit_erase(sp, ns, e, lv[0].step, te, work, &f);
			stands_out |= f.gap > te;
			if (!f.holds)
				continue;
			/* the smallest that holds; more than one is a doubt */
			nvalid++;
			if (!best || e < best) {
				best = e;
				best_fit = f;
			}
		}
	/* a coarser lattice among its multiples whose own multiples cost far
	 * more than the other multiples of best do */
	for (uint64_t p2 = lv[0].step; best && p2 <= MAX_ERASE_BLOCK; p2 *= 2)
		for (uint64_t q = 1; q <= 3; q += 2) {
			uint64_t e = q * p2;
			double g;
			if (e <= best || e > MAX_ERASE_BLOCK || e % best)
				continue;
			g = nested_gap(sp, ns, best, e, best_fit.base, work);
			if (g > te && g > deeper_extra) {
				deeper = e;
				deeper_extra = g;
			}
		}
	if (best)
		separate(sp, ns, best, &sep);
	free(sp);
	free(work);
	if (best) {
		uint64_t e = best;
		f = best_fit;
		erase->determined = 1;
		erase->value = e;
		if (f.hi > 1.05 * f.lo)
			finding_evidence(erase, "reads across multiples of %s cost %s more than across other boundaries "
					 "(median; from %s to %s)", fmt_size(a, e), fmt_time(b, f.extra), fmt_time(c, f.lo),
					 fmt_time(d, f.hi));
		else
			finding_evidence(erase, "reads across multiples of %s cost %s more than across other boundaries",
					 fmt_size(a, e), fmt_time(b, f.extra));
		if (f.misses || f.falses)
			finding_evidence(erase, "%u of %u multiples of %s probed from %s to %s cost extra, and %u of %u other "
					 "positions (free boundaries or noise)", f.multiples - f.misses, f.multiples,
					 fmt_size(a, e), fmt_size(b, lv[0].step), fmt_size(c, lv[n - 1].step * lv[n - 1].npoints),
					 f.falses, f.others);
		else
			finding_evidence(erase, "all %u multiples of %s probed from %s to %s cost extra, none of the %u other "
					 "positions", f.multiples, fmt_size(a, e), fmt_size(b, lv[0].step),
					 fmt_size(c, lv[n - 1].step * lv[n - 1].npoints), f.others);
		size_evidence(erase, dev_size, e);
		/* high: every multiple and nothing else, far apart, at an even
		 * cost, and no finer lattice left open; uneven costs or free
		 * boundaries leave room for another reading of the pattern */
		if (deeper) {
			/* two nested lattices stand out, the coarser one far
			 * dearer: a finer structure (or noise that follows it)
			 * under the erase block looks alike */
			erase->conf = CONF_LOW;
			finding_evidence(erase, "low: multiples of %s cost %s more, %.1fx what the other multiples of %s "
					 "cost: the erase block may be %s", fmt_size(a, deeper), fmt_time(b, deeper_extra),
					 deeper_extra / f.extra, fmt_size(c, e), fmt_size(d, deeper));
		} else if (f.finer_q) {
			/* the pattern held against the finer lattice as a whole,
			 * but that lattice is not ruled out: most of its other
			 * multiples cost extra too (an erase block of e/q with
			 * uneven boundaries looks alike), or none was probed */
			erase->conf = CONF_LOW;
			if (f.finer_n)
				finding_evidence(erase, "low: %u of the %u other multiples of %s probed cost extra too: the "
						 "erase block may be %s", f.finer_hits, f.finer_n, fmt_size(a, e / f.finer_q),
						 fmt_size(b, e / f.finer_q));
			else
				finding_evidence(erase, "low: no other multiple of %s was probed: the erase block may be %s",
						 fmt_size(a, e / f.finer_q), fmt_size(b, e / f.finer_q));
		} else if (f.misses == 0 && f.falses == 0 && f.multiples >= ERASE_HIGH_MULTIPLES && f.gap >= 2 * te &&
			   f.hi <= ERASE_EVEN * f.lo && nvalid == 1 && separated(&sep, te))
			erase->conf = CONF_HIGH;
		else if (f.misses * ERASE_FREE_SHARE > f.multiples) {
			/* the odd multiples held, but over all of them more are
			 * free than a card leaves free: a divisor of the erase
			 * block whose multiples meet noise looks alike */
			erase->conf = CONF_LOW;
			finding_evidence(erase, "low: %u of the %u multiples cost nothing extra, more than 1 in %d", f.misses,
					 f.multiples, ERASE_FREE_SHARE);
		} else
			erase->conf = CONF_MEDIUM;
		if (4 * e > dev_size) {
			finding_not(erase, "a pattern every %s would make the erase block larger than a quarter of the "
				    "device: not plausible", fmt_size(a, e));
			erase->nevidence = 0;
		}
		return;
	}
	fmt_size(a, lv[0].step);
	fmt_size(b, lv[n - 1].step * lv[n - 1].npoints);
	if (!stands_out)
		finding_not(erase, "no boundary from %s to %s costs clearly more to read across than page boundaries", a, b);
	else
		finding_not(erase, "no spacing from %s to %s whose multiples cost clearly more to read across than "
			    "the other boundaries (largest align diff %s, step %s)", a, b,
			    fmt_time(c, largest_diff(rows, nrows)), fmt_time(d, te));
}

void erase_needs_pages(const struct finding *page, struct finding *erase)
{
	if (page->determined || !erase->determined || erase->conf <= CONF_LOW)
		return;
	erase->conf = CONF_LOW;
	finding_evidence(erase, "reads show no read-unit steps to back this pattern: it may be noise (low)");
}

/* ------------------------------------------------------------ min write */

/* The model of a write of s bytes when the minimum write is m: a fixed cost
 * plus the transfer of max(s, m) bytes.  Fit a + b*max(s, m) by weighted
 * least squares (weights 1/sigma^2 of each median); returns chi^2. */
double hockey_fit(const struct chunk_time *t, const double *w, size_t n, uint64_t m, double *a, double *b)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, chi = 0;

	for (size_t k = 0; k < n; k++) {
		double x = (double)(t[k].size > m ? t[k].size : m);
		sw += w[k];
		sx += w[k] * x;
		sy += w[k] * t[k].ns;
		sxx += w[k] * x * x;
		sxy += w[k] * x * t[k].ns;
	}
	*b = sw * sxx - sx * sx > 0 ? (sw * sxy - sx * sy) / (sw * sxx - sx * sx) : 0;
	*a = (sy - *b * sx) / sw;
	for (size_t k = 0; k < n; k++) {
		double x = (double)(t[k].size > m ? t[k].size : m), r = t[k].ns - (*a + *b * x);
		chi += w[k] * r * r;
	}
	return chi;
}

double hockey_fit_bus(const struct chunk_time *t, const double *w, size_t n, uint64_t m, double *a, double *b,
		      double *c)
{
	/* weighted sums for the normal equations of y = a + b*x1 + c*x2 */
	double S = 0, S1 = 0, S2 = 0, S11 = 0, S12 = 0, S22 = 0, Sy = 0, S1y = 0, S2y = 0, det, chi = 0;
	double A[3][3], r[3];

	for (size_t k = 0; k < n; k++) {
		double x1 = (double)t[k].size, x2 = (double)(t[k].size > m ? t[k].size : m), y = t[k].ns;
		S += w[k];
		S1 += w[k] * x1;
		S2 += w[k] * x2;
		S11 += w[k] * x1 * x1;
		S12 += w[k] * x1 * x2;
		S22 += w[k] * x2 * x2;
		Sy += w[k] * y;
		S1y += w[k] * x1 * y;
		S2y += w[k] * x2 * y;
	}
	A[0][0] = S; A[0][1] = S1; A[0][2] = S2;
	A[1][0] = S1; A[1][1] = S11; A[1][2] = S12;
	A[2][0] = S2; A[2][1] = S12; A[2][2] = S22;
	r[0] = Sy; r[1] = S1y; r[2] = S2y;
	det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
	      A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
	/* every size above m (or none below it: then x2 is x1, or a
	 * constant): no bus slope to tell apart, the flat model decides */
	if (fabs(det) <= 1e-12 * fabs(A[0][0] * A[1][1] * A[2][2]) || det == 0) {
		*b = 0;
		return hockey_fit(t, w, n, m, a, c);
	}
	*a = (r[0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (r[1] * A[2][2] - A[1][2] * r[2]) +
	      A[0][2] * (r[1] * A[2][1] - A[1][1] * r[2])) / det;
	*b = (A[0][0] * (r[1] * A[2][2] - A[1][2] * r[2]) - r[0] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
	      A[0][2] * (A[1][0] * r[2] - r[1] * A[2][0])) / det;
	*c = (A[0][0] * (A[1][1] * r[2] - r[1] * A[2][1]) - A[0][1] * (A[1][0] * r[2] - r[1] * A[2][0]) +
	      r[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0])) / det;
	if (*b < 0) { /* no write gets cheaper for being longer: the flat model */
		*b = 0;
		return hockey_fit(t, w, n, m, a, c);
	}
	for (size_t k = 0; k < n; k++) {
		double x1 = (double)t[k].size, x2 = (double)(t[k].size > m ? t[k].size : m);
		double d = t[k].ns - (*a + *b * x1 + *c * x2);
		chi += w[k] * d * d;
	}
	return chi;
}

void analyze_min_write(const struct chunk_time *t, size_t n, struct finding *f)
{
	double w[64], chi[64], chi2[2][64], a, b, bus = 0, best_chi = 1e300, worst_alt = 1e300, scale, typical;
	double model_chi[2];
	size_t model_best[2];
	int use_bus = 0;
	size_t k, best = 0, alt = 0;
	char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], r1[32], r2[32], bt[32];

	finding_init(f, "min_write", "smallest efficient write", 1);
	if (n < 4 || n > 64) {
		finding_not(f, "too few write sizes measured");
		return;
	}
	/* Above the minimum a write takes a fixed time plus its transfer; below
	 * it, as long as the minimum.  Every size is a candidate m; the one
	 * whose model explains all sizes best wins, and it must explain them
	 * clearly better than every other candidate, measured against the
	 * spread of the writes themselves. */
	/* a spread of eight writes may come out small by luck, and a size
	 * weighted by it would decide alone: each size's spread is at least
	 * the typical spread of all sizes, relative to their times */
	{
		double rel[64];
		for (k = 0; k < n; k++)
			rel[k] = t[k].ns > 0 ? t[k].spread / t[k].ns : 0;
		typical = stats_median(rel, n);
	}
	for (k = 0; k < n; k++) {
		double sigma = fmax(MINW_SIGMA_OF_SPREAD * fmax(t[k].spread, typical * t[k].ns), MINW_SIGMA_FLOOR * t[k].ns);
		w[k] = 1 / (sigma * sigma);
	}
	/* the flat model (below the minimum a write costs as much as it), and
	 * the one where a write's own bytes cross the interface first (below
	 * the minimum it costs less by what it does not send): the second only
	 * where the data need it, its best fit better by MINW_BUS_GAIN */
	for (int model = 0; model < 2; model++) {
		double best_m = 1e300;
		size_t at = 0;
		for (k = 0; k < n; k++) {
			double c2 = model ? hockey_fit_bus(t, w, n, t[k].size, &a, &bus, &b) : hockey_fit(t, w, n, t[k].size, &a, &b);
			if (b <= 0)
				c2 = 1e300; /* the flash's time must grow with length above the minimum */
			/* with the interface's slope, a knee whose flash time is
			 * within the noise of its own write is no knee */
			if (model && b * (double)t[k].size < MINW_KNEE_SIGMAS * chunk_sigma(&t[k]))
				c2 = 1e300;
			chi2[model][k] = c2;
			if (c2 < best_m) {
				best_m = c2;
				at = k;
			}
		}
		model_best[model] = at;
		model_chi[model] = best_m;
		if (!model || best_m + MINW_BUS_GAIN < best_chi) {
			use_bus = model;
			best_chi = best_m;
			best = at;
		}
	}
	memcpy(chi, chi2[use_bus], n * sizeof(chi[0]));
	if (best_chi >= 1e300) {
		finding_not(f, "write times do not grow with the write size");
		return;
	}
	/* the fit's own scatter may show the spread underestimates the noise
	 * (the parameters and the choice of m) */
	scale = fmax(1, best_chi / (double)(n - 3 - use_bus));
	for (k = 0; k < n; k++)
		if (k != best && (chi[k] - best_chi) / scale < worst_alt) {
			worst_alt = (chi[k] - best_chi) / scale;
			alt = k;
		}
	if (use_bus)
		hockey_fit_bus(t, w, n, t[best].size, &a, &bus, &b);
	else
		hockey_fit(t, w, n, t[best].size, &a, &b);
	f->determined = 1;
	f->value = t[best].size;
	f->at_most = best == n - 1;
	f->at_least = best == 0;
	format_rate(r1, sizeof(r1), (double)t[best].size * 1e9 / t[best].ns);
	format_rate(r2, sizeof(r2), (double)t[0].size * 1e9 / t[0].ns);
	if (f->at_most)
		finding_evidence(f, "every size down to %s takes the time its length predicts (%s for %s)",
				 fmt_size(s1, t[n - 1].size), fmt_time(s2, t[n - 1].ns), fmt_size(s3, t[n - 1].size));
	else {
		/* say how the two times compare, not what the rule expects */
		double ratio = t[best + 1].ns / t[best].ns;
		const char *as = ratio > MINW_SAME ? "longer than" : ratio < 1 / MINW_SAME ? "less time than" : "about as long as";
		char fixed[96];
		if (a >= 0)
			snprintf(fixed, sizeof(fixed), "a fixed %s plus their transfer", fmt_time(s6, a));
		else
			snprintf(fixed, sizeof(fixed), "their transfer and no fixed time (the fit's comes out at %s)",
				 fmt_time(s6, a));
		if (use_bus && bus > 0) /* the interface's share: per KiB not sent */
			finding_evidence(f, "%s %s write takes %s, %s %s write %s: below %s a write saves only its "
					 "own bytes' transfer (%s per KiB, the interface), the flash programs %s for it; "
					 "larger ones %s",
					 article(fmt_size(s1, t[best + 1].size)), s1, fmt_time(s2, t[best + 1].ns),
					 article(fmt_size(s3, t[best].size)), s3, fmt_time(s4, t[best].ns),
					 fmt_size(s5, t[best].size), fmt_time(bt, bus * 1024), s5, fixed);
		else
			finding_evidence(f, "%s %s write takes %s, %s %s %s write (%s): smaller writes cost as much as %s; "
					 "larger ones %s",
					 article(fmt_size(s1, t[best + 1].size)), s1, fmt_time(s2, t[best + 1].ns), as,
					 article(fmt_size(s3, t[best].size)), s3, fmt_time(s4, t[best].ns),
					 fmt_size(s5, t[best].size), fixed);
	}
	finding_evidence(f, "%s writes run at %s; %s writes at %s", fmt_size(s1, t[best].size), r1, fmt_size(s2, t[0].size), r2);
	finding_evidence(f, "the next best candidate, %s, explains the %zu sizes worse by %.0f (squared errors in units of their spread; high needs %.0f)",
			 fmt_size(s1, t[alt].size), n, worst_alt, use_bus ? MINW_HIGH_BUS : MINW_HIGH);
	if (worst_alt >= (use_bus ? MINW_HIGH_BUS : MINW_HIGH))
		f->conf = CONF_HIGH;
	else if (worst_alt >= (use_bus ? MINW_MEDIUM_BUS : MINW_MEDIUM))
		f->conf = CONF_MEDIUM;
	else
		f->conf = CONF_LOW;
	/* the other model nearly as good, and with another size: the data
	 * cannot tell which of the two it is */
	{
		int other = !use_bus;
		if (model_chi[other] < 1e300 && model_best[other] != best &&
		    (model_chi[other] - best_chi) / scale < MINW_MEDIUM && f->conf > CONF_LOW) {
			f->conf = CONF_LOW;
			finding_evidence(f, "yet %s fit about as well with a minimum of %s: the sizes cannot tell the "
					 "two apart", other ? "writes that still pay their own bytes' transfer below the minimum" :
					 "writes that cost as much as the minimum below it", fmt_size(s1, t[model_best[other]].size));
		}
	}
	/* every write costs a command's time before its transfer: a fit that
	 * needs a fixed time below zero does not describe these writes */
	if (!f->at_most && a < 0 && f->conf > CONF_MEDIUM) {
		f->conf = CONF_MEDIUM;
		finding_evidence(f, "a fixed time below zero cannot be right: medium at most");
	}
	/* a write costs a fixed time plus its transfer on any flash: the
	 * smallest size running faster per byte than the largest is a cache's
	 * or a buffer's doing, not the flash's */
	if (f->at_most && t[n - 1].ns > 0 && t[0].ns > 0 &&
	    (double)t[n - 1].size / t[n - 1].ns > MINW_FASTER_SMALL * (double)t[0].size / t[0].ns) {
		finding_evidence(f, "yet %s writes run faster per byte than %s writes (%s, %s): on flash a write costs "
				 "a fixed time plus its transfer, so a cache or buffer took the small ones",
				 fmt_size(s1, t[n - 1].size), fmt_size(s2, t[0].size),
				 format_rate(r1, sizeof(r1), (double)t[n - 1].size * 1e9 / t[n - 1].ns),
				 format_rate(r2, sizeof(r2), (double)t[0].size * 1e9 / t[0].ns));
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
	}
	if (f->at_most)
		snprintf(f->why, sizeof(f->why), "the smallest size tested is already efficient: the minimum may be smaller");
	if (f->at_least)
		snprintf(f->why, sizeof(f->why), "every size tested costs as much as the largest: the minimum may be larger");
}

double chunk_sigma(const struct chunk_time *t)
{
	return fmax(MINW_SIGMA_OF_SPREAD * t->spread, MINW_SIGMA_FLOOR * t->ns);
}

int write_drift(const struct chunk_time *a, const struct chunk_time *b)
{
	double sa = chunk_sigma(a), sb = chunk_sigma(b);

	if (a->ns <= 0 || b->ns <= 0)
		return 0;
	return (b->ns > MINW_DRIFT * a->ns || a->ns > MINW_DRIFT * b->ns) &&
	       fabs(b->ns - a->ns) > MINW_DRIFT_SIGMAS * sqrt(sa * sa + sb * sb);
}

void min_write_plausible(struct finding *f, const struct finding *page)
{
	char a[32], b[32];

	if (!f->determined || !page->determined || page->conf < CONF_MEDIUM || f->value >= page->value)
		return;
	finding_evidence(f, "%s%s is below the %s read unit the reads found: flash programs a page whole, so "
			 "writes that small cannot be efficient on the flash itself (a cache or buffer took them)",
			 f->at_most ? "even " : "", fmt_size(a, f->value), fmt_size(b, page->value));
	if (f->conf > CONF_MEDIUM)
		f->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ open AUs */

double write_collapse_level(double ref)
{
	return COLLAPSE * ref;
}

int write_collapsed(double mean, double ref, double collapse)
{
	if (collapse > COLLAPSE * ref)
		return mean > sqrt(ref * collapse);
	return mean > COLLAPSE * ref;
}

int random_collapsed(double mean, double ref, double collapse)
{
	return write_collapsed(mean, ref, collapse) || mean > COLLAPSE_RANDOM * ref;
}

/* The trials at count n: how many collapsed and how many did not. */
static void trials_at(const struct open_trial *t, size_t n, unsigned count, unsigned *bad, unsigned *ok)
{
	*bad = *ok = 0;
	for (size_t i = 0; i < n; i++)
		if (t[i].n == count) {
			*bad += t[i].collapsed != 0;
			*ok += !t[i].collapsed;
		}
}

/* Each count's verdict is the majority of its trials (a pause may make one
 * trial look collapsed, a lucky stretch one look healthy); a tie decides
 * nothing.  The answer is the count below the first that collapsed.  High
 * needs three agreeing trials at the two counts that decide it and no
 * dissent among them; a dissent outvoted leaves it medium; counts that
 * disagree with the answer (healthy above it, a tie below it) leave it low. */
void analyze_open(const struct open_trial *t, size_t n, unsigned limit, int random_order,
		  uint64_t chunk, double ref, struct finding *f)
{
	unsigned good = 0, first_bad = 0, bad, ok;
	int contradiction = 0, dissent = 0;
	char a[32], b[32], c[32];

	finding_init(f, random_order ? "open_random" : "open_linear",
		     random_order ? "open erase blocks, random order" : "open erase blocks, linear", 0);
	if (!n) {
		finding_not(f, "not measured");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		trials_at(t, n, t[i].n, &bad, &ok);
		if (bad > ok && (!first_bad || t[i].n < first_bad))
			first_bad = t[i].n;
	}
	for (size_t i = 0; i < n; i++) {
		trials_at(t, n, t[i].n, &bad, &ok);
		if (first_bad && t[i].n >= first_bad ? ok >= bad : ok == bad)
			contradiction = 1;
		if (ok > bad && t[i].n > good && (!first_bad || t[i].n < first_bad))
			good = t[i].n;
	}
	f->determined = 1;
	if (!first_bad) {
		f->value = good;
		f->at_least = good >= limit;
		trials_at(t, n, good, &bad, &ok);
		f->conf = contradiction ? CONF_LOW : bad ? CONF_MEDIUM : CONF_HIGH;
		finding_evidence(f, "%u erase block%s written in turn still take%s %s per %s write in the slowest "
				 "(healthy: %s)",
				 good, good == 1 ? "" : "s", good == 1 ? "s" : "", fmt_time(a, t[n - 1].mean_ns),
				 fmt_size(b, chunk), fmt_time(c, ref));
		if (bad)
			finding_evidence(f, "%u of %u trials with %u looked collapsed (a pause, not garbage collection: "
					 "the others were not)", bad, bad + ok, good);
		return;
	}
	f->value = first_bad - 1;
	{
		double g = 0, worst = 0;
		for (size_t i = 0; i < n; i++) {
			if (t[i].n == f->value && !t[i].collapsed)
				g = t[i].mean_ns;
			if (t[i].n == first_bad && t[i].collapsed)
				worst = t[i].mean_ns;
		}
		if (f->value)
			finding_evidence(f, "%u erase block%s written in turn: %s per %s write", (unsigned)f->value,
					 f->value == 1 ? "" : "s", fmt_time(a, g), fmt_size(b, chunk));
		finding_evidence(f, "%u erase block%s: %s per write in the slowest, %.0fx the healthy %s: "
				 "garbage collection", first_bad, first_bad == 1 ? "" : "s", fmt_time(a, worst),
				 worst / ref, fmt_time(c, ref));
	}
	{
		unsigned tries = 0;
		trials_at(t, n, first_bad, &bad, &ok);
		tries += bad;
		dissent |= ok > 0;
		if (f->value) {
			trials_at(t, n, (unsigned)f->value, &bad, &ok);
			tries += ok;
			dissent |= bad > 0;
		}
		if (contradiction) {
			f->conf = CONF_LOW;
			finding_evidence(f, "repeated trials disagree; the card may adapt to the access pattern");
		} else {
			f->conf = (tries >= 3 || (!f->value && tries >= 2)) && !dissent ? CONF_HIGH : CONF_MEDIUM;
			if (dissent)
				finding_evidence(f, "one trial of %u or %u erase blocks disagreed and was outvoted (a pause "
						 "or a lucky stretch)", (unsigned)f->value, first_bad);
		}
	}
}

/* log((n)!) by lgamma_r: lgamma sets the global signgam, which cards
 * analysed at once in a batch's threads would race for */
static double log_factorial(double n)
{
	int sign;

	return lgamma_r(n + 1.0, &sign);
}

/* P(X >= k) for X binomial(m, p). */
static double binomial_tail(unsigned m, unsigned k, double p)
{
	double sum = 0;

	if (k == 0)
		return 1;
	if (p <= 0)
		return 0;
	if (p >= 1)
		return 1;
	for (unsigned i = k; i <= m; i++)
		sum += exp(log_factorial(m) - log_factorial(i) - log_factorial(m - i) + i * log(p) + (m - i) * log1p(-p));
	return fmin(1, sum);
}

void open_pause_check(struct finding *f, const struct open_trial *t, size_t n, const struct open_trial *more,
		      size_t nmore)
{
	unsigned slow = 0, writes = 0, first_bad = (unsigned)f->value + 1, judged = 0;
	double p, odds = 1;
	char a[32];

	if (!f->determined || f->at_least || f->conf < CONF_HIGH)
		return;
	for (size_t i = 0; i < n + nmore; i++) {
		const struct open_trial *o = i < n ? &t[i] : &more[i - n];
		if (!o->collapsed && o->writes) {
			slow += o->slow;
			writes += o->writes;
		}
	}
	/* the share of writes slow in healthy trials (pauses), estimated so
	 * that none seen in few writes is not taken for none at all */
	p = (slow + 1.0) / (writes + 2.0);
	for (size_t i = 0; i < n; i++)
		if (t[i].n == first_bad && t[i].collapsed && t[i].worst_writes) {
			odds *= binomial_tail(t[i].worst_writes, t[i].worst_slow, p);
			judged++;
		}
	if (!judged || odds <= OPEN_PAUSE_ODDS)
		return;
	f->conf = CONF_MEDIUM;
	snprintf(a, sizeof(a), "%.2g", odds);
	finding_evidence(f, "healthy trials had %u slow writes in %u (pauses): pauses alone would make the trials of %u "
			 "look collapsed with a chance of %s, too likely for high", slow, writes, first_bad, a);
}

void erase_write_check(struct finding *erase, double gc_ns, double rate)
{
	double copied, ratio;
	char a[32], b[32], c[32], d[32];

	if (!erase->determined || gc_ns <= 0 || rate <= 0)
		return;
	copied = gc_ns * rate / 1e9;
	ratio = copied / (double)erase->value;
	format_time(a, sizeof(a), gc_ns);
	format_size(b, sizeof(b), (uint64_t)copied);
	format_rate(c, sizeof(c), rate);
	format_size(d, sizeof(d), erase->value);
	if (ratio >= 1 / COPY_AGREE && ratio <= COPY_AGREE) {
		finding_evidence(erase, "writes agree: with one erase block too many open, each write takes %s more, "
				 "the time to copy about %s at %s", a, b, c);
		return;
	}
	finding_evidence(erase, "writes %s: with one erase block too many open, each write takes %s more, the "
			 "time to copy about %s at %s rather than %s (cards may copy faster or slower than they "
			 "write)", ratio < 1 / COPY_DISAGREE || ratio > COPY_DISAGREE ? "disagree" : "do not quite agree", a, b, c, d);
	/* less copied than one erase block fits a card that copies faster than
	 * the host writes (copy-back inside the chip): a doubt, never a refutation */
	if (ratio > COPY_DISAGREE)
		erase->conf = CONF_LOW;
	else if (erase->conf == CONF_HIGH)
		erase->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ FAT area */

/* Which kinds of write are clearly faster in probe i than in its reference
 * (a bit mask); *most gets the largest ratio reference/probe. */
unsigned fat_faster(const struct fat_probe *p, double *most)
{
	unsigned mask = 0;

	*most = 0;
	for (int k = 0; k < FAT_KINDS; k++) {
		double ratio;
		if (p->ns[k] <= 0 || p->ref[k] <= 0)
			continue;
		ratio = p->ref[k] / p->ns[k];
		if (ratio >= FAT_FASTER)
			mask |= 1u << k;
		*most = fmax(*most, ratio);
	}
	return mask;
}

static void kinds_text(char *buf, size_t len, unsigned mask)
{
	static const char *const name[FAT_KINDS] = { "linear chunks", "random order", "small writes" };
	size_t o = 0;

	buf[0] = 0;
	for (int k = 0; k < FAT_KINDS; k++)
		if (mask & (1u << k))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", name[k]);
}

double fat_not_faster(double ref)
{
	return ref / FAT_FASTER;
}

double fat_table_apart(void)
{
	return FAT_TABLE_APART;
}

int fat_ends_sharply(double weakest, double after)
{
	return weakest >= FAT_SHARP && after < FAT_SAME;
}

void analyze_fat(const struct fat_probe *p, size_t n, uint64_t erase, struct finding *f)
{
	size_t k = 0;
	unsigned kinds = 0;
	double weakest = 1e300, most, next_most = 0, slower = 0;
	char a[32], b[80], c[32], d[32], e1[32], e2[32], e3[32];
	const char *like;

	finding_init(f, "fat_area", "FAT-optimised erase blocks at the start", 0);
	if (!n) {
		finding_not(f, "not measured");
		return;
	}
	while (k < n) {
		unsigned m = fat_faster(&p[k], &most);
		if (!m)
			break;
		kinds |= m;
		weakest = fmin(weakest, most);
		k++;
	}
	if (k < n) {
		fat_faster(&p[k], &next_most);
		for (int i = 0; i < FAT_KINDS; i++)
			if (p[k].ns[i] > 0 && p[k].ref[i] > 0)
				slower = fmax(slower, p[k].ns[i] / p[k].ref[i]);
	}
	f->determined = 1;
	f->value = k;
	f->at_least = k == n;
	if (k) {
		kinds_text(b, sizeof(b), kinds);
		if (k == 1)
			finding_evidence(f, "erase block 0 (the first %s) is faster than an erase block in the middle "
					 "for %s (at least %.1fx)", fmt_size(a, erase), b, weakest);
		else
			finding_evidence(f, "erase blocks 0 to %zu (the first %s) are faster than an erase block in the "
					 "middle for %s (at least %.1fx)", k - 1, fmt_size(a, k * erase), b, weakest);
	}
	/* a block far slower than the middle was disturbed (a pause, garbage
	 * collection): it is not the middle's speed that ends the area */
	like = slower > FAT_SHARP ? "writes slower than the middle of the device (disturbed: a pause or garbage "
				    "collection; where the area ends is not sure)"
				  : "writes like the middle of the device";
	if (k < n && p[k].ns[FAT_RANDOM] <= 0) /* random order not timed (behind a write cache) */
		finding_evidence(f, "erase block %zu %s: %s and %s per linear and small write (middle: %s and %s)", k, like,
				 fmt_time(a, p[k].ns[FAT_LINEAR]), fmt_time(d, p[k].ns[FAT_SMALL]),
				 fmt_time(e1, p[k].ref[FAT_LINEAR]), fmt_time(e3, p[k].ref[FAT_SMALL]));
	else if (k < n)
		finding_evidence(f, "erase block %zu %s: %s, %s and %s per linear, random-order and small write (middle: "
				 "%s, %s and %s)", k, like,
				 fmt_time(a, p[k].ns[FAT_LINEAR]), fmt_time(c, p[k].ns[FAT_RANDOM]), fmt_time(d, p[k].ns[FAT_SMALL]),
				 fmt_time(e1, p[k].ref[FAT_LINEAR]), fmt_time(e2, p[k].ref[FAT_RANDOM]), fmt_time(e3, p[k].ref[FAT_SMALL]));
	else
		finding_evidence(f, "every erase block probed is faster than one in the middle of the device");
	finding_evidence(f, "each probe was timed right after the same writes in the middle, so a cache or "
			 "drift hits both alike");
	/* high: the area ends sharply (FAT blocks clearly apart, the next one
	 * close to the middle) */
	if (k < n && fat_ends_sharply(weakest, next_most) && slower <= FAT_SHARP)
		f->conf = CONF_HIGH;
	else
		f->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ cache */

/* The first i (from `from`) where CACHE_RUN_OF of CACHE_RUN writes in a row
 * take over `above` (n: none). */
static size_t late_run(const double *t, size_t n, size_t from, double above)
{
	for (size_t i = from; i + CACHE_RUN <= n; i++) {
		size_t k = 0;
		for (size_t j = i; j < i + CACHE_RUN; j++)
			k += t[j] > above;
		if (k >= CACHE_RUN_OF)
			return t[i] > above ? i : i + 1;
	}
	return n;
}

enum cache_verdict analyze_cache(const double *t, size_t n, size_t nsweep, uint64_t chunk, struct write_cache *w)
{
	const double *l = t + nsweep;
	size_t nl = n > nsweep ? n - nsweep : 0, at;
	double *v, fast = 1e300;

	memset(w, 0, sizeof(*w));
	w->probed = n * chunk;
	w->chunk = chunk;
	if (nl < CACHE_WINDOW || !(v = malloc(nl * sizeof(*v))))
		return CACHE_UNDECIDED;
	memcpy(v, l + nl - nl / 4, nl / 4 * sizeof(*v));
	w->steady = stats_median(v, nl / 4);
	/* linear writes late, then on time: they waited for work queued
	 * before them (garbage collection the card acknowledged early); the
	 * cache filled where the run of late writes began */
	at = late_run(l, nl, 0, CACHE_LAG * w->steady);
	if (at < nl - nl / 4) {
		size_t first = late_run(t, n, 0, CACHE_LAG * w->steady);
		for (size_t i = at; i < nl; i++)
			w->late = fmax(w->late, l[i]);
		w->bytes = (first ? first : 1) * chunk;
		w->queued = 1;
		free(v);
		return CACHE_SEEN;
	}
	/* linear writes slowing from one speed to a lower one for good: the
	 * cache filled and writes now wait for the flash */
	for (size_t i = CACHE_WINDOW, j = 0; i + CACHE_WINDOW <= nl; i++) {
		double now, rest;
		for (; j + CACHE_WINDOW <= i; j++) { /* the fastest window before this one */
			memcpy(v, l + j, CACHE_WINDOW * sizeof(*v));
			fast = fmin(fast, stats_median(v, CACHE_WINDOW));
		}
		memcpy(v, l + i, CACHE_WINDOW * sizeof(*v));
		now = stats_median(v, CACHE_WINDOW);
		if (now < CACHE_DROP * fast)
			continue;
		memcpy(v, l + i, (nl - i) * sizeof(*v));
		rest = stats_median(v, nl - i);
		if (rest < CACHE_DROP * fast)
			continue;
		while (l[i] < CACHE_DROP * fast) /* where the window's slow writes begin */
			i++;
		w->bytes = (nsweep + i) * chunk;
		w->late = now;
		w->fast = fast;
		free(v);
		return CACHE_SEEN;
	}
	/* the later half of the one-per-erase-block writes paid for garbage
	 * collection at once, and the linear writes after them were not late:
	 * nothing was acknowledged before the work was done */
	memcpy(v, l, nl * sizeof(*v));
	w->fast = stats_median(v, nl);
	free(v);
	return cache_sweep_paid(t, nsweep, w->fast) ? CACHE_NONE : CACHE_UNDECIDED;
}

int cache_sweep_paid(const double *sweep, size_t n, double linear)
{
	size_t k = n - n / 2;
	double *s = n >= 1 && linear > 0 ? malloc(k * sizeof(*s)) : NULL;
	int paid;

	if (!s)
		return 0;
	memcpy(s, sweep + n / 2, k * sizeof(*s));
	paid = cache_write_paid(stats_median(s, k), linear);
	free(s);
	return paid;
}

int cache_write_paid(double t, double linear)
{
	return linear > 0 && t > CACHE_GC_PAID * linear;
}

void analyze_cache_finding(const struct write_cache *w, enum cache_verdict v, int fast_area, double probe_ns,
			   struct finding *f)
{
	char a[32], b[32], c[32], d[32], e[32];

	finding_init(f, "write_cache", "write cache or fast area", 1);
	fmt_size(a, w->probed);
	fmt_time(b, probe_ns);
	if (v == CACHE_UNDECIDED) {
		finding_not(f, "writes kept one speed (%s per %s write) through a burst of %s (%s of device time): none "
			    "that small, a larger one cannot be ruled out", fmt_time(c, w->fast), fmt_size(d, w->chunk), a, b);
		return;
	}
	f->determined = 1;
	f->conf = CONF_MEDIUM;
	if (v == CACHE_NONE) {
		f->value = 0;
		finding_evidence(f, "writes to fresh erase blocks paid for garbage collection at once, and linear "
				 "writes after them kept their time (%s): nothing was acknowledged before it was done",
				 fmt_time(c, w->fast));
		return;
	}
	f->value = w->bytes;
	if (fast_area) {
		finding_evidence(f, "from the idle card, writes in any order took %s per %s write for about %s, then %s: "
				 "a fast area (pseudo-SLC) in front of the flash", fmt_time(c, w->fast), fmt_size(d, w->chunk),
				 fmt_size(e, w->bytes), fmt_time(b, w->steady));
		finding_evidence(f, "once it was full, writes to fresh erase blocks paid for garbage collection at once: "
				 "what followed was timed on the flash behind it; it empties only while the card rests");
		return;
	}
	if (w->queued)
		finding_evidence(f, "writes were acknowledged before the work was done: after about %s, writes came late "
				 "(up to %s, the queued garbage collections) and then at %s: a write cache",
				 fmt_size(e, w->bytes), fmt_time(c, w->late), fmt_time(d, w->steady));
	else
		finding_evidence(f, "writes took %s per %s write for about %s, then %s, and later writes waited for work "
				 "queued before them: a write cache", fmt_time(c, w->fast), fmt_size(d, w->chunk),
				 fmt_size(e, w->bytes), fmt_time(b, w->steady));
}

/* ------------------------------------------------------------ advice */

void recommend(const struct finding *erase, const struct finding *page, const struct finding *minwrite,
	       const struct finding *open_linear, uint64_t dev_size, unsigned sector, struct recommendations *r)
{
	uint64_t e, unit, stride, mib = 1 << 20, size;
	char a[32], b[32];

	memset(r, 0, sizeof(*r));
	if (!erase->determined || erase->conf < CONF_MEDIUM) {
		snprintf(r->note, sizeof(r->note),
			 "no recommendation: the erase block size is %s; a partition start of 4MiB or 16MiB "
			 "suits most cards", erase->determined ? "not certain enough" : "not known");
		return;
	}
	e = erase->value;
	r->have = 1;
	r->align = e;
	r->start = e / size_gcd(e, mib) * mib; /* a multiple of both */
	size = (dev_size - r->start) / e * e;
	unit = minwrite->determined && minwrite->conf >= CONF_MEDIUM ? minwrite->value
	       : page->determined && page->conf >= CONF_MEDIUM ? page->value : 4096;
	stride = unit / 4096 ? unit / 4096 : 1;
	snprintf(r->sfdisk, sizeof(r->sfdisk), "label: dos\nunit: sectors\nstart=%llu, size=%llu, type=83",
		 (unsigned long long)(r->start / sector), (unsigned long long)(size / sector));
	if (dev_size <= r->start) /* size not known (--analyze): the partition takes the rest */
		snprintf(r->sfdisk, sizeof(r->sfdisk), "label: dos\nunit: sectors\nstart=%llu, type=83",
			 (unsigned long long)(r->start / sector));
	snprintf(r->ext4, sizeof(r->ext4), "mkfs.ext4 -b 4096 -E stride=%llu,stripe_width=%llu",
		 (unsigned long long)stride, (unsigned long long)(e / 4096));
	if (e % mib == 0)
		snprintf(r->xfs, sizeof(r->xfs), "mkfs.xfs -b size=4096 -s size=%u -d su=%llum,sw=1",
			 sector > 4096 ? sector : 4096, (unsigned long long)(e / mib));
	else
		snprintf(r->xfs, sizeof(r->xfs), "mkfs.xfs -b size=4096 -s size=%u -d su=%lluk,sw=1",
			 sector > 4096 ? sector : 4096, (unsigned long long)(e / 1024));
	if (e % (2 * mib) == 0)
		snprintf(r->f2fs, sizeof(r->f2fs), "mkfs.f2fs -s %llu -z 1",
			 (unsigned long long)(e / (2 * mib)));
	else
		snprintf(r->f2fs, sizeof(r->f2fs), "mkfs.f2fs (default): its 2MiB segments cannot "
			 "make up %s %s section", article(fmt_size(a, e)), a);
	{
		/* mkfs.vfat takes only powers of two up to 128 sectors: round down */
		uint64_t cl = unit < 4096 ? 4096 : unit > 32768 ? 32768 : unit;
		while (cl & (cl - 1))
			cl &= cl - 1;
		snprintf(r->vfat, sizeof(r->vfat), "mkfs.vfat -F 32 -s %llu (%s clusters; keep the default "
			 "alignment, do not pass -a)", (unsigned long long)(cl / sector), fmt_size(b, cl));
	}
	if (open_linear->determined && open_linear->value && open_linear->value < 3)
		snprintf(r->note, sizeof(r->note), "only %llu erase block%s can be written at once: prefer a "
			 "file system that writes few places at a time (FAT, f2fs), and keep the journal small",
			 (unsigned long long)open_linear->value, open_linear->value == 1 ? "" : "s");
}
