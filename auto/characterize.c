/* characterize.c — runs the --auto plan (see characterize.h): the reads,
 * the look for reads that never reach the flash, the write plan announced
 * before the first write and the order of the write tests (write_tests.c),
 * the early stop on a medium without flash-like penalties, and the
 * findings kept complete as each part ends. */
#include "auto/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auto/calibration.h"
#include "auto/capacity.h"
#include "auto/crosscheck.h"
#include "auto/unmapped.h"
#include "dev.h"
#include "dev/medium.h"
#include "prog/programs.h"
#include "lib/units.h"
#include "vm.h"

#define MAX_SCAN_STEP MAX_ERASE_BLOCK  /* larger erase blocks are not sought */
#define TRIAL_REGION_AUS 64           /* erase blocks the write trials cycle through */

/* ------------------------------------------------------------ running */

static const double phase_weight[AUTO_PHASES];
#define PROGRESS_PART_MAX 0.9         /* a part's share of the plan stops here until it ends */

/* Where the run is (struct auto_progress): the parts before this one are
 * done, and this one has spent a share of its usual device time
 * (phase_weight, in seconds on the sim presets; of its share of the bound
 * when there is one), at most PROGRESS_PART_MAX (then it is late). */
static void progress_total(void *ctx, uint64_t done)
{
	struct ctx *c = ctx;
	struct auto_progress now = { .phase = c->phase, .phases = c->o->write ? AUTO_PHASES : 1,
				     .requests = c->r->reads + c->r->writes + done, .bound_bytes = c->r->bound_bytes,
				     .bound_ns = c->r->bound_ns };
	double all = 0, before = 0, expect = phase_weight[c->phase] * 1e9, in = 0;
	struct dev_tally t;

	for (int p = 0; p < (int)now.phases; p++)
		all += phase_weight[p];
	for (int p = 0; p < (int)c->phase; p++)
		before += phase_weight[p];
	if (c->b.part_ns > c->part_start)
		expect = c->b.part_ns - c->part_start;
	if (expect > 0)
		in = fmin(PROGRESS_PART_MAX, c->r->cost[c->phase].device_ns / expect);
	/* a share that stands still would make the time left grow: say the
	 * part takes longer than planned instead */
	now.late = expect > 0 && in >= PROGRESS_PART_MAX;
	now.share = (before + in * phase_weight[c->phase]) / all;
	dev_written(c->d, &t);
	now.bytes_written = t.bytes;
	c->o->progress(c->o->progress_ctx, &now);
}

/* A step of a part is expected to take at least what the part's slowest
 * step so far took per byte (a card whose garbage collection copies far
 * slower than it writes shows it in the first step; the estimate from the
 * write pace alone would let the part go on paying it). */
static double measured_pace(const struct ctx *c, uint64_t bytes, double est_ns)
{
	return fmax(est_ns, (double)bytes * c->pace[c->phase]);
}

int run_step(struct ctx *c, struct vm_op *prog, double est_ns, struct vm_result **res)
{
	struct vm_run how = { .stop = c->o->stop, .progress = c->o->progress ? progress_total : NULL,
			      .progress_ctx = c, .keep_partial = 1 };
	struct vm_plan plan;
	struct dev_tally before;
	int rc, hit = 0;

	*res = NULL;
	vm_free(c->held);
	c->held = prog;
	if (!prog)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	if (vm_plan(prog, dev_size(c->d), dev_sector(c->d), &plan, c->e))
		return -1;
	if (c->writing) {
		int writes = plan.bytes_written > 0;
		if (est_ns <= 0)
			est_ns = budget_estimate(&c->b, writes ? plan.requests : 0, c->b.worst_write,
						 writes ? 0 : plan.requests);
		est_ns = measured_pace(c, plan.bytes_written, est_ns);
		if ((c->refused = budget_check(&c->b, plan.bytes_written, est_ns))) {
			c->cut_by |= budget_over(&c->b, plan.bytes_written, est_ns);
			c->r->cut_by |= c->cut_by;
			c->r->cut |= 1u << c->phase;
			c->b.refused++;
			return 1;
		}
	}
	how.plan = &plan;
	if (c->writing && c->b.ns > 0) { /* enforced inside the step too: no request that could pass the bound */
		how.deadline_ns = fmax(1, c->b.ns - c->b.elapsed - fmax(c->b.worst_write, c->b.write_floor));
		how.deadline_hit = &hit;
	}
	dev_written(c->d, &before);
	rc = vm_run(prog, c->d, &how, res, c->e);
	if (*res) { /* what it did, also when a signal stopped it half-way */
		struct phase_cost *pc = &c->r->cost[c->phase];
		double ns = (*res)->st.total_ns, slowest = (double)(*res)->st.max_ns;
		uint64_t bytes = 0;
		struct dev_tally t;
		dev_written(c->d, &t);
		c->r->device_ns += ns;
		pc->device_ns += ns;
		if (plan.bytes_written) {
			bytes = t.bytes - before.bytes;
			c->r->writes += (*res)->st.count;
			c->r->bytes_written += bytes;
			pc->writes += (*res)->st.count;
			pc->bytes_written += bytes;
			c->r->written_lo = t.lo;
			c->r->written_hi = t.hi;
			c->last_write = slowest;
		} else {
			c->r->reads += (*res)->st.count;
			pc->reads += (*res)->st.count;
		}
		budget_spent(&c->b, bytes, ns, slowest, (double)(*res)->st.min_ns, (*res)->st.count,
			     plan.bytes_written > 0);
		if (bytes && c->writing)
			c->pace[c->phase] = fmax(c->pace[c->phase], ns / (double)bytes);
		/* a write may take as long as copying an erase block at twice
		 * the fastest pace writes went (garbage collection) */
		if (c->e_size) /* a stand-in size may be far smaller than the card's erase block */
			c->b.write_floor = fmax(c->b.write_floor, 2 * c->b.fast_write_per_byte *
						(double)(c->r->erase_assumed ? MAX_ERASE_BLOCK : c->e_size));
	}
	if (rc) {
		vm_result_free(*res);
		*res = NULL;
	}
	if (rc && hit) { /* the bound stopped the step half-way: as if refused */
		c->refused = 2;
		c->cut_by |= BUDGET_TIME;
		c->r->cut_by |= BUDGET_TIME;
		c->r->cut |= 1u << c->phase;
		c->b.refused++;
		return 1;
	}
	return rc;
}

/* ------------------------------------------------------------ the bound */

/* Each part may spend a share of the time left, in proportion to its usual
 * device time (on the sim presets: reads about 4 s, the cache probe 4, the
 * area reads 2, the minimum-write sweep 2, the open-AU searches 8 and 4, the
 * FAT probe 6); what a part leaves goes to the parts after it.  Bytes: a
 * part may write what is left less what the parts after it need at least. */
static const double phase_weight[AUTO_PHASES] = { 4, 4, 2, 2, 8, 4, 6 };

/* The bytes the parts after p need at least: the area, the minimum-write
 * sweep, and what the searches and the FAT probe write on a card with a
 * few open erase blocks. */
static uint64_t reserve_after(const struct ctx *c, enum auto_phase p)
{
	uint64_t need = 0;

	if (p < PHASE_AREA && c->area)
		need += 17 * c->area + (1 << 20);
	if (p < PHASE_MIN_WRITE) /* the sweep and its two reference timings */
		need += min_write_bytes(c->e_size, dev_sector(c->d)) + (2 << 20);
	if (p < PHASE_OPEN_LINEAR) /* trials of up to 8 erase blocks */
		need += 8ULL << 20;
	if (p < PHASE_OPEN_RANDOM)
		need += 4ULL << 20;
	if (p < PHASE_FAT)
		need += 4ULL << 20;
	return need;
}

int phase_start(struct ctx *c, enum auto_phase p)
{
	double w = 0;

	c->phase = p;
	c->refused = 0;
	c->cut_by = 0;
	if (c->b.ns > 0 && c->b.elapsed >= c->b.ns) {
		c->cut_by = BUDGET_TIME;
		c->r->cut_by |= BUDGET_TIME;
		c->r->skipped |= 1u << p;
		return 0;
	}
	for (int q = p; q < AUTO_PHASES; q++)
		w += phase_weight[q];
	budget_part(&c->b, phase_weight[p], w, reserve_after(c, p));
	c->part_start = c->b.elapsed;
	return 1;
}

int out_of_time(struct ctx *c)
{
	unsigned over = budget_part_over(&c->b);

	if (!c->refused && !over)
		return 0;
	c->cut_by |= over;
	c->r->cut_by |= c->cut_by;
	c->r->cut |= 1u << c->phase;
	return 1;
}

/* The half of the bound that ran out, so that the user knows which half
 * of --budget to raise: "the bound of 146MiB written", "the bound of 10m of
 * device time" (both when both did, or it is not known which). */
static const char *bound_text(const struct ctx *c, char *buf, size_t len)
{
	char t[32], b[32];
	unsigned by = c->cut_by;

	format_duration(t, sizeof(t), c->b.ns);
	format_size(b, sizeof(b), c->b.bytes);
	if (!c->writing || !c->b.bytes || by == BUDGET_TIME)
		snprintf(buf, len, "the bound of %s of device time", t);
	else if (by == BUDGET_BYTES)
		snprintf(buf, len, "the bound of %s written", b);
	else
		snprintf(buf, len, "the bound of %s of device time and %s written", t, b);
	return buf;
}

void budget_cut(const struct ctx *c, struct finding *f, enum confidence cap, const char *what)
{
	char t[128];

	bound_text(c, t, sizeof(t));
	if (!f->determined) {
		finding_not(f, "%s: %s cut it short", what, t);
		return;
	}
	if (f->conf > cap)
		f->conf = cap;
	if (f->nevidence >= EVIDENCE_MAX)
		f->nevidence = EVIDENCE_MAX - 1;
	finding_evidence(f, "%s: %s cut it short", what, t);
}

/* ------------------------------------------------------------ programs */

int builtin_list(struct ctx *c, const char *name, uint64_t bs, unsigned count, const char *var[],
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

int write_at(struct ctx *c, const char *name, uint64_t len, const int64_t *off, size_t n, double est_ns,
	     struct vm_result **res)
{
	struct vm_op *prog;

	*res = NULL;
	if (builtin_list(c, name, len, 0, NULL, NULL, 0, off, n, &prog))
		return -1;
	return run_step(c, prog, est_ns, res);
}

uint64_t take_aus(struct ctx *c, uint64_t n)
{
	uint64_t off;

	if (c->cursor + n > c->region_aus)
		c->cursor = 0;
	off = c->region + c->cursor * c->e_size;
	c->cursor += n;
	return off;
}

/* ------------------------------------------------------------ reads */

/* The tries around a boundary (auto-align.fbp, boundary-scan.fbp,
 * read-probe.fbp) read across it first (on), then the block before (pre)
 * and after it (post), so that a read buffer holding the last read unit
 * cannot serve a read from the one before it; results.c finds each read by
 * its label.  The classic -a keeps its own order. */
enum { PRE, ON, POST };

/* Where the reads look for the geometry: the align positions (base +
 * i * spacing, i < 7) and the boundary scan (from base, steps up to `to`).
 * On the whole device: positions from 0, the scan past the first quarter
 * (cards treat their first erase blocks apart: a FAT area, whose reads may
 * cost otherwise); in an area that holds data (a used card that answers
 * other reads from its mapping table, or an area --write wrote): inside it. */
struct read_place {
	uint64_t align_base, spacing;
	uint64_t scan_base, scan_to;        /* scan_to 0: no room for a scan */
};

/* The scan's base must be a multiple of every erase size that can show in
 * it: with steps up to A, sizes up to 2A (and 3A) have the three odd
 * multiples a size needs, so a multiple of 3 x min(2A, MAX_SCAN_STEP); on
 * the whole device that is 3 x MAX_SCAN_STEP. */
static void place_scan(uint64_t lo, uint64_t hi, uint64_t bs, uint64_t from, struct read_place *p)
{
	p->scan_to = p->scan_base = 0;
	for (uint64_t a = MAX_SCAN_STEP; a >= from && a; a /= 2) {
		uint64_t unit = 3 * (2 * a < MAX_SCAN_STEP ? 2 * a : MAX_SCAN_STEP);
		uint64_t b = (lo + unit - 1) / unit * unit;
		if (b + bs < hi && (hi - b - bs) / (SCAN_POINTS + 1) >= a) {
			p->scan_base = b;
			p->scan_to = a;
			return;
		}
	}
}

static void place_whole(const struct ctx *c, uint64_t bs, uint64_t from, struct read_place *p)
{
	uint64_t size = dev_size(c->d);

	p->align_base = 0;
	p->spacing = align_spacing(size, MAX_SCAN_STEP);
	place_scan(size / 4 / (3 * MAX_SCAN_STEP) * (3 * MAX_SCAN_STEP), size, bs, from, p);
}

static void place_area(uint64_t lo, uint64_t hi, uint64_t bs, uint64_t from, struct read_place *p)
{
	uint64_t s = MAX_SCAN_STEP;

	while (s > 2 * bs && (lo + s - 1) / s * s + 8 * s > hi)
		s /= 2;
	p->spacing = s;
	p->align_base = (lo + s - 1) / s * s;
	place_scan(lo, hi, bs, from, p);
}

static int align_rows(struct ctx *c, const struct read_place *pl, uint64_t bs, unsigned count,
		      struct align_row *rows, size_t *n)
{
	struct vm_result *res;
	struct vm_op *prog;
	const char *var[] = { "spacing" };
	int64_t at[ALIGN_POSITIONS];
	int rc;

	*n = 0;
	if (pl->spacing < 2 * bs)
		return 0;
	for (int i = 0; i < ALIGN_POSITIONS; i++)
		at[i] = (int64_t)(pl->align_base + (uint64_t)i * pl->spacing);
	if (builtin_list(c, "auto-align", bs, count, var, &pl->spacing, 1, at, ALIGN_POSITIONS, &prog))
		return -1;
	if ((rc = run_step(c, prog, 0, &res)))
		return rc;
	*n = align_rows_of(res, rows, AUTO_MAX_ROWS);
	vm_result_free(res);
	return 0;
}

/* The scan: at each step A from `from` up to the place's top, the crossing
 * cost at j*A for j = 1..16 from its base.  A read that found no data (its
 * blocks faster than nodata, when the card answers those from its mapping
 * table) says nothing about the boundary: not a number, left out. */
static int boundary_scan(struct ctx *c, const struct read_place *pl, uint64_t bs, unsigned tries, uint64_t from,
			 double nodata)
{
	struct vm_result *res;
	const struct vm_result *top;
	struct vm_op *prog;
	const char *var[] = { "scan_from", "scan_to", "scan_points", "offset" };
	int rc;

	c->r->nscan = 0;
	if (!pl->scan_to || from > pl->scan_to)
		return 0;
	const uint64_t val[] = { from, pl->scan_to, SCAN_POINTS, pl->scan_base };
	if (builtin_list(c, "boundary-scan", bs, tries, var, val, 4, NULL, 0, &prog))
		return -1;
	if ((rc = run_step(c, prog, 0, &res)))
		return rc;
	top = result_descend(res, 1);
	c->nscanp = 0;
	for (size_t i = 0; i < top->nkid && c->r->nscan < AUTO_MAX_LEVELS; i++) {
		struct scan_level *l = &c->r->scan[c->r->nscan++];
		const struct vm_result *pts = &top->kid[i];
		l->step = top->kid[i].unit;
		l->npoints = 0;
		for (size_t j = 0; j < pts->nkid && j < SCAN_POINTS; j++) {
			double best[3];
			crossing_of(result_descend(&pts->kid[j], 1), best, NULL);
			c->scanp[c->nscanp].pos = pl->scan_base + (j + 1) * l->step;
			c->scanp[c->nscanp].level = fmin(best[PRE], best[POST]);
			c->scanp[c->nscanp++].cross = best[ON] - (best[PRE] + best[POST]) / 2;
			l->d[l->npoints++] = fmin(best[PRE], best[POST]) < nodata ? NAN
										   : best[ON] - (best[PRE] + best[POST]) / 2;
		}
	}
	vm_result_free(res);
	return 0;
}

/* Page and erase block from reads at a place: align rows at two block sizes
 * (a second look with twice the tries when the page is not clear), then the
 * boundary scan (a second look with four times the tries when reads cross
 * pages at a cost but no erase boundary shows clearly).  1: the time share
 * was spent (the second looks were left out, the findings say so). */
/* A read unit costs extra at each of its multiples: when the scan shows
 * most of them free, the step was a larger boundary (an erase block that is
 * not a power of two) seen through power-of-two alignments.  The page is
 * then not determined and the scan, which started at twice it, is read
 * again from the smallest step. */
static int page_lattice(struct ctx *c, const struct read_place *pl, uint64_t *from, double nodata)
{
	struct auto_report *r = c->r;
	char a[32];

	if (!page_not_every_multiple(&r->page, &r->levels, r->scan, r->nscan))
		return 0;
	finding_not(&r->page, "the %s step is not at every multiple of %s (most the boundary scan read cost "
		    "nothing): a larger boundary seen through power-of-two alignments, not a read unit",
		    format_size(a, sizeof(a), r->page.value), a);
	r->levels.unit = 0;
	*from = 32 << 10;
	if (boundary_scan(c, pl, r->bs, 4, *from, nodata))
		return -1;
	analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
	return 0;
}

static int read_geometry(struct ctx *c, const struct read_place *pl, double nodata)
{
	struct auto_report *r = c->r;
	uint64_t from;
	int rc;

	r->scan_tries = 4;
	/* adaptive tries: four first; eight only when the page steps were not
	 * clear (two clusters close together) */
	if ((rc = align_rows(c, pl, r->bs, 4, r->rows, &r->nrows)) ||
	    (rc = align_rows(c, pl, r->bs2, 4, r->rows2, &r->nrows2)))
		return rc;
	analyze_page(r->rows, r->nrows, r->bs, r->rows2, r->nrows2, r->bs2, &r->page, &r->levels);
	if (r->page.conf < CONF_HIGH && !out_of_time(c)) {
		if ((rc = align_rows(c, pl, r->bs, 8, r->rows, &r->nrows)))
			return rc;
		analyze_page(r->rows, r->nrows, r->bs, r->rows2, r->nrows2, r->bs2, &r->page, &r->levels);
	} else if (r->page.conf < CONF_HIGH) {
		budget_cut(c, &r->page, CONF_MEDIUM, "the second look with 8 tries per row was left out");
	}
	page_plausible(&r->page, dev_size(c->d));
	from = r->page.determined ? 2 * r->page.value : 64 << 10;
	if (from < 32 << 10)
		from = 32 << 10;
	if ((rc = boundary_scan(c, pl, r->bs, 4, from, nodata)))
		return rc;
	analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
	if ((rc = page_lattice(c, pl, &from, nodata)))
		return rc;
	/* reads cross pages at a cost but no erase boundary showed: the
	 * probes may be too noisy; look once more, with four times the tries */
	if (r->page.determined && (!r->erase.determined || r->erase.conf == CONF_LOW) && out_of_time(c)) {
		budget_cut(c, &r->erase, CONF_LOW, "the second scan with 16 tries was left out");
	} else if (r->page.determined && (!r->erase.determined || r->erase.conf == CONF_LOW)) {
		struct finding first = r->erase;
		r->scan_tries = 16;
		if ((rc = boundary_scan(c, pl, r->bs, 16, from, nodata)))
			return rc;
		analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
		if (first.determined && (!r->erase.determined || r->erase.conf < first.conf))
			r->erase = first;
	}
	erase_needs_pages(&r->page, &r->erase);
	return 0;
}

/* How good the reads' geometry is: what a second place must beat. */
static int geometry_score(const struct auto_report *r)
{
	return (r->erase.determined ? 2 * (int)r->erase.conf + 1 : 0) * 8 + (r->page.determined ? (int)r->page.conf + 1 : 0);
}

/* What the reads found, kept while another place is read. */
struct read_findings {
	struct finding page, erase;
	struct read_levels levels;
	struct align_row rows[AUTO_MAX_ROWS], rows2[AUTO_MAX_ROWS];
	size_t nrows, nrows2, nscan;
	struct scan_level scan[AUTO_MAX_LEVELS];
	unsigned scan_tries;
};

static void read_findings_move(struct read_findings *to, struct auto_report *r, int back)
{
#define MOVE(x) do { if (back) memcpy(&r->x, &to->x, sizeof(to->x)); else memcpy(&to->x, &r->x, sizeof(to->x)); } while (0)
	MOVE(page);
	MOVE(erase);
	MOVE(levels);
	MOVE(rows);
	MOVE(rows2);
	MOVE(nrows);
	MOVE(nrows2);
	MOVE(nscan);
	MOVE(scan);
	MOVE(scan_tries);
#undef MOVE
}

/* Read the geometry again in [lo, hi), an area that holds data; keep it
 * when it is better than what the reads found before.  nodata: reads
 * faster than this found no data (0: every read did). */
static int reread_area(struct ctx *c, uint64_t lo, uint64_t hi, double nodata, int written)
{
	struct auto_report *r = c->r;
	struct read_findings *before = malloc(sizeof(*before));
	struct read_place pl;
	int rc, before_score = geometry_score(r);

	if (!before)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	read_findings_move(before, r, 0);
	place_area(lo, hi, r->bs, 32 << 10, &pl);
	rc = pl.spacing < 2 * r->bs2 ? 1 : read_geometry(c, &pl, nodata);
	if (rc < 0) {
		free(before);
		return -1;
	}
	if (rc > 0 || geometry_score(r) <= before_score) {
		read_findings_move(before, r, 1); /* no better: keep what the reads found before */
		free(before);
		return 0;
	}
	free(before);
	r->data.lo = lo;
	r->data.hi = hi;
	r->data.written = written;
	return 1;
}

/* The evidence of where the geometry was read, on page and erase. */
static void data_evidence(struct auto_report *r)
{
	struct data_look *d = &r->data;
	char a[32], b[32], s[32], line[640];

	if (!d->unmapped && !d->written)
		return;
	if (d->unmapped)
		snprintf(line, sizeof(line), "reads of sectors without data never reach the flash (%u of %u reads "
			 "spread over the device took %s, flat, against %s where data are)", d->unmapped, d->probes,
			 format_time(a, sizeof(a), d->fast_ns), format_time(b, sizeof(b), d->slow_ns));
	else if (r->on_file) /* a file's reads show no flash: no mapping table explains it */
		snprintf(line, sizeof(line), "reads showed no flash-like behaviour: %s is a file", r->file_how);
	else
		snprintf(line, sizeof(line), "reads showed no flash-like behaviour, as reads of sectors without "
			 "data do on cards that answer them from the mapping table");
	for (int k = 0; k < 2; k++) {
		struct finding *f = k ? &r->erase : &r->page;
		if (f->nevidence >= EVIDENCE_MAX - 1)
			f->nevidence = EVIDENCE_MAX - 2;
		finding_evidence(f, "%s", line);
		if (d->hi > d->lo)
			finding_evidence(f, "%s: read in bytes %llu to %llu (%s)", d->written ? "--write wrote that area "
					 "first" : "so measured where data are", (unsigned long long)d->lo,
					 (unsigned long long)d->hi - 1, format_size(s, sizeof(s), d->hi - d->lo));
	}
}

/* Reads spread over the device (DATA_PROBES, and the first MiBs where a
 * used card keeps its partition table and FAT): is some part answered
 * without the flash?  Then the geometry is read again where data are. */
#define DATA_PROBES 256
static int data_look(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t size = dev_size(c->d), step = size / DATA_PROBES / (64 << 10) * (64 << 10), bs = r->bs;
	int64_t at[DATA_PROBES + 3];
	struct data_probe p[DATA_PROBES + 3];
	struct data_split s;
	struct vm_result *res;
	struct vm_op *prog;
	size_t n = 0;
	int rc;

	if (step < 2 * bs)
		return 0;
	/* read-probe.fbp reads around the boundary bs past each offset */
	for (uint64_t m = 1; m <= 3 && (m << 20) < step / 2; m++)
		at[n++] = (int64_t)((m << 20) - bs);
	/* (a probe needs a block before it: under 32 MiB the first one's
	 * midpoint rounds down to the device's start) */
	for (uint64_t k = 0, pos; k < DATA_PROBES; k++)
		if ((pos = k * step + step / 2 / (64 << 10) * (64 << 10)) >= bs)
			at[n++] = (int64_t)(pos - bs);
	if (builtin_list(c, "read-probe", bs, 2, NULL, NULL, 0, at, n, &prog))
		return -1;
	if ((rc = run_step(c, prog, 0, &res)))
		return rc;
	for (size_t i = 0; i < n && i < res->nkid; i++) {
		double best[3];
		crossing_of(result_descend(&res->kid[i], 1), best, NULL);
		p[i].pos = (uint64_t)at[i] + bs;
		p[i].level = fmin(best[PRE], best[POST]);
		p[i].cross = best[ON] - (best[PRE] + best[POST]) / 2;
	}
	vm_result_free(res);
	unmapped_split(p, n, &s);
	r->data.probes = (unsigned)n;
	if (!s.seen)
		return 0;
	r->data.unmapped = s.nfast;
	r->data.fast_ns = s.fast;
	r->data.slow_ns = s.slow;
	c->nodata = s.threshold;
	if (s.hi > s.lo && reread_area(c, s.lo, s.hi + step / 2, s.threshold, 0) < 0)
		return -1;
	return 0;
}

static int read_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t ss = dev_sector(c->d);
	struct read_place pl;
	int rc;

	/* the read across a boundary starts half a block before it: a whole
	 * number of sectors only if the block is two sectors or more */
	r->bs = ss > 512 ? 2 * ss : 1024;
	r->bs2 = 4 * r->bs;
	/* the scan's place is fixed before the page is known (its steps start
	 * at twice the read unit the align rows find) */
	place_whole(c, r->bs, 32 << 10, &pl);
	if ((rc = read_geometry(c, &pl, 0)) < 0)
		return -1;
	/* a weak result, or scan points faster than the others and flat, may
	 * be reads that never reached the flash: look where the data are */
	{
		struct data_split s;
		unmapped_split(c->scanp, c->nscanp, &s);
		if (s.seen || !r->erase.determined || r->erase.conf < CONF_MEDIUM || !r->page.determined)
			if (data_look(c) < 0)
				return -1;
	}
	r->alignment_matters = r->page.determined || r->erase.determined;
	return 0;
}

/* ------------------------------------------------------------ verdicts */

/* Reads show no flash-like behaviour anywhere: no read unit, and at most a
 * doubtful erase pattern (without read-unit steps it is noise). */
static int reads_show_nothing(const struct auto_report *r)
{
	return !r->page.determined && (!r->erase.determined || r->erase.conf <= CONF_LOW);
}

/* Reads show nothing: a doubtful erase pattern is noise. */
static void no_flash_reads(struct auto_report *r)
{
	char a[32];

	if (r->erase.determined) {
		finding_not(&r->erase, "a pattern every %s at low confidence, without read-unit steps: noise, not "
			    "flash", format_size(a, sizeof(a), r->erase.value));
		r->erase.nevidence = 0;
	}
}

/* A target that is no flash medium, said once (the verdict) and kept, with
 * --write too: a file (or a loop device over one: what it times is a file
 * system and the page cache), or one whose reads show no flash-like
 * behaviour, even where --write wrote data first and read them back.  Its
 * write findings are a host cache's as much as a medium's (seven runs on
 * one loop device over a file gave a write cache of anything from 64KiB to
 * 8.88MiB): none is given above low. */
static void not_flash(struct ctx *c)
{
	struct auto_report *r = c->r;
	struct finding *w[] = { &r->min_write, &r->open_linear, &r->open_random, &r->fat, &r->cache_area };
	int nothing = reads_show_nothing(r), ssd = r->verdict == VERDICT_SSD_LIKE;
	uint64_t lo = r->nscan ? r->scan[0].step : 0, hi = r->nscan ? r->scan[r->nscan - 1].step * SCAN_POINTS : 0;
	char a[32], b[32], file[640] = "", ssd_text[sizeof(r->verdict_text)];
	size_t at = 0;

	if (!nothing && !r->on_file)
		return;
	if (nothing)
		no_flash_reads(r);
	if (ssd && !r->on_file)
		return; /* the SSD verdict says it */
	snprintf(ssd_text, sizeof(ssd_text), "%s", ssd ? r->verdict_text : "");
	r->verdict = VERDICT_NO_FLASH_READS;
	if (r->on_file) /* what the target is, whatever the timings showed */
		snprintf(file, sizeof(file), "%s is a file, or a device in front of one: what it times is a file system "
			 "and the page cache", r->file_how);
	if (r->on_file) /* the same words first on every run: it is a file */
		at = (size_t)snprintf(r->verdict_text, sizeof(r->verdict_text), "no flash-like behaviour: %s%s%s%s%s",
				      file, nothing ? "; reading across boundaries from " : "",
				      nothing ? format_size(a, sizeof(a), lo) : "", nothing ? " to " : "",
				      nothing ? format_size(b, sizeof(b), hi) : "");
	if (r->on_file && nothing && at < sizeof(r->verdict_text))
		at += (size_t)snprintf(r->verdict_text + at, sizeof(r->verdict_text) - at,
				       " costs no more than reading beside them");
	else if (nothing)
		at = (size_t)snprintf(r->verdict_text, sizeof(r->verdict_text),
				      "no flash-like behaviour in reads%s: reading across boundaries from %s to %s "
				      "costs no more than reading beside them%s; %s", r->data.written ?
				      ", also where it wrote data first and read them back" : "",
				      format_size(a, sizeof(a), lo), format_size(b, sizeof(b), hi),
				      r->data.probes && !r->data.unmapped ? ", and reads cost the same all over the device"
				      : "", c->writing ? "a disk, an SSD, or a file on one" :
				      "a disk, an SSD, a file on one, or flash that answers sectors without data from its "
				      "mapping table (--write writes first and reads back)");
	if (ssd && at < sizeof(r->verdict_text))
		at += (size_t)snprintf(r->verdict_text + at, sizeof(r->verdict_text) - at, "; it %s", ssd_text);
	/* on a file the read findings are no medium's either */
	for (int i = 0; r->on_file && i < 2; i++) {
		struct finding *f = i ? &r->erase : &r->page;
		if (f->determined && f->conf > CONF_LOW)
			f->conf = CONF_LOW;
	}
	if (!c->writing)
		return;
	if (at < sizeof(r->verdict_text))
		snprintf(r->verdict_text + at, sizeof(r->verdict_text) - at, "; what the writes show may be a host's "
			 "cache as much as a medium's: no write finding is given above low");
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i]->determined && w[i]->conf > CONF_LOW)
			w[i]->conf = CONF_LOW;
}

/* ------------------------------------------------------------ the write plan */

/* The write tests' erase size when reads found none. */
#define STAND_IN_ERASE (4ULL << 20)
/* The area --write writes and reads back when reads found no data to
 * measure in: the boundary scan up to a step A needs 17 A (and the erase
 * blocks it can show are up to 2-3 A); small against the medium (1/32 of
 * it), A at most AREA_STEP_MAX (16 MiB erase blocks, 137 MiB). */
#define AREA_STEP_MAX (8ULL << 20)
#define AREA_STEP_MIN (512ULL << 10)
#define AREA_CHUNK (1ULL << 20)

static uint64_t area_step(uint64_t size)
{
	uint64_t a = AREA_STEP_MAX;

	while (a > AREA_STEP_MIN && 17 * a > size / 32)
		a /= 2;
	return a;
}

/* How many erase blocks of size e the open-AU search may try: the trial
 * region past the middle of the device holds twice as many as the search
 * tries (a sweep closes what a trial left open) and four more, up to
 * AUTO_OPEN_LIMIT. */
static unsigned trial_room(uint64_t size, uint64_t e)
{
	uint64_t region = (size / 2 + e - 1) / e * e;
	uint64_t aus = region < size ? (size - region) / e : 0;

	if (aus > TRIAL_REGION_AUS)
		aus = TRIAL_REGION_AUS;
	if (aus < 4)
		return 0;
	return (aus - 4) / 2 < AUTO_OPEN_LIMIT ? (unsigned)(aus - 4) / 2 : AUTO_OPEN_LIMIT;
}

/* The erase size the write tests use, and the region they cycle through. */
static void use_erase(struct ctx *c, uint64_t e, uint64_t from, uint64_t to)
{
	c->e_size = e;
	c->region = (from + e - 1) / e * e;
	c->region_aus = to > c->region ? (to - c->region) / e : 0;
	if (c->region_aus > TRIAL_REGION_AUS)
		c->region_aus = TRIAL_REGION_AUS;
	c->cursor = 0;
	c->open_limit = c->region_aus < 4 ? 0 : (c->region_aus - 4) / 2 < AUTO_OPEN_LIMIT ?
		(unsigned)(c->region_aus - 4) / 2 : AUTO_OPEN_LIMIT;
	c->r->open_limit = c->open_limit;
	c->r->write_erase = e;
}

/* The quick capacity check's place in the bound (the plan's bytes and ns
 * so far are the tests'): the default bound grows by the most it writes;
 * a --budget holds it, or it is left out: when its bytes are fewer than
 * the most the check writes, or the reads left less time than its least. */
#define CHECK_LEAST_NS 1e9

static double check_share(const struct ctx *c);

static void check_plan(struct ctx *c, struct write_plan *plan)
{
	struct capacity_plan cp;
	uint64_t least;

	if (!c->o->capacity || capacity_quick_plan(c->d, &cp, &least))
		return;
	if (c->o->budget_bytes && c->o->budget_bytes < cp.max_saved)
		plan->check_left_out |= BUDGET_BYTES;
	c->b.ns = plan->ns; /* the share it would get */
	if (plan->ns - plan->spent_ns <= 0 || check_share(c) < CHECK_LEAST_NS)
		plan->check_left_out |= BUDGET_TIME;
	if (plan->check_left_out)
		return;
	plan->check_bytes = cp.max_saved;
	if (!c->o->budget_bytes)
		plan->bytes += cp.max_saved;
}

/* The start of --auto --write: everything it may do is fixed here, before
 * the first write, and announced (the ranges, the most it writes, the most
 * device time the run takes); the write tests keep to it.  0, or -1 with
 * c->e filled (too small a device, or the announcement cancelled). */
static int write_plan_start(struct ctx *c, struct write_plan *plan)
{
	struct auto_report *r = c->r;
	uint64_t size = dev_size(c->d), region;

	if (trial_room(size, r->erase.determined ? r->erase.value : STAND_IN_ERASE) < AUTO_OPEN_MIN &&
	    r->erase.determined && r->erase.conf <= CONF_LOW && trial_room(size, STAND_IN_ERASE) >= AUTO_OPEN_MIN)
		r->erase_set_aside = 1; /* a doubtful size must not stop the write tests */
	r->erase_assumed = !r->erase.determined || r->erase_set_aside;
	use_erase(c, r->erase_assumed ? STAND_IN_ERASE : r->erase.value, size / 2, size);
	region = c->region;
	if (c->open_limit < AUTO_OPEN_MIN)
		return fb_fail(c->e, EXIT_USAGE, "the device is too small for --auto --write with %llu-byte erase "
			       "blocks (it needs %d erase blocks past its middle)", (unsigned long long)c->e_size,
			       2 * AUTO_OPEN_MIN + 4);
	memset(plan, 0, sizeof(*plan));
	plan->range[0][0] = 0;
	plan->range[0][1] = (size / 4 / c->e_size < AUTO_MAX_FAT ? size / 4 / c->e_size : AUTO_MAX_FAT) * c->e_size;
	plan->range[1][0] = region;
	plan->range[1][1] = region + c->region_aus * c->e_size;
	/* an area to write and read back when the reads found no data to
	 * measure the erase block in */
	if (r->erase_assumed && (r->data.unmapped || reads_show_nothing(r)))
		c->area = area_step(size);
	plan->bytes = c->o->budget_bytes ? c->o->budget_bytes : budget_default_bytes(size, c->e_size) +
		(c->area ? 17 * c->area + AREA_CHUNK : 0);
	if (!c->o->budget_bytes && plan->bytes > size / 2) /* the area on a small card */
		plan->bytes = size / 2 >> 20 << 20;
	plan->ns = c->o->budget_ns ? (double)c->o->budget_ns : BUDGET_DEFAULT_NS;
	plan->bytes_given = c->o->budget_bytes != 0;
	plan->ns_given = c->o->budget_ns != 0;
	plan->spent_ns = r->device_ns;
	/* the reads already took longer than --budget allows: the bound is
	 * what they took (no write test fits), never a promise already broken */
	if (plan->ns < plan->spent_ns)
		plan->ns = ceil(plan->spent_ns);
	check_plan(c, plan);
	c->b.bytes = plan->bytes;
	c->b.ns = plan->ns;
	r->bound_bytes = plan->bytes;
	r->bound_ns = plan->ns;
	r->bound_given = plan->ns_given | plan->bytes_given << 1;
	r->check_left_out = plan->check_left_out;
	c->fat_hi = plan->range[0][1];
	c->trial_lo = plan->range[1][0];
	c->trial_hi = plan->range[1][1];
	return 0;
}

/* ------------------------------------------------------------ the write tests */

/* What the cache probe and the area reads show: no penalty at all?  Reads
 * cost the same across every boundary (also where data are), writes to
 * fresh erase blocks in turn paid no garbage collection, and a long run of
 * writes kept one speed, or slowed once a cache was full without any write
 * coming late and without garbage collection after it: nothing the other
 * tests could measure. */
static int behaves_like_ssd(const struct auto_report *r)
{
	int no_gc = r->cache_verdict == CACHE_UNDECIDED ||
		    (r->cache_verdict == CACHE_SEEN && !r->wcache.queued && !r->fast_area);

	return reads_show_nothing(r) && no_gc && r->wcache.probed >= (8ULL << 20);
}

static void ssd_verdict(struct ctx *c)
{
	struct auto_report *r = c->r;
	struct finding *f[] = { &r->min_write, &r->open_linear, &r->open_random, &r->fat };
	char a[32], b[32], p[32], ch[32];

	r->verdict = VERDICT_SSD_LIKE;
	format_size(a, sizeof(a), r->bytes_written);
	format_time(b, sizeof(b), r->wcache.fast);
	format_size(p, sizeof(p), r->wcache.probed);
	format_size(ch, sizeof(ch), r->wcache.chunk);
	snprintf(r->verdict_text, sizeof(r->verdict_text),
		 "behaves like an SSD: no erase-block or open-AU penalty measurable in reads and linear writes; %s "
		 "written (reads cost the same across every boundary%s; writes to %u fresh areas in turn paid no "
		 "garbage collection, and %s in a row kept one speed, %s per %s write%s); stopped early: random-order "
		 "writes, small writes and a FAT area were not tested", a, r->data.written || r->data.lo < r->data.hi ?
		 ", also where data are" : "", c->open_limit, p, b, ch,
		 r->cache_verdict == CACHE_SEEN ? ", once a write cache was full" : "");
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		finding_not(f[i], "not measured: the run stopped early, as the medium behaves like an SSD in reads and "
			    "linear writes (this test's own penalty was not looked for)");
}

/* The findings of a part once it is done: the caveats a cache puts on them,
 * counts of erase blocks no surer than the erase block size. */
static void part_done(struct ctx *c, enum auto_phase p)
{
	struct auto_report *r = c->r;
	struct finding *f = p == PHASE_MIN_WRITE ? &r->min_write : p == PHASE_OPEN_LINEAR ? &r->open_linear :
		p == PHASE_OPEN_RANDOM ? &r->open_random : p == PHASE_FAT ? &r->fat : NULL;

	c->done |= 1u << p;
	if (!f)
		return;
	if (p == PHASE_MIN_WRITE)
		min_write_plausible(f, &r->page);
	part_checks(r, p);
	cache_caveat(r, f);
	if (p != PHASE_MIN_WRITE) { /* counted in erase blocks: no surer than the erase block size (low when
				     * the write tests used a stand-in size) */
		enum confidence cap = r->erase_assumed ? CONF_LOW : r->erase.conf;
		if (f->determined && f->conf > cap)
			f->conf = cap;
	}
}

/* The reads found data only in a window shorter than the area would be
 * (17 of the scan's top steps): too short to show the erase blocks sought,
 * so the area is written as on a card without data. */
static int window_too_short(const struct ctx *c)
{
	const struct data_look *d = &c->r->data;

	return d->unmapped && d->hi > d->lo && d->hi - d->lo < 17 * c->area;
}

/* The area: written linearly in AREA_CHUNK writes, then read back. */
static int area_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t a = c->area, unit, need, aus, lo, base, n;
	int64_t *off;
	struct vm_result *res;
	int rc;

	for (;; a /= 2) { /* inside the announced range, past what the cache probe wrote if it can */
		unit = 6 * a;
		need = 17 * a + AREA_CHUNK;
		aus = (need + unit + c->e_size - 1) / c->e_size;
		if (aus <= c->region_aus || a <= AREA_STEP_MIN)
			break;
	}
	if (aus > c->region_aus)
		return 0;
	lo = take_aus(c, aus);
	base = (lo + unit - 1) / unit * unit;
	n = need / AREA_CHUNK;
	off = malloc(n * sizeof(*off));
	if (!off)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (uint64_t i = 0; i < n; i++)
		off[i] = (int64_t)(base + i * AREA_CHUNK);
	rc = write_at(c, "data-area", AREA_CHUNK, off, n, linear_estimate(c, n, AREA_CHUNK), &res);
	free(off);
	if (rc)
		return rc;
	vm_result_free(res);
	if ((rc = reread_area(c, base, base + n * AREA_CHUNK, 0, 1)) < 0)
		return -1;
	if (rc > 0)
		data_evidence(r);
	return 0;
}

/* Once the area showed the erase block, the tests after it use it: the
 * trial region is laid out again in it, inside what was announced (the
 * trials may overwrite the area: its reads are done). */
static void adopt_erase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t keep_e = c->e_size, keep_region = c->region;
	uint64_t keep_aus = c->region_aus, keep_cursor = c->cursor;
	unsigned keep_limit = c->open_limit;

	if (!r->erase.determined || r->erase.conf < CONF_MEDIUM)
		return;
	if (r->erase.value == c->e_size) { /* the stand-in was right */
		r->erase_assumed = 0;
		return;
	}
	use_erase(c, r->erase.value, c->trial_lo, c->trial_hi);
	if (c->open_limit >= AUTO_OPEN_MIN) {
		r->erase_assumed = 0;
		return;
	}
	c->e_size = keep_e; /* no room for it: keep the stand-in */
	c->region = keep_region;
	c->region_aus = keep_aus;
	c->cursor = keep_cursor;
	c->open_limit = keep_limit;
	r->open_limit = keep_limit;
	r->write_erase = keep_e;
}

static int write_tests(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t ss = dev_sector(c->d), chunk;
	double collapse = 0;
	int rc;

	if (phase_start(c, PHASE_CACHE)) {
		if (cache_phase(c))
			return -1;
		part_done(c, PHASE_CACHE);
	}
	/* reads that found no data: read again where the cache probe wrote a
	 * long run of whole erase blocks, or write an area first */
	if ((r->data.unmapped || reads_show_nothing(r)) && r->erase_assumed && phase_start(c, PHASE_AREA)) {
		if (c->burst_hi - c->burst_lo >= 17 * AREA_STEP_MIN + (1 << 20)) {
			if ((rc = reread_area(c, c->burst_lo, c->burst_hi, 0, 1)) < 0)
				return -1;
			if (rc > 0)
				data_evidence(r);
		}
		if (!behaves_like_ssd(r) && c->area && (reads_show_nothing(r) || window_too_short(c)) &&
		    area_phase(c) < 0)
			return -1;
		if (!behaves_like_ssd(r))
			adopt_erase(c);
		r->alignment_matters = r->page.determined || r->erase.determined;
		part_done(c, PHASE_AREA);
	}
	if (behaves_like_ssd(r)) {
		ssd_verdict(c);
		return 0;
	}
	if (phase_start(c, PHASE_MIN_WRITE)) {
		if (min_write_phase(c))
			return -1;
		part_done(c, PHASE_MIN_WRITE);
	}
	chunk = r->min_write.determined && r->min_write.conf >= CONF_MEDIUM ? r->min_write.value : 32 << 10;
	if (chunk < 16 << 10)
		chunk = 16 << 10;
	/* behind a queue each trial first writes twice the cache in its own
	 * chunks: the default size fills it in fewer writes */
	if (r->cache && !r->fast_area && chunk < 32 << 10)
		chunk = 32 << 10;
	if (chunk > c->e_size / 32)
		chunk = c->e_size / 32;
	chunk = chunk / ss * ss;
	r->trial_chunk = chunk;
	if (phase_start(c, PHASE_OPEN_LINEAR)) {
		if (open_search(c, 0, 0))
			return -1;
		for (size_t i = 0; i < r->nlin; i++)
			if (r->lin[i].collapsed && r->lin[i].mean_ns > collapse)
				collapse = r->lin[i].mean_ns;
		if (collapse > 0 && !r->erase_assumed && r->nchunks >= 2 && r->chunks[0].ns > r->chunks[1].ns) {
			/* the card's write speed: the slope between the two largest sizes */
			double rate = (double)(r->chunks[0].size - r->chunks[1].size) * 1e9 /
				      (r->chunks[0].ns - r->chunks[1].ns);
			erase_write_check(&r->erase, collapse - r->write_ref, rate);
		}
		part_done(c, PHASE_OPEN_LINEAR);
	}
	if (phase_start(c, PHASE_OPEN_RANDOM)) {
		if (open_search(c, 1, collapse))
			return -1;
		part_done(c, PHASE_OPEN_RANDOM);
	}
	if (phase_start(c, PHASE_FAT)) {
		if (fat_phase(c))
			return -1;
		part_done(c, PHASE_FAT);
	}
	return 0;
}

/* ------------------------------------------------------------ the run */

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
	int rc;

	if (total < SPEED_REQUEST)
		return 0;
	c->phase = PHASE_READ;
	if (builtin_list(c, "read-speed", SPEED_REQUEST, (unsigned)(total / SPEED_REQUEST), var, val, 2, NULL, 0, &prog))
		return -1;
	if ((rc = run_step(c, prog, 0, &res)))
		return rc < 0 ? -1 : 0;
	c->r->read_bps = vm_throughput(&res->kid[0]); /* kid[0]: the one request size */
	vm_result_free(res);
	return 0;
}

/* Every write finding whose test did not run says why: a signal stopped
 * the run in c->phase (that part's findings and the later ones say
 * "interrupted"; the earlier ones are complete), or the bound was spent
 * before it.  Then the recommendations. */
static void finish(struct ctx *c, int rc)
{
	struct auto_report *r = c->r;
	struct finding *f[AUTO_PHASES] = { [PHASE_CACHE] = &r->cache_area, [PHASE_MIN_WRITE] = &r->min_write,
					   [PHASE_OPEN_LINEAR] = &r->open_linear,
					   [PHASE_OPEN_RANDOM] = &r->open_random, [PHASE_FAT] = &r->fat };
	char t[128];

	if (rc && c->o->stop && *c->o->stop && !c->findings_done) {
		r->interrupted = 1;
		r->stopped_in = c->phase;
		if (!(c->done & 1u << PHASE_READ)) { /* their titles, as the analysis gives them */
			analyze_page(r->rows, 0, r->bs, r->rows2, 0, r->bs2, &r->page, &r->levels);
			analyze_erase(r->scan, 0, &r->levels, r->rows, 0, dev_size(c->d), &r->erase);
			finding_not(&r->page, "interrupted: the run was stopped by a signal while measuring it");
			finding_not(&r->erase, "interrupted: the run was stopped by a signal while measuring it");
		}
	} else if (rc && c->o->stop && *c->o->stop) { /* only --summary's read speed was left */
		r->interrupted = 1;
		r->stopped_in = c->phase;
	}
	for (int p = PHASE_CACHE; p < AUTO_PHASES && c->writing && (!rc || r->interrupted); p++) {
		if (!f[p] || (c->done & 1u << p) || r->verdict == VERDICT_SSD_LIKE)
			continue;
		finding_init(f[p], f[p]->key, f[p]->title, f[p]->is_size);
		if (r->interrupted) {
			finding_not(f[p], "interrupted: the run was stopped by a signal %s",
				    p == (int)c->phase ? "while measuring it" : "before it was measured");
		} else {
			r->skipped |= 1u << p;
			finding_not(f[p], "not measured: %s was spent before this test", bound_text(c, t, sizeof(t)));
		}
	}
	if (!rc || r->interrupted)
		not_flash(c);
	calibrate_report(r, CAL_AUTO);
	recommend(&r->erase, &r->page, &r->min_write, &r->open_linear, dev_size(c->d), dev_sector(c->d), &r->rec);
}

/* The quick capacity check's share of the time left, as a part of the
 * plan whose weight is its usual device time (CHECK_WEIGHT s, like
 * phase_weight) against the write parts after it: 8 s of the default
 * bound, 3.8 s of the 16 s a --budget=20s leaves after the reads. */
#define CHECK_WEIGHT 8.0

static double check_share(const struct ctx *c)
{
	double w = CHECK_WEIGHT;

	if (c->b.ns <= 0)
		return 0;
	for (int p = PHASE_CACHE; p < AUTO_PHASES; p++)
		w += phase_weight[p];
	return fmax(0, c->b.ns - c->b.elapsed) * CHECK_WEIGHT / w;
}

int characterize(struct dev *d, const struct auto_options *o, struct auto_report *r, struct fb_err *e)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct write_plan plan;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!c)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	c->d = d;
	c->o = o;
	c->r = r;
	c->e = e;
	{ /* a file, or a loop device over one, is no flash medium */
		struct medium m;
		if (!medium_of(dev_path(d), &m) && m.kind == MEDIUM_FILE) {
			r->on_file = 1;
			snprintf(r->file_how, sizeof(r->file_how), "%s", m.how[0] ? m.how : "a file");
		}
	}
	r->budget_ns = o->budget_ns;
	r->read_bps = NAN;
	c->b.ns = o->budget_ns ? (double)o->budget_ns : o->write ? BUDGET_DEFAULT_NS : 0;
	phase_start(c, PHASE_READ);
	needs_write(&r->min_write, "min_write", "smallest efficient write", 1);
	needs_write(&r->open_linear, "open_linear", "open erase blocks, linear", 0);
	needs_write(&r->open_random, "open_random", "open erase blocks, random order", 0);
	needs_write(&r->fat, "fat_area", "FAT-optimised erase blocks at the start", 0);
	needs_write(&r->cache_area, "write_cache", "write cache or fast area", 1);
	finding_init(&r->page, "page", "page size (read unit)", 1);
	finding_init(&r->erase, "erase_block", "erase block size", 1);
	rc = read_phase(c);
	if (!rc) {
		data_evidence(r);
		c->done |= 1u << PHASE_READ;
		if (reads_show_nothing(r))
			no_flash_reads(r);
	}
	if (!rc && o->write) {
		rc = write_plan_start(c, &plan);
		if (!rc && o->before_writes && o->before_writes(o->ctx, &plan))
			rc = fb_fail(e, EXIT_DEVICE, "write tests cancelled");
		/* said and reserved: now the first write, the quick capacity check
		 * (on a fake card every write past its real size would land
		 * elsewhere); its device time, putting back included, is apart
		 * from the tests' own cost (it says its own) but inside the
		 * announced bound: the tests get what is left */
		if (!rc && o->capacity && plan.check_bytes) {
			double t0 = dev_now(d);
			c->writing = 1; /* a stop here: the write findings were not measured */
			rc = o->capacity(o->capacity_ctx, d, check_share(c), &r->check_bytes, e);
			r->stopped_in_check = rc && o->stop && *o->stop;
			r->check_ns = fmax(0, dev_now(d) - t0);
			c->b.elapsed += r->check_ns;
			/* the tests get the rest of the bound: what it was without
			 * the check, as the check is charged the most it may write */
			c->b.written += plan.check_bytes;
		}
		if (!rc) {
			c->writing = 1;
			rc = write_tests(c);
		}
	}
	if (!rc) {
		c->findings_done = 1;
		if (o->read_speed)
			rc = read_speed(c);
	}
	vm_free(c->held);
	finish(c, rc);
	free(c);
	return rc && !r->interrupted ? -1 : 0;
}
