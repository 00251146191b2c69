/* analyze.c — from measurements to findings and recommendations (analyze.h).
 *
 * The thresholds are relative to what was measured on this device: the noise
 * of two reads that should cost the same, the page-crossing cost, the
 * healthy time per write.  How flash works gives the shape of each claim:
 * crossing a boundary the card cares about costs extra; an erase block of
 * q*2^n bytes makes exactly every q-th multiple of 2^n a boundary; a write
 * below the minimum takes as long as the minimum; one open erase block too
 * many makes every write pay for garbage collection. */
#include "analyze.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

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

	if (f->nevidence >= EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(f->evidence[f->nevidence++], sizeof(f->evidence[0]), fmt, ap);
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *T(char *buf, double ns)
{
	format_time(buf, 32, ns);
	return buf;
}

static const char *S(char *buf, uint64_t bytes)
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

void analyze_page(const struct align_row *rows, size_t n, uint64_t bs,
		  const struct align_row *rows2, size_t n2, uint64_t bs2,
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
	/* noise: pre and post read the same amount next to the same boundary;
	 * a steady offset between them (real cards read the first block of a
	 * unit slower or faster than the last) is not noise: their spread
	 * around the typical offset is */
	for (i = 0; i < n; i++)
		tmp[i] = r[i].pre - r[i].post;
	{
		double offset = median(tmp, n);
		for (i = 0; i < n; i++)
			tmp[i] = fabs(r[i].pre - r[i].post - offset);
	}
	lv->noise = median(tmp, n);
	for (i = 0; i < n; i++)
		tmp[i] = r[i].pre;
	lv->step = fmax(fmax(4 * lv->noise, 0.02 * median(tmp, n)), 1000);

	i = first_step(r, n, lv->step);
	if (i == n) {
		finding_not(page, "no boundary from %s to %s costs more to read across than %s "
			    "(alignment does not seem to matter for reads)",
			    S(a, r[0].align), S(b, r[n - 1].align), T(c, lv->step));
		goto out;
	}
	if (i == 0) {
		page->determined = 1;
		page->value = r[0].align;
		page->conf = CONF_LOW;
		finding_evidence(page, "every boundary down to %s costs %s or more to read across; "
				 "the read unit may be smaller (try a smaller block size)",
				 S(a, r[0].align), T(b, r[0].diff));
		lv->unit = r[0].align;
		lv->page_diff = r[0].diff;
		goto out;
	}
	lv->unit = r[i].align;
	{ /* the page level: the diffs at the next few alignments */
		size_t k, m = 0;
		for (k = i; k < n && k < i + 3; k++)
			tmp[m++] = r[k].diff;
		lv->page_diff = median(tmp, m);
	}
	page->determined = 1;
	page->value = lv->unit;
	finding_evidence(page, "with %s reads, crossing a %s boundary costs %s, crossing a %s boundary %s",
			 S(a, bs), S(b, r[i].align), T(c, r[i].diff), S(d, r[i - 1].align),
			 T(e, r[i - 1].diff));
	if (n2 >= 2) {
		size_t j = first_step(r2, n2, lv->step);
		have2 = 1;
		if (lv->unit < r2[0].align)
			agree = j == 0; /* too small to see with the larger blocks */
		else
			agree = j < n2 && r2[j].align == lv->unit;
		i2 = j;
		if (agree)
			finding_evidence(page, "reads of %s show the same step%s", S(a, bs2),
					 lv->unit < r2[0].align ? " (every boundary they can see costs extra)" : "");
		else
			finding_evidence(page, "reads of %s disagree: their step is at %s", S(a, bs2),
					 i2 < n2 ? S(b, r2[i2].align) : "no alignment");
	}
	if (agree && r[i].diff >= 3 * lv->step)
		page->conf = CONF_HIGH;
	else if (agree || (!have2 && r[i].diff >= 3 * lv->step))
		page->conf = CONF_MEDIUM;
	else
		page->conf = CONF_LOW;
out:
	free(r);
	free(r2);
	free(tmp);
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
	i = first_step(r, n, lv->page_diff + fmax(lv->step, 0.15 * lv->page_diff));
	if (i < n && r[i].align > lv->unit)
		found = r[i].align;
	free(r);
	return found;
}

/* ------------------------------------------------------------ erase */

static int is_boundary(double d, double base, double te)
{
	return d > base + te;
}

/* How well "every multiple of e is a boundary" explains all levels. */
struct fit {
	unsigned points, mismatches, predicted, seen;
	double extra;      /* mean extra cost at the boundaries seen */
};

static void fit_erase(const struct scan_level *lv, size_t n, double base, double te, uint64_t e, struct fit *f)
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

/* Noise of single probes: spread of the lower quarter of the first level
 * (which lies below the erase size unless the erase block is tiny). */
static double probe_noise(const struct scan_level *l)
{
	double v[SCAN_POINTS];
	unsigned n = l->npoints;

	if (n < 4)
		return 0;
	memcpy(v, l->d, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), cmp_double);
	return v[n / 4] - v[n / 16];
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

void analyze_erase(const struct scan_level *lv, size_t n, const struct read_levels *rl,
		   const struct align_row *rows, size_t nrows, uint64_t dev_size, struct finding *erase)
{
	double base = rl->page_diff, te = rl->step, split;
	char a[32], b[32], c[32], d[32];

	finding_init(erase, "erase_block", "erase block size", 1);
	if (!n) {
		finding_not(erase, "the device is too small to scan for erase-block boundaries");
		return;
	}
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
		struct fit f;
		uint64_t e;

		for (unsigned j = 1; j <= l->npoints && !q; j++)
			if (is_boundary(l->d[j - 1], base, te))
				q = j;
		if (!q)
			continue;
		e = (uint64_t)q * l->step;
		if (e > MAX_ERASE_BLOCK)
			break; /* only larger candidates follow */
		fit_erase(lv + L, n - L, base, te, e, &f);
		allowed = f.points / 20 > 1 ? f.points / 20 : 1;
		if (f.predicted < 2 || f.mismatches > allowed)
			continue;
		erase->determined = 1;
		erase->value = e;
		{ /* describe the finest level where two boundaries show */
			size_t k = L;
			while (k + 1 < n && (uint64_t)2 * e > (uint64_t)lv[k].npoints * lv[k].step)
				k++;
			finding_evidence(erase, "reads across multiples of %s cost %s more than across page boundaries; "
					 "probing every %s, exactly the multiples of %s do", S(a, e), T(b, f.extra),
					 S(c, lv[k].step), S(d, e));
		}
		finding_evidence(erase, "%u of %u probes from %s to %s fit that pattern%s", f.points - f.mismatches,
				 f.points, S(a, l->step), S(b, lv[n - 1].step * lv[n - 1].npoints),
				 f.mismatches ? " (noise in the rest)" : "");
		if (dev_size % e == 0)
			finding_evidence(erase, "the device size is %llu x %s",
					 (unsigned long long)(dev_size / e), S(a, e));
		else
			finding_evidence(erase, "the device size is not a multiple of %s (common: cards hide "
					 "spare blocks)", S(a, e));
		if (f.mismatches == 0 && f.predicted >= 4 && f.extra >= 2 * te)
			erase->conf = CONF_HIGH;
		else if (f.mismatches <= 1 && f.predicted >= 3)
			erase->conf = CONF_MEDIUM;
		else
			erase->conf = CONF_LOW;
		return;
	}
	if (split <= 0) {
		finding_not(erase, "no boundary from %s to %s costs clearly more to read across than page boundaries",
			    S(a, lv[0].step), S(b, lv[n - 1].step * lv[n - 1].npoints));
		return;
	}
	{
		double best = 0;
		for (size_t k = 0; k < nrows; k++)
			if (rows[k].diff > best)
				best = rows[k].diff;
		finding_not(erase, "no regular pattern of boundaries from %s to %s that cost more to read across "
			    "than page boundaries (largest align diff %s, threshold %s)",
			    S(a, lv[0].step), S(b, lv[n - 1].step * lv[n - 1].npoints), T(c, best), T(d, base + te));
	}
}

/* ------------------------------------------------------------ min write */

/* Time the line through the two next larger sizes predicts for t[k]. */
static double local_model(const struct chunk_time *t, size_t k)
{
	double rate, base;

	if (t[k - 2].ns <= t[k - 1].ns)
		return t[k - 1].ns; /* no transfer time left to see: flat */
	rate = (double)(t[k - 2].size - t[k - 1].size) / (t[k - 2].ns - t[k - 1].ns);
	base = fmax(0, t[k - 1].ns - (double)t[k - 1].size / rate);
	return base + (double)t[k].size / rate;
}

void analyze_min_write(const struct chunk_time *t, size_t n, struct finding *f)
{
	double ratio = 0;
	size_t k;
	char a[32], b[32], c[32], d[32], e[32], r1[32], r2[32];

	finding_init(f, "min_write", "smallest efficient write", 1);
	if (n < 3) {
		finding_not(f, "too few write sizes measured");
		return;
	}
	/* t[] runs from the largest size down.  Above the minimum, time grows
	 * with length (a fixed cost plus transfer): each size fits the line
	 * through the next two larger ones.  Below it, a write takes as long as
	 * the minimum, well above that line. */
	for (k = 2; k < n; k++) {
		ratio = t[k].ns / local_model(t, k);
		if (ratio > 1.2)
			break;
	}
	f->determined = 1;
	f->value = t[k - 1].size;
	format_rate(r1, sizeof(r1), (double)t[k - 1].size * 1e9 / t[k - 1].ns);
	format_rate(r2, sizeof(r2), (double)t[0].size * 1e9 / t[0].ns);
	if (k == n) {
		f->conf = CONF_MEDIUM;
		finding_evidence(f, "every size down to %s takes the time its length predicts (%s)",
				 S(a, t[n - 1].size), T(b, t[n - 1].ns));
		snprintf(f->why, sizeof(f->why), "the smallest size tested; it may be smaller");
		return;
	}
	finding_evidence(f, "a %s write takes %s, %.1fx what its length predicts, and a %s write %s: "
			 "smaller writes cost as much as %s", S(a, t[k].size), T(b, t[k].ns), ratio,
			 S(c, t[k - 1].size), T(d, t[k - 1].ns), S(e, t[k - 1].size));
	finding_evidence(f, "%s writes run at %s; %s writes at %s", S(a, t[k - 1].size), r1, S(b, t[0].size), r2);
	f->conf = ratio >= 1.4 ? CONF_HIGH : CONF_MEDIUM;
}

/* ------------------------------------------------------------ open AUs */

int write_collapsed(double mean, double ref, double collapse)
{
	if (collapse > 2.5 * ref)
		return mean > sqrt(ref * collapse);
	return mean > 2.5 * ref;
}

void analyze_open(const struct open_trial *t, size_t n, unsigned limit, int random_order,
		  uint64_t chunk, double ref, struct finding *f)
{
	unsigned good = 0, first_bad = 0;
	int contradiction = 0;
	char a[32], b[32], c[32];

	finding_init(f, random_order ? "open_random" : "open_linear",
		     random_order ? "open erase blocks, random order" : "open erase blocks, linear", 0);
	if (!n) {
		finding_not(f, "not measured");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (t[i].collapsed && (!first_bad || t[i].n < first_bad))
			first_bad = t[i].n;
	for (size_t i = 0; i < n; i++) {
		if (!t[i].collapsed && first_bad && t[i].n >= first_bad)
			contradiction = 1;
		if (!t[i].collapsed && t[i].n > good && (!first_bad || t[i].n < first_bad))
			good = t[i].n;
	}
	f->determined = 1;
	if (!first_bad) {
		f->value = good;
		f->at_least = good >= limit;
		f->conf = CONF_HIGH;
		finding_evidence(f, "%u erase blocks written in turn still take %s per %s write in the slowest "
				 "(healthy: %s)",
				 good, T(a, t[n - 1].mean_ns), S(b, chunk), T(c, ref));
		return;
	}
	f->value = first_bad - 1;
	{
		double g = 0, bad = 0;
		for (size_t i = 0; i < n; i++) {
			if (t[i].n == f->value && !t[i].collapsed)
				g = t[i].mean_ns;
			if (t[i].n == first_bad && t[i].collapsed)
				bad = t[i].mean_ns;
		}
		if (f->value)
			finding_evidence(f, "%u erase block%s written in turn: %s per %s write", (unsigned)f->value,
					 f->value == 1 ? "" : "s", T(a, g), S(b, chunk));
		finding_evidence(f, "%u erase blocks: %s per write in the slowest, %.0fx the healthy %s: "
				 "garbage collection", first_bad, T(a, bad), bad / ref, T(c, ref));
	}
	if (contradiction) {
		f->conf = CONF_LOW;
		finding_evidence(f, "repeated trials disagree; the card may adapt to the access pattern");
	} else {
		size_t tries = 0;
		for (size_t i = 0; i < n; i++)
			tries += t[i].n == first_bad || (f->value && t[i].n == f->value);
		f->conf = tries >= 3 || (!f->value && tries >= 2) ? CONF_HIGH : CONF_MEDIUM;
	}
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
	if (ratio >= 0.5 && ratio <= 2) {
		finding_evidence(erase, "writes agree: with one erase block too many open, each write takes %s more, "
				 "the time to copy about %s at %s", a, b, c);
		return;
	}
	finding_evidence(erase, "writes %s: with one erase block too many open, each write takes %s more, the "
			 "time to copy about %s at %s rather than %s (cards may copy faster or slower than they "
			 "write)", ratio < 0.25 || ratio > 4 ? "disagree" : "do not quite agree", a, b, c, d);
	if (ratio < 0.25 || ratio > 4)
		erase->conf = CONF_LOW;
	else if (erase->conf == CONF_HIGH)
		erase->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ FAT area */

void analyze_fat(const double *au_ns, size_t n, double ref, uint64_t erase, struct finding *f)
{
	size_t k = 0;
	double lo = 1e300, hi = 0;
	char a[32], b[32], c[32];

	finding_init(f, "fat_area", "FAT-optimised erase blocks at the start", 0);
	if (!n || ref <= 0) {
		finding_not(f, "not measured");
		return;
	}
	while (k < n && fabs(log(au_ns[k] / ref)) >= log(1.5)) {
		lo = fmin(lo, au_ns[k]);
		hi = fmax(hi, au_ns[k]);
		k++;
	}
	f->determined = 1;
	f->value = k;
	f->at_least = k == n;
	if (k) {
		finding_evidence(f, "erase blocks 0 to %zu (the first %s) take %s to %s per write", k - 1,
				 S(a, k * erase), T(b, lo), T(c, hi));
	}
	if (k < n)
		finding_evidence(f, "erase block %zu takes %s per write, like an erase block in the middle of "
				 "the device (%s)", k, T(a, au_ns[k]), T(b, ref));
	else
		finding_evidence(f, "every erase block probed differs from one in the middle of the device (%s)",
				 T(a, ref));
	if (k < n && (k == 0 || fabs(log(hi / ref)) >= log(2) || fabs(log(lo / ref)) >= log(2)) &&
	    fabs(log(au_ns[k] / ref)) < log(1.2))
		f->conf = CONF_HIGH;
	else
		f->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ advice */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

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
	r->start = e / gcd64(e, mib) * mib; /* a multiple of both */
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
			 "make up a %s section", S(a, e));
	{
		uint64_t cl = unit < 4096 ? 4096 : unit > 32768 ? 32768 : unit;
		snprintf(r->vfat, sizeof(r->vfat), "mkfs.vfat -F 32 -s %llu (%s clusters; keep the default "
			 "alignment, do not pass -a)", (unsigned long long)(cl / sector), S(b, cl));
	}
	if (open_linear->determined && open_linear->value && open_linear->value < 3)
		snprintf(r->note, sizeof(r->note), "only %llu erase block%s can be written at once: prefer a "
			 "file system that writes few places at a time (FAT, f2fs), and keep the journal small",
			 (unsigned long long)open_linear->value, open_linear->value == 1 ? "" : "s");
}
