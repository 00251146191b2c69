/* rating.c — runs the --rating plan (see rating.h): the places, the
 * announcement, the programs (scripts/programs/rating-*.fbp) and what each
 * measured; the verdicts are rating_verdict.c's. */
#include "auto/rating.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"
#include "prog/programs.h"
#include "vm.h"

#define PW_BUDGET (256ull << 20) /* the Pw test writes about this much */
#define MIN_AUS 8                /* ... in at least this many AUs */
#define ASSUMED_AU (16ull << 20) /* whole AUs of 4, 8 and 16 MiB when none is known */
#define MAX_AU (64ull << 20)     /* the largest AU (SDXC); larger video AUs are tested in 64 MiB */
#define VIDEO_SU (8ull << 20)    /* the video SU of most AU sizes (table 4-56) */
#define IOPS_READS 4096u         /* requests planned per IOPS run (each bounded in time) */
#define IOPS_WRITES 2048u
#define IOPS_LEN 4096u
#define FAT_AT (1ull << 20)        /* the FAT update cycles write at 1, 2 and 3 MiB */
#define MAX_SUSTAINED (4ull << 30) /* the long recording's default bound */

const char *const rating_verdict_name[3] = { "meets", "fails", "untestable" };

struct ctx {
	struct dev *d;
	const struct rating_options *o;
	struct rating_report *r;
	struct fb_err *e;
	uint64_t done;
	uint64_t rng;
	unsigned part;  /* the part running, 1 to 5 (progress) */
};

/* The device time a part moving this many bytes may take. */
static double bound(uint64_t bytes)
{
	return (double)bytes * 1e9 / RATING_SLOWEST + SD_PREPARE_NS;
}

static double now_ns(const struct ctx *c)
{
	return dev_now(c->d);
}

static uint64_t draw(struct ctx *c)
{
	uint64_t z = c->rng += 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The share is the device time spent of the estimate (rating.h); past it
 * the part runs late. */
static void progress_total(void *ctx, uint64_t done)
{
	static const char *const part[6] = { "", "Pr (random reads)", "Pw (AUs written)", "FAT updates",
					     "random 4KiB", "the recording" };
	struct ctx *c = ctx;
	double spent = now_ns(c) - c->r->clock0;
	struct progress_now now = { .done = c->done + done, .part = part[c->part], .part_no = c->part, .parts = 5,
				    .share = -1 };

	if (c->r->estimate_ns > 0) {
		now.share = fmin(0.99, spent / c->r->estimate_ns);
		now.late = spent > c->r->estimate_ns;
	}
	c->o->progress(c->o->progress_ctx, &now);
}

/* What a run of a built-in program is given. */
struct step {
	const char *name;
	uint64_t blocksize, erasesize, offset;
	unsigned count;
	const int64_t *list;
	size_t n;
	struct {
		const char *name;
		uint64_t value;
	} var[3];
	double deadline; /* ns of device time (0: none) */
	int *deadline_hit;
};

/* Run a built-in program; the caller frees *res (NULL: not wanted). */
static int run(struct ctx *c, const struct step *s, struct vm_result **res)
{
	struct vm_run how = { .stop = c->o->stop,
			      .progress = c->o->progress ? progress_total : NULL,
			      .progress_ctx = c,
			      .deadline_ns = s->deadline,
			      .deadline_hit = s->deadline_hit,
			      .keep_partial = s->deadline > 0 };
	struct test_params t;
	struct prog_vars v;
	struct vm_plan plan;
	struct vm_result *out = NULL;
	struct vm_op *prog = NULL;
	const char *format;
	int rc, hit = 0;

	if (res)
		*res = NULL;
	test_defaults(&t);
	t.blocksize = s->blocksize;
	t.erasesize = s->erasesize ? s->erasesize : s->blocksize;
	t.offset = s->offset;
	t.count = s->count;
	t.pattern = 0x5a;
	program_vars(&t, dev_size(c->d), dev_sector(c->d), &v);
	if (s->list)
		prog_vars_set_list(&v, "offsets", s->list, s->n);
	for (size_t i = 0; i < sizeof(s->var) / sizeof(s->var[0]) && s->var[i].name; i++)
		prog_vars_set(&v, s->var[i].name, s->var[i].value);
	if (!how.deadline_hit)
		how.deadline_hit = &hit;
	rc = program_builtin(s->name, &v, &prog, &format, c->e) ||
	     vm_plan(prog, dev_size(c->d), dev_sector(c->d), &plan, c->e);
	how.plan = &plan;
	if (!rc)
		rc = vm_run(prog, c->d, &how, &out, c->e);
	if (rc && *how.deadline_hit && out) /* stopped at its time bound: what ran counts */
		rc = 0;
	vm_free(prog);
	if (rc) {
		vm_result_free(out);
		return -1;
	}
	c->done += plan.requests;
	if (plan.bytes_written) {
		c->r->writes += out->st.count;
		c->r->bytes_written += out->st.bytes;
	} else {
		c->r->reads += out->st.count;
	}
	if (res)
		*res = out;
	else
		vm_result_free(out);
	return 0;
}

/* The node of the i-th offset of a rating-au or rating-read tree. */
static const struct vm_result *item(const struct vm_result *root, unsigned depth, size_t i)
{
	const struct vm_result *n = root;

	for (unsigned k = 0; n && k < depth; k++)
		n = n->nkid ? &n->kid[0] : NULL;
	return n && i < n->nkid ? &n->kid[i] : NULL;
}

/* ------------------------------------------------------------ the plan */

static uint64_t align_down(uint64_t x, uint64_t a)
{
	return x / a * a;
}

/* The AU to write whole: -e, the SD Status (the largest of the AUs its
 * claims are measured in), the kernel's preferred erase size, or 16 MiB
 * groups (whole AUs of 4, 8 and 16 MiB). */
static void choose_au(struct ctx *c)
{
	struct rating_report *r = c->r;
	uint64_t au = 0,
		 su = r->has_ssr && r->ssr.su_mib ? (uint64_t)r->ssr.su_mib << 20 : VIDEO_SU;
	int video = r->claimed[SD_FAMILY_VIDEO] || r->label[SD_FAMILY_VIDEO];

	if (c->o->au) {
		au = c->o->au;
		r->au_from = "-e";
	} else if (r->has_ssr) {
		/* the largest AU a claimed grade writes in, named as the card
		 * names it: the basic AU, the UHS or the video speed class's */
		static const char *const from[SD_FAMILIES] = {
			[SD_FAMILY_UHS] = "the SD Status's UHS AU", [SD_FAMILY_VIDEO] = "the SD Status's video AU",
		};
		r->au_from = "the SD Status's AU";
		for (int f = 0; f < SD_FAMILIES; f++) {
			uint64_t a = r->claimed[f] ? sd_ssr_au_for(&r->ssr, r->claimed[f]) : 0;
			if (a > au)
				r->au_from = a != r->ssr.au && from[f] ? from[f] : "the SD Status's AU";
			au = a > au ? a : au;
		}
		if (!au)
			au = r->ssr.au;
	}
	if (!au && r->card.preferred_erase >= SD_RU) {
		au = r->card.preferred_erase;
		r->au_from = "the kernel's preferred_erase_size";
	}
	if (!au) {
		au = ASSUMED_AU;
		r->au_from = "assumed: none is known, and 16MiB holds whole AUs of 4, 8 and 16MiB";
	}
	if (au > MAX_AU)
		au = MAX_AU;
	au = au < SD_RU ? SD_RU : align_down(au, SD_RU);
	if (video && au % su) /* whole video SUs too */
		au = au / size_gcd(au, su) * su;
	if (au > MAX_AU)
		au = align_down(MAX_AU, su);
	r->au = au;
	r->su = su;
	r->ru = SD_RU;
}

/* One AU in each of n strata above the FAT test's zone, at a place drawn
 * in its stratum. */
static void place_aus(struct ctx *c)
{
	struct rating_report *r = c->r;
	uint64_t lo = align_down(FAT_AT * 4 + r->au - 1, r->au) + r->au,
		 aus = (r->size - lo) / r->au;
	uint64_t n = PW_BUDGET / r->au;

	if (n < MIN_AUS)
		n = MIN_AUS;
	if (n > RATING_MAX_AUS)
		n = RATING_MAX_AUS;
	if (n > aus / 4)
		n = aus / 4 ? aus / 4 : 1;
	r->naus = (unsigned)n;
	for (uint64_t j = 0; j < n; j++) {
		uint64_t a = aus * j / n, b = aus * (j + 1) / n;
		r->aus[j].off = lo + (a + (b > a ? draw(c) % (b - a) : 0)) * r->au;
	}
}

static void plan(struct ctx *c)
{
	struct rating_report *r = c->r;
	uint64_t len = c->o->sustained;

	choose_au(c);
	place_aus(c);
	/* the IOPS region: 256 MiB from a 4 KiB place drawn in the second quarter */
	r->iops_off = align_down(r->size / 4 + draw(c) % (r->size / 4), IOPS_LEN);
	if (r->iops_off + RATING_IOPS_SPAN > r->size)
		r->iops_off = r->size > RATING_IOPS_SPAN
				      ? align_down(r->size - RATING_IOPS_SPAN, IOPS_LEN)
				      : 0;
	r->iops_reads = IOPS_READS;
	r->iops_writes = IOPS_WRITES;
	/* the long recording: 1 GiB, or twice the cache --auto saw; its
	 * place is drawn in the upper half */
	if (!len) {
		len = RATING_SUSTAINED;
		if (c->o->cache_hint * 2 > len)
			len = c->o->cache_hint * 2 < MAX_SUSTAINED ? c->o->cache_hint * 2
								   : MAX_SUSTAINED;
	}
	if (len > r->size / 2)
		len = r->size / 2;
	r->sus_len = align_down(len, SD_SUB_UNIT);
	r->sus_off = align_down(r->size / 2 + draw(c) % (r->size / 2 - r->sus_len + 1), r->au);
	if (r->sus_off + r->sus_len > r->size)
		r->sus_off = align_down(r->size - r->sus_len, SD_SUB_UNIT);
	r->fat_off = FAT_AT;
	r->sus_bytes = r->sus_len;
	r->max_bytes = (uint64_t)r->naus * r->au + r->au +
		       RATING_FAT_CYCLES * ((32u << 10) + r->sector) +
		       2ull * r->iops_writes * IOPS_LEN + r->sus_len;
	{ /* the time: every part's bound; the estimate at a typical card's speed */
		uint64_t pr = (uint64_t)RATING_PR_READS * SD_RU, other = r->max_bytes - r->sus_len + pr;
		uint64_t iops = 2ull * r->iops_writes * IOPS_LEN;
		r->sus_bound_ns = bound(r->sus_len);
		r->bound_ns = (double)other * 1e9 / RATING_SLOWEST + (2 + RATING_FAT_CYCLES) * SD_PREPARE_NS +
			      4 * RATING_IOPS_TIME + r->sus_bound_ns;
		r->sus_estimate_ns = (double)r->sus_len * 1e9 / RATING_TYPICAL;
		r->estimate_ns = (double)(other - iops) * 1e9 / RATING_TYPICAL + 4 * RATING_IOPS_TIME +
				 r->sus_estimate_ns;
	}
}

/* ------------------------------------------------------------ measuring */

/* Free the places about to be written, where the device discards. */
static int discard(struct ctx *c, const int64_t *off, size_t n, uint64_t len)
{
	struct step s = {
		.name = "rating-discard", .blocksize = len, .erasesize = len, .list = off, .n = n
	};

	if (!(dev_caps(c->d) & DEV_CAP_DISCARD))
		return 0;
	return run(c, &s, NULL);
}

/* The speeds of one recording's writes: per unit of `unit` bytes (the
 * first write's preparation beyond the typical write, up to 1 s, set
 * aside), its slowest unit, its longest write. */
struct recording {
	double *unit_speed; /* NULL: not wanted */
	unsigned nunits;
	double low, busy, prepare, speed;
	uint64_t low_at;
};

static double median_write(const struct vm_result *rec)
{
	double v[64];
	size_t n = rec->nkid < 64 ? rec->nkid : 64;

	for (size_t i = 0; i < n; i++)
		v[i] = (double)rec->kid[i].st.total_ns;
	return analyze_median(v, n);
}

static void read_recording(const struct vm_result *rec, uint64_t ru, uint64_t unit,
			   unsigned max_units, struct recording *out)
{
	double typical = median_write(rec), in_unit = 0, total = 0;
	uint64_t pos = 0;
	unsigned k = 0;

	out->nunits = 0;
	out->low = INFINITY;
	out->busy = out->prepare = 0;
	for (size_t i = 0; i < rec->nkid; i++) {
		double t = rec->kid[i].st.total_ns;
		if (i == 0 && t > typical) { /* preparation (4.13.3.4): up to 1 s not counted */
			double extra = t - typical > SD_PREPARE_NS ? SD_PREPARE_NS : t - typical;
			out->prepare = t - typical;
			t -= extra;
		}
		if (t > out->busy)
			out->busy = t;
		in_unit += t;
		total += t;
		pos += ru;
		if (pos % unit == 0) {
			double speed = (double)unit * 1e9 / in_unit;
			if (out->unit_speed && k < max_units)
				out->unit_speed[k] = speed;
			if (speed < out->low) {
				out->low = speed;
				out->low_at = pos - unit;
			}
			k++;
			in_unit = 0;
		}
	}
	out->nunits = k < max_units ? k : max_units;
	out->speed = total > 0 ? (double)pos * 1e9 / total : 0;
	if (!k)
		out->low = 0;
}

/* Pr: 256 reads of single RUs at random places. */
static int measure_pr(struct ctx *c)
{
	struct rating_report *r = c->r;
	int64_t off[RATING_PR_READS];
	int hit = 0;
	struct step s = { .name = "rating-read", .blocksize = SD_RU, .list = off, .n = RATING_PR_READS,
			  .deadline = bound((uint64_t)RATING_PR_READS * SD_RU), .deadline_hit = &hit };
	struct vm_result *res;
	uint64_t rus = r->size / SD_RU;

	for (unsigned i = 0; i < RATING_PR_READS; i++)
		off[i] = (int64_t)((draw(c) % rus) * SD_RU);
	if (run(c, &s, &res))
		return -1;
	r->pr = res->st.total_ns > 0 ? (double)res->st.bytes * 1e9 / res->st.total_ns : 0;
	r->pr_low = res->st.max_ns ? (double)SD_RU * 1e9 / (double)res->st.max_ns : 0;
	r->read_speed = res->st.min_ns ? (double)SD_RU * 1e9 / (double)res->st.min_ns : 0;
	r->cut_short |= hit ? 1u : 0;
	vm_result_free(res);
	return 0;
}

/* Pw: the AUs, each freed and written whole in RUs. */
static int measure_pw(struct ctx *c)
{
	struct rating_report *r = c->r;
	int64_t off[RATING_MAX_AUS];
	int hit = 0;
	struct step s = { .name = "rating-au",
			  .blocksize = SD_RU,
			  .list = off,
			  .n = r->naus,
			  .count = (unsigned)(r->au / SD_RU),
			  .deadline = bound((uint64_t)r->naus * r->au),
			  .deadline_hit = &hit };
	struct vm_result *res;
	uint64_t unit = r->au < SD_SUB_UNIT ? r->au : SD_SUB_UNIT;

	for (unsigned i = 0; i < r->naus; i++)
		off[i] = (int64_t)r->aus[i].off;
	r->discarded = (dev_caps(c->d) & DEV_CAP_DISCARD) != 0;
	if (discard(c, off, r->naus, r->au) || run(c, &s, &res))
		return -1;
	r->cut_short |= hit ? 2u : 0;
	r->pw4 = r->pw_su = INFINITY;
	for (unsigned i = 0; i < r->naus; i++) {
		const struct vm_result *rec = item(res, 2, i);
		struct rating_au *a = &r->aus[i];
		struct recording w = { .unit_speed = a->unit }, v = { 0 };
		if (!rec)
			continue;
		read_recording(rec, SD_RU, unit, RATING_MAX_UNITS, &w);
		a->nunits = w.nunits;
		a->busy = w.busy;
		a->prepare = w.prepare;
		a->speed = w.speed;
		if (w.low < r->pw4) {
			r->pw4 = w.low;
			r->pw4_at = a->off + w.low_at;
		}
		if (w.busy > r->busy) {
			r->busy = w.busy;
			r->busy_at = a->off;
		}
		if (r->au % r->su == 0) {
			read_recording(rec, SD_RU, r->su, 0, &v);
			a->su_low = v.low;
			if (v.low < r->pw_su) {
				r->pw_su = v.low;
				r->pw_su_at = a->off + v.low_at;
			}
		}
	}
	if (r->pw_su == INFINITY)
		r->pw_su = 0;
	if (r->pw4 == INFINITY)
		r->pw4 = 0;
	vm_result_free(res);
	return 0;
}

/* FAT: a recording in the first AU of the test, a FAT update cycle after
 * each eighth of it. */
static int measure_fat(struct ctx *c)
{
	struct rating_report *r = c->r;
	int64_t at = (int64_t)r->aus[0].off;
	uint64_t step = r->au / RATING_FAT_CYCLES < SD_RU ? SD_RU : r->au / RATING_FAT_CYCLES;
	double t[RATING_FAT_CYCLES];
	int hit = 0;

	if (discard(c, &at, 1, r->au))
		return -1;
	r->fat_avg = r->fat_max = 0;
	for (unsigned i = 0; i < RATING_FAT_CYCLES; i++) {
		struct step s = { .name = "rating-fat",
				  .blocksize = SD_RU,
				  .offset = r->aus[0].off + i * step,
				  .count = (unsigned)(step / SD_RU),
				  .var = { { "fat_at", r->fat_off + i * (32u << 10) } },
				  .deadline = bound(step),
				  .deadline_hit = &hit };
		struct vm_result *res;
		const struct vm_result *cycle;
		if ((uint64_t)(i + 1) * step > r->au) {
			t[i] = 0;
			continue;
		}
		if (run(c, &s, &res))
			return -1;
		cycle = res->nkid && res->kid[0].nkid > 1 ? &res->kid[0].kid[1] : NULL;
		t[i] = cycle ? cycle->st.total_ns : 0;
		vm_result_free(res);
		if (t[i] > r->fat_max)
			r->fat_max = t[i];
	}
	r->cut_short |= hit ? 4u : 0;
	{ /* 8 cycles: their average is the sliding average's one window */
		double sum = 0;
		for (unsigned i = 0; i < RATING_FAT_CYCLES; i++)
			sum += t[i];
		r->fat_avg = sum / RATING_FAT_CYCLES;
	}
	return 0;
}

/* Random 4 KiB requests in the 256 MiB region, distinct places in a
 * permuted order, `depth` in flight, bounded in time. */
static int iops(struct ctx *c, int writes, unsigned depth, double *rate, unsigned *count)
{
	struct rating_report *r = c->r;
	unsigned n = writes ? r->iops_writes : r->iops_reads,
		 slots = (unsigned)(RATING_IOPS_SPAN / IOPS_LEN);
	uint64_t a = (draw(c) | 1) % slots, b = draw(c) % slots;
	int64_t *off = malloc(n * sizeof(*off));
	struct step s = { .name = depth > 1 ? (writes ? "rating-queue-write" : "rating-queue-read")
					    : (writes ? "rating-iops-write" : "rating-iops-read"),
			  .blocksize = IOPS_LEN,
			  .n = n,
			  .var = { { "depth", depth } },
			  .deadline = RATING_IOPS_TIME };
	struct vm_result *res;
	int rc;

	if (!off)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	while (slots > 1 &&
	       (uint64_t)slots * IOPS_LEN > r->size - r->iops_off) /* a power of two that fits */
		slots /= 2;
	r->iops_span = (uint64_t)slots * IOPS_LEN;
	a = (a | 1) % slots;
	b %= slots;
	for (unsigned i = 0; i < n; i++) /* an odd multiplier mod a power of two: each slot once */
		off[i] = (int64_t)(r->iops_off + ((a * i + b) % slots) * IOPS_LEN);
	s.list = off;
	rc = run(c, &s, &res);
	free(off);
	if (rc)
		return -1;
	*count = (unsigned)res->st.count;
	*rate = res->st.total_ns > 0 ? (double)res->st.count * 1e9 / res->st.total_ns : 0;
	if (res->st.count < n)
		r->iops_bounded = 1;
	vm_result_free(res);
	return 0;
}

/* Too slow one at a time for a queue to show anything in its time bound
 * (fewer than two queues' worth of requests in it): the queued run is
 * not made, and its rate is at most the depth times this one. */
static int too_slow(double rate)
{
	return rate * RATING_IOPS_TIME / 1e9 < 2.0 * RATING_QUEUE_DEPTH;
}

static int measure_iops(struct ctx *c)
{
	struct rating_report *r = c->r;

	if (iops(c, 0, 1, &r->riops1, &r->riops_n[0]))
		return -1;
	if (too_slow(r->riops1)) {
		r->riops_q = r->riops1 * RATING_QUEUE_DEPTH;
		r->queued_skipped |= 1;
	} else if (iops(c, 0, RATING_QUEUE_DEPTH, &r->riops_q, &r->riops_n[1])) {
		return -1;
	}
	if (iops(c, 1, 1, &r->wiops1, &r->wiops_n[0]))
		return -1;
	if (too_slow(r->wiops1)) {
		r->wiops_q = r->wiops1 * RATING_QUEUE_DEPTH;
		r->queued_skipped |= 2;
	} else if (iops(c, 1, RATING_QUEUE_DEPTH, &r->wiops_q, &r->wiops_n[1])) {
		if (!strstr(c->e->msg, "journal cannot see queued writes"))
			return -1;
		r->queued_writes_refused = 1; /* a journal's layer that sees no queued writes */
		r->wiops_q = 0;
	}
	return 0;
}

/* The long recording: freed, written in RUs, its speed per 4 MiB. */
static int measure_sustained(struct ctx *c)
{
	struct rating_report *r = c->r;
	int64_t off = (int64_t)r->sus_off;
	int hit = 0;
	struct step s = { .name = "rating-au",
			  .blocksize = SD_RU,
			  .list = &off,
			  .n = 1,
			  .count = (unsigned)(r->sus_len / SD_RU),
			  .deadline = bound(r->sus_len),
			  .deadline_hit = &hit };
	struct vm_result *res;
	const struct vm_result *rec;
	struct recording w = { 0 }, v = { 0 }, g = { 0 };
	double t0 = now_ns(c);
	unsigned q;

	r->nsus = (unsigned)(r->sus_len / SD_SUB_UNIT);
	if (!(r->sus_speed = calloc(r->nsus ? r->nsus : 1, sizeof(double))))
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	w.unit_speed = r->sus_speed;
	if (discard(c, &off, 1, r->sus_len) || run(c, &s, &res))
		return -1;
	r->sus_ns = now_ns(c) - t0;
	r->cut_short |= hit ? 16u : 0;
	if (!(rec = item(res, 2, 0))) {
		vm_result_free(res);
		return fb_fail(c->e, EXIT_DEVICE, "the long recording left no results");
	}
	read_recording(rec, SD_RU, SD_SUB_UNIT, r->nsus, &w);
	read_recording(rec, SD_RU, r->su, 0, &v);
	r->nsus = w.nunits;
	r->sus_busy = w.busy;
	r->sus_low4 = w.low;
	r->sus_low_at = w.low_at;
	r->sus_low_su = v.low;
	/* PSSw: its slowest 1 GiB (4 MiB writes in the spec; the same bytes) */
	read_recording(rec, SD_RU, r->sus_len < (1ull << 30) ? r->sus_len : 1ull << 30, 0, &g);
	r->pssw = g.low;
	q = r->nsus / 4 ? r->nsus / 4 : 1;
	{
		double first = 0, last = 0;
		for (unsigned i = 0; i < q && i < r->nsus; i++) {
			first += SD_SUB_UNIT * 1e9 / r->sus_speed[i];
			last += SD_SUB_UNIT * 1e9 / r->sus_speed[r->nsus - 1 - i];
		}
		r->sus_first_avg = first > 0 ? q * (double)SD_SUB_UNIT * 1e9 / first : 0;
		r->sus_last_avg = last > 0 ? q * (double)SD_SUB_UNIT * 1e9 / last : 0;
	}
	vm_result_free(res);
	return 0;
}

/* ------------------------------------------------------------ the card's word */

static void read_card(struct ctx *c)
{
	struct rating_report *r = c->r;

	dev_card(c->d, &r->card);
	r->has_ssr = r->card.ssr[0] && !sd_decode_ssr(r->card.ssr, &r->ssr) && !r->ssr.blank;
	if (r->has_ssr)
		sd_ssr_claims(&r->ssr, r->claimed);
	memcpy(r->label, c->o->claim, sizeof(r->label));
}

int rating_parse_claims(const char *text, const struct sd_mark *out[SD_FAMILIES], struct fb_err *e)
{
	char copy[256], *save = NULL;

	for (int f = 0; f < SD_FAMILIES; f++)
		out[f] = NULL;
	if (strlen(text) >= sizeof(copy))
		return fb_fail(e, EXIT_USAGE,
			       "--claim=%.40s...: too long (marks such as C10,U3,V30,A2)", text);
	strcpy(copy, text);
	for (char *w = strtok_r(copy, ",+ ", &save); w; w = strtok_r(NULL, ",+ ", &save)) {
		const struct sd_mark *m = sd_mark_find(w);
		if (!m)
			return fb_fail(e, EXIT_USAGE,
				       "--claim: '%s' is no mark (C2 C4 C6 C10 U1 U3 V6 V10 V30 "
				       "V60 V90 A1 "
				       "A2, as printed on the label, comma-separated)",
				       w);
		if (!out[m->family] || out[m->family]->level < m->level)
			out[m->family] = m;
	}
	return 0;
}

/* ------------------------------------------------------------ the check */

void rating_account(struct rating_report *r, const struct dev *d)
{
	r->device_ns = dev_now(d) - r->clock0;
}

void rating_free(struct rating_report *r)
{
	free(r->sus_speed);
	r->sus_speed = NULL;
}

int rating_check(struct dev *d, const struct rating_options *o, struct rating_report *r,
		 struct fb_err *e)
{
	struct ctx c = { .d = d, .o = o, .r = r, .e = e };

	memset(r, 0, sizeof(*r));
	r->size = dev_size(d);
	r->sector = dev_sector(d);
	r->virtual_clock = dev_clock(d) >= 0;
	r->clock0 = dev_now(d);
	c.rng = o->seed ? o->seed : r->size * 0x2545f4914f6cdd1dULL;
	if (r->size < RATING_MIN_SIZE)
		return fb_fail(e, EXIT_USAGE,
			       "%s has %llu bytes: --rating checks devices of 64MiB or more",
			       dev_path(d), (unsigned long long)r->size);
	read_card(&c);
	plan(&c);
	if (o->before_writes && o->before_writes(o->ctx, r, e))
		return -1;
	{
		int (*const phase[5])(struct ctx *) = { measure_pr, measure_pw, measure_fat,
							measure_iops, measure_sustained };
		for (int i = 0; i < 5; i++) {
			double t0 = now_ns(&c);
			c.part = (unsigned)i + 1;
			if (phase[i](&c))
				return -1;
			r->phase_ns[i] = now_ns(&c) - t0;
		}
	}
	rating_judge(r);
	return 0;
}
