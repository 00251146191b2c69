/* characterise.c — runs the --auto plan (see characterise.h). */
#include "characterise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "programs.h"
#include "vm.h"

#define MAX_SCAN_STEP MAX_ERASE_BLOCK  /* larger erase blocks are not sought */
#define WRITE_ROUNDS 16               /* chunks written to each erase block per trial */
#define TRIAL_REGION_AUS 64           /* erase blocks the write trials cycle through */

struct ctx {
	struct dev *d;
	const struct auto_options *o;
	struct auto_report *r;
	struct fb_err *e;
	uint64_t e_size;                  /* erase size the write tests use */
	uint64_t region, region_aus, cursor;
};

/* Run a program and account for it; the caller frees *res. */
/* progress across programs: add what earlier programs did */
static void progress_total(void *ctx, uint64_t done)
{
	struct ctx *c = ctx;
	c->o->progress(c->o->progress_ctx, c->r->reads + c->r->writes + done);
}

static int run(struct ctx *c, struct vm_op *prog, struct vm_result **res)
{
	struct vm_run how = { .stop = c->o->stop, .progress = c->o->progress ? progress_total : NULL,
			      .progress_ctx = c };
	struct vm_plan plan;
	int rc;

	*res = NULL;
	if (!prog)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	rc = vm_plan(prog, dev_size(c->d), dev_sector(c->d), &plan, c->e);
	how.plan = &plan;
	if (!rc)
		rc = vm_run(prog, c->d, &how, res, c->e);
	if (!rc) {
		c->r->device_ns += (*res)->st.total_ns;
		if (plan.bytes_written) {
			c->r->writes += plan.requests;
			c->r->bytes_written += plan.bytes_written;
			if (c->r->written_lo == c->r->written_hi || plan.write_lo < c->r->written_lo)
				c->r->written_lo = plan.write_lo;
			if (plan.write_hi > c->r->written_hi)
				c->r->written_hi = plan.write_hi;
		} else {
			c->r->reads += plan.requests;
		}
	}
	vm_free(prog);
	return rc;
}

/* A built-in program (scripts/programs/NAME.fbp) for blocks of bs bytes. */
static int builtin(struct ctx *c, const char *name, uint64_t bs, unsigned count, const char *var[],
		   const uint64_t val[], int nvar, struct vm_op **prog)
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
	return program_builtin(name, &v, prog, &format, c->e);
}

/* ------------------------------------------------------------ reads */

static int align_rows(struct ctx *c, uint64_t bs, unsigned count, struct align_row *rows, size_t *n)
{
	struct vm_result *res;
	struct vm_op *prog;
	const char *var[] = { "spacing" };
	uint64_t spacing = align_spacing(dev_size(c->d), MAX_SCAN_STEP);

	*n = 0;
	if (spacing < 2 * bs)
		return 0;
	if (builtin(c, "align", bs, count, var, &spacing, 1, &prog) || run(c, prog, &res))
		return -1;
	*n = align_rows_of(res, rows, AUTO_MAX_ROWS);
	vm_result_free(res);
	return 0;
}

static int boundary_scan(struct ctx *c, uint64_t bs, unsigned tries, uint64_t from)
{
	uint64_t to = (dev_size(c->d) - bs) / (SCAN_POINTS + 1);
	struct vm_result *res;
	struct vm_op *prog;
	const char *var[] = { "scan_from", "scan_to", "scan_points" };

	if (to > MAX_SCAN_STEP)
		to = MAX_SCAN_STEP;
	c->r->nscan = 0;
	if (from > to)
		return 0;
	const uint64_t val[] = { from, to, SCAN_POINTS };
	if (builtin(c, "boundary-scan", bs, tries, var, val, 3, &prog) || run(c, prog, &res))
		return -1;
	for (size_t i = 0; i < res->nkid && c->r->nscan < AUTO_MAX_LEVELS; i++) {
		struct scan_level *l = &c->r->scan[c->r->nscan++];
		const struct vm_result *pts = &res->kid[i];
		l->step = res->kid[i].unit;
		l->npoints = 0;
		for (size_t j = 0; j < pts->nkid && j < SCAN_POINTS; j++) {
			double best[3];
			crossing_of(result_descend(&pts->kid[j], 1), best, NULL);
			l->d[l->npoints++] = best[1] - (best[0] + best[2]) / 2;
		}
	}
	vm_result_free(res);
	return 0;
}

static int read_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t ss = dev_sector(c->d);

	r->bs = ss > 1024 ? ss : 1024;
	r->scan_tries = 4;
	r->bs2 = 4 * r->bs;
	if (align_rows(c, r->bs, 8, r->rows, &r->nrows) || align_rows(c, r->bs2, 4, r->rows2, &r->nrows2))
		return -1;
	analyze_page(r->rows, r->nrows, r->bs, r->rows2, r->nrows2, r->bs2, &r->page, &r->levels);
	{
		uint64_t from = r->levels.unit ? 2 * r->levels.unit : 64 << 10;
		if (from < 32 << 10)
			from = 32 << 10;
		if (boundary_scan(c, r->bs, 4, from))
			return -1;
		analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
		/* reads cross pages at a cost but no erase boundary showed: the
		 * probes may be too noisy; look once more, with four times the tries */
		if (r->page.determined && (!r->erase.determined || r->erase.conf == CONF_LOW)) {
			struct finding first = r->erase;
			r->scan_tries = 16;
			if (boundary_scan(c, r->bs, 16, from))
				return -1;
			analyze_erase(r->scan, r->nscan, &r->levels, r->rows, r->nrows, dev_size(c->d), &r->erase);
			if (first.determined && (!r->erase.determined || r->erase.conf < first.conf))
				r->erase = first;
		}
	}
	r->alignment_matters = r->page.determined || r->erase.determined;
	return 0;
}

/* ------------------------------------------------------------ writes */

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

/* Write `rounds` chunks to each of n erase blocks in turn (linear or
 * shuffled order inside each) and return the mean time per write of the
 * slowest erase block, after the first round (which pays for whatever the
 * previous test left open).  The slowest, because one erase block too many
 * in random order makes only that one pay for garbage collection. */
static int trial(struct ctx *c, uint64_t off, unsigned n, uint64_t chunk, int shuffled, double *mean)
{
	struct vm_result *res;
	struct vm_op *inner = vm_new(VM_OFF_LINEAR, (int64_t)c->e_size, n, VM_KEEP,
				     vm_new(VM_WRITE, 0, 0, 0, NULL), NULL);
	struct vm_op *order = shuffled ? vm_new(VM_OFF_SHUFFLE, (int64_t)(chunk * WRITE_ROUNDS), 7, VM_KEEP, inner, NULL)
				       : vm_new(VM_OFF_LINEAR, (int64_t)chunk, WRITE_ROUNDS, VM_KEEP, inner, NULL);
	struct vm_op *prog = vm_new(VM_OFF, (int64_t)off, 0, VM_KEEP,
				    vm_new(VM_PATTERN, 0x5a, 0, VM_KEEP,
					   vm_new(VM_UNIT_HALVE, (int64_t)chunk, (int64_t)chunk, VM_KEEP,
						  vm_new(VM_LEN_UNIT, 0, 0, VM_KEEP, order, NULL), NULL),
					   NULL),
				    NULL);
	const struct vm_result *rounds;

	if (run(c, prog, &res))
		return -1;
	rounds = result_descend(res, 4);
	*mean = 0;
	for (size_t a = 0; a < n; a++) {
		double sum = 0;
		uint64_t cnt = 0;
		for (size_t i = 1; i < rounds->nkid; i++)
			if (a < rounds->kid[i].nkid) {
				sum += rounds->kid[i].kid[a].st.total_ns;
				cnt += rounds->kid[i].kid[a].st.count;
			}
		if (cnt && sum / (double)cnt > *mean)
			*mean = sum / (double)cnt;
	}
	vm_result_free(res);
	return 0;
}

/* One chunk, linearly, to each of n fresh erase blocks: closes whatever the
 * last trial left open, so its random-order slots are free again. */
static int sweep(struct ctx *c, unsigned n, uint64_t chunk)
{
	struct vm_result *res;
	uint64_t off = take_aus(c, n);
	int rc = run(c, vm_new(VM_OFF, (int64_t)off, 0, 0,
			       vm_new(VM_LEN, (int64_t)chunk, 0, 0,
				      vm_new(VM_PATTERN, 0x5a, 0, 0,
					     vm_new(VM_OFF_LINEAR, (int64_t)c->e_size, n, 0,
						    vm_new(VM_WRITE, 0, 0, 0, NULL), NULL),
					     NULL),
				      NULL),
			       NULL),
		     &res);
	vm_result_free(res);
	return rc;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Chunks of halving size written one after another in fresh erase blocks. */
static int min_write_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t top = c->e_size < (1 << 20) ? c->e_size : 1 << 20, ss = dev_sector(c->d);
	uint64_t pos = take_aus(c, 1), end;
	uint64_t bottom = ss > 2048 ? ss : 2048;

	/* the stream needs about 8 * 2 * top bytes */
	end = pos + 16 * top + c->e_size;
	c->cursor += (end - pos) / c->e_size;
	r->nchunks = 0;
	for (uint64_t sz = top; sz >= bottom && sz % ss == 0 && r->nchunks < 32; sz /= 2) {
		struct vm_result *res;
		double v[8];
		size_t k = 0;
		if (run(c, vm_new(VM_OFF, (int64_t)pos, 0, VM_KEEP,
				  vm_new(VM_LEN, (int64_t)sz, 0, VM_KEEP,
					 vm_new(VM_PATTERN, 0x5a, 0, VM_KEEP,
						vm_new(VM_OFF_LINEAR, (int64_t)sz, 8, VM_KEEP,
						       vm_new(VM_WRITE, 0, 0, 0, NULL), NULL),
						NULL),
					 NULL),
				  NULL),
			&res))
			return -1;
		for (const struct vm_result *w = result_descend(res, 3); k < w->nkid && k < 8; k++)
			v[k] = w->kid[k].value;
		qsort(v, k, sizeof(v[0]), cmp_d);
		r->chunks[r->nchunks].size = sz;
		r->chunks[r->nchunks++].ns = k ? (v[(k - 1) / 2] + v[k / 2]) / 2 : 0;
		pos += 8 * sz;
		vm_result_free(res);
		if (sz % 2)
			break;
	}
	analyze_min_write(r->chunks, r->nchunks, &r->min_write);
	return 0;
}

/* Grow N until writes collapse, then confirm the knee once more. */
static int open_search(struct ctx *c, int shuffled, double collapse_level)
{
	struct auto_report *r = c->r;
	struct open_trial *t = shuffled ? r->rnd : r->lin;
	size_t *nt = shuffled ? &r->nrnd : &r->nlin;
	unsigned n, knee = 0;
	double mean, ref = r->write_ref;

	*nt = 0;
	for (n = 1; n <= AUTO_OPEN_LIMIT && *nt < AUTO_MAX_TRIALS; n++) {
		if (shuffled && sweep(c, AUTO_OPEN_LIMIT, r->trial_chunk))
			return -1;
		if (trial(c, take_aus(c, n), n, r->trial_chunk, shuffled, &mean))
			return -1;
		if (n == 1 && !shuffled)
			ref = r->write_ref = mean;
		t[*nt].n = n;
		t[*nt].mean_ns = mean;
		/* the first random-order trial is judged against linear writes,
		 * later ones against the first if it was healthy; both against
		 * the linear collapse when one was seen.  More random-order erase
		 * blocks than the card has slots make one of them pay for garbage
		 * collection while the others stay healthy, which may be a smaller
		 * step when erase blocks are small: 1.5x the first counts too. */
		t[*nt].collapsed = write_collapsed(mean, ref, collapse_level) || (shuffled && n > 1 && mean > 1.5 * ref);
		if (n == 1 && shuffled && !t[*nt].collapsed)
			ref = mean;
		if (t[(*nt)++].collapsed) {
			knee = n;
			break;
		}
	}
	/* confirm: the last healthy count and the first collapsed one again */
	for (unsigned k = knee > 1 ? knee - 1 : knee; knee && k <= knee && *nt < AUTO_MAX_TRIALS; k++) {
		if (sweep(c, AUTO_OPEN_LIMIT, r->trial_chunk) ||
		    trial(c, take_aus(c, k), k, r->trial_chunk, shuffled, &mean))
			return -1;
		t[*nt].n = k;
		t[*nt].mean_ns = mean;
		t[*nt].collapsed = write_collapsed(mean, k == 1 && shuffled ? r->write_ref : ref, collapse_level) ||
				   (shuffled && k > 1 && mean > 1.5 * ref);
		(*nt)++;
	}
	analyze_open(t, *nt, AUTO_OPEN_LIMIT, shuffled, r->trial_chunk, ref,
		     shuffled ? &r->open_random : &r->open_linear);
	return 0;
}

static int fat_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	size_t normal_run = 0;
	uint64_t limit = dev_size(c->d) / 4 / c->e_size;

	if (limit > AUTO_MAX_FAT)
		limit = AUTO_MAX_FAT;
	r->nfat = 0;
	for (uint64_t j = 0; j < limit; j++) {
		double mean;
		if (trial(c, j * c->e_size, 1, r->trial_chunk, 0, &mean))
			return -1;
		r->fat_ns[r->nfat++] = mean;
		normal_run = fabs(log(mean / r->write_ref)) < log(1.5) ? normal_run + 1 : 0;
		if (normal_run >= 2)
			break;
	}
	analyze_fat(r->fat_ns, r->nfat, r->write_ref, c->e_size, &r->fat);
	return 0;
}

static int write_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t size = dev_size(c->d), ss = dev_sector(c->d), chunk;
	uint64_t ranges[2][2];
	double collapse = 0;

	c->e_size = r->erase.determined ? r->erase.value : 4 << 20;
	r->erase_assumed = !r->erase.determined;
	r->write_erase = c->e_size;
	c->region = (size / 2 + c->e_size - 1) / c->e_size * c->e_size;
	c->region_aus = (size - c->region) / c->e_size;
	if (c->region_aus > TRIAL_REGION_AUS)
		c->region_aus = TRIAL_REGION_AUS;
	if (c->region_aus < 2 * AUTO_OPEN_LIMIT + 4)
		return fb_fail(c->e, EXIT_USAGE, "the device is too small for --auto --write with %llu-byte erase "
			       "blocks (it needs %llu erase blocks past its middle)", (unsigned long long)c->e_size,
			       (unsigned long long)(2 * AUTO_OPEN_LIMIT + 4));
	ranges[0][0] = 0;
	ranges[0][1] = (size / 4 / c->e_size < AUTO_MAX_FAT ? size / 4 / c->e_size : AUTO_MAX_FAT) * c->e_size;
	ranges[1][0] = c->region;
	ranges[1][1] = c->region + c->region_aus * c->e_size;
	if (c->o->before_writes && c->o->before_writes(c->o->ctx, (const uint64_t(*)[2])ranges))
		return fb_fail(c->e, EXIT_DEVICE, "write tests cancelled");

	if (min_write_phase(c))
		return -1;
	chunk = r->min_write.determined && r->min_write.conf >= CONF_MEDIUM ? r->min_write.value : 32 << 10;
	if (chunk < 16 << 10)
		chunk = 16 << 10;
	if (chunk > c->e_size / 32)
		chunk = c->e_size / 32;
	chunk = chunk / ss * ss;
	r->trial_chunk = chunk;
	if (open_search(c, 0, 0))
		return -1;
	for (size_t i = 0; i < r->nlin; i++)
		if (r->lin[i].collapsed && r->lin[i].mean_ns > collapse)
			collapse = r->lin[i].mean_ns;
	if (collapse > 0 && !r->erase_assumed && r->nchunks >= 2 && r->chunks[0].ns > r->chunks[1].ns) {
		/* the card's write speed: the slope between the two largest sizes */
		double rate = (double)(r->chunks[0].size - r->chunks[1].size) * 1e9 / (r->chunks[0].ns - r->chunks[1].ns);
		erase_write_check(&r->erase, collapse - r->write_ref, rate);
	}
	if (open_search(c, 1, collapse) || fat_phase(c))
		return -1;
	if (r->erase_assumed) { /* counted in stand-in erase blocks */
		struct finding *f[3] = { &r->open_linear, &r->open_random, &r->fat };
		for (int i = 0; i < 3; i++)
			if (f[i]->determined && f[i]->conf > CONF_LOW)
				f[i]->conf = CONF_LOW;
	}
	return 0;
}

static void needs_write(struct finding *f, const char *key, const char *title, int is_size)
{
	finding_init(f, key, title, is_size);
	finding_not(f, "needs --write (write tests overwrite data)");
}

int characterise(struct dev *d, const struct auto_options *o, struct auto_report *r, struct fb_err *e)
{
	struct ctx c = { .d = d, .o = o, .r = r, .e = e };

	memset(r, 0, sizeof(*r));
	needs_write(&r->min_write, "min_write", "smallest efficient write", 1);
	needs_write(&r->open_linear, "open_linear", "open erase blocks, linear", 0);
	needs_write(&r->open_random, "open_random", "open erase blocks, random order", 0);
	needs_write(&r->fat, "fat_area", "FAT-optimised erase blocks at the start", 0);
	if (read_phase(&c))
		return -1;
	if (o->write && write_phase(&c))
		return -1;
	recommend(&r->erase, &r->page, &r->min_write, &r->open_linear, dev_size(d), dev_sector(d), &r->rec);
	return 0;
}
