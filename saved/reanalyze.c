/* reanalyze.c — findings from saved classic tables (see reanalyze.h).
 *
 * -a rows: the powers of two go to analyze_page (with a second run at
 * another block size as its rows2, like --auto's two block sizes); then
 * every row above the page becomes a one-probe level for analyze_erase,
 * whose rule "exactly the multiples of e cost extra" fits a classic table
 * as it fits --auto's boundary scan.  -O tables: each sweep (linear or
 * random, one erase size) becomes open-AU trials judged by write_collapsed
 * against that sweep's own smallest --open-au-nr, then analyze_open; a
 * sweep of one --open-au-nr is judged on its own (single_sweep).  Tables
 * that compare several cards (one column each) are analysed card by card. */
#include "saved/reanalyze.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "lib/version.h"

static void next_step(struct saved_report *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void next_step(struct saved_report *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nnext >= NEXT_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(s->next[s->nnext], sizeof(s->next[0]), fmt, ap);
	va_end(ap);
	for (int i = 0; i < s->nnext; i++)
		if (!strcmp(s->next[i], s->next[s->nnext]))
			return;
	s->nnext++;
}

static int cmp_row(const void *a, const void *b)
{
	const struct align_row *x = a, *y = b;
	return (x->align > y->align) - (x->align < y->align);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double middle(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n ? (v[(n - 1) / 2] + v[n / 2]) / 2 : 0;
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

/* ------------------------------------------------------------ -a */

/* Page from runs a (and b, another block size, or SIZE_MAX). */
static void classic_page(const struct saved_text *t, size_t a, size_t b, struct finding *page, struct read_levels *lv)
{
	struct align_row r1[SAVED_ALIGN_ROWS], r2[SAVED_ALIGN_ROWS];
	size_t n1 = run_rows(&t->align[a], 1, r1), n2 = b == SIZE_MAX ? 0 : run_rows(&t->align[b], 1, r2);
	char x[32], y[32], z[32];

	analyze_page(r1, n1, t->align[a].bs, r2, n2, b == SIZE_MAX ? 0 : t->align[b].bs, page, lv);
	if (page->determined && page->value > CLASSIC_PAGE_MAX) {
		/* the one step is an erase-block boundary: below it lies the level
		 * every other boundary costs, page boundaries included */
		double below[SAVED_ALIGN_ROWS];
		size_t m = 0;
		for (size_t k = 0; k < n1; k++)
			if (r1[k].align < page->value)
				below[m++] = r1[k].diff;
		lv->page_diff = middle(below, m);
		lv->unit = 0;
		page->nevidence = 0;
		if (m)
			finding_not(page, "the first step is at %s, too large for a page; from %s up to it every boundary "
				    "costs about the same (%s)", format_size(x, sizeof(x), page->value),
				    format_size(y, sizeof(y), r1[0].align), format_time(z, sizeof(z), lv->page_diff));
		else
			finding_not(page, "every boundary from %s up costs extra to read across, too large for a page: "
				    "the table does not reach down to the page",
				    format_size(x, sizeof(x), page->value));
	}
}

/* Erase block from one run's rows (ascending, all alignments). */
static void classic_erase(const struct align_row *rows, size_t n, const struct read_levels *lv, struct finding *f)
{
	struct scan_level *lvl = calloc(n ? n : 1, sizeof(*lvl));
	uint64_t from = lv->unit ? 2 * lv->unit : 0, e;
	size_t nl = 0, nup = 0, ndown = 0, thirds = 0;
	double up_lo = 1e300, up_hi = -1e300, dn_lo = 1e300, dn_hi = -1e300;
	char a[32], b[32], c[32], d[32], g[32], h[32];

	finding_init(f, "erase_block", "erase block size", 1);
	if (!lvl) {
		finding_not(f, "out of memory");
		return;
	}
	for (size_t k = 0; k < n; k++)
		if (rows[k].align >= from) {
			lvl[nl].step = rows[k].align;
			lvl[nl].npoints = 1;
			lvl[nl++].d[0] = rows[k].diff;
		}
	analyze_erase(lvl, nl, lv, rows, n, 0, f);
	free(lvl);
	if (!f->determined)
		return;
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
			ndown++;
			dn_lo = fmin(dn_lo, rows[k].diff);
			dn_hi = fmax(dn_hi, rows[k].diff);
		}
	}
	f->nevidence = 0;
	finding_evidence(f, "crossing a multiple of %s costs %s to %s (%zu row%s); crossing the %zu other "
			 "alignment%s from %s costs %s to %s", format_size(a, sizeof(a), e),
			 format_time(b, sizeof(b), up_lo), format_time(c, sizeof(c), up_hi), nup,
			 nup == 1 ? "" : "s",
			 ndown, ndown == 1 ? "" : "s", format_size(d, sizeof(d), from ? from : rows[0].align),
			 format_time(g, sizeof(g), ndown ? dn_lo : 0),
			 format_time(h, sizeof(h), ndown ? dn_hi : 0));
	finding_evidence(f, "a classic table: one row per alignment, no repeated probes");
	if (!thirds)
		snprintf(f->why, sizeof(f->why), "-a cannot tell this from %s %s erase block (3 x %s), which shows the "
			 "same steps; writes can (--auto --write)", article(format_size(a, sizeof(a), 3 * e)), a,
			 format_size(b, sizeof(b), e));
	if (f->conf > CONF_MEDIUM)
		f->conf = CONF_MEDIUM;
}

static void run_erase(const struct saved_text *t, size_t k, struct finding *f)
{
	struct align_row rows[SAVED_ALIGN_ROWS];
	struct finding page;
	struct read_levels lv;
	size_t n = run_rows(&t->align[k], 0, rows);

	classic_page(t, k, SIZE_MAX, &page, &lv);
	classic_erase(rows, n, &lv, f);
}

/* Noise from repeated rows: runs at run a's block size that read the same
 * alignment differ by this much (median), 0 when no alignment repeats.  The
 * erase step must stand out of it as it must of pre against post. */
static double repeat_noise(const struct saved_text *t, size_t a)
{
	double v[SAVED_ALIGN_RUNS * SAVED_ALIGN_ROWS];
	size_t m = 0;

	for (size_t k = 0; k < t->nalign; k++) {
		if (k == a || t->align[k].bs != t->align[a].bs)
			continue;
		for (size_t i = 0; i < t->align[a].n; i++)
			for (size_t j = 0; j < t->align[k].n; j++)
				if (t->align[k].rows[j].align == t->align[a].rows[i].align)
					v[m++] = fabs(t->align[k].rows[j].diff - t->align[a].rows[i].diff);
	}
	return middle(v, m);
}

static void align_part(const struct saved_text *t, struct saved_report *s)
{
	struct auto_report *r = &s->r;
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
	/* rows: the smallest block size (pages show best); rows2: the next larger one */
	for (size_t k = 0; k < t->nalign; k++)
		if (a == SIZE_MAX || t->align[k].bs < t->align[a].bs ||
		    (t->align[k].bs == t->align[a].bs && t->align[k].n > t->align[a].n))
			a = k;
	for (size_t k = 0; k < t->nalign; k++)
		if (t->align[k].bs > t->align[a].bs && (b == SIZE_MAX || t->align[k].bs < t->align[b].bs))
			b = k;
	s->primary = a;
	s->second = b;
	r->bs = t->align[a].bs;
	r->nrows = run_rows(&t->align[a], 0, r->rows);
	if (b != SIZE_MAX) {
		r->bs2 = t->align[b].bs;
		r->nrows2 = run_rows(&t->align[b], 0, r->rows2);
	}
	classic_page(t, a, b, &r->page, &r->levels);
	{
		double rep = repeat_noise(t, a);
		if (rep > r->levels.noise)
			r->levels.noise = rep;
	}
	classic_erase(r->rows, r->nrows, &r->levels, &r->erase);

	/* the other runs on their own: combined where they agree */
	for (size_t k = 0; k < t->nalign; k++) {
		struct finding *o = &s->run_erase[k];
		const char *how;
		run_erase(t, k, o);
		if (k == a)
			continue;
		how = t->align[k].bs == t->align[a].bs ? "another run" : "the run";
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
		next_step(s, "run `flashbench -a --blocksize=4096 DEV` too: a second run that shows the same step "
			  "counts for more than one");
	if (r->erase.determined)
		next_step(s, "run `flashbench --auto --write DEV` to confirm the %s erase block with writes (it "
			  "overwrites the ranges it announces)", format_size(z, sizeof(z), r->erase.value));
}

/* ------------------------------------------------------------ -O */

static uint64_t sweep_erase(const struct saved_open_table *tb)
{
	return tb->erase ? tb->erase : 4ULL << 20; /* the classic default */
}

/* Mean rate at chunk size c over the tables with --open-au-nr=nr of one
 * sweep; 0 when none has that size. */
static double rate_at(const struct saved_text *t, int rnd, uint64_t erase, unsigned nr, uint64_t c)
{
	double v[SAVED_OPEN_TABLES];
	size_t m = 0;

	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		if (tb->random != rnd || sweep_erase(tb) != erase || tb->nr != nr)
			continue;
		for (size_t k = 0; k < tb->n; k++)
			if (tb->size[k] == c)
				v[m++] = tb->rate[k];
	}
	return middle(v, m);
}

/* One evidence line: the first table of the sweep with --open-au-nr=nr
 * against the reference runs (--open-au-nr=base). */
static void describe(const struct saved_text *t, int rnd, uint64_t erase, unsigned base, double ref, unsigned nr,
		     struct finding *f)
{
	char a[32], b[32], c[32], g[64];

	if (!nr)
		return;
	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		double theirs = 0, ratio;
		size_t k;
		if (tb->random != rnd || sweep_erase(tb) != erase || tb->nr != nr)
			continue;
		for (k = tb->n; k-- > 0;)
			if ((theirs = rate_at(t, rnd, erase, base, tb->size[k])) > 0)
				break;
		if (k == (size_t)-1 || tb->rate[k] <= 0)
			continue;
		ratio = theirs / tb->rate[k];
		snprintf(g, sizeof(g), " (line %u%s)", tb->line, tb->interrupted ? ", stopped with ^C" : "");
		format_rate(a, sizeof(a), tb->rate[k]);
		format_rate(c, sizeof(c), theirs);
		if (nr == base)
			finding_evidence(f, "--open-au-nr=%u%s: %s at %s", nr, g, a, format_size(b, sizeof(b), tb->size[k]));
		else if (ratio > 0.9 && ratio < 1.1)
			finding_evidence(f, "--open-au-nr=%u%s: %s at %s, as fast as --open-au-nr=%u (%s)", nr, g, a,
					 format_size(b, sizeof(b), tb->size[k]), base, c);
		else
			finding_evidence(f, "--open-au-nr=%u%s: %s at %s, %.1fx %s --open-au-nr=%u (%s)%s", nr, g, a,
					 format_size(b, sizeof(b), tb->size[k]), ratio >= 1 ? ratio : 1 / ratio,
					 ratio >= 1 ? "slower than" : "faster than", base, c,
					 write_collapsed(ref * ratio, ref, 0) ? ": garbage collection" : "");
		return;
	}
}

/* A sweep run with one --open-au-nr only: do its smallest writes collect
 * garbage (each costs a good share of writing a whole erase block) or not
 * (a command's overhead)?  See SWEEP_COLLAPSE_SHARE. */
static void single_sweep(const struct saved_text *t, int rnd, uint64_t erase, unsigned nr, struct finding *f)
{
	const struct saved_open_table *tb = NULL;
	double large = 0, small, per_write, extra, whole, share;
	uint64_t s_small, s_large = 0;
	char a[32], b[32], c[32], d[32], g[32], h[64];

	for (size_t i = 0; i < t->nopen; i++)
		if (t->open[i].random == rnd && sweep_erase(&t->open[i]) == erase && t->open[i].nr == nr &&
		    (!tb || t->open[i].n > tb->n))
			tb = &t->open[i];
	finding_init(f, f->key, f->title, 0);
	if (!tb || tb->n < 2) {
		finding_not(f, "every run with --erasesize=%s used --open-au-nr=%u, and its table has too few rows to "
			    "judge on its own", format_size(a, sizeof(a), erase), nr);
		return;
	}
	/* the large-write rate: the best of the larger chunks (the first row
	 * may still pay for the run before) */
	for (size_t k = 0; k < tb->n; k++)
		if (tb->size[k] >= tb->size[0] / 8 && tb->rate[k] > large) {
			large = tb->rate[k];
			s_large = tb->size[k];
		}
	s_small = tb->size[tb->n - 1];
	small = tb->rate[tb->n - 1];
	if (large <= 0 || small <= 0 || s_small >= s_large) {
		finding_not(f, "every run with --erasesize=%s used --open-au-nr=%u: nothing to compare",
			    format_size(a, sizeof(a), erase), nr);
		return;
	}
	per_write = (double)s_small / small * 1e9;
	extra = per_write - (double)s_small / large * 1e9;
	whole = (double)erase / large * 1e9;
	share = extra / whole;
	snprintf(h, sizeof(h), "--open-au-nr=%u%s (line %u%s)", nr, rnd ? " --random" : "", tb->line,
		 tb->interrupted ? ", stopped with ^C" : "");
	format_rate(a, sizeof(a), large);
	format_size(b, sizeof(b), s_large);
	format_rate(c, sizeof(c), small);
	format_size(d, sizeof(d), s_small);
	format_time(g, sizeof(g), per_write);
	if (share >= SWEEP_COLLAPSE_SHARE) {
		f->determined = 1;
		f->at_most = 1;
		f->value = nr - 1;
		f->conf = CONF_MEDIUM;
		finding_evidence(f, "%s: %s at %s falls to %s at %s (%.0fx); each %s write takes %s, %.0f%% of the time "
				 "to write a whole %s erase block at %s: garbage collection, not a small write's cost", h, a,
				 b, c, d, large / small, d, g, 100 * share,
				 format_size(b, sizeof(b), erase), a);
	} else if (share <= SWEEP_FLAT_SHARE) {
		f->determined = 1;
		f->at_least = 1;
		f->value = nr;
		f->conf = CONF_MEDIUM;
		finding_evidence(f, "%s: %s at %s, %s at %s; each %s write takes %s, %.1f%% of the time to write a whole "
				 "%s erase block: no garbage collection with %u erase blocks open", h, a, b, c, d, d, g,
				 100 * share, format_size(b, sizeof(b), erase), nr);
	} else {
		finding_not(f, "%s: each %s write takes %s, %.0f%% of the time to write a whole %s erase block at %s: "
			    "between a small write's cost (%.1f%% or less) and garbage collection (%.0f%% or more)", h, d, g,
			    100 * share, format_size(b, sizeof(b), erase), a, 100 * SWEEP_FLAT_SHARE,
			    100 * SWEEP_COLLAPSE_SHARE);
		return;
	}
	finding_evidence(f, "a single sweep: no run with another --open-au-nr to compare with, so at most medium");
	snprintf(f->why, sizeof(f->why), "counted in the %s erase blocks the sweep used; a sweep over --open-au-nr=1 "
		 "to %u says more", format_size(a, sizeof(a), erase), nr + 1);
}

/* One sweep (linear or random, one erase size): trials for analyze_open. */
static void open_sweep(const struct saved_text *t, int rnd, uint64_t erase, struct open_trial *tr, size_t *ntr,
		       struct finding *f, double *ref_out, uint64_t *chunk_out)
{
	unsigned base = 0, top = 0;
	uint64_t cmin = UINT64_MAX;
	double ref;
	char a[32];

	*ntr = 0;
	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		if (tb->random == rnd && sweep_erase(tb) == erase && tb->nr && (!base || tb->nr < base))
			base = tb->nr;
	}
	for (size_t i = 0; i < t->nopen; i++) {
		const struct saved_open_table *tb = &t->open[i];
		if (tb->random == rnd && sweep_erase(tb) == erase && tb->nr == base && tb->n &&
		    tb->size[tb->n - 1] < cmin)
			cmin = tb->size[tb->n - 1];
	}
	ref = (double)cmin * 1e9 / rate_at(t, rnd, erase, base, cmin);
	for (size_t i = 0; i < t->nopen && *ntr < AUTO_MAX_TRIALS; i++) {
		const struct saved_open_table *tb = &t->open[i];
		double mine = 0, theirs = 0;
		uint64_t at = 0;
		if (tb->random != rnd || sweep_erase(tb) != erase || !tb->nr)
			continue;
		/* compare at the smallest chunk this table reached that the
		 * reference runs have too */
		for (size_t k = tb->n; k-- > 0 && !at;)
			if ((theirs = rate_at(t, rnd, erase, base, tb->size[k])) > 0) {
				at = tb->size[k];
				mine = tb->rate[k];
			}
		if (!at || mine <= 0)
			continue;
		tr[*ntr].n = tb->nr;
		tr[*ntr].mean_ns = ref * theirs / mine;   /* its slowdown, at the reference chunk */
		tr[*ntr].collapsed = write_collapsed(tr[*ntr].mean_ns, ref, 0);
		if (tb->nr > top)
			top = tb->nr;
		(*ntr)++;
	}
	*ref_out = ref;
	*chunk_out = cmin;
	if (top <= base) {
		single_sweep(t, rnd, erase, base, f);
		return;
	}
	analyze_open(tr, *ntr, top, rnd, cmin, ref, f);
	if (!f->determined)
		return;
	/* the evidence in the tables' own terms: the last healthy count and
	 * the first that collapsed */
	f->nevidence = 0;
	describe(t, rnd, erase, base, ref, (unsigned)f->value, f);
	if (!f->at_least)
		describe(t, rnd, erase, base, ref, (unsigned)f->value + 1, f);
	finding_evidence(f, "%zu run%s with --erasesize=%s%s, each judged against --open-au-nr=%u of the same sweep "
			 "at the smallest chunk both reached", *ntr, *ntr == 1 ? "" : "s",
			 format_size(a, sizeof(a), erase), rnd ? " --random" : "",
			 base);
	if (base != 1)
		snprintf(f->why, sizeof(f->why), "no --open-au-nr=1 run: judged against --open-au-nr=%u", base);
}

static void open_part(const struct saved_text *t, struct saved_report *s, const struct finding *erase)
{
	struct auto_report *r = &s->r;
	char a[32], b[32];

	for (size_t i = 0; i < t->nopen; i++)
		s->open_unused += !t->open[i].nr;
	for (int rnd = 0; rnd < 2; rnd++) {
		struct finding *f = rnd ? &r->open_random : &r->open_linear;
		struct open_trial *tr = rnd ? r->rnd : r->lin;
		size_t *ntr = rnd ? &r->nrnd : &r->nlin;
		uint64_t best = 0, erases[SAVED_OPEN_TABLES];
		size_t ne = 0, most = 0, agree = 0;
		double ref;

		finding_init(f, rnd ? "open_random" : "open_linear",
			     rnd ? "open erase blocks, random order" : "open erase blocks, linear", 0);
		/* the erase sizes swept; the one with most tables leads */
		for (size_t i = 0; i < t->nopen; i++) {
			size_t cnt = 0, k;
			if (t->open[i].random != rnd || !t->open[i].nr)
				continue;
			for (k = 0; k < ne && erases[k] != sweep_erase(&t->open[i]); k++)
				;
			if (k < ne)
				continue;
			erases[ne++] = sweep_erase(&t->open[i]);
			for (size_t j = 0; j < t->nopen; j++)
				cnt += t->open[j].random == rnd && t->open[j].nr &&
				       sweep_erase(&t->open[j]) == sweep_erase(&t->open[i]);
			if (cnt > most) {
				most = cnt;
				best = sweep_erase(&t->open[i]);
			}
		}
		if (!best) {
			finding_not(f, "no %s open-au sweep (-O%s with --open-au-nr) in the input", rnd ? "random-order" : "linear",
				    rnd ? " --random" : "");
			continue;
		}
		s->sweep_erase[rnd] = best;
		open_sweep(t, rnd, best, tr, ntr, f, &ref, &r->trial_chunk);
		r->write_ref = rnd ? r->write_ref : ref;
		if (!f->determined)
			continue;
		/* the other erase sizes swept: do they count the same? */
		for (size_t k = 0; k < ne; k++) {
			struct open_trial other[AUTO_MAX_TRIALS];
			struct finding g;
			size_t no;
			uint64_t ch;
			double rf;
			if (erases[k] == best)
				continue;
			open_sweep(t, rnd, erases[k], other, &no, &g, &rf, &ch);
			if (g.determined && g.value == f->value && g.at_least == f->at_least && g.conf >= CONF_MEDIUM) {
				agree++;
				finding_evidence(f, "the sweep with --erasesize=%s counts the same", format_size(a, sizeof(a), erases[k]));
			} else if (g.determined && no > 1) {
				finding_evidence(f, "the sweep with --erasesize=%s counts %s%llu", format_size(a, sizeof(a), erases[k]),
						 g.at_least ? "at least " : "", (unsigned long long)g.value);
			}
		}
		/* sweeps with other erase sizes that count the same repeat the
		 * trial: together they are as good as --auto's confirmed knee */
		if (agree && f->conf == CONF_MEDIUM)
			f->conf = CONF_HIGH;
		/* counted in erase blocks of the size the sweep used: unless the
		 * file shows that size, or sweeps of other sizes agree, it may be
		 * the wrong unit */
		if (!agree && !(erase->determined && erase->conf >= CONF_MEDIUM && erase->value == best) &&
		    f->conf > CONF_MEDIUM) {
			f->conf = CONF_MEDIUM;
			if (!f->why[0])
				snprintf(f->why, sizeof(f->why), "counted in the %s erase blocks the sweep used, a size "
					 "these results do not confirm", format_size(b, sizeof(b), best));
		}
		if (f->at_least)
			next_step(s, "the %s sweep never collapsed: go on with larger --open-au-nr values "
				  "(flashbench-open-au-sweep -n 16)", rnd ? "random" : "linear");
	}
	if (!r->open_linear.determined && !r->open_random.determined)
		next_step(s, "to count open erase blocks, run `flashbench-open-au-sweep -e SIZE DEV` or `flashbench --auto "
			  "--write DEV` (both write)");
	if (s->open_unused)
		next_step(s, "%u open-au table%s had no --open-au-nr on a header line and %s not used: put the value on "
			  "the line before each table", s->open_unused, s->open_unused == 1 ? "" : "s",
			  s->open_unused == 1 ? "was" : "were");
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
	if (4 * nout <= tb->n) {
		f->determined = 1;
		f->value = 0;
		f->conf = CONF_MEDIUM;
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
	for (size_t i = 0; i < t->nfat; i++) {
		struct finding o;
		if (i == best)
			continue;
		fat_table(&t->fat[i], &o);
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

/* The name of column table tb's card. */
static void card_name(const struct saved_open_table *tb, char *buf, size_t len)
{
	if (tb->card[0])
		snprintf(buf, len, "%s", tb->card);
	else
		snprintf(buf, len, "column %u", tb->column);
}

/* Open-au tables that compare several cards (one column each): each card's
 * tables analysed on their own, never mixed with another card's; the rest
 * (tables of their own) make the report's own findings. */
static void open_by_card(const struct saved_text *t, struct saved_report *s)
{
	struct saved_text *mine = malloc(sizeof(*mine));
	struct saved_report *tmp = malloc(sizeof(*tmp));
	struct auto_report *r = &s->r;
	char name[SAVED_CARD_NAME + 16];
	size_t own = 0;

	if (!mine || !tmp) {
		free(mine);
		free(tmp);
		open_part(t, s, &r->erase);
		return;
	}
	for (size_t i = 0; i < t->nopen; i++) {
		size_t c;
		if (!t->open[i].column) {
			own++;
			continue;
		}
		card_name(&t->open[i], name, sizeof(name));
		for (c = 0; c < s->ncards && strcmp(s->cards[c].name, name); c++)
			;
		if (c == s->ncards && s->ncards == SAVED_CARDS)
			s->cards_left++;
		if (c == s->ncards && s->ncards < SAVED_CARDS) {
			snprintf(s->cards[c].name, sizeof(s->cards[c].name), "%s", name);
			s->cards[c].line = t->open[i].line;
			s->ncards++;
		}
		if (c < s->ncards) {
			s->cards[c].tables++;
			s->cards[c].random |= t->open[i].random;
			s->cards[c].linear |= !t->open[i].random;
		}
	}
	for (size_t c = 0; c < s->ncards; c++) {
		struct finding none;
		finding_init(&none, "erase_block", "erase block size", 1);
		memset(mine, 0, sizeof(*mine));
		for (size_t i = 0; i < t->nopen; i++) {
			card_name(&t->open[i], name, sizeof(name));
			if (t->open[i].column && !strcmp(name, s->cards[c].name))
				mine->open[mine->nopen++] = t->open[i];
		}
		memset(tmp, 0, sizeof(*tmp));
		open_part(mine, tmp, &none); /* a column's card is not the -a table's */
		s->cards[c].open_linear = tmp->r.open_linear;
		s->cards[c].open_random = tmp->r.open_random;
	}
	memset(mine, 0, sizeof(*mine));
	for (size_t i = 0; i < t->nopen; i++)
		if (!t->open[i].column)
			mine->open[mine->nopen++] = t->open[i];
	open_part(mine, s, &r->erase);
	if (s->ncards)
		next_step(s, "for each card, sweep --open-au-nr from 1 up with the same erase size (flashbench-open-au-sweep "
			  "-e SIZE DEV; it writes): one table per count says more than one count per card");
	if (!own)
		for (int rnd = 0; rnd < 2; rnd++)
			finding_not(rnd ? &r->open_random : &r->open_linear, "the open-au tables here compare %zu card%s, one "
				    "column each: each card is judged on its own below", s->ncards, s->ncards == 1 ? "" : "s");
	free(mine);
	free(tmp);
}

void reanalyze(const struct saved_text *t, struct saved_report *s)
{
	struct auto_report *r = &s->r;
	int columns = 0;

	memset(s, 0, sizeof(*s));
	align_part(t, s);
	for (size_t i = 0; i < t->nopen; i++)
		columns |= t->open[i].column != 0;
	if (columns)
		open_by_card(t, s);
	else
		open_part(t, s, &r->erase);
	finding_init(&r->min_write, "min_write", "smallest efficient write", 1);
	finding_not(&r->min_write, "not in -a or -O tables (flashbench --auto --write measures it)");
	fat_part(t, s);
	recommend(&r->erase, &r->page, &r->min_write, &r->open_linear, 0, 512, &r->rec);
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
