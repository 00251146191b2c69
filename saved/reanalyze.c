/* reanalyze.c — findings from saved classic tables (see reanalyze.h).
 *
 * -a rows: the powers of two go to analyze_page (with a second run at
 * another block size as its rows2 when that run can show the step); then
 * every row above the page becomes a one-probe level for analyze_erase,
 * whose rule "exactly the multiples of e cost extra" fits a classic table
 * as it fits --auto's boundary scan.  A step is placed only between rows
 * that are there, and only when the rows under it lie at one level.  -O
 * tables: each sweep (linear or random, one erase size, until
 * --open-au-nr starts over) becomes open-AU trials judged by majority at
 * its smallest chunks against its own smallest --open-au-nr, which is
 * first judged on its own (single_sweep), then analyze_open.  Counts are
 * never surer than the erase block they are counted in.  The tables of
 * each card (a column of a table of several, a heading, a device) are
 * analysed on their own. */
#include "saved/reanalyze.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auto/calibration.h"
#include "lib/lines.h"
#include "lib/stats.h"
#include "lib/units.h"
#include "lib/version.h"

static void next_step(struct saved_report *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void next_step(struct saved_report *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lines_vadd(LINES(s->next, s->nnext), LINE_UNIQUE, fmt, ap);
	va_end(ap);
}

static int cmp_row(const void *a, const void *b)
{
	const struct align_row *x = a, *y = b;
	return (x->align > y->align) - (x->align < y->align);
}

/* A run's rows in ascending order: all of them, or the powers of two. */
static size_t run_rows(const struct saved_align_run *run, int pow2_only, struct align_row *out)
{
	size_t n = 0;

	for (size_t i = 0; i < run->n; i++)
		if (!pow2_only || !(run->rows[i].align & (run->rows[i].align - 1)))
			out[n++] = run->rows[i];
	qsort(out, n, sizeof(*out), cmp_row);
	return n;
}

static int has_row(const struct align_row *r, size_t n, uint64_t align)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].align == align)
			return 1;
	return 0;
}

/* "160µs", or "157µs to 171µs" */
static const char *time_range(char *buf, size_t len, double lo, double hi)
{
	char a[32], b[32];

	format_time(a, sizeof(a), lo);
	format_time(b, sizeof(b), hi);
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%.31s to %.31s", a, b);
	return buf;
}

/* "16KiB or 32KiB", or "32KiB to 128KiB": the powers of two above lo up to hi */
static const char *size_bracket(char *buf, size_t len, uint64_t lo, uint64_t hi)
{
	char a[32], b[32];

	format_size(a, sizeof(a), 2 * lo);
	format_size(b, sizeof(b), hi);
	snprintf(buf, len, "%.31s %s %.31s", a, hi == 4 * lo ? "or" : "to", b);
	return buf;
}

/* Why the page step was not found, in the rows' own terms: a row that
 * costs extra under one that does not, or rows too few to tell. */
static void page_not_found(const struct align_row *r, size_t n, const struct read_levels *lv, struct finding *page)
{
	char a[32], b[32], c[32], d[32], e[32];
	size_t hi = n;

	if (!n)
		return;
	/* the largest row that costs extra, and the cheap one above it */
	for (size_t k = n; k-- > 0;)
		if (r[k].diff > lv->step) {
			hi = k;
			break;
		}
	if (hi < n && hi + 1 < n)
		finding_not(page, "no alignment from which every larger one costs more than %s to read across: the %s row "
			    "costs %s, but the %s row above it only %s", format_time(a, sizeof(a), lv->step),
			    format_size(b, sizeof(b), r[hi].align), format_time(c, sizeof(c), r[hi].diff),
			    format_size(d, sizeof(d), r[hi + 1].align), format_time(e, sizeof(e), r[hi + 1].diff));
	else if (hi == n && r[n - 1].align < CLASSIC_PAGE_MAX)
		finding_not(page, "no boundary from %s to %s costs more to read across than %s; the table stops at %s, "
			    "too few rows to say whether alignment matters", format_size(a, sizeof(a), r[0].align),
			    format_size(b, sizeof(b), r[n - 1].align), format_time(c, sizeof(c), lv->step),
			    format_size(d, sizeof(d), r[n - 1].align));
}

/* ------------------------------------------------------------ -a */

/* The first step of rows r[0..n) is too large for a page (an erase-block
 * boundary): the page is looked for in the rows under it alone, with
 * their own noise and level, so that the large step's rows do not hide a
 * small one.  Returns 1 when one is found (page, lv's unit and page
 * level set). */
static int page_below(const struct align_row *r, size_t n, uint64_t bs, struct finding *page, struct read_levels *lv)
{
	struct finding p;
	struct read_levels l;
	size_t m = 0;
	char x[32];

	while (m < n && r[m].align < page->value)
		m++;
	if (m < 3)
		return 0;
	analyze_page_steady(r, m, bs, NULL, 0, 0, 1, &p, &l);
	if (!p.determined || p.value > CLASSIC_PAGE_MAX || p.value == r[0].align)
		return 0;
	finding_evidence(&p, "judged on the rows under the first large step, at %s (an erase-block boundary)",
			 format_size(x, sizeof(x), page->value));
	*page = p;
	lv->unit = l.unit; /* the noise stays the whole table's: the erase step is judged on it */
	lv->page_diff = l.page_diff;
	return 1;
}

/* The page was found at the smallest row r[0] ("or less": every boundary
 * costs extra).  That holds only when no row above it steps above the
 * level of the rows below: a step there (at a size a page can have) says
 * the smallest rows pay a steady cost and the read unit is the step, as
 * with rows below to show that cost (analyze.c level_step).  Returns the
 * index of that step, 0 when there is none. */
static size_t floor_step(const struct align_row *r, size_t n, const struct read_levels *lv)
{
	double below[SAVED_ALIGN_ROWS];

	for (size_t k = 1; k < n && r[k].align <= CLASSIC_PAGE_MAX; k++) {
		double lo = r[k].diff;
		for (size_t j = k; j < n; j++)
			lo = fmin(lo, r[j].diff);
		for (size_t j = 0; j < k; j++)
			below[j] = r[j].diff;
		if (lo > stats_median(below, k) + lv->step)
			return k;
	}
	return 0;
}

/* Repeated runs at run a's block size (not copies) on the page step: a
 * step another run shows too is no accident of one table (a step too small
 * for medium on one run's noise gets medium); a run that steps elsewhere
 * leaves it low. */
static void page_repeats(const struct saved_text *t, size_t a, const struct align_row *r1, struct finding *page)
{
	struct align_row rk[SAVED_ALIGN_ROWS];
	struct finding pk;
	struct read_levels lk;
	char x[32], y[32];
	unsigned same = 0, first = 0;

	for (size_t k = 0; k < t->nalign && page->determined; k++) {
		if (k == a || t->align[k].copy_of || t->align[k].bs != t->align[a].bs)
			continue;
		analyze_page_steady(rk, run_rows(&t->align[k], 1, rk), t->align[k].bs, NULL, 0, 0, 1, &pk, &lk);
		if (!pk.determined)
			continue;
		if (pk.value != page->value) {
			finding_evidence(page, "another run with %s reads (line %u) steps at %s: low",
					 format_size(x, sizeof(x), t->align[k].bs), t->align[k].line,
					 format_size(y, sizeof(y), pk.value));
			page->conf = CONF_LOW;
			return;
		}
		if (!same++)
			first = t->align[k].line;
	}
	if (!same)
		return;
	finding_evidence(page, "%s with %s reads (line %u%s) show%s the same step", same == 1 ? "another run" : "other runs",
			 format_size(x, sizeof(x), t->align[a].bs), first, same == 1 ? "" : " and on", same == 1 ? "s" : "");
	if (page->conf == CONF_LOW && page->value > r1[0].align)
		page->conf = CONF_MEDIUM;
}

/* Page from runs a (and b, another block size, or SIZE_MAX).  A second run
 * confirms the step only where it can show it: with rows at the step and
 * just below.  A step whose row below is missing (not in the table, or
 * dropped) is not placed: the read unit is any size between the rows.
 * repeats: other runs at a's block size confirm it too (page_repeats). */
static void classic_page(const struct saved_text *t, size_t a, size_t b, int repeats, struct finding *page,
			 struct read_levels *lv)
{
	struct align_row r1[SAVED_ALIGN_ROWS], r2[SAVED_ALIGN_ROWS];
	size_t n1 = run_rows(&t->align[a], 1, r1), n2 = b == SIZE_MAX ? 0 : run_rows(&t->align[b], 1, r2);
	char x[32], y[32], z[32], w[80], v[80];
	size_t fstep = 0;

	analyze_page_steady(r1, n1, t->align[a].bs, NULL, 0, 0, 1, page, lv);
	if (!page->determined) {
		page_not_found(r1, n1, lv, page);
		return;
	}
	if (page->value > CLASSIC_PAGE_MAX && page_below(r1, n1, t->align[a].bs, page, lv))
		n2 = 0; /* judged on the rows under the erase step: a second run does not see those alone */
	else if (page->value > CLASSIC_PAGE_MAX) {
		/* the one step is an erase-block boundary: below it lies the level
		 * every other boundary costs, page boundaries included */
		double below[SAVED_ALIGN_ROWS], lo = 1e300, hi = 0;
		size_t m = 0;
		for (size_t k = 0; k < n1; k++)
			if (r1[k].align < page->value) {
				below[m++] = r1[k].diff;
				lo = fmin(lo, r1[k].diff);
				hi = fmax(hi, r1[k].diff);
			}
		lv->page_diff = stats_median(below, m);
		lv->unit = 0;
		page->nevidence = 0;
		if (m)
			finding_not(page, "the first step is at %s, too large for a page; from %s up to it the boundaries cost "
				    "%s (about %s): no page step among them", format_size(x, sizeof(x), page->value),
				    format_size(y, sizeof(y), r1[0].align), time_range(w, sizeof(w), lo, hi),
				    format_time(z, sizeof(z), lv->page_diff));
		else
			finding_not(page, "every boundary from %s up costs extra to read across, too large for a page: "
				    "the table does not reach down to the page",
				    format_size(x, sizeof(x), page->value));
		return;
	}
	{
		uint64_t u = page->value;
		size_t i = 0;
		while (i < n1 && r1[i].align != u)
			i++;
		if (i > 0 && i < n1 && r1[i - 1].align != u / 2) {
			finding_not(page, "reads step between %s (%s) and %s (%s), but the rows between them are missing "
				    "(not in the table, or dropped): the read unit is %s", format_size(x, sizeof(x), r1[i - 1].align),
				    format_time(y, sizeof(y), r1[i - 1].diff), format_size(z, sizeof(z), u),
				    format_time(w, sizeof(w), r1[i].diff), size_bracket(v, sizeof(v), r1[i - 1].align, u));
			page->nevidence = 0;
			return;
		}
	}
	if (page->value == r1[0].align && (fstep = floor_step(r1, n1, lv))) {
		double below[SAVED_ALIGN_ROWS];
		for (size_t k = 0; k < fstep; k++)
			below[k] = r1[k].diff;
		page->value = lv->unit = r1[fstep].align;
		lv->page_diff = r1[fstep].diff;
		page->conf = CONF_LOW;
		page->nevidence = 0;
		finding_evidence(page, "with %s reads, crossing %s %s boundary costs %s, the smaller ones (from %s) %s: a "
				 "step above a cost every smaller row pays", format_size(x, sizeof(x), t->align[a].bs),
				 article(format_size(y, sizeof(y), r1[fstep].align)), y, format_time(z, sizeof(z), r1[fstep].diff),
				 format_size(v, sizeof(v), r1[0].align), format_time(w, sizeof(w), stats_median(below, fstep)));
		finding_evidence(page, "low: %s row%s below cannot tell that cost from a smaller read unit's", fstep == 1 ? "one" :
				 "a few", fstep == 1 ? "" : "s");
		n2 = 0; /* another block size sees other rows: judged on this run alone */
		repeats = 0;
	}
	if (n2 && has_row(r2, n2, page->value) && has_row(r2, n2, page->value / 2)) {
		analyze_page_steady(r1, n1, t->align[a].bs, r2, n2, t->align[b].bs, 1, page, lv);
	} else if (n2) {
		finding_evidence(page, "reads of %s cannot show it (their rows have no %s and %s), so they do not confirm it",
				 format_size(x, sizeof(x), t->align[b].bs), format_size(y, sizeof(y), page->value / 2),
				 format_size(z, sizeof(z), page->value));
	}
	if (repeats)
		page_repeats(t, a, r1, page);
	if (page->determined && page->value == r1[0].align)
		page->at_most = 1; /* "the read unit may be smaller" */
	/* a row below the step that costs extra too: one cell or the other is
	 * out of line, and the step rests on it */
	for (size_t k = 0; page->determined && !fstep && k < n1 && r1[k].align < page->value / 2; k++)
		if (r1[k].diff > lv->step) {
			finding_evidence(page, "but the %s row below it costs %s too: a row is out of line (low)",
					 format_size(x, sizeof(x), r1[k].align), format_time(y, sizeof(y), r1[k].diff));
			page->conf = CONF_LOW;
			break;
		}
	/* a read unit of three pages (three planes read together, 3 x 2^n)
	 * costs a third of a crossing at every power of two from 2^n up: the
	 * same steps as a 2^n one */
	if (page->determined) {
		if (page->conf > CONF_MEDIUM)
			page->conf = CONF_MEDIUM;
		if (!page->why[0])
			snprintf(page->why, sizeof(page->why), "-a cannot tell this from %s %s read unit (3 x %s: three "
				 "planes read together), which shows the same steps at powers of two",
				 article(format_size(x, sizeof(x), 3 * page->value)), x, format_size(y, sizeof(y), page->value));
	}
}

/* Erase block from one run's rows (ascending, all alignments).  Returns 1
 * when the run cannot tell it from three times its size (no rows at
 * multiples of 3). */
static int classic_erase(const struct align_row *rows, size_t n, const struct read_levels *lv, struct finding *f)
{
	struct scan_level *lvl = calloc(n ? n : 1, sizeof(*lvl));
	uint64_t from = lv->unit ? 2 * lv->unit : 0, e;
	size_t nl = 0, nup = 0, ndown = 0, thirds = 0, below = SIZE_MAX;
	double up_lo = 1e300, up_hi = -1e300, dn_lo = 1e300, dn_hi = -1e300, others[SAVED_ALIGN_ROWS], level;
	char a[32], b[32], c[32], d[32], g[80], h[80], k2[80];

	finding_init(f, "erase_block", "erase block size", 1);
	if (!lvl) {
		finding_not(f, "out of memory");
		return 0;
	}
	for (size_t k = 0; k < n; k++)
		if (rows[k].align >= from) {
			lvl[nl].step = rows[k].align;
			lvl[nl].npoints = 1;
			lvl[nl++].d[0] = rows[k].diff;
		}
	if (!nl) {
		free(lvl);
		finding_not(f, "no row above the page to look for the erase block in");
		return 0;
	}
	analyze_erase(lvl, nl, lv, rows, n, 0, f);
	free(lvl);
	if (!f->determined)
		return 0;
	/* say it in a classic table's terms */
	e = f->value;
	for (size_t k = 0; k < n; k++) {
		if (rows[k].align < from)
			continue;
		thirds += rows[k].align % 3 == 0;
		if (rows[k].align % e == 0) {
			nup++;
			up_lo = fmin(up_lo, rows[k].diff);
			up_hi = fmax(up_hi, rows[k].diff);
		} else {
			others[ndown++] = rows[k].diff;
			dn_lo = fmin(dn_lo, rows[k].diff);
			dn_hi = fmax(dn_hi, rows[k].diff);
		}
	}
	f->nevidence = 0;
	/* the row just under the step must be there: else any size between the
	 * rows fits as well */
	for (size_t k = 0; k < n; k++)
		if (rows[k].align < e && rows[k].align >= from && (below == SIZE_MAX || rows[k].align > rows[below].align))
			below = k;
	if (below != SIZE_MAX && rows[below].align < e / 2) {
		finding_not(f, "reads step between %s (%s) and %s, but the rows between them are missing (not in the table, "
			    "or dropped): the erase block is %s", format_size(a, sizeof(a), rows[below].align),
			    format_time(b, sizeof(b), rows[below].diff), format_size(c, sizeof(c), e),
			    size_bracket(g, sizeof(g), rows[below].align, e));
		return 0;
	}
	/* the rows under the step must lie at one level: a row between that
	 * level and the step's (a boundary the card handles only part of the
	 * time, or noise) leaves the step's place open */
	level = stats_median(others, ndown);
	if (below != SIZE_MAX && rows[below].align == e / 2 && rows[below].diff > level + lv->step && ndown > 1) {
		uint64_t lo = e / 2;
		for (size_t k = below; k-- > 0 && rows[k].align >= from && rows[k].align == lo / 2 &&
					rows[k].diff > level + lv->step;)
			lo = rows[k].align;
		finding_not(f, "crossing a multiple of %s costs %s, the %s row %s, and the other rows from %s about %s: the "
			    "%s step is not clear, so the erase block is %s", format_size(a, sizeof(a), e),
			    time_range(g, sizeof(g), up_lo, up_hi), format_size(b, sizeof(b), e / 2),
			    format_time(c, sizeof(c), rows[below].diff), format_size(d, sizeof(d), from ? from : rows[0].align),
			    format_time(h, sizeof(h), level), format_size(a, sizeof(a), e), size_bracket(k2, sizeof(k2), lo / 2, e));
		return 0;
	}
	finding_evidence(f, "crossing a multiple of %s costs %s (%zu row%s); crossing the %zu other alignment%s from %s "
			 "costs %s", format_size(a, sizeof(a), e), time_range(g, sizeof(g), up_lo, up_hi), nup,
			 nup == 1 ? "" : "s", ndown, ndown == 1 ? "" : "s", format_size(d, sizeof(d), from ? from : rows[0].align),
			 time_range(h, sizeof(h), ndown ? dn_lo : 0, ndown ? dn_hi : 0));
	finding_evidence(f, "a classic table: one row per alignment, no repeated probes");
	/* a row far above the others' level, not next to the step: noise, or a
	 * pattern the rows cannot show */
	if (ndown > 1 && dn_hi > level + lv->step && f->conf > CONF_LOW) {
		f->conf = CONF_LOW;
		finding_evidence(f, "one of the other rows costs %s, above their level (%s): low", format_time(a, sizeof(a), dn_hi),
				 format_time(b, sizeof(b), level));
	}
	if (!thirds)
		snprintf(f->why, sizeof(f->why), "-a cannot tell this from %s %s erase block (3 x %s), which shows the "
			 "same steps; writes can (--auto --write)", article(format_size(a, sizeof(a), 3 * e)), a,
			 format_size(b, sizeof(b), e));
	if (f->conf > CONF_MEDIUM)
		f->conf = CONF_MEDIUM;
	return !thirds;
}

/* Run k on its own: its erase block, and the levels its rows show. */
static void run_erase(const struct saved_text *t, size_t k, struct finding *f, struct read_levels *lv)
{
	struct align_row rows[SAVED_ALIGN_ROWS];
	struct finding page;
	size_t n = run_rows(&t->align[k], 0, rows);

	classic_page(t, k, SIZE_MAX, 0, &page, lv);
	classic_erase(rows, n, lv, f);
}

void reanalyze_align_run(const struct saved_align_run *run, struct finding *page, struct finding *erase)
{
	struct saved_text *t = calloc(1, sizeof(*t));
	struct align_row rows[SAVED_ALIGN_ROWS];
	struct read_levels lv;
	size_t n;

	finding_init(page, "page", "page size (read unit)", 1);
	finding_init(erase, "erase_block", "erase block size", 1);
	if (!t) {
		finding_not(page, "out of memory");
		finding_not(erase, "out of memory");
		return;
	}
	t->align[0] = *run;
	t->nalign = 1;
	n = run_rows(&t->align[0], 0, rows);
	classic_page(t, 0, SIZE_MAX, 0, page, &lv);
	classic_erase(rows, n, &lv, erase);
	free(t);
}

/* Noise from repeated rows: runs at run a's block size that read the same
 * alignment differ by this much (median), 0 when no alignment repeats.  The
 * erase step must stand out of it as it must of pre against post.  A copy
 * (copy_of) is no repeated measurement. */
static double repeat_noise(const struct saved_text *t, size_t a)
{
	double v[SAVED_ALIGN_RUNS * SAVED_ALIGN_ROWS];
	size_t m = 0;

	for (size_t k = 0; k < t->nalign; k++) {
		if (k == a || t->align[k].bs != t->align[a].bs || t->align[k].copy_of)
			continue;
		for (size_t i = 0; i < t->align[a].n; i++)
			for (size_t j = 0; j < t->align[k].n; j++)
				if (t->align[k].rows[j].align == t->align[a].rows[i].align)
					v[m++] = fabs(t->align[k].rows[j].diff - t->align[a].rows[i].diff);
	}
	return stats_median(v, m);
}

/* Can run k show an erase step at e: rows at e and at e/2? */
static int run_sees(const struct saved_align_run *run, uint64_t e)
{
	int at = 0, under = 0;

	for (size_t i = 0; i < run->n; i++) {
		at |= run->rows[i].align == e;
		under |= run->rows[i].align == e / 2;
	}
	return at && under;
}

/* A pre/post asymmetry the primary run shows (read_levels.asym_*) is named:
 * on the finding whose step it starts at (else the erase block's), with
 * whether the other runs at its block size show it too.  What every run
 * shows is the card's; a run that does not makes it no property. */
static void asymmetry(const struct saved_text *t, size_t a, const struct read_levels *runlv, struct saved_report *s)
{
	const struct read_levels *lv = &s->r.levels;
	struct finding *f = &s->r.erase;
	unsigned same = 0, other = 0;
	char x[32], y[80], z[32], runs[64] = "";

	if (!lv->asym_from)
		return;
	for (size_t k = 0; k < t->nalign; k++) {
		if (k == a || t->align[k].copy_of || t->align[k].bs != t->align[a].bs)
			continue;
		if (runlv[k].asym_from == lv->asym_from && (runlv[k].asym_ns > 0) == (lv->asym_ns > 0))
			same++;
		else
			other++;
	}
	if (s->r.page.determined && s->r.page.value == lv->asym_from)
		f = &s->r.page;
	if (same && !other)
		snprintf(runs, sizeof(runs), " and in the %u other run%s", same, same == 1 ? "" : "s");
	else if (other)
		snprintf(runs, sizeof(runs), "; %u of the %u other runs do%s not show it", other, same + other,
			 other == 1 && same + other == 1 ? "es" : "");
	finding_evidence(f, "the read before each boundary from %s up is %s %s than the read after it (in every row%s): %s; "
			 "the noise is the spread around it (%s)", format_size(x, sizeof(x), lv->asym_from),
			 time_range(y, sizeof(y), fabs(lv->asym_lo), fabs(lv->asym_hi)), lv->asym_ns > 0 ? "slower" : "faster",
			 runs, other ? "not a property of the card, but of this run" : "the card's own asymmetry, not noise",
			 format_time(z, sizeof(z), lv->noise));
	if (other && f->determined && f->conf > CONF_LOW) {
		f->conf = CONF_LOW;
		snprintf(f->why, sizeof(f->why), "the runs disagree on the asymmetry the step is judged with");
	}
}

static void align_part(const struct saved_text *t, struct saved_report *s)
{
	struct auto_report *r = &s->r;
	struct read_levels runlv[SAVED_ALIGN_RUNS];
	size_t a = SIZE_MAX, b = SIZE_MAX;
	char x[32], y[32], z[32];

	s->primary = s->second = SIZE_MAX;
	finding_init(&r->page, "page", "page size (read unit)", 1);
	finding_init(&r->erase, "erase_block", "erase block size", 1);
	if (!t->nalign) {
		finding_not(&r->page, "no -a (align) table in the input");
		finding_not(&r->erase, "no -a (align) table in the input");
		next_step(s, "run `flashbench -a --blocksize=1024 DEV` (it only reads) to see the page and erase-block steps");
		return;
	}
	/* rows: the smallest block size (pages show best); rows2: the next
	 * larger one; a copy of another run is no run of its own */
	for (size_t k = 0; k < t->nalign; k++)
		if (!t->align[k].copy_of && (a == SIZE_MAX || t->align[k].bs < t->align[a].bs ||
					     (t->align[k].bs == t->align[a].bs && t->align[k].n > t->align[a].n)))
			a = k;
	if (a == SIZE_MAX)
		a = 0;
	for (size_t k = 0; k < t->nalign; k++)
		if (!t->align[k].copy_of && t->align[k].bs > t->align[a].bs &&
		    (b == SIZE_MAX || t->align[k].bs < t->align[b].bs))
			b = k;
	s->primary = a;
	s->second = b;
	r->bs = t->align[a].bs;
	r->nrows = run_rows(&t->align[a], 0, r->rows);
	if (b != SIZE_MAX) {
		r->bs2 = t->align[b].bs;
		r->nrows2 = run_rows(&t->align[b], 0, r->rows2);
	}
	classic_page(t, a, b, 1, &r->page, &r->levels);
	{
		double rep = repeat_noise(t, a);
		if (rep > r->levels.noise)
			r->levels.noise = rep;
	}
	s->erase_thirds = classic_erase(r->rows, r->nrows, &r->levels, &r->erase);

	/* the other runs on their own: combined where they agree, when they can
	 * show the step at all */
	for (size_t k = 0; k < t->nalign; k++) {
		struct finding *o = &s->run_erase[k];
		const char *how;
		run_erase(t, k, o, &runlv[k]);
		if (k == a || t->align[k].copy_of)
			continue;
		how = t->align[k].bs == t->align[a].bs ? "another run" : "the run";
		if (r->erase.determined && !run_sees(&t->align[k], r->erase.value)) {
			finding_evidence(&r->erase, "%s with %s reads (line %u) has no rows at %s and %s: it cannot show the step",
					 how, format_size(x, sizeof(x), t->align[k].bs), t->align[k].line,
					 format_size(y, sizeof(y), r->erase.value / 2), format_size(z, sizeof(z), r->erase.value));
			continue;
		}
		if (o->determined && r->erase.determined && o->value == r->erase.value) {
			finding_evidence(&r->erase, "%s with %s reads (line %u) shows the same step", how,
					 format_size(x, sizeof(x), t->align[k].bs), t->align[k].line);
		} else if (o->determined != r->erase.determined || (o->determined && o->value != r->erase.value)) {
			if (r->erase.determined) {
				r->erase.conf = CONF_LOW;
				snprintf(r->erase.why, sizeof(r->erase.why), "%s with %s reads (line %u) %s%s", how,
					 format_size(x, sizeof(x), t->align[k].bs), t->align[k].line,
					 o->determined ? "shows its step at " : "shows no step",
					 o->determined ? format_size(y, sizeof(y), o->value) : "");
			} else {
				/* the reason it is not determined stays first */
				finding_evidence(&r->erase, "%s with %s reads (line %u) alone shows a step at %s, %s", how,
						 format_size(x, sizeof(x), t->align[k].bs), t->align[k].line,
						 format_size(y, sizeof(y), o->value),
						 t->align[k].bs == t->align[a].bs ? "but the two runs differ by more than the step "
										   "at the same alignments" :
										   "not this run");
			}
			next_step(s, "run `flashbench -a --blocksize=1024 DEV` once more: the runs here disagree");
		}
	}
	asymmetry(t, a, runlv, s);
	if (t->card_erase && r->erase.determined && t->card_erase != r->erase.value) {
		finding_evidence(&r->erase, "the card itself reports an erase size of %s (preferred_erase_size), "
				 "not %s", format_size(x, sizeof(x), t->card_erase),
				 format_size(y, sizeof(y), r->erase.value));
		if (r->erase.conf > CONF_LOW)
			r->erase.conf = CONF_LOW;
	}
	r->alignment_matters = r->page.determined || r->erase.determined;

	/* what would decide it */
	if (!r->page.determined && !r->erase.determined) {
		double top = 0;
		for (size_t k = 0; k < r->nrows; k++)
			top = fmax(top, fabs(r->rows[k].diff));
		next_step(s, "no step stands out of the noise of this table (diffs up to %s; reads next to the same "
			  "boundary differ by %s): run `flashbench -a --blocksize=1024 --count=32 DEV` on an idle "
			  "system, twice", format_time(x, sizeof(x), top), format_time(y, sizeof(y), r->levels.step));
	}
	if (!r->page.determined && r->bs > 1024)
		next_step(s, "run `flashbench -a --blocksize=1024 DEV`: smaller reads show the page");
	if (!r->erase.determined && r->page.determined)
		next_step(s, "-a alone does not show the erase block on this card: run `flashbench --auto --write DEV` "
			  "(it writes), or an open-au sweep with the erase size the card reports "
			  "(flashbench-open-au-sweep -e SIZE DEV)");
	if (r->erase.determined && t->nalign == 1)
		next_step(s, "run `flashbench -a --blocksize=%u DEV` too: a second run that shows the same step "
			  "counts for more than one", t->align[0].bs == 4096 ? 1024u : 4096u);
	if (r->erase.determined)
		next_step(s, "run `flashbench --auto --write DEV` to confirm the %s erase block with writes (it "
			  "overwrites the ranges it announces)", format_size(z, sizeof(z), r->erase.value));
}

/* ------------------------------------------------------------ -O */

/* A table's erase size: its command line's --erasesize, else its first
 * row, which the classic -O writes at the erase size (4MiB by default) */
static uint64_t sweep_erase(const struct saved_open_table *tb)
{
	return tb->erase ? tb->erase : tb->n ? tb->size[0] : 4ULL << 20;
}

/* A sweep: the tables of one run of --open-au-nr values, linear or random,
 * at one erase size, in the order of the text.  Where a value comes again
 * (the sweep starts over: repeated, or another card on the same device
 * name), a new sweep begins: the two are judged apart, never mixed. */
struct sweep {
	int rnd;
	uint64_t erase;
	size_t n;
	const struct saved_open_table *tb[SAVED_OPEN_TABLES];
};

static size_t find_sweeps(const struct saved_text *t, int rnd, struct sweep *sw)
{
	size_t nsw = 0;

	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		size_t k = nsw;
		int again = 0;
		if (tb->random != rnd || !tb->nr || !tb->n)
			continue;
		while (k > 0 && sw[k - 1].erase != sweep_erase(tb))
			k--;
		for (size_t j = 0; k && j < sw[k - 1].n; j++)
			again |= sw[k - 1].tb[j]->nr == tb->nr;
		if (!k || again) {
			k = ++nsw;
			memset(&sw[k - 1], 0, sizeof(sw[0]));
			sw[k - 1].rnd = rnd;
			sw[k - 1].erase = sweep_erase(tb);
		}
		sw[k - 1].tb[sw[k - 1].n++] = tb;
	}
	return nsw;
}

static const struct saved_open_table *sweep_base(const struct sweep *sw)
{
	const struct saved_open_table *b = NULL;

	for (size_t i = 0; i < sw->n; i++)
		if (!b || sw->tb[i]->nr < b->nr)
			b = sw->tb[i];
	return b;
}

/* The rate of table tb at chunk c, 0 when it has none. */
static double rate_of(const struct saved_open_table *tb, uint64_t c)
{
	for (size_t k = 0; k < tb->n; k++)
		if (tb->size[k] == c)
			return tb->rate[k];
	return 0;
}

/* The index of the middle of v[0..m) (the lower middle of an even
 * number), v unchanged. */
static size_t middle_of(const double *v, size_t m)
{
	for (size_t i = 0; i < m; i++) {
		size_t below = 0;
		for (size_t j = 0; j < m; j++)
			below += v[j] < v[i] || (v[j] == v[i] && j < i);
		if (below == (m - 1) / 2)
			return i;
	}
	return 0;
}

/* The best rate of table tb among its larger chunks (the first row may
 * still pay for the run before): its large-write rate, and *at its chunk. */
static double large_rate(const struct saved_open_table *tb, uint64_t *at)
{
	double large = 0;

	*at = 0;
	for (size_t k = 0; k < tb->n; k++)
		if (tb->size[k] >= tb->size[0] / 8 && tb->rate[k] > large) {
			large = tb->rate[k];
			*at = tb->size[k];
		}
	return large;
}

/* A run's verdict against the sweep's reference (vote). */
struct cell_vote {
	int verdict;        /* 1 collapsed, 0 healthy, -1 undecided */
	double ratio;       /* the cell that decided: the middle slowdown of the majority */
	uint64_t at;
	unsigned yes, cells;  /* cells that voted with the verdict, of the cells judged */
};

/* The cells of table tb against the reference ref: at every chunk size
 * below the erase size that both reached (largest first), the size, the
 * slowdown and whether the cell collapses (see SWEEP_VOTE_CHUNKS).
 * Returns how many. */
static size_t cells_of(const struct saved_open_table *tb, const struct saved_open_table *ref, int rnd, uint64_t erase,
		       uint64_t *c, double *r, int *col)
{
	double whole, large;
	uint64_t big;
	size_t m = 0;

	large = large_rate(ref, &big);
	whole = (double)erase / (large > 0 ? large : 1) * 1e9;
	for (size_t k = 0; k < tb->n; k++) {
		double theirs = rate_of(ref, tb->size[k]), extra;
		if (tb->size[k] >= erase || theirs <= 0 || tb->rate[k] <= 0)
			continue;
		r[m] = theirs / tb->rate[k];
		c[m] = tb->size[k];
		extra = (double)c[m] * 1e9 * (1 / tb->rate[k] - 1 / theirs) / whole;
		/* random order: one erase block too many makes only one of the
		 * blocks pay, a smaller step (analyze.h random_collapsed) */
		col[m] = extra >= SWEEP_COLLAPSE_SHARE / (rnd && tb->nr > ref->nr ? tb->nr : 1) ||
			 (extra >= SWEEP_FLAT_SHARE && (rnd && tb->nr > ref->nr ? random_collapsed(r[m], 1, 0) :
						      write_collapsed(r[m], 1, 0)));
		m++;
	}
	return m;
}

/* The largest of the reference's SWEEP_VOTE_CHUNKS smallest sizes below
 * the erase size, when it has twice as many (else 0: none is small). */
static uint64_t small_sizes(const struct saved_open_table *ref, uint64_t erase)
{
	size_t below = 0;

	for (size_t k = 0; k < ref->n; k++)
		below += ref->size[k] < erase;
	return below >= 2 * SWEEP_VOTE_CHUNKS ? ref->size[ref->n - SWEEP_VOTE_CHUNKS] : 0;
}

/* Where a collapse shows in sweep sw: the chunk sizes at which its run
 * with the most collapsed cells collapses (ties: the larger count).  None
 * when that is one cell (a pause), or only among the reference's smallest
 * SWEEP_VOTE_CHUNKS sizes (one erase block faster for small writes than
 * several is no collapse).  Returns how many, sizes in judged. */
static size_t collapse_cells(const struct sweep *sw, const struct saved_open_table *ref, uint64_t *judged)
{
	uint64_t c[SAVED_OPEN_ROWS], small;
	double r[SAVED_OPEN_ROWS];
	int col[SAVED_OPEN_ROWS];
	size_t best = 0, nbest = 0, above = 0;

	small = small_sizes(ref, sw->erase);
	for (size_t i = 0; i < sw->n; i++) {
		size_t m, y = 0;
		if (sw->tb[i] == ref)
			continue;
		m = cells_of(sw->tb[i], ref, sw->rnd, sw->erase, c, r, col);
		for (size_t k = 0; k < m; k++)
			y += (size_t)col[k];
		if (y > best || (y == best && y && sw->tb[i]->nr > sw->tb[nbest]->nr)) {
			best = y;
			nbest = i;
		}
	}
	if (best < 2)
		return 0;
	{
		size_t m = cells_of(sw->tb[nbest], ref, sw->rnd, sw->erase, c, r, col), n = 0;
		for (size_t k = 0; k < m; k++)
			if (col[k]) {
				judged[n++] = c[k];
				above += c[k] > small;
			}
		return above ? n : 0;
	}
}

/* Table tb against the sweep's reference: collapsed when most of the
 * chunk sizes where the sweep's collapse shows (judged[0..nj)) collapse in
 * it, at least two, one above the smallest sizes; healthy when most do not
 * (a linear run whose collapsed cells are all among the smallest sizes:
 * judged at the larger ones alone; with no collapse in the sweep: at all
 * its cells); else undecided, as with fewer than two of those sizes
 * reached (a run stopped early) or a random-order run that differs only
 * at the smallest sizes. */
static void vote(const struct saved_open_table *tb, const struct saved_open_table *ref, int rnd, uint64_t erase,
		 const uint64_t *judged, size_t nj, struct cell_vote *v)
{
	double r[SAVED_OPEN_ROWS], rmaj[SAVED_OPEN_ROWS];
	uint64_t c[SAVED_OPEN_ROWS], cmaj[SAVED_OPEN_ROWS], small = small_sizes(ref, erase);
	int col[SAVED_OPEN_ROWS];
	size_t m, n = 0, yes = 0, nmaj = 0, up = 0;

	memset(v, 0, sizeof(*v));
	v->verdict = -1;
	v->ratio = 1;
	m = cells_of(tb, ref, rnd, erase, c, r, col);
	for (size_t pass = 0; pass < 2; pass++) {
		n = yes = up = 0;
		for (size_t k = 0; k < m; k++) {
			int in = !nj;
			for (size_t j = 0; j < nj && !in; j++)
				in = judged[j] == c[k] && (!pass || c[k] > small);
			if (!in)
				continue;
			c[n] = c[k];
			r[n] = r[k];
			col[n] = nj ? col[k] : 0; /* no collapse in the sweep: a cell alone is none */
			yes += (size_t)col[n];
			up += col[n] && c[n] > small;
			n++;
		}
		m = n;
		if (up || !yes)
			break;
		/* a difference confined to the smallest sizes: in linear order
		 * no collapse (one shows at the larger sizes too), judged above
		 * them; in random order a collapse may show only there (one of
		 * the erase blocks pays), as may a reference faster for small
		 * writes: undecided */
		if (rnd && tb->nr > ref->nr) {
			v->cells = (unsigned)n;
			v->yes = (unsigned)yes;
			return;
		}
	}
	v->cells = (unsigned)n;
	if (n < 2)
		return;
	if (2 * yes > n && yes >= 2 && up)
		v->verdict = 1;
	else if (2 * (n - yes) > n)
		v->verdict = 0;
	for (size_t k = 0; k < n; k++)
		if (v->verdict < 0 || col[k] == v->verdict) {
			rmaj[nmaj] = r[k];
			cmaj[nmaj++] = c[k];
		}
	v->yes = (unsigned)(v->verdict == 0 ? n - yes : yes);
	v->ratio = rmaj[middle_of(rmaj, nmaj)];
	v->at = cmaj[middle_of(rmaj, nmaj)];
}

/* Where tb's --open-au-nr was read, when not from its own command line:
 * the inference said in the table's own terms ("" for a command line). */
static const char *nr_said(const struct saved_open_table *tb, char *buf, size_t len)
{
	switch (tb->nr_from) {
	case NR_LABEL:
		snprintf(buf, len, ", the count from the label line %u", tb->nr_line);
		break;
	case NR_ECHO:
		snprintf(buf, len, ", the count from line %u, which its loop printed", tb->nr_line);
		break;
	case NR_DEFAULT:
		snprintf(buf, len, "; taken as %d: the classic default of -O, which the command line at line %u does "
			 "not set", CLASSIC_OPEN_AU_NR, tb->nr_line);
		break;
	default:
		buf[0] = '\0';
	}
	return buf;
}

/* One evidence line: table tb of the sweep against the reference. */
static void describe(const struct saved_open_table *tb, const struct saved_open_table *ref, const struct sweep *sw,
		     const uint64_t *judged, size_t nj, struct finding *f)
{
	char a[32], b[32], c[32], g[200], said[128], cells[128], d[32], e[32];
	struct cell_vote v;

	if (!tb)
		return;
	snprintf(g, sizeof(g), " (line %u%s%s)", tb->line, tb->interrupted ? ", stopped with ^C" : "",
		 nr_said(tb, said, sizeof(said)));
	if (tb == ref) {
		finding_evidence(f, "--open-au-nr=%u%s: %s at %s", tb->nr, g, format_rate(a, sizeof(a), tb->rate[tb->n - 1]),
				 format_size(b, sizeof(b), tb->size[tb->n - 1]));
		return;
	}
	vote(tb, ref, sw->rnd, sw->erase, judged, nj, &v);
	format_rate(a, sizeof(a), rate_of(tb, v.at));
	format_rate(c, sizeof(c), rate_of(ref, v.at));
	format_size(b, sizeof(b), v.at);
	if (nj)
		snprintf(cells, sizeof(cells), "%s at %u of the %u chunk sizes from %s to %s where the sweep collapses",
			 v.verdict == 1 ? "garbage collection" : "none", v.yes, v.cells, format_size(d, sizeof(d), judged[0]),
			 format_size(e, sizeof(e), judged[nj - 1]));
	else
		snprintf(cells, sizeof(cells), "no collapse at %u of its %u chunk sizes below the erase size", v.yes, v.cells);
	if (v.ratio > 0.9 && v.ratio < 1.1)
		finding_evidence(f, "--open-au-nr=%u%s: %s at %s, as fast as --open-au-nr=%u (%s); %s", tb->nr, g, a, b,
				 ref->nr, c, cells);
	else
		finding_evidence(f, "--open-au-nr=%u%s: %s at %s, %.1fx %s --open-au-nr=%u (%s); %s", tb->nr, g, a, b,
				 v.ratio >= 1 ? v.ratio : 1 / v.ratio, v.ratio >= 1 ? "slower than" : "faster than", ref->nr, c,
				 cells);
}

/* A run with one --open-au-nr judged on its own: do its smallest writes
 * collect garbage (each costs a good share of writing a whole erase block)
 * or not (a command's overhead)?  See SWEEP_COLLAPSE_SHARE. */
static void single_sweep(const struct saved_open_table *tb, int rnd, uint64_t erase, struct finding *f)
{
	double large = 0, small, per_write, whole, share;
	uint64_t s_small, s_large = 0;
	unsigned nr = tb->nr;
	int verdict;
	char a[32], b[32], c[32], d[32], e[32], g[32], h[200], said[128];

	finding_init(f, f->key, f->title, 0);
	if (tb->n < 2) {
		finding_not(f, "the --open-au-nr=%u run (line %u) has too few rows to judge on its own", nr, tb->line);
		return;
	}
	/* the large-write rate: the best of the larger chunks (the first row
	 * may still pay for the run before) */
	for (size_t k = 0; k < tb->n; k++)
		if (tb->size[k] >= tb->size[0] / 8 && tb->rate[k] > large) {
			large = tb->rate[k];
			s_large = tb->size[k];
		}
	/* the extra time per write at each chunk size below the large one:
	 * garbage collection when most collapse, one above the smallest
	 * sizes (SWEEP_VOTE_CHUNKS of twice as many: a collapse at the middle
	 * sizes with small writes a card treats apart); else the middle of the
	 * smallest decides, so that one slow cell or a write below the card's
	 * minimum decides nothing */
	{
		double shares[SAVED_OPEN_ROWS], pick[SAVED_OPEN_ROWS];
		size_t idx[SAVED_OPEN_ROWS], pidx[SAVED_OPEN_ROWS], m = 0, np = 0, ncol = 0, up = 0, mid;
		int want;
		whole = (double)erase / (large > 0 ? large : 1) * 1e9;
		for (size_t k = 0; k < tb->n && large > 0; k++) {
			if (tb->size[k] >= s_large || tb->rate[k] <= 0)
				continue;
			shares[m] = fmax(0, (double)tb->size[k] / tb->rate[k] * 1e9 - (double)tb->size[k] / large * 1e9) / whole;
			idx[m++] = k;
		}
		if (!m) {
			finding_not(f, "the --open-au-nr=%u run (line %u) has no small writes to compare with its large ones",
				    nr, tb->line);
			return;
		}
		for (size_t k = 0; k < m; k++) {
			ncol += shares[k] >= SWEEP_COLLAPSE_SHARE;
			up += shares[k] >= SWEEP_COLLAPSE_SHARE && (m < 2 * SWEEP_VOTE_CHUNKS || k < m - SWEEP_VOTE_CHUNKS);
		}
		/* most cells collapse: the middle of those; else the middle of
		 * the smallest SWEEP_VOTE_CHUNKS decides, as a fixed cost per
		 * write shows best there */
		want = 2 * ncol > m && up;
		for (size_t k = 0; k < m; k++)
			if (want ? shares[k] >= SWEEP_COLLAPSE_SHARE : k + SWEEP_VOTE_CHUNKS >= m) {
				pick[np] = shares[k];
				pidx[np++] = idx[k];
			}
		mid = middle_of(pick, np);
		share = pick[mid];
		verdict = share >= SWEEP_COLLAPSE_SHARE ? 1 : share <= SWEEP_FLAT_SHARE ? 0 : -1;
		s_small = tb->size[pidx[mid]];
		small = tb->rate[pidx[mid]];
		per_write = (double)s_small / small * 1e9;
	}
	snprintf(h, sizeof(h), "--open-au-nr=%u%s (line %u%s%s)", nr, rnd ? " --random" : "", tb->line,
		 tb->interrupted ? ", stopped with ^C" : "", nr_said(tb, said, sizeof(said)));
	format_rate(a, sizeof(a), large);
	format_size(b, sizeof(b), s_large);
	format_rate(c, sizeof(c), small);
	format_size(d, sizeof(d), s_small);
	format_time(g, sizeof(g), per_write);
	format_size(e, sizeof(e), erase);
	if (verdict == 1) {
		f->determined = 1;
		f->at_most = 1;
		f->value = nr - 1;
		f->conf = CONF_MEDIUM;
		finding_evidence(f, "%s: %s at %s falls to %s at %s (%.0fx); each %s write takes %s, %.0f%% of the time "
				 "to write a whole %s erase block at %s: garbage collection, not a small write's cost", h, a,
				 b, c, d, large / small, d, g, 100 * share, e, a);
	} else if (verdict == 0) {
		f->determined = 1;
		f->at_least = 1;
		f->value = nr;
		f->conf = CONF_LOW;
		finding_evidence(f, "%s: %s at %s, %s at %s; each %s write takes %s, %.1f%% of the time to write a whole "
				 "%s erase block: no garbage collection with %u erase block%s open", h, a, b, c, d, d, g,
				 100 * share, e, nr, nr == 1 ? "" : "s");
		finding_evidence(f, "low: a card that copies an erase block in a few milliseconds would look the same");
	} else {
		finding_not(f, "%s: each %s write takes %s, %.0f%% of the time to write a whole %s erase block at %s, and "
			    "its chunk sizes split: between a small write's cost (%.3g%% or less) and garbage collection "
			    "(%.3g%% or more); a fixed cost per write and a fast copy look alike", h, d, g, 100 * share, e,
			    a, 100 * SWEEP_FLAT_SHARE, 100 * SWEEP_COLLAPSE_SHARE);
		return;
	}
	snprintf(f->why, sizeof(f->why), "a single run: no run with another --open-au-nr to compare with; a sweep over "
		 "--open-au-nr=1 to %u says more", nr + 1);
}

/* Why the run with --open-au-nr=nr of the sweep is no trial: missing, or
 * undecided. */
static const char *run_missing(const struct sweep *sw, unsigned nr)
{
	for (size_t i = 0; i < sw->n; i++)
		if (sw->tb[i]->nr == nr)
			return sw->tb[i]->interrupted ? "the run between them stops too early to decide" :
							"the run between them does not decide (its chunk sizes split)";
	return "no run between them";
}

/* One sweep judged: its runs against its reference (the smallest
 * --open-au-nr), which is first judged on its own: a reference that
 * collapses already makes every run look as fast as it. */
static void judge_sweep(const struct sweep *sw, struct finding *f, struct open_trial *tr, size_t *ntr, double *ref_out,
			uint64_t *chunk_out)
{
	const struct saved_open_table *base = sweep_base(sw);
	struct finding g;
	unsigned top = 0;
	double ref;
	uint64_t cmin, judged[SAVED_OPEN_ROWS];
	size_t nj;
	double mild;
	char a[32], b[32];

	*ntr = 0;
	*ref_out = 0;
	*chunk_out = 0;
	finding_init(&g, f->key, f->title, 0);
	single_sweep(base, sw->rnd, sw->erase, &g);
	for (size_t i = 0; i < sw->n; i++)
		top = sw->tb[i]->nr > top ? sw->tb[i]->nr : top;
	if (top == base->nr || (g.determined && g.at_most)) {
		*f = g;
		if (top > base->nr + 1)
			finding_evidence(f, "the runs with --open-au-nr=%u to %u are not judged: their reference, "
					 "--open-au-nr=%u, collects garbage already", base->nr + 1, top, base->nr);
		else if (top > base->nr)
			finding_evidence(f, "the run with --open-au-nr=%u is not judged: its reference, --open-au-nr=%u, "
					 "collects garbage already", top, base->nr);
		return;
	}
	cmin = base->size[base->n - 1];
	ref = (double)cmin * 1e9 / base->rate[base->n - 1];
	nj = collapse_cells(sw, base, judged);
	for (size_t i = 0; i < sw->n && *ntr < AUTO_MAX_TRIALS; i++) {
		struct cell_vote v = { .verdict = 0, .ratio = 1 };
		if (sw->tb[i] != base)
			vote(sw->tb[i], base, sw->rnd, sw->erase, judged, nj, &v);
		if (v.verdict < 0)
			continue;
		tr[*ntr].n = sw->tb[i]->nr;
		tr[*ntr].mean_ns = ref * v.ratio;
		tr[*ntr].collapsed = v.verdict;
		(*ntr)++;
	}
	*ref_out = ref;
	*chunk_out = cmin;
	/* the largest count judged bounds the count: a run that decides
	 * nothing does not say the card keeps more */
	top = 0;
	for (size_t i = 0; i < *ntr; i++)
		top = tr[i].n > top ? tr[i].n : top;
	analyze_open(tr, *ntr, top, sw->rnd, cmin, ref, f);
	if (!f->determined)
		return;
	/* the count is the number before the collapse: a run with it must be
	 * there and healthy, else the count lies between the last healthy one
	 * and it */
	if (!f->at_least && f->value) {
		size_t i;
		for (i = 0; i < *ntr && !(tr[i].n == f->value && !tr[i].collapsed); i++)
			;
		if (i == *ntr) {
			unsigned good = 0;
			for (i = 0; i < *ntr; i++)
				if (!tr[i].collapsed && tr[i].n < f->value && tr[i].n > good)
					good = tr[i].n;
			finding_not(f, "--open-au-nr=%u collapses, %u does not; %s: the count is %u to %llu",
				    (unsigned)f->value + 1, good, run_missing(sw, (unsigned)f->value), good,
				    (unsigned long long)f->value);
			f->nevidence = 0;
			return;
		}
	}
	/* the evidence in the tables' own terms: the last healthy count and
	 * the first that collapsed */
	f->nevidence = 0;
	mild = 0;
	for (size_t i = 0; i < *ntr && !f->at_least; i++)
		if (tr[i].n == f->value + 1 && tr[i].collapsed && tr[i].mean_ns < SWEEP_CLEAR_COLLAPSE * ref)
			mild = tr[i].mean_ns / ref;
	for (int pass = 0; pass < 2; pass++) {
		unsigned want = (unsigned)f->value + (unsigned)pass;
		if (pass && f->at_least)
			break;
		for (size_t i = 0; i < sw->n; i++)
			if (sw->tb[i]->nr == want) {
				describe(sw->tb[i], base, sw, judged, nj, f);
				break;
			}
	}
	finding_evidence(f, "%zu run%s with --erasesize=%s%s (from line %u), each judged against --open-au-nr=%u, by "
			 "majority at the chunk sizes where the sweep collapses", *ntr, *ntr == 1 ? "" : "s",
			 format_size(a, sizeof(a), sw->erase), sw->rnd ? " --random" : "", sw->tb[0]->line, base->nr);
	if (!g.determined) {
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		finding_evidence(f, "the reference itself is not clearly healthy: %s", g.why);
	}
	if (mild > 0 && f->conf > CONF_LOW) {
		f->conf = CONF_LOW;
		finding_evidence(f, "low: the collapse that decides is mild (%.1fx where it shows): a card that slows "
				 "down for other reasons looks alike", mild);
	}
	if (base->nr != 1 && !f->why[0])
		snprintf(f->why, sizeof(f->why), "no --open-au-nr=1 run: judged against --open-au-nr=%u", base->nr);
	(void)b;
}

/* The counts a finding allows: [lo, hi] (hi UINT64_MAX: no bound). */
static void count_range(const struct finding *f, uint64_t *lo, uint64_t *hi)
{
	*lo = f->at_most ? 0 : f->value;
	*hi = f->at_least ? UINT64_MAX : f->value;
}

static void count_text(char *buf, size_t len, const struct finding *f)
{
	if (f->at_most)
		snprintf(buf, len, "fewer than %llu", (unsigned long long)f->value + 1);
	else
		snprintf(buf, len, "%s%llu", f->at_least ? "at least " : "", (unsigned long long)f->value);
}

/* The line of the first -O table whose count is not known. */
static unsigned unused_line(const struct saved_text *t)
{
	for (size_t i = 0; i < t->nopen; i++)
		if (!t->open[i].nr)
			return t->open[i].line;
	return 0;
}

static void open_part(const struct saved_text *t, struct saved_report *s, const struct finding *erase)
{
	struct auto_report *r = &s->r;
	struct sweep *sw = malloc(SAVED_OPEN_TABLES * sizeof(*sw));
	char a[32], b[32], c[48];

	for (size_t i = 0; i < t->nopen; i++)
		s->open_unused += !t->open[i].nr;
	for (int rnd = 0; rnd < 2; rnd++) {
		struct finding *f = rnd ? &r->open_random : &r->open_linear;
		struct open_trial *tr = rnd ? r->rnd : r->lin;
		size_t *ntr = rnd ? &r->nrnd : &r->nlin;
		size_t nsw, lead = 0, agree = 0, differ = 0;
		double ref;
		uint64_t chunk, lo, hi;

		finding_init(f, rnd ? "open_random" : "open_linear",
			     rnd ? "open erase blocks, random order" : "open erase blocks, linear", 0);
		if (!sw) {
			finding_not(f, "out of memory");
			continue;
		}
		nsw = find_sweeps(t, rnd, sw);
		if (!nsw) {
			finding_not(f, "no %s open-au sweep (-O%s with --open-au-nr) in the input", rnd ? "random-order" : "linear",
				    rnd ? " --random" : "");
			continue;
		}
		/* the sweep with most runs leads; of equals, the one at the erase
		 * size -a found, else the first */
		for (size_t k = 1; k < nsw; k++)
			if (sw[k].n > sw[lead].n ||
			    (sw[k].n == sw[lead].n && erase->determined && sw[k].erase == erase->value &&
			     sw[lead].erase != erase->value))
				lead = k;
		s->sweep_erase[rnd] = sw[lead].erase;
		judge_sweep(&sw[lead], f, tr, ntr, &ref, &chunk);
		if (!rnd) {
			r->write_ref = ref;
			r->trial_chunk = chunk;
		}
		if (!f->determined)
			continue;
		count_range(f, &lo, &hi);
		/* the other sweeps: do they count the same? */
		for (size_t k = 0; k < nsw; k++) {
			struct open_trial other[AUTO_MAX_TRIALS];
			struct finding g;
			size_t no;
			uint64_t ch, glo, ghi;
			double rf;
			if (k == lead)
				continue;
			finding_init(&g, f->key, f->title, 0);
			judge_sweep(&sw[k], &g, other, &no, &rf, &ch);
			if (!g.determined)
				continue;
			count_range(&g, &glo, &ghi);
			count_text(c, sizeof(c), &g);
			snprintf(b, sizeof(b), "%s", format_size(a, sizeof(a), sw[k].erase));
			if (glo == lo && ghi == hi) {
				agree += sw[k].erase != sw[lead].erase && !f->at_least && !f->at_most;
				finding_evidence(f, "the sweep at line %u (--erasesize=%s) counts the same", sw[k].tb[0]->line, b);
			} else if (glo <= hi && lo <= ghi) {
				finding_evidence(f, "the sweep at line %u (--erasesize=%s) counts %s", sw[k].tb[0]->line, b, c);
			} else if (sw[k].erase == sw[lead].erase) {
				/* the same sweep run twice, counting apart: nothing says
				 * which is right */
				char d[48];
				count_text(d, sizeof(d), f);
				finding_not(f, "the sweeps at line %u and line %u (both --erasesize=%s%s) disagree: %s against %s "
					    "(two cards under one device name, or one that adapts to the pattern)",
					    sw[lead].tb[0]->line, sw[k].tb[0]->line, b, rnd ? " --random" : "", d, c);
				f->nevidence = 0;
				break;
			} else if (!differ++) {
				f->conf = CONF_LOW;
				snprintf(f->why, sizeof(f->why), "the sweep at line %u (--erasesize=%s%s) counts %s: the sweeps "
					 "disagree (another card, or one that adapts to the pattern)", sw[k].tb[0]->line, b,
					 rnd ? " --random" : "", c);
			}
		}
		if (!f->determined)
			continue;
		/* sweeps with other erase sizes that find the same knee repeat the
		 * trial: together as good as --auto's confirmed knee */
		if (agree && !differ && f->conf == CONF_MEDIUM)
			f->conf = CONF_HIGH;
		/* a count is never surer than the erase block it is counted in:
		 * the sweep's --erasesize must be what -a found (or a multiple);
		 * else, if the erase block is larger, several regions share one
		 * and a sweep that never collapses says nothing */
		if (erase->determined && erase->conf >= CONF_MEDIUM && sw[lead].erase % erase->value == 0) {
			if (f->conf > erase->conf)
				f->conf = erase->conf;
		} else {
			if (f->conf > CONF_MEDIUM)
				f->conf = CONF_MEDIUM;
			if (f->at_least && f->conf > CONF_LOW)
				f->conf = CONF_LOW;
			if (!f->why[0])
				snprintf(f->why, sizeof(f->why), "counted in the %s regions the sweep wrote (--erasesize), a size "
					 "these results do not confirm as the erase block%s", format_size(a, sizeof(a), sw[lead].erase),
					 f->at_least ? ": if it is larger, several regions share one, and the card may keep fewer open" : "");
		}
		if (f->at_least) {
			/* larger values than the sweep has: past what it reached */
			unsigned top = 0;
			for (size_t k = 0; k < sw[lead].n; k++)
				top = sw[lead].tb[k]->nr > top ? sw[lead].tb[k]->nr : top;
			next_step(s, "the %s sweep never collapsed up to --open-au-nr=%u: go on with larger values "
				  "(flashbench-open-au-sweep -n %u)", rnd ? "random" : "linear", top, top < 8 ? 16 : 2 * top);
		}
	}
	free(sw);
	if (!r->open_linear.determined && !r->open_random.determined) {
		/* a hint never asks for what the input has: sweeps that decide
		 * nothing are named, not asked for */
		unsigned have = 0;
		for (size_t i = 0; i < t->nopen; i++)
			have += t->open[i].nr != 0;
		if (have)
			next_step(s, "the open-au tables here do not decide the count (above): sweep --open-au-nr from 1 "
				  "up on an idle card, with the erase size -a or the card reports (flashbench-open-au-sweep -e "
				  "SIZE DEV), or run `flashbench --auto --write DEV` (both write)");
		else
			next_step(s, "to count open erase blocks, run `flashbench-open-au-sweep -e SIZE DEV` or `flashbench "
				  "--auto --write DEV` (both write)");
	}
	if (s->open_unused)
		next_step(s, "%u open-au table%s (from line %u) %s not used: no command line, label line or loop's echo "
			  "says which --open-au-nr %s ran with (a script that prints none); print the count before each "
			  "table (a line such as \"open AU nr: 3 random\"), or run flashbench-open-au-sweep",
			  s->open_unused, s->open_unused == 1 ? "" : "s", unused_line(t), s->open_unused == 1 ? "was" : "were",
			  s->open_unused == 1 ? "it" : "they");
}

/* ------------------------------------------------------------ find-fat */

/* A cell differs from the reference erase block (the table's last, the one
 * farthest from the start) by fat_table_apart() either way, and high
 * confidence is analyze_fat's rule (fat_ends_sharply).  A FAT area shows over adjacent chunk sizes; a classic table times each
 * cell once, so one row out of line is noise, not an area. */
#define FAT_RUN_ROWS 3

static uint64_t fat_erase(const struct saved_fat_table *tb)
{
	return tb->erase ? tb->erase : 4ULL << 20; /* the classic default */
}

/* The leading erase blocks of row r that differ from the last one, all in
 * the same direction (*dir: +1 faster, -1 slower). */
static unsigned fat_row(const struct saved_fat_table *tb, size_t r, int *dir)
{
	unsigned k = 0;
	double ref = tb->rate[r][tb->nblocks - 1], apart = fat_table_apart();

	*dir = 0;
	while (k + 1 < tb->nblocks && ref > 0 && tb->rate[r][k] > 0) {
		double ratio = tb->rate[r][k] / ref;
		int d = ratio >= apart ? 1 : ratio <= 1 / apart ? -1 : 0;
		if (!d || (*dir && d != *dir))
			break;
		*dir = d;
		k++;
	}
	return k;
}

/* "erase block 0", "erase blocks 0 to 3" */
static void first_blocks(char *buf, size_t len, unsigned area)
{
	if (area == 1)
		snprintf(buf, len, "erase block 0");
	else
		snprintf(buf, len, "erase blocks 0 to %u", area - 1);
}

/* The median over the first `area` erase blocks of row r's rate against
 * the table's last erase block. */
static double area_ratio(const struct saved_fat_table *tb, size_t r, unsigned area)
{
	double x[SAVED_FAT_BLOCKS];
	unsigned n = 0;

	for (unsigned j = 0; j < area && j + 1 < tb->nblocks; j++)
		if (tb->rate[r][j] > 0 && tb->rate[r][tb->nblocks - 1] > 0)
			x[n++] = tb->rate[r][j] / tb->rate[r][tb->nblocks - 1];
	return stats_median(x, n);
}

/* A first area that writes slower than the last erase block: FAT-optimised
 * only if small writes cost it less than large ones do (against the last
 * erase block, its smallest chunk size FAT_TABLE_APART better than its
 * largest ones, the median of FAT_RUN_ROWS rows; each a median over the
 * area's erase blocks: a FAT area is made for small writes); a start
 * slower at every chunk size
 * is different, and the table does not show whether it is optimised.
 * Returns 1 for the first (the evidence added), 0 for the second (f not
 * determined, saying so). */
static int fat_less_penalised(const struct saved_fat_table *tb, unsigned area, struct finding *f)
{
	double big[FAT_RUN_ROWS], xb, xs;
	size_t m = tb->n < 2 * FAT_RUN_ROWS ? tb->n / 2 : FAT_RUN_ROWS;
	char a[32], b[32], c[32], g[64];

	for (size_t i = 0; i < m; i++)
		big[i] = area_ratio(tb, i, area);
	xb = stats_median(big, m);
	xs = area_ratio(tb, tb->n - 1, area);
	format_size(a, sizeof(a), area * fat_erase(tb));
	format_size(b, sizeof(b), tb->size[0]);
	format_size(c, sizeof(c), tb->size[tb->n - 1]);
	first_blocks(g, sizeof(g), area);
	if (m && xb > 0 && xs / xb >= fat_table_apart()) {
		finding_evidence(f, "%s (the first %s) write %.2fx as fast as erase block %u at %s, but %.2fx at %s: less "
				 "penalised by small writes, as a FAT area is", g, a, xb, tb->nblocks - 1, b, xs, c);
		return 1;
	}
	finding_not(f, "%s (the first %s) %s different: %s slower than erase block %u at every chunk size "
		    "(%.2fx at %s, %.2fx at %s; line %u), small writes no less than large ones; whether %s "
		    "FAT-optimised is not what the table shows", g, a, area == 1 ? "is" : "are",
		    area == 1 ? "it writes" : "they write", tb->nblocks - 1, xb, b, xs, c, tb->line,
		    area == 1 ? "it is" : "they are");
	return 0;
}

/* Fewer than FAT_RUN_ROWS rows show an area, the table's smallest chunk
 * sizes: a FAT area is made for small writes, so one there that ends
 * sharply (fat_ends_sharply: the area FAT_SHARP apart, the other erase
 * blocks alike) is no row out of line: faster, an area at low (one or two
 * rows are little to go on); slower, the start is different.  Returns 1
 * when f is decided. */
static int small_rows_area(const struct saved_fat_table *tb, const unsigned *k, const int *dir, struct finding *f)
{
	size_t t = 0, n = tb->n;
	unsigned area = n ? k[n - 1] : 0;
	double weakest = 1e300, alike = 1;
	char a[32], b[32], g[64];

	while (t < n && k[n - 1 - t] == area && dir[n - 1 - t] == dir[n - 1])
		t++;
	if (!area || t >= FAT_RUN_ROWS || area + 1 >= tb->nblocks)
		return 0;
	for (size_t r = n - t; r < n; r++)
		for (unsigned j = 0; j + 1 < tb->nblocks; j++) {
			double x = tb->rate[r][j] / tb->rate[r][tb->nblocks - 1];
			x = x >= 1 ? x : 1 / x;
			if (j < area)
				weakest = fmin(weakest, x);
			else
				alike = fmax(alike, x);
		}
	if (!fat_ends_sharply(weakest, alike))
		return 0;
	format_size(a, sizeof(a), tb->size[n - t]);
	format_size(b, sizeof(b), area * fat_erase(tb));
	first_blocks(g, sizeof(g), area);
	if (dir[n - 1] < 0) {
		finding_not(f, "%s (the first %s) %s different at the smallest chunk sizes (%s and below): at least "
			    "%.1fx slower than erase block %u; whether %s FAT-optimised is not what the table shows",
			    g, b, area == 1 ? "is" : "are", a, weakest, tb->nblocks - 1, area == 1 ? "it is" : "they are");
		return 1;
	}
	f->determined = 1;
	f->value = area;
	f->conf = CONF_LOW;
	finding_evidence(f, "%s (the first %s) write at least %.1fx faster than erase block %u at the smallest chunk "
			 "size%s (%s%s), the others alike (within %.2fx)", g, b, weakest, tb->nblocks - 1, t == 1 ? "" : "s",
			 a, t == 1 ? "" : " and below", alike);
	finding_evidence(f, "low: a FAT area is made for small writes, but %zu row%s of line %u %s little to go on", t,
			 t == 1 ? "" : "s", tb->line, t == 1 ? "is" : "are");
	return 1;
}

static void fat_table(const struct saved_fat_table *tb, struct finding *f)
{
	unsigned k[SAVED_FAT_ROWS];
	int dir[SAVED_FAT_ROWS];
	size_t run = 0, from = 0, nout = 0;
	char a[32], b[32], c[32], g[64];

	finding_init(f, "fat_area", "FAT-optimised erase blocks at the start", 0);
	if (tb->nblocks < 2 || !tb->n) {
		finding_not(f, "the find-fat table at line %u has one erase block per row: nothing to compare", tb->line);
		return;
	}
	for (size_t r = 0; r < tb->n; r++) {
		k[r] = fat_row(tb, r, &dir[r]);
		nout += k[r] > 0;
	}
	/* the longest run of adjacent rows that agree on an area */
	for (size_t r = 0; r < tb->n; r++) {
		size_t e = r;
		while (k[r] && e + 1 < tb->n && k[e + 1] == k[r] && dir[e + 1] == dir[r])
			e++;
		if (k[r] && e - r + 1 > run) {
			run = e - r + 1;
			from = r;
		}
		r = e;
	}
	if (run >= FAT_RUN_ROWS) {
		unsigned area = k[from];
		double weakest = 1e300, alike = 1;
		size_t others = 0;
		for (size_t r = from; r < from + run; r++) {
			double ref = tb->rate[r][tb->nblocks - 1];
			for (unsigned j = 0; j < tb->nblocks - 1; j++) {
				double x = tb->rate[r][j] / ref;
				x = x >= 1 ? x : 1 / x;
				if (j < area)
					weakest = fmin(weakest, x);
				else
					alike = fmax(alike, x);
			}
		}
		for (size_t r = 0; r < tb->n; r++)
			others += (r < from || r >= from + run) && k[r] && k[r] != area;
		/* the erase blocks after the area must write alike: blocks that
		 * differ among themselves as much as the area differs from them
		 * show no single area at the start */
		if (area + 1 < tb->nblocks && alike >= fat_table_apart()) {
			finding_not(f, "erase block%s 0%s%s differ%s from erase block %u at %zu chunk sizes (line %u), but "
				    "erase blocks %u to %u differ among themselves too (up to %.2fx): no single area at the start",
				    area == 1 ? "" : "s", area == 1 ? "" : " to ",
				    area == 1 ? "" : (snprintf(g, sizeof(g), "%u", area - 1), g), area == 1 ? "s" : "",
				    tb->nblocks - 1, run, tb->line, area, tb->nblocks - 1, alike);
			return;
		}
		if (dir[from] < 0 && !fat_less_penalised(tb, area, f))
			return;
		f->determined = 1;
		f->value = area;
		finding_evidence(f, "erase block%s 0%s%s (the first %s) write%s at least %.1fx %s than erase block %u at "
				 "every chunk size from %s down to %s (%zu rows, line %u)", area == 1 ? "" : "s",
				 area == 1 ? "" : " to ", area == 1 ? "" : (snprintf(g, sizeof(g), "%u", area - 1), g),
				 format_size(a, sizeof(a), area * fat_erase(tb)), area == 1 ? "s" : "", weakest,
				 dir[from] > 0 ? "faster" : "slower",
				 tb->nblocks - 1, format_size(b, sizeof(b), tb->size[from]),
				 format_size(c, sizeof(c), tb->size[from + run - 1]), run, tb->line);
		if (area + 1 < tb->nblocks)
			finding_evidence(f, "erase blocks %u to %u write alike there (within %.2fx)", area, tb->nblocks - 1,
					 alike);
		else
			finding_evidence(f, "only erase block %u is left to compare with: the table shows no second "
					 "ordinary erase block", tb->nblocks - 1);
		finding_evidence(f, "a classic find-fat table: each cell timed once, against the table's own last "
				 "erase block");
		if (others)
			snprintf(f->why, sizeof(f->why), "%zu other row%s show%s a different count", others,
				 others == 1 ? "" : "s", others == 1 ? "s" : "");
		f->conf = 2 * run >= tb->n && area + 1 < tb->nblocks && fat_ends_sharply(weakest, alike) &&
			  !others ? CONF_HIGH : CONF_MEDIUM;
		return;
	}
	if (small_rows_area(tb, k, dir, f))
		return;
	if (4 * nout <= tb->n) {
		/* low: an area that covers every erase block of the table looks
		 * the same */
		f->determined = 1;
		f->value = 0;
		f->conf = CONF_LOW;
		finding_evidence(f, "in %zu of %zu rows (line %u) none of erase blocks 0 to %u writes %.1fx faster or "
				 "slower than erase block %u", tb->n - nout, tb->n, tb->line, tb->nblocks - 2,
				 fat_table_apart(), tb->nblocks - 1);
		for (size_t r = 0; r < tb->n && f->nevidence < EVIDENCE_MAX - 1; r++)
			if (k[r])
				finding_evidence(f, "at %s, erase block%s 0%s%s differ%s: a single row out of line, not an area",
						 format_size(a, sizeof(a), tb->size[r]), k[r] == 1 ? "" : "s",
						 k[r] == 1 ? "" : " to ",
						 k[r] == 1 ? "" : (snprintf(g, sizeof(g), "%u", k[r] - 1), g),
						 k[r] == 1 ? "s" : "");
		snprintf(f->why, sizeof(f->why), "unless the area covers all %u erase blocks of the table: --fat-nr=%u "
			 "would show that", tb->nblocks, 2 * tb->nblocks);
		return;
	}
	finding_not(f, "the first erase blocks differ from the last in %zu of %zu rows (line %u), but never over %d "
		    "adjacent chunk sizes: too noisy to tell", nout, tb->n, tb->line, FAT_RUN_ROWS);
}

/* The area in the erase blocks -a found: a table counts in its columns
 * (--erasesize, 4MiB by default), which are erase blocks only if that is
 * the erase block's size.  Never surer than the erase block. */
static void fat_units(const struct saved_fat_table *tb, const struct finding *erase, struct finding *f)
{
	uint64_t col = fat_erase(tb), bytes = f->value * col;
	char a[32], b[32], c[32];

	if (!f->determined || !f->value)
		return;
	format_size(a, sizeof(a), col);
	format_size(b, sizeof(b), bytes);
	if (erase->determined && erase->conf >= CONF_MEDIUM) {
		format_size(c, sizeof(c), erase->value);
		if (bytes % erase->value) {
			finding_not(f, "the first %llu columns of %s (%s) differ, not a whole number of the %s erase blocks "
				    "-a found", (unsigned long long)f->value, a, b, c);
			f->nevidence = 0;
			return;
		}
		if (col != erase->value) {
			f->value = bytes / erase->value;
			finding_evidence(f, "that is %s: %llu erase block%s of the %s -a found (the table's columns are %s)", b,
					 (unsigned long long)f->value, f->value == 1 ? "" : "s", c, a);
		}
		if (f->conf > erase->conf)
			f->conf = erase->conf;
		return;
	}
	if (f->conf > CONF_MEDIUM)
		f->conf = CONF_MEDIUM;
	if (!f->why[0])
		snprintf(f->why, sizeof(f->why), "counted in the table's %s columns (--erasesize): %s; they are erase blocks "
			 "only if the erase block is %s, which these results do not show", a, b, a);
}

static void fat_part(const struct saved_text *t, struct saved_report *s)
{
	struct finding *f = &s->r.fat;
	size_t best = SIZE_MAX;
	char a[32];

	if (!t->nfat) {
		finding_init(f, "fat_area", "FAT-optimised erase blocks at the start", 0);
		finding_not(f, "no find-fat table in the input");
		return;
	}
	for (size_t i = 0; i < t->nfat; i++)
		if (best == SIZE_MAX || t->fat[i].n * t->fat[i].nblocks > t->fat[best].n * t->fat[best].nblocks)
			best = i;
	fat_table(&t->fat[best], f);
	fat_units(&t->fat[best], &s->r.erase, f);
	for (size_t i = 0; i < t->nfat; i++) {
		struct finding o;
		if (i == best)
			continue;
		fat_table(&t->fat[i], &o);
		fat_units(&t->fat[i], &s->r.erase, &o);
		if (o.determined && f->determined && o.value == f->value) {
			finding_evidence(f, "the table at line %u counts the same", t->fat[i].line);
		} else if (o.determined || f->determined) {
			if (f->determined)
				f->conf = CONF_LOW;
			snprintf(f->why, sizeof(f->why), "the table at line %u %s", t->fat[i].line,
				 o.determined ? "counts differently" : "does not decide");
			if (o.determined)
				snprintf(f->why + strlen(f->why), sizeof(f->why) - strlen(f->why), " (%llu)",
					 (unsigned long long)o.value);
		}
	}
	if (!f->determined)
		next_step(s, "run `flashbench --find-fat --erasesize=%s DEV` again, or `flashbench --auto --write DEV` "
			  "(both write)", format_size(a, sizeof(a), fat_erase(&t->fat[best])));
	else if (f->conf < CONF_HIGH)
		next_step(s, "run `flashbench --auto --write DEV` to confirm the FAT area against an erase block in the "
			  "middle of the device (it writes)");
}

/* ------------------------------------------------------------ cards */

/* Every finding of the tables of one card. */
static void analyse_tables(const struct saved_text *t, struct saved_report *s)
{
	struct auto_report *r = &s->r;
	struct finding e;

	align_part(t, s);
	open_part(t, s, &r->erase);
	finding_init(&r->min_write, "min_write", "smallest efficient write", 1);
	finding_not(&r->min_write, "not in -a or -O tables (flashbench --auto --write measures it)");
	fat_part(t, s);
	calibrate_report(r, CAL_ANALYZE);
	/* -a alone cannot tell the erase block from three times it: the advice
	 * is for both (multiples of the larger are multiples of the smaller) */
	e = r->erase;
	if (s->erase_thirds && e.determined)
		e.value *= 3;
	recommend(&e, &r->page, &r->min_write, &r->open_linear, 0, 512, &r->rec);
	if (s->erase_thirds && e.determined && r->rec.have) {
		char a[32], b[32];
		size_t l = strlen(r->rec.note);
		format_size(a, sizeof(a), r->erase.value);
		format_size(b, sizeof(b), e.value);
		snprintf(r->rec.note + l, sizeof(r->rec.note) - l, "%s-a cannot tell %s %s erase block from %s %s one: the "
			 "start, sizes and stripes above are multiples of %s, right for both", l ? "; " : "", article(a), a,
			 article(b), b, b);
	}
}

/* The card of a table: its column's name, "column N", or the heading or
 * device above it ("" when the text does not say). */
static void open_card(const struct saved_open_table *tb, char *buf, size_t len)
{
	if (tb->column && !tb->card[0])
		snprintf(buf, len, "column %u", tb->column);
	else
		snprintf(buf, len, "%s", tb->card);
}

/* Add the card named to s (or find it): its index, or SIZE_MAX. */
static size_t card_of(struct saved_report *s, const char *name, unsigned line)
{
	size_t c;

	for (c = 0; c < s->ncards && strcmp(s->cards[c].name, name); c++)
		;
	if (c < s->ncards)
		return c;
	if (s->ncards == SAVED_CARDS) {
		s->cards_left++;
		return SIZE_MAX;
	}
	memset(&s->cards[c], 0, sizeof(s->cards[c]));
	snprintf(s->cards[c].name, sizeof(s->cards[c].name), "%s", name);
	s->cards[c].line = line;
	s->ncards++;
	return c;
}

/* The tables of card `name` ("" : those the text does not give a card) into
 * sub; returns how many. */
static size_t card_tables(const struct saved_text *t, const char *name, struct saved_text *sub)
{
	char c[SAVED_CARD_NAME + 16];

	memset(sub, 0, sizeof(*sub));
	sub->card_erase = t->card_erase;
	for (size_t i = 0; i < t->nalign; i++)
		if (!strcmp(t->align[i].card, name))
			sub->align[sub->nalign++] = t->align[i];
	for (size_t i = 0; i < t->nopen; i++) {
		open_card(&t->open[i], c, sizeof(c));
		if (!strcmp(c, name))
			sub->open[sub->nopen++] = t->open[i];
	}
	for (size_t i = 0; i < t->nfat; i++)
		if (!strcmp(t->fat[i].card, name))
			sub->fat[sub->nfat++] = t->fat[i];
	return sub->nalign + sub->nopen + sub->nfat;
}

/* The cards of the input: the columns of tables that compare several, and
 * the headings or devices of the rest when there are two or more.  One
 * card's tables never confirm another's. */
static void find_cards(const struct saved_text *t, struct saved_report *s)
{
	char c[SAVED_CARD_NAME + 16], first[SAVED_CARD_NAME + 16] = "";
	int named = 0, columns = 0;

	for (size_t i = 0; i < t->nopen; i++)
		columns |= t->open[i].column != 0;
	/* are there two names among the tables of their own? */
	for (size_t i = 0; i < t->nalign + t->nopen + t->nfat; i++) {
		const char *n = i < t->nalign ? t->align[i].card :
				i < t->nalign + t->nopen ? (t->open[i - t->nalign].column ? "" : t->open[i - t->nalign].card) :
				t->fat[i - t->nalign - t->nopen].card;
		if (!n[0])
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", n);
		else if (strcmp(first, n))
			named = 1;
	}
	if (!named && !columns)
		return;
	for (size_t i = 0; i < t->nalign; i++)
		if (named && t->align[i].card[0])
			card_of(s, t->align[i].card, t->align[i].line);
	for (size_t i = 0; i < t->nopen; i++) {
		open_card(&t->open[i], c, sizeof(c));
		if (c[0] && (named || t->open[i].column))
			card_of(s, c, t->open[i].line);
	}
	for (size_t i = 0; i < t->nfat; i++)
		if (named && t->fat[i].card[0])
			card_of(s, t->fat[i].card, t->fat[i].line);
	if (!named) /* one name, and columns: the named tables are the report's own */
		for (size_t k = 0; k < s->ncards; k++)
			if (!strcmp(s->cards[k].name, first)) {
				memmove(&s->cards[k], &s->cards[k + 1], (s->ncards - k - 1) * sizeof(s->cards[0]));
				s->ncards--;
				break;
			}
}

void reanalyze(const struct saved_text *t, struct saved_report *s)
{
	struct saved_text *sub;
	struct saved_report *tmp;
	size_t own;

	memset(s, 0, sizeof(*s));
	find_cards(t, s);
	if (!s->ncards) {
		analyse_tables(t, s);
		return;
	}
	sub = malloc(sizeof(*sub));
	tmp = malloc(sizeof(*tmp));
	if (!sub || !tmp) {
		free(sub);
		free(tmp);
		s->ncards = 0;
		analyse_tables(t, s);
		return;
	}
	for (size_t c = 0; c < s->ncards; c++) {
		struct saved_card *k = &s->cards[c];
		k->tables = card_tables(t, k->name, sub);
		k->column = sub->nopen && sub->open[0].column;
		k->align = sub->nalign > 0;
		k->fat = sub->nfat > 0;
		for (size_t i = 0; i < sub->nopen; i++) {
			k->linear |= sub->open[i].nr && !sub->open[i].random;
			k->random |= sub->open[i].nr && sub->open[i].random;
		}
		memset(tmp, 0, sizeof(*tmp));
		analyse_tables(sub, tmp);
		k->page = tmp->r.page;
		k->erase = tmp->r.erase;
		k->open_linear = tmp->r.open_linear;
		k->open_random = tmp->r.open_random;
		k->fat_area = tmp->r.fat;
		for (int i = 0; i < tmp->nnext; i++)
			next_step(s, "%s", tmp->next[i]);
	}
	/* the tables of no card (or of the one name, beside columns) */
	{
		char keep[SAVED_CARD_NAME] = "";
		own = card_tables(t, "", sub);
		for (size_t i = 0; !own && i < t->nalign + t->nopen + t->nfat; i++) {
			const char *n = i < t->nalign ? t->align[i].card :
					i < t->nalign + t->nopen ? (t->open[i - t->nalign].column ? "" : t->open[i - t->nalign].card) :
					t->fat[i - t->nalign - t->nopen].card;
			size_t c;
			for (c = 0; c < s->ncards && strcmp(s->cards[c].name, n); c++)
				;
			if (n[0] && c == s->ncards) {
				snprintf(keep, sizeof(keep), "%s", n);
				own = card_tables(t, keep, sub);
			}
		}
	}
	{
		struct saved_card cards[SAVED_CARDS];
		size_t ncards = s->ncards;
		unsigned left = s->cards_left;
		int nnext = s->nnext;
		char next[NEXT_MAX][320];
		memcpy(cards, s->cards, sizeof(cards));
		memcpy(next, s->next, sizeof(next));
		analyse_tables(sub, s);
		memcpy(s->cards, cards, sizeof(cards));
		s->ncards = ncards;
		s->cards_left = left;
		/* no table of its own: what the empty rest would ask for (a
		 * sweep, an -a run) may be in the cards' tables; their own next
		 * steps say what each lacks */
		if (!own)
			s->nnext = 0;
		for (int i = 0; i < nnext; i++)
			next_step(s, "%s", next[i]);
	}
	if (!own) {
		const char *why = "the tables here come from %zu cards: each is judged on its own below";
		struct auto_report *r = &s->r;
		struct finding *all[] = { &r->page, &r->erase, &r->open_linear, &r->open_random, &r->fat };
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			finding_not(all[i], why, s->ncards);
			all[i]->nevidence = 0;
		}
		r->nrows = r->nrows2 = 0;
	}
	for (size_t c = 0; c < s->ncards; c++)
		if (s->cards[c].column) {
			next_step(s, "for each card, sweep --open-au-nr from 1 up with the same erase size (flashbench-open-au-sweep "
				  "-e SIZE DEV; it writes): one table per count says more than one count per card");
			break;
		}
	free(sub);
	free(tmp);
}

/* ------------------------------------------------------------ --auto results */

void reanalyze_findings(const struct saved_findings *found, struct saved_report *s)
{
	struct auto_report *r = &s->r;

	memset(s, 0, sizeof(*s));
	s->found = found;
	s->primary = s->second = SIZE_MAX;
	r->page = found->page;
	r->erase = found->erase;
	r->min_write = found->min_write;
	r->open_linear = found->open_linear;
	r->open_random = found->open_random;
	r->fat = found->fat;
	r->alignment_matters = found->alignment_matters;
	r->bs = found->bs;
	r->nrows = found->nrows;
	memcpy(r->rows, found->rows, found->nrows * sizeof(r->rows[0]));
	recommend(&r->erase, &r->page, &r->min_write, &r->open_linear, found->size, found->sector, &r->rec);
	if (strcmp(found->version, FLASHBENCH_VERSION))
		next_step(s, "these findings come from flashbench %s, this is %s: run `flashbench --auto%s DEV` again "
			  "to apply this version's analysis",
			  found->version[0] ? found->version : "(version not saved)",
			  FLASHBENCH_VERSION, found->wrote ? " --write" : "");
	if (!strcmp(found->test, "auto") && !found->wrote)
		next_step(s, "the run only read: `flashbench --auto --write DEV` also finds the smallest efficient write, "
			  "the open erase blocks and the FAT area (it overwrites the ranges it announces)");
}
