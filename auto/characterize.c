/* characterize.c — runs the --auto plan (see characterize.h). */
#include "auto/characterize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "prog/programs.h"
#include "lib/units.h"
#include "vm.h"

#define MAX_SCAN_STEP MAX_ERASE_BLOCK  /* larger erase blocks are not sought */
#define WRITE_ROUNDS 16               /* chunks written to each erase block per trial */
#define TRIAL_REGION_AUS 64           /* erase blocks the write trials cycle through */
#define CACHE_CHUNK (64 << 10)        /* the cache probe's writes */
#define CACHE_WRITES 32               /* how many it times in one erase block */
/* The largest write cache sought.  Card and stick controllers buffer in
 * on-chip RAM (tens of KiB to a few MiB); eMMC and some USB bridges report
 * caches of a few to tens of MiB; an SLC cache of GiBs in front of TLC flash
 * writes at flash speed and is not what fools the timing here.  Ruling out
 * a cache means one burst longer than it: 64 MiB costs a few seconds at
 * 10-20 MB/s, and only on cards where garbage collection did not show at
 * once (many open erase blocks, or a cache). */
#define CACHE_MAX (64ULL << 20)

struct ctx {
	struct dev *d;
	const struct auto_options *o;
	struct auto_report *r;
	struct fb_err *e;
	uint64_t e_size;                  /* erase size the write tests use */
	uint64_t region, region_aus, cursor;
	unsigned open_limit;              /* largest open-AU count tried */
	struct vm_op *held;               /* the last program run: its results point into it */
	enum auto_phase phase;            /* whose cost the next run is */
	double deadline;                  /* --budget: device time at which this phase stops */
	double phase_start;               /* device time when this phase started */
	int findings_done;                /* every finding's phase ran */
};

static const double phase_weight[AUTO_PHASES];

/* Where the run is: the phases before this one are done, and this one has
 * spent a share of its usual device time (phase_weight, in seconds on the
 * sim presets; of its --budget share when there is one), at most 90%. */
static void progress_total(void *ctx, uint64_t done)
{
	struct ctx *c = ctx;
	struct auto_progress now = { .phase = c->phase, .phases = c->o->write ? AUTO_PHASES : 1,
				     .requests = c->r->reads + c->r->writes + done };
	double all = 0, before = 0, expect = phase_weight[c->phase] * 1e9, in = 0;
	struct dev_tally t;

	for (int p = 0; p < (int)now.phases; p++)
		all += phase_weight[p];
	for (int p = 0; p < (int)c->phase; p++)
		before += phase_weight[p];
	if (c->o->budget_ns && c->deadline > c->phase_start)
		expect = c->deadline - c->phase_start;
	if (expect > 0)
		in = fmin(0.9, c->r->cost[c->phase].device_ns / expect);
	now.share = (before + in * phase_weight[c->phase]) / all;
	dev_written(c->d, &t);
	now.bytes_written = t.bytes;
	c->o->progress(c->o->progress_ctx, &now);
}

/* Run a program and account for it; the caller frees *res.  The program
 * lives until the next run (results refer to its operations' labels). */
static int run(struct ctx *c, struct vm_op *prog, struct vm_result **res)
{
	struct vm_run how = { .stop = c->o->stop, .progress = c->o->progress ? progress_total : NULL,
			      .progress_ctx = c, .keep_partial = 1 };
	struct vm_plan plan;
	struct dev_tally before;
	int rc;

	*res = NULL;
	vm_free(c->held);
	c->held = prog;
	if (!prog)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	rc = vm_plan(prog, dev_size(c->d), dev_sector(c->d), &plan, c->e);
	how.plan = &plan;
	dev_written(c->d, &before);
	if (!rc)
		rc = vm_run(prog, c->d, &how, res, c->e);
	if (*res) { /* what it did, also when a signal stopped it half-way */
		struct phase_cost *pc = &c->r->cost[c->phase];
		struct dev_tally t;
		dev_written(c->d, &t);
		c->r->device_ns += (*res)->st.total_ns;
		pc->device_ns += (*res)->st.total_ns;
		if (plan.bytes_written) {
			c->r->writes += (*res)->st.count;
			c->r->bytes_written += t.bytes - before.bytes;
			pc->writes += (*res)->st.count;
			pc->bytes_written += t.bytes - before.bytes;
			c->r->written_lo = t.lo;
			c->r->written_hi = t.hi;
		} else {
			c->r->reads += (*res)->st.count;
			pc->reads += (*res)->st.count;
		}
	}
	if (rc) {
		vm_result_free(*res);
		*res = NULL;
	}
	return rc;
}

/* ------------------------------------------------------------ budget */

/* --budget: each phase may spend a share of what is left, in proportion to
 * its usual device time (on the sim presets: reads about 4 s, the cache probe
 * 4, the minimum-write sweep 2, the open-AU searches 8 and 4, the FAT probe
 * 6); what a phase leaves goes to the phases after it.  A phase stops at its
 * next step past its share (a step is one program: a trial, a size, an erase
 * block); a phase that starts with the whole budget spent does not run. */
static const double phase_weight[AUTO_PHASES] = { 4, 4, 2, 8, 4, 6 };

/* Start phase p; returns 0 when the budget is already spent (it is left out). */
static int phase_start(struct ctx *c, enum auto_phase p)
{
	double left = (double)c->o->budget_ns - c->r->device_ns, w = 0;

	c->phase = p;
	c->phase_start = c->r->device_ns;
	if (!c->o->budget_ns)
		return 1;
	if (left <= 0) {
		c->r->skipped |= 1u << p;
		return 0;
	}
	for (int q = p; q < AUTO_PHASES; q++)
		w += phase_weight[q];
	c->deadline = c->r->device_ns + left * phase_weight[p] / w;
	return 1;
}

/* Must the current phase stop here (its share of the budget is spent)? */
static int out_of_time(struct ctx *c)
{
	if (!c->o->budget_ns || c->r->device_ns < c->deadline)
		return 0;
	c->r->cut |= 1u << c->phase;
	return 1;
}

/* A finding of a phase the budget cut short: no surer than cap, and it says
 * why (in the last evidence line if they are all taken). */
static void budget_cut(const struct ctx *c, struct finding *f, enum confidence cap, const char *what)
{
	char t[32];

	format_duration(t, sizeof(t), c->o->budget_ns);
	if (!f->determined) {
		finding_not(f, "%s: --budget=%s cut it short", what, t);
		return;
	}
	if (f->conf > cap)
		f->conf = cap;
	if (f->nevidence >= EVIDENCE_MAX)
		f->nevidence = EVIDENCE_MAX - 1;
	finding_evidence(f, "%s: --budget=%s cut it short", what, t);
}

/* A finding whose test the budget left out. */
static void budget_left_out(const struct ctx *c, struct finding *f)
{
	char t[32];

	finding_not(f, "not measured: --budget=%s was spent before this test",
		    format_duration(t, sizeof(t), c->o->budget_ns));
}

/* A built-in program (scripts/programs/NAME.fbp) for blocks of bs bytes,
 * with these variables set, and the list $offsets (n of them; offsets
 * NULL: its default). */
static int builtin_list(struct ctx *c, const char *name, uint64_t bs, unsigned count, const char *var[],
			const uint64_t val[], int nvar, const int64_t *offsets, size_t n, struct vm_op **prog)
{
	struct test_params t;
	struct prog_vars v;
	const char *format;

	test_defaults(&t);
	t.blocksize = bs;
	t.count = count;
	program_vars(&t, dev_size(c->d), dev_sector(c->d), &v);
	for (int i = 0; i < nvar; i++)
		prog_vars_set(&v, var[i], val[i]);
	if (offsets)
		prog_vars_set_list(&v, "offsets", offsets, n);
	return program_builtin(name, &v, prog, &format, c->e);
}

static int builtin(struct ctx *c, const char *name, uint64_t bs, unsigned count, const char *var[],
		   const uint64_t val[], int nvar, struct vm_op **prog)
{
	return builtin_list(c, name, bs, count, var, val, nvar, NULL, 0, prog);
}

/* Writes of `len` bytes at each offset of off[0..n), in order: the built-in
 * program NAME (its list $offsets); *res gets its results. */
static int write_at(struct ctx *c, const char *name, uint64_t len, const int64_t *off, size_t n,
		    struct vm_result **res)
{
	struct vm_op *prog;

	*res = NULL;
	return builtin_list(c, name, len, 0, NULL, NULL, 0, off, n, &prog) || run(c, prog, res) ? -1 : 0;
}

/* ------------------------------------------------------------ reads */

/* The tries around a boundary (auto-align.fbp, boundary-scan.fbp) read
 * across it first (on), then the block before (pre) and after it (post), so
 * that a read buffer holding the last read unit cannot serve a read from the
 * one before it; results.c finds each read by its label.  The classic -a
 * keeps its own order. */
enum { PRE, ON, POST };

static int align_rows(struct ctx *c, uint64_t bs, unsigned count, struct align_row *rows, size_t *n)
{
	struct vm_result *res;
	struct vm_op *prog;
	const char *var[] = { "spacing" };
	uint64_t spacing = align_spacing(dev_size(c->d), MAX_SCAN_STEP);

	*n = 0;
	if (spacing < 2 * bs)
		return 0;
	if (builtin(c, "auto-align", bs, count, var, &spacing, 1, &prog) || run(c, prog, &res))
		return -1;
	*n = align_rows_of(res, rows, AUTO_MAX_ROWS);
	vm_result_free(res);
	return 0;
}

/* The boundary scan starts at a multiple of every erase size sought (3 x
 * the largest) past the first quarter of the device: cards treat their
 * first erase blocks apart (a FAT area), reads there may cost otherwise. */
#define SCAN_BASE_UNIT (3 * MAX_SCAN_STEP)

static int boundary_scan(struct ctx *c, uint64_t bs, unsigned tries, uint64_t from)
{
	uint64_t base = dev_size(c->d) / 4 / SCAN_BASE_UNIT * SCAN_BASE_UNIT;
	uint64_t to = (dev_size(c->d) - base - bs) / (SCAN_POINTS + 1);
	struct vm_result *res;
	const struct vm_result *top;
	struct vm_op *prog;
	const char *var[] = { "scan_from", "scan_to", "scan_points", "offset" };

	if (to > MAX_SCAN_STEP)
		to = MAX_SCAN_STEP;
	c->r->nscan = 0;
	if (from > to)
		return 0;
	const uint64_t val[] = { from, to, SCAN_POINTS, base };
	if (builtin(c, "boundary-scan", bs, tries, var, val, 4, &prog) || run(c, prog, &res))
		return -1;
	top = result_descend(res, 1);
	for (size_t i = 0; i < top->nkid && c->r->nscan < AUTO_MAX_LEVELS; i++) {
		struct scan_level *l = &c->r->scan[c->r->nscan++];
		const struct vm_result *pts = &top->kid[i];
		l->step = top->kid[i].unit;
		l->npoints = 0;
		for (size_t j = 0; j < pts->nkid && j < SCAN_POINTS; j++) {
			double best[3];
			crossing_of(result_descend(&pts->kid[j], 1), best, NULL);
			l->d[l->npoints++] = best[ON] - (best[PRE] + best[POST]) / 2;
		}
	}
	vm_result_free(res);
	return 0;
}

static int read_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t ss = dev_sector(c->d);

	/* the read across a boundary starts half a block before it: a whole
	 * number of sectors only if the block is two sectors or more */
	r->bs = ss > 512 ? 2 * ss : 1024;
	r->scan_tries = 4;
	r->bs2 = 4 * r->bs;
	/* adaptive tries: four first; eight only when the page steps were not
	 * clear (two clusters close together) */
	if (align_rows(c, r->bs, 4, r->rows, &r->nrows) || align_rows(c, r->bs2, 4, r->rows2, &r->nrows2))
		return -1;
	analyze_page(r->rows, r->nrows, r->bs, r->rows2, r->nrows2, r->bs2, &r->page, &r->levels);
	if (r->page.conf < CONF_HIGH && !out_of_time(c)) {
		if (align_rows(c, r->bs, 8, r->rows, &r->nrows))
			return -1;
		analyze_page(r->rows, r->nrows, r->bs, r->rows2, r->nrows2, r->bs2, &r->page, &r->levels);
	} else if (r->page.conf < CONF_HIGH) {
		budget_cut(c, &r->page, CONF_MEDIUM, "the second look with 8 tries per row was left out");
	}
	page_plausible(&r->page, dev_size(c->d));
	{
		uint64_t from = r->levels.unit ? 2 * r->levels.unit : 64 << 10;
		if (from < 32 << 10)
			from = 32 << 10;
		if (boundary_scan(c, r->bs, 4, from))
			return -1;
		analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
		/* reads cross pages at a cost but no erase boundary showed: the
		 * probes may be too noisy; look once more, with four times the tries */
		if (r->page.determined && (!r->erase.determined || r->erase.conf == CONF_LOW) && out_of_time(c)) {
			budget_cut(c, &r->erase, CONF_LOW, "the second scan with 16 tries was left out");
		} else if (r->page.determined && (!r->erase.determined || r->erase.conf == CONF_LOW)) {
			struct finding first = r->erase;
			r->scan_tries = 16;
			if (boundary_scan(c, r->bs, 16, from))
				return -1;
			analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
			if (first.determined && (!r->erase.determined || r->erase.conf < first.conf))
				r->erase = first;
		}
		erase_needs_pages(&r->page, &r->erase);
	}
	r->alignment_matters = r->page.determined || r->erase.determined;
	return 0;
}

/* ------------------------------------------------------------ writes */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}


/* The next n erase blocks of the trial region (cycling through it). */
static uint64_t take_aus(struct ctx *c, uint64_t n)
{
	uint64_t off;

	if (c->cursor + n > c->region_aus)
		c->cursor = 0;
	off = c->region + c->cursor * c->e_size;
	c->cursor += n;
	return off;
}

/* One round (the program NAME): a chunk to each of n erase blocks in turn,
 * each at its own offset; t[a] gets the time of each write. */
static int write_round(struct ctx *c, const char *name, const int64_t *off, unsigned n, uint64_t chunk, double *t)
{
	struct vm_result *res;
	const struct vm_result *ws;

	if (write_at(c, name, chunk, off, n, &res))
		return -1;
	ws = result_descend(res, 2);
	for (unsigned a = 0; a < n; a++)
		t[a] = a < ws->nkid ? ws->kid[a].value : 0;
	vm_result_free(res);
	return 0;
}

/* The erase blocks of an open-AU trial and how far each is written: a
 * trial of n + 1 goes on in the n erase blocks of a healthy trial of n
 * (still open: no garbage collection to reopen them) and one fresh one. */
struct trial_set {
	uint64_t off[AUTO_OPEN_LIMIT];
	unsigned w[AUTO_OPEN_LIMIT];        /* chunks written to each */
	unsigned n;
};

/* Where the next chunk of erase block a goes: linearly, or in windows of
 * WRITE_ROUNDS chunks each written in a shuffled order. */
static uint64_t trial_pos(const struct trial_set *s, unsigned a, uint64_t chunk, int shuffled)
{
	static const unsigned perm[WRITE_ROUNDS] = { 9, 2, 14, 5, 0, 11, 7, 3, 15, 6, 12, 1, 8, 13, 4, 10 };
	unsigned w = s->w[a];

	return s->off[a] + (shuffled ? w / WRITE_ROUNDS * WRITE_ROUNDS + perm[w % WRITE_ROUNDS] : w) * chunk;
}

/* Write the rest of an erase block written in random order: completely
 * written, the card closes it without garbage collection, and its
 * random-order slot is free for the next trial. */
static int trial_retire(struct ctx *c, const struct trial_set *s, unsigned a, uint64_t chunk)
{
	struct trial_set one = { .off = { s->off[a] }, .w = { s->w[a] }, .n = 1 };
	unsigned per = (unsigned)(c->e_size / chunk), win = s->w[a] / WRITE_ROUNDS * WRITE_ROUNDS;
	unsigned done = s->w[a] % WRITE_ROUNDS;
	int64_t *off = malloc((per + WRITE_ROUNDS) * sizeof(*off));
	struct vm_result *res;
	size_t n = 0;
	int rc;

	if (!off)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (unsigned i = done; i < WRITE_ROUNDS && win + WRITE_ROUNDS <= per; i++, one.w[0]++)
		off[n++] = (int64_t)trial_pos(&one, 0, chunk, 1);
	for (unsigned k = done ? win + WRITE_ROUNDS : win; k < per; k++)
		off[n++] = (int64_t)(s->off[a] + k * chunk);
	rc = write_at(c, "open-au-retire", chunk, off, n, &res);
	free(off);
	vm_result_free(res);
	return rc;
}

/* Has an erase block with w chunks written room for `more` writes? */
static int trial_room_for(const struct ctx *c, unsigned w, unsigned more, uint64_t chunk, int shuffled)
{
	unsigned per = (unsigned)(c->e_size / chunk), last = w + more - 1;

	if (shuffled)
		last = last / WRITE_ROUNDS * WRITE_ROUNDS + WRITE_ROUNDS - 1;
	return last < per;
}

/* Make the set n erase blocks: keep those with room for another trial,
 * add fresh ones; one without room that was written in random order is
 * first written to its end (closed: its slot is free again). */
static int trial_grow(struct ctx *c, struct trial_set *s, unsigned n, uint64_t chunk, int shuffled)
{
	unsigned k = 0;

	for (unsigned a = 0; a < s->n; a++) {
		if (k < n && trial_room_for(c, s->w[a], WRITE_ROUNDS, chunk, shuffled)) {
			s->off[k] = s->off[a];
			s->w[k++] = s->w[a];
		} else if (shuffled && s->w[a] && trial_retire(c, s, a, chunk)) {
			return -1;
		}
	}
	while (k < n) {
		s->off[k] = take_aus(c, 1);
		s->w[k++] = 0;
	}
	s->n = n;
	return 0;
}

/* Keep n of the erase blocks of a collapsed trial, those the card still
 * holds open: in linear order the last ones written (it closes the least
 * recently used), in random order the first ones (they took the random-order
 * slots; the last one could not). */
static void trial_keep(struct trial_set *s, unsigned n, int shuffled)
{
	unsigned drop = s->n > n && !shuffled ? s->n - n : 0;

	memmove(s->off, s->off + drop, n * sizeof(s->off[0]));
	memmove(s->w, s->w + drop, n * sizeof(s->w[0]));
	s->n = n;
}

/* How a trial is judged: every write against the collapse threshold (NULL
 * for the first linear trial, which sets the healthy time). */
struct judge {
	double ref, collapse;
	int random_rule;
};

static int slow(const struct judge *j, double v)
{
	return j->random_rule ? random_collapsed(v, j->ref, j->collapse) : write_collapsed(v, j->ref, j->collapse);
}

#define TRIAL_MIN_ROUNDS 6            /* healthy is certain after these (first round apart) */

/* The upper quartile of v[0..n), leaving out writes judged slow when
 * healthy (a pause now and then) */
static double upper_quartile(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_d);
	return v[n * 3 / 4];
}

/* One open-AU trial: rounds of one chunk to each of the n erase blocks of
 * s, after a first round that pays for whatever the last test left open
 * (and, behind a write cache, as many rounds as fill it).  It stops as soon
 * as the verdict is certain: collapsed when some erase block (behind a
 * cache: all together, the cost shows later) was slow in at least two
 * writes and a quarter of them (one erase block too many in random order
 * makes only that one pay, about every other write); healthy when after
 * TRIAL_MIN_ROUNDS no erase block was slow more than once (a
 * garbage-collection pause now and then).  At most WRITE_ROUNDS - 1
 * rounds.  *level gets the upper quartile per write of the slowest (of the
 * collapsed one, or of the writes not slow). */
static int trial_run(struct ctx *c, struct trial_set *s, uint64_t chunk, int shuffled, const struct judge *j,
		     double *level, int *collapsed)
{
	unsigned n = s->n, warm = 1, pooled = c->r->cache != 0;
	uint64_t per_round = (uint64_t)n * chunk;
	int64_t off[AUTO_OPEN_LIMIT];
	double t[AUTO_OPEN_LIMIT], v[AUTO_OPEN_LIMIT][WRITE_ROUNDS];
	unsigned nslow[AUTO_OPEN_LIMIT] = { 0 }, m = 0, groups = pooled ? 1 : n;

	warm += (unsigned)((c->r->warmup + per_round - 1) / per_round);
	*collapsed = 0;
	for (unsigned round = 0; m < WRITE_ROUNDS - 1; round++) {
		int bad = 0, unsure = 0;
		for (unsigned a = 0; a < n; a++) {
			/* a warm-up longer than an erase block (behind a large
			 * cache) fills one after the other, not one chunk each */
			unsigned more = warm - round + WRITE_ROUNDS;
			if (more > c->e_size / chunk)
				more = 1;
			if (round < warm && !trial_room_for(c, s->w[a], more, chunk, shuffled)) {
				/* a long warm-up filled it */
				if (shuffled && trial_retire(c, s, a, chunk))
					return -1;
				s->off[a] = take_aus(c, 1);
				s->w[a] = 0;
			}
			off[a] = (int64_t)trial_pos(s, a, chunk, shuffled);
		}
		if (write_round(c, "open-au-trial", off, n, chunk, t))
			return -1;
		for (unsigned a = 0; a < n; a++)
			s->w[a]++;
		if (round < warm)
			continue;
		for (unsigned a = 0; a < n; a++) {
			unsigned g = pooled ? 0 : a;
			v[a][m] = t[a];
			if (j && slow(j, t[a]))
				nslow[g]++;
		}
		m++;
		for (unsigned g = 0; g < groups; g++) {
			unsigned q = pooled ? m * n : m;
			bad |= nslow[g] >= 2 && 4 * nslow[g] >= q;
			unsure |= nslow[g] > 1;
		}
		if (bad) {
			*collapsed = 1;
			break;
		}
		if (m >= TRIAL_MIN_ROUNDS && !unsure && j)
			break;
		if (m >= 2 * TRIAL_MIN_ROUNDS && !j)
			break;
	}
	*level = 0;
	{
		double all[AUTO_OPEN_LIMIT * WRITE_ROUNDS], one[WRITE_ROUNDS];
		size_t nall = 0;
		for (unsigned a = 0; a < n; a++) {
			size_t k = 0;
			for (unsigned i = 0; i < m; i++)
				if (*collapsed || !j || !slow(j, v[a][i])) {
					one[k++] = v[a][i];
					all[nall++] = v[a][i];
				}
			if (!pooled)
				*level = fmax(*level, upper_quartile(one, k));
		}
		if (pooled)
			*level = upper_quartile(all, nall);
	}
	return 0;
}

/* Write sizes from the largest down: powers of two and the 3x2^n sizes
 * between them (minimum writes exist in both, as erase blocks do), whole
 * sectors, from min(1 MiB, erase block) to 2 KiB (or one sector).  A size
 * must divide the erase block or fit eight times in it, so that no write
 * straddles a boundary and no erase block is left with a gap. */
static size_t write_sizes(uint64_t e, uint64_t ss, uint64_t *out, size_t max)
{
	uint64_t top = e < (1 << 20) ? e : 1 << 20, bottom = ss > 2048 ? ss : 2048;
	size_t n = 0;

	for (uint64_t p2 = 1ULL << 40; p2 >= bottom / 2 && n < max; p2 /= 2) {
		uint64_t cand[2] = { p2 * 3 / 2, p2 };
		for (int i = 0; i < 2 && n < max; i++) {
			uint64_t sz = cand[i];
			if (sz > top || sz < bottom || sz % ss || (e % sz && 8 * sz > e))
				continue;
			out[n++] = sz;
		}
	}
	return n;
}

/* Sizes above this get four timed writes, not eight: they only set the
 * transfer rate, and a write of 256 KiB or more is long beside its jitter
 * (they were half of the sweep's bytes). */
#define MINW_FEW_ABOVE (256 << 10)
/* The spread of four writes, made comparable to that of eight (the third to
 * sixth, about 0.94 sigma for normal jitter): the middle two are about 0.6
 * sigma apart, and a median of four is sqrt(2) less sure than one of eight;
 * rounded up, to claim no more than the writes show. */
#define MINW_SPREAD_OF_4 2.5

/* Eight writes of each size (four above MINW_FEW_ABOVE), one after another, all sizes in one linear
 * stream through as few fresh erase blocks as they fill (none straddles a
 * boundary: a write that would starts the next erase block), so that only
 * the first write in each erase block pays for opening it; the median time
 * of each size and the spread of the middle four. */
static int min_write_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t sizes[32], block = take_aus(c, 1), pos = 0;
	size_t nsizes = write_sizes(c->e_size, dev_sector(c->d), sizes, 32);

	r->nchunks = 0;
	for (size_t i = 0; i < nsizes; i++) {
		if (i >= 2 && out_of_time(c))
			break;
		/* behind a write cache: first as many bytes of the same size as
		 * fill it, so that the eight timed writes wait for their own kind */
		uint64_t sz = sizes[i], warm = (r->warmup + sz - 1) / sz;
		struct vm_result *res;
		double v[8];
		size_t k = 0, timed = sz > MINW_FEW_ABOVE ? 4 : 8;
		int64_t *off = malloc((warm + timed) * sizeof(*off));
		int rc;

		if (!off)
			return fb_fail(c->e, EXIT_DEVICE, "out of memory");
		for (uint64_t w = 0; w < warm + timed; w++) {
			pos = (pos + sz - 1) / sz * sz;
			if (pos + sz > c->e_size) {
				block = take_aus(c, 1);
				pos = 0;
			}
			off[w] = (int64_t)(block + pos);
			pos += sz;
		}
		rc = write_at(c, "min-write", sz, off, warm + timed, &res);
		free(off);
		if (rc)
			return -1;
		for (const struct vm_result *ws = result_descend(res, 2); k < timed && warm + k < ws->nkid; k++)
			v[k] = ws->kid[warm + k].value;
		qsort(v, k, sizeof(v[0]), cmp_d);
		r->chunks[r->nchunks].size = sz;
		r->chunks[r->nchunks].ns = k ? (v[(k - 1) / 2] + v[k / 2]) / 2 : 0;
		r->chunks[r->nchunks++].spread = k == 8 ? v[5] - v[2] : k == 4 ? MINW_SPREAD_OF_4 * (v[2] - v[1]) : 0;
		vm_result_free(res);
	}
	analyze_min_write(r->chunks, r->nchunks, &r->min_write);
	if (r->nchunks < nsizes) {
		/* the smallest size measured may only be a bound */
		char a[32], what[64];
		int bound = r->min_write.value == r->chunks[r->nchunks - 1].size;
		r->min_write.at_most |= bound;
		snprintf(what, sizeof(what), "sizes measured down to %s only",
			 format_size(a, sizeof(a), r->chunks[r->nchunks - 1].size));
		budget_cut(c, &r->min_write, bound ? CONF_LOW : CONF_MEDIUM, what);
	}
	return 0;
}

/* Writes of `chunk` bytes: `per` linear ones from the start of each of
 * `aus` erase blocks `stride` apart from off; their times are appended to
 * *t (of *n, room for *cap). */
static int cache_burst(struct ctx *c, uint64_t off, uint64_t stride, uint64_t aus, uint64_t per, uint64_t chunk,
		       double **t, size_t *n, size_t *cap)
{
	struct vm_result *res;
	const struct vm_result *au;
	struct vm_op *prog;
	const char *var[] = { "offset", "erasesize", "burst_aus", "burst_chunks" };
	const uint64_t val[] = { off, stride, aus, per };

	if (*n + aus * per > *cap) {
		size_t want = (*n + aus * per) * 2;
		double *m = realloc(*t, want * sizeof(**t));
		if (!m)
			return fb_fail(c->e, EXIT_DEVICE, "out of memory");
		*t = m;
		*cap = want;
	}
	if (builtin(c, "write-cache", chunk, 0, var, val, 4, &prog) || run(c, prog, &res))
		return -1;
	au = result_descend(res, 3);
	for (size_t a = 0; a < au->nkid; a++)
		for (size_t w = 0; w < au->kid[a].nkid; w++)
			(*t)[(*n)++] = au->kid[a].kid[w].value;
	vm_result_free(res);
	return 0;
}

/* Does the card finish writes later than it acknowledges them (a write
 * cache)?  One burst from the idle card, timed write by write: one chunk to
 * each of as many fresh erase blocks as the open-AU search may try (up to
 * 16; on most cards: garbage collection for each), then linear chunks in one
 * fresh erase block.
 * Without a cache garbage collection is paid at once and the linear chunks
 * cost the same from the first; a cache that held the burst makes them wait.
 * When neither showed, the burst goes on linearly through fresh erase
 * blocks, each step as long as the burst so far, until writes slow down
 * (the cache filled) or the burst is longer than CACHE_MAX (or --budget
 * stops it: no cache ruled out then either).  If a cache
 * shows, every later write measurement is preceded by twice as many bytes
 * of the same writes as it held. */
static int cache_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t ss = dev_sector(c->d), chunk = CACHE_CHUNK, n, per, half;
	double *t = NULL;
	size_t nt = 0, cap = 0;
	int rc;

	if (chunk > c->e_size / 16)
		chunk = c->e_size / 16 / ss * ss;
	if (chunk < ss)
		chunk = ss;
	n = c->e_size / chunk < CACHE_WRITES ? c->e_size / chunk : CACHE_WRITES;
	per = c->e_size / chunk;
	half = c->region_aus / 2;
	rc = cache_burst(c, take_aus(c, c->open_limit), c->e_size, c->open_limit, 1, chunk, &t, &nt, &cap) ||
	     cache_burst(c, take_aus(c, 1), c->e_size, 1, n, chunk, &t, &nt, &cap);
	while (!rc && (r->cache_verdict = analyze_cache(t, nt, c->open_limit, chunk, &r->wcache)) ==
			      CACHE_UNDECIDED && nt * chunk <= CACHE_MAX && !out_of_time(c)) {
		/* as many bytes again, just past CACHE_MAX at most, in whole
		 * erase blocks, half the trial region at most */
		uint64_t step = nt * chunk < CACHE_MAX + chunk - nt * chunk ? nt * chunk : CACHE_MAX + chunk - nt * chunk;
		uint64_t aus = (step + per * chunk - 1) / (per * chunk);
		if (aus > half)
			aus = half;
		if (!aus)
			aus = 1;
		rc = cache_burst(c, take_aus(c, aus), c->e_size, aus, per, chunk, &t, &nt, &cap);
	}
	/* the burst for the chart: every write, or every k-th of a long one */
	r->burst_every = nt / AUTO_MAX_BURST + 1;
	for (r->nburst = 0; r->nburst * r->burst_every < nt; r->nburst++)
		r->burst_ns[r->nburst] = t[r->nburst * r->burst_every];
	free(t);
	if (rc)
		return -1;
	r->cache = r->cache_verdict == CACHE_SEEN ? r->wcache.bytes : 0;
	r->warmup = 2 * r->cache;
	return 0;
}

/* Behind a write cache the write findings rest on steady-state timing after
 * a warm-up: they could be wrong in ways the timing cannot show (a cache that
 * is smarter than a queue), so they are medium at most; the FAT area, whose
 * probes cannot be warmed up inside the erase block they probe, is not
 * determined.  When no cache showed in a burst of CACHE_MAX but garbage
 * collection did not show at once either, a larger cache cannot be ruled
 * out: the open-AU counts and the FAT area (whose healthy reference may be
 * a cache's speed) are medium at most, and so is a minimum write that every
 * size meets (a cache with room takes every size at the bus's speed); one
 * below which writes cost as much as it does was paid to the flash. */
static void cache_caveat(struct auto_report *r)
{
	struct finding *f[] = { &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	const struct write_cache *w = &r->wcache;
	char a[32], b[32], d[32], e2[32], p[32], pt[32], ch[32];

	format_size(p, sizeof(p), w->probed);
	format_time(pt, sizeof(pt), r->cost[PHASE_CACHE].device_ns);
	if (r->cache_verdict == CACHE_UNDECIDED) {
		format_time(b, sizeof(b), w->fast);
		format_size(ch, sizeof(ch), w->chunk);
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			int paid = i == 0 && !f[i]->at_most;
			if (!f[i]->determined)
				continue;
			finding_evidence(f[i], "writes kept one speed (%s per %s write) through a burst of %s (%s of device "
					 "time): no write cache that small, but a larger one %s", b, ch, p, pt,
					 paid ? "would take writes of every size at the bus's speed: these were paid to "
						"the flash" : "could be what these writes timed");
			if (!paid && f[i]->conf > CONF_MEDIUM)
				f[i]->conf = CONF_MEDIUM;
		}
		return;
	}
	if (!r->cache)
		return;
	format_size(a, sizeof(a), r->cache);
	format_size(e2, sizeof(e2), r->warmup);
	format_time(b, sizeof(b), w->late);
	format_time(d, sizeof(d), w->steady);
	for (size_t i = 0; i < 3; i++) {
		if (!f[i]->determined)
			continue;
		finding_evidence(f[i], "in one burst of %s (%s of device time) writes went slow after about %s (up to "
				 "%s per write, then %s): a write cache; each measurement came after %s of the same "
				 "writes", p, pt, a, b, d, e2);
		if (f[i]->conf > CONF_MEDIUM)
			f[i]->conf = CONF_MEDIUM;
	}
	if (r->fat.determined)
		finding_not(&r->fat, "in one burst writes went slow after about %s (up to %s per write, then %s): a "
			    "write cache hides how fast single erase blocks write", a, b, d);
}

/* Record a trial of the open-AU search. */
static int open_trial(struct ctx *c, struct trial_set *s, int shuffled, const struct judge *j, struct open_trial *t,
		      size_t *nt)
{
	if (trial_run(c, s, c->r->trial_chunk, shuffled, j, &t[*nt].mean_ns, &t[*nt].collapsed))
		return -1;
	t[*nt].n = s->n;
	(*nt)++;
	return 0;
}

/* Grow N until writes collapse, then confirm the knee once more.  Each
 * trial goes on in the erase blocks of the one before, still open when it
 * was healthy, and one fresh one, so that a healthy trial costs no garbage
 * collection and only the first collapsed one does (the fewest the answer
 * allows); the confirmation repeats the last healthy count in the erase
 * blocks written last (still open) and the first collapsed one. */
static int open_search(struct ctx *c, int shuffled, double collapse_level)
{
	struct auto_report *r = c->r;
	struct open_trial *t = shuffled ? r->rnd : r->lin;
	size_t *nt = shuffled ? &r->nrnd : &r->nlin;
	struct trial_set s = { .n = 0 };
	struct judge j = { .ref = r->write_ref, .collapse = collapse_level };
	unsigned n, knee = 0, limit = c->open_limit;
	int cut = 0;

	*nt = 0;
	for (n = 1; n <= c->open_limit && *nt < AUTO_MAX_TRIALS; n++) {
		if (n > 1 && out_of_time(c)) {
			limit = n - 1;
			cut = 1;
			break;
		}
		if (trial_grow(c, &s, n, r->trial_chunk, shuffled))
			return -1;
		/* the first random-order trial is judged against linear writes,
		 * later ones against the first if it was healthy; both against
		 * the linear collapse when one was seen.  More random-order erase
		 * blocks than the card has slots make one of them pay for garbage
		 * collection while the others stay healthy, which may be a smaller
		 * step when erase blocks are small: 1.5x the first counts too. */
		j.random_rule = shuffled && n > 1;
		if (open_trial(c, &s, shuffled, n == 1 && !shuffled ? NULL : &j, t, nt))
			return -1;
		if (n == 1 && !shuffled) {
			r->write_ref = j.ref = t[0].mean_ns;
			t[0].collapsed = write_collapsed(t[0].mean_ns, j.ref, collapse_level);
		}
		if (n == 1 && shuffled && !t[*nt - 1].collapsed)
			j.ref = t[*nt - 1].mean_ns;
		if (t[*nt - 1].collapsed) {
			knee = n;
			break;
		}
	}
	/* confirm: the last healthy count and the first collapsed one again */
	if (knee && *nt < AUTO_MAX_TRIALS && out_of_time(c))
		cut = 1;
	if (knee > 1 && *nt < AUTO_MAX_TRIALS && !cut) {
		trial_keep(&s, knee - 1, shuffled);
		j.random_rule = shuffled && knee - 1 > 1;
		if (open_trial(c, &s, shuffled, &j, t, nt))
			return -1;
	}
	if (knee && *nt < AUTO_MAX_TRIALS && !cut && knee > 1 && out_of_time(c))
		cut = 1;
	if (knee && *nt < AUTO_MAX_TRIALS && !cut) {
		if (knee == 1)
			s.n = 0;
		if (trial_grow(c, &s, knee, r->trial_chunk, shuffled))
			return -1;
		j.random_rule = shuffled && knee > 1;
		if (knee == 1 && shuffled)
			j.ref = r->write_ref;
		if (open_trial(c, &s, shuffled, &j, t, nt))
			return -1;
	}
	analyze_open(t, *nt, limit, shuffled, r->trial_chunk, j.ref, shuffled ? &r->open_random : &r->open_linear);
	if (cut)
		budget_cut(c, shuffled ? &r->open_random : &r->open_linear, CONF_MEDIUM,
			   knee ? "the confirming trials were left out" : "the search stopped before writes collapsed");
	return 0;
}

/* One kind of FAT-probe write at off: WRITE_ROUNDS writes of `size`, linear
 * or shuffled, in batches of FAT_BATCH; the median time per write after the
 * first (which may pay for opening the erase block; a pause for garbage
 * collection now and then does not move it).  Given the reference (ref > 0),
 * it stops as soon as the probe cannot be faster: when most writes after
 * the first took more than twice the reference (a probe that has no
 * random-order slot pays for garbage collection on every write). */
#define FAT_BATCH 4
static int fat_kind(struct ctx *c, uint64_t off, uint64_t size, int shuffled, double ref, double *median)
{
	struct trial_set one = { .off = { off }, .n = 1 };
	int64_t offs[FAT_BATCH];
	double t[WRITE_ROUNDS];
	unsigned n = 0, over = 0;

	while (n < WRITE_ROUNDS) {
		for (unsigned i = 0; i < FAT_BATCH; i++, one.w[0]++)
			offs[i] = (int64_t)trial_pos(&one, 0, size, shuffled);
		if (write_round(c, "fat-probe", offs, FAT_BATCH, size, t + n))
			return -1;
		for (unsigned i = n ? n : 1; i < n + FAT_BATCH; i++)
			over += ref > 0 && t[i] > 2 * ref;
		n += FAT_BATCH;
		if (2 * over > n - 1)
			break;
	}
	qsort(t + 1, n - 1, sizeof(t[0]), cmp_d);
	*median = t[1 + (n - 1) / 2];
	return 0;
}

/* In each of the first erase blocks, three kinds of write, each timed right
 * after the same writes in a fresh erase block in the middle (the
 * reference): linear chunks at the start of the block, small writes after
 * them, chunks in random order at its end.  No sweep in between: the
 * reference always goes first, so it never finds the card in a better state
 * (a random-order slot free) than the probe after it.  Stops after two
 * ordinary erase blocks, or one where the area ends sharply. */
static int fat_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	size_t normal_run = 0;
	uint64_t limit = dev_size(c->d) / 4 / c->e_size, ss = dev_sector(c->d);
	int cut = 0;
	uint64_t fc = r->trial_chunk, small;

	if (fc > c->e_size / 48)
		fc = c->e_size / 48 / ss * ss;
	if (fc < ss)
		fc = ss;
	small = r->min_write.determined ? r->min_write.value / 4 : fc / 4;
	if (small > fc / 4)
		small = fc / 4;
	small = small / ss * ss;
	if (small < ss)
		small = ss;
	r->fat_chunk = fc;
	r->fat_small = small;
	if (limit > AUTO_MAX_FAT)
		limit = AUTO_MAX_FAT;
	r->nfat = 0;
	for (uint64_t j = 0; j < limit; j++) {
		struct fat_probe *p = &r->fat_probe[r->nfat];
		if (j && out_of_time(c)) {
			cut = 1;
			break;
		}
		/* linear chunks, then small writes right after them (still
		 * linear), then chunks in random order: an erase block in random
		 * mode would make the writes after it cost otherwise */
		static const int order[FAT_KINDS] = { FAT_LINEAR, FAT_SMALL, FAT_RANDOM };
		uint64_t ref = take_aus(c, 1), at[FAT_KINDS];
		at[FAT_LINEAR] = 0;
		at[FAT_SMALL] = WRITE_ROUNDS * fc;
		/* the random-order writes end the erase block: once they are
		 * all written the block is full, and the card closes it without
		 * garbage collection and frees its random-order slot for the
		 * next reference, without writing the rest (the skip to them
		 * costs the first of them, which the median leaves out) */
		at[FAT_RANDOM] = c->e_size - WRITE_ROUNDS * fc;
		for (int i = 0; i < FAT_KINDS; i++) {
			int k = order[i];
			uint64_t size = k == FAT_SMALL ? small : fc;
			if (fat_kind(c, ref + at[k], size, k == FAT_RANDOM, 0, &p->ref[k]) ||
			    fat_kind(c, j * c->e_size + at[k], size, k == FAT_RANDOM, p->ref[k], &p->ns[k]))
				return -1;
		}
		r->nfat++;
		analyze_fat(r->fat_probe, r->nfat, c->e_size, &r->fat);
		normal_run = r->fat.value < r->nfat ? normal_run + 1 : 0;
		/* the area has ended: sharply (high) after one ordinary erase
		 * block, else after two */
		if (normal_run >= 2 || (normal_run == 1 && r->fat.conf == CONF_HIGH))
			break;
	}
	analyze_fat(r->fat_probe, r->nfat, c->e_size, &r->fat);
	if (cut) {
		char what[64];
		snprintf(what, sizeof(what), "the probe stopped after %zu erase block%s", r->nfat, r->nfat == 1 ? "" : "s");
		budget_cut(c, &r->fat, r->fat.at_least ? CONF_LOW : CONF_MEDIUM, what);
	}
	return 0;
}

/* The findings of the phases the budget left out (it was spent when the
 * current one was to start): not measured. */
static int budget_rest(struct ctx *c)
{
	struct finding *f[AUTO_PHASES] = { [PHASE_MIN_WRITE] = &c->r->min_write,
					   [PHASE_OPEN_LINEAR] = &c->r->open_linear,
					   [PHASE_OPEN_RANDOM] = &c->r->open_random, [PHASE_FAT] = &c->r->fat };

	for (int p = PHASE_CACHE; p < AUTO_PHASES; p++) {
		if (p > (int)c->phase)
			c->r->skipped |= 1u << p;
		if (f[p] && (c->r->skipped & 1u << p))
			budget_left_out(c, f[p]);
	}
	return 0;
}

/* The write tests' erase size when reads found none. */
#define STAND_IN_ERASE (4ULL << 20)

/* How many erase blocks of size e the open-AU search may try: the trial
 * region past the middle of the device holds twice as many as the search
 * tries (a sweep closes what a trial left open) and four more, up to
 * AUTO_OPEN_LIMIT. */
static unsigned trial_room(const struct ctx *c, uint64_t e)
{
	uint64_t size = dev_size(c->d), region = (size / 2 + e - 1) / e * e;
	uint64_t aus = region < size ? (size - region) / e : 0;

	if (aus > TRIAL_REGION_AUS)
		aus = TRIAL_REGION_AUS;
	if (aus < 4)
		return 0;
	return (aus - 4) / 2 < AUTO_OPEN_LIMIT ? (unsigned)(aus - 4) / 2 : AUTO_OPEN_LIMIT;
}

static void write_findings(struct ctx *c);

static int write_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t size = dev_size(c->d), ss = dev_sector(c->d), chunk;
	uint64_t ranges[2][2];
	double collapse = 0;

	if (trial_room(c, r->erase.determined ? r->erase.value : STAND_IN_ERASE) < AUTO_OPEN_MIN &&
	    r->erase.determined && r->erase.conf <= CONF_LOW && trial_room(c, STAND_IN_ERASE) >= AUTO_OPEN_MIN)
		r->erase_set_aside = 1; /* a doubtful size must not stop the write tests */
	c->e_size = r->erase.determined && !r->erase_set_aside ? r->erase.value : STAND_IN_ERASE;
	r->erase_assumed = !r->erase.determined || r->erase_set_aside;
	r->write_erase = c->e_size;
	c->region = (size / 2 + c->e_size - 1) / c->e_size * c->e_size;
	c->region_aus = (size - c->region) / c->e_size;
	if (c->region_aus > TRIAL_REGION_AUS)
		c->region_aus = TRIAL_REGION_AUS;
	c->open_limit = trial_room(c, c->e_size);
	r->open_limit = c->open_limit;
	if (c->open_limit < AUTO_OPEN_MIN)
		return fb_fail(c->e, EXIT_USAGE, "the device is too small for --auto --write with %llu-byte erase "
			       "blocks (it needs %d erase blocks past its middle)", (unsigned long long)c->e_size,
			       2 * AUTO_OPEN_MIN + 4);
	ranges[0][0] = 0;
	ranges[0][1] = (size / 4 / c->e_size < AUTO_MAX_FAT ? size / 4 / c->e_size : AUTO_MAX_FAT) * c->e_size;
	ranges[1][0] = c->region;
	ranges[1][1] = c->region + c->region_aus * c->e_size;
	if (!phase_start(c, PHASE_CACHE))
		return budget_rest(c);
	if (c->o->before_writes && c->o->before_writes(c->o->ctx, (const uint64_t(*)[2])ranges))
		return fb_fail(c->e, EXIT_DEVICE, "write tests cancelled");
	/* said and reserved: now the first write, the quick capacity check */
	if (c->o->capacity && c->o->capacity(c->o->capacity_ctx, c->d, c->e))
		return -1; /* a fake card: every write past its real size would land elsewhere */

	if (cache_phase(c))
		return -1;
	if (phase_start(c, PHASE_MIN_WRITE) && min_write_phase(c))
		return -1;
	chunk = r->min_write.determined && r->min_write.conf >= CONF_MEDIUM ? r->min_write.value : 32 << 10;
	if (chunk < 16 << 10)
		chunk = 16 << 10;
	if (chunk > c->e_size / 32)
		chunk = c->e_size / 32;
	chunk = chunk / ss * ss;
	r->trial_chunk = chunk;
	if (phase_start(c, PHASE_OPEN_LINEAR) && open_search(c, 0, 0))
		return -1;
	for (size_t i = 0; i < r->nlin; i++)
		if (r->lin[i].collapsed && r->lin[i].mean_ns > collapse)
			collapse = r->lin[i].mean_ns;
	if (collapse > 0 && !r->erase_assumed && r->nchunks >= 2 && r->chunks[0].ns > r->chunks[1].ns) {
		/* the card's write speed: the slope between the two largest sizes */
		double rate = (double)(r->chunks[0].size - r->chunks[1].size) * 1e9 / (r->chunks[0].ns - r->chunks[1].ns);
		erase_write_check(&r->erase, collapse - r->write_ref, rate);
	}
	if (phase_start(c, PHASE_OPEN_RANDOM) && open_search(c, 1, collapse))
		return -1;
	if (phase_start(c, PHASE_FAT) && fat_phase(c))
		return -1;
	budget_rest(c);
	write_findings(c);
	return 0;
}

/* What the write findings say together (also after a stop). */
static void write_findings(struct ctx *c)
{
	struct auto_report *r = c->r;

	min_write_plausible(&r->min_write, &r->page);
	cache_caveat(r);
	{ /* counted in erase blocks: no surer than the erase block size
	   * (low when the write tests used a stand-in size) */
		struct finding *f[3] = { &r->open_linear, &r->open_random, &r->fat };
		enum confidence cap = r->erase_assumed ? CONF_LOW : r->erase.conf;
		for (int i = 0; i < 3; i++)
			if (f[i]->determined && f[i]->conf > cap)
				f[i]->conf = cap;
	}
}

/* A signal stopped the run in phase c->phase: the findings of that phase
 * and of those after it say so (the earlier ones are complete). */
static void interrupted(struct ctx *c)
{
	struct auto_report *r = c->r;
	struct finding *f[] = { &r->page, &r->erase, &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	static const enum auto_phase of[] = { PHASE_READ, PHASE_READ, PHASE_MIN_WRITE, PHASE_OPEN_LINEAR,
					      PHASE_OPEN_RANDOM, PHASE_FAT };

	r->interrupted = 1;
	r->stopped_in = c->phase;
	if (c->findings_done) /* only --summary's read speed was left: not measured */
		return;
	if (c->phase == PHASE_READ) { /* their titles, as the analysis gives them */
		analyze_page(r->rows, 0, r->bs, r->rows2, 0, r->bs2, &r->page, &r->levels);
		analyze_erase(r->scan, 0, &r->levels, r->rows, 0, dev_size(c->d), &r->erase);
	}
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (of[i] >= c->phase && (of[i] == PHASE_READ || c->o->write)) {
			f[i]->nevidence = 0;
			finding_not(f[i], "interrupted: the run was stopped by a signal %s", of[i] == c->phase ?
				    "while measuring it" : "before it was measured");
		}
	if (c->o->write && c->phase > PHASE_CACHE)
		write_findings(c);
}

static void needs_write(struct finding *f, const char *key, const char *title, int is_size)
{
	finding_init(f, key, title, is_size);
	finding_not(f, "needs --write (write tests overwrite data)");
}

/* ------------------------------------------------------------ read speed */

/* --summary's read speed: the read-speed program with 1 MiB requests, read
 * in turn over 16 MiB (a quarter of a smaller device) from the middle of the
 * device, after everything else; its reads count as the read phase's. */
#define SPEED_REQUEST (1u << 20)
#define SPEED_TOTAL (16u << 20)

static int read_speed(struct ctx *c)
{
	uint64_t size = dev_size(c->d);
	uint64_t total = size / 4 < SPEED_TOTAL ? size / 4 / SPEED_REQUEST * SPEED_REQUEST : SPEED_TOTAL;
	const char *var[] = { "erasesize", "offset" };
	const uint64_t val[] = { SPEED_REQUEST, size / 2 / SPEED_REQUEST * SPEED_REQUEST };
	struct vm_result *res;
	struct vm_op *prog;

	if (total < SPEED_REQUEST)
		return 0;
	c->phase = PHASE_READ;
	if (builtin(c, "read-speed", SPEED_REQUEST, (unsigned)(total / SPEED_REQUEST), var, val, 2, &prog) ||
	    run(c, prog, &res))
		return -1;
	c->r->read_bps = vm_throughput(&res->kid[0]); /* kid[0]: the one request size */
	vm_result_free(res);
	return 0;
}

int characterize(struct dev *d, const struct auto_options *o, struct auto_report *r, struct fb_err *e)
{
	struct ctx c = { .d = d, .o = o, .r = r, .e = e };

	memset(r, 0, sizeof(*r));
	r->budget_ns = o->budget_ns;
	r->read_bps = NAN;
	phase_start(&c, PHASE_READ);
	needs_write(&r->min_write, "min_write", "smallest efficient write", 1);
	needs_write(&r->open_linear, "open_linear", "open erase blocks, linear", 0);
	needs_write(&r->open_random, "open_random", "open erase blocks, random order", 0);
	needs_write(&r->fat, "fat_area", "FAT-optimised erase blocks at the start", 0);
	int rc = read_phase(&c) || (o->write && write_phase(&c));

	if (!rc) {
		c.findings_done = 1;
		rc = o->read_speed && read_speed(&c);
	}

	vm_free(c.held);
	if (rc && !(o->stop && *o->stop))
		return -1;
	if (rc)
		interrupted(&c);
	recommend(&r->erase, &r->page, &r->min_write, &r->open_linear, dev_size(d), dev_sector(d), &r->rec);
	return 0;
}
