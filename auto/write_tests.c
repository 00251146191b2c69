/* write_tests.c — the write tests of --auto --write, in the order they run
 * (plan.h): the write-cache and fast-area probe, the minimum-write sweep,
 * the open-AU searches (linear and random order) and the FAT-area probe.
 * Every step is one program run through run_step, which keeps the run
 * within its announced bound: a step the bound does not allow is not run,
 * and the test ends there (its finding says so). */
#include "auto/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "lib/units.h"
#include "prog/results.h"
#include "vm.h"

#define WRITE_ROUNDS 16               /* chunks written to each erase block per trial */
#define CACHE_CHUNK (64 << 10)        /* the cache probe's writes */
#define CACHE_WRITES 32               /* how many it times in one erase block */
/* The largest write cache sought.  Card and stick controllers buffer in
 * on-chip RAM (tens of KiB to a few MiB); eMMC and some USB bridges report
 * caches of a few to tens of MiB, and TLC sticks put a pSLC area of tens of
 * MiB in front of their flash.  Ruling out a cache means one burst longer
 * than it: 64 MiB costs a few seconds at 10-20 MB/s, and only on cards where
 * garbage collection did not show at once (many open erase blocks, or a
 * cache).  A larger one cannot be told from none; what lies behind it is not
 * determined. */
#define CACHE_MAX (64ULL << 20)
/* A step of the burst writes as much again as the burst so far, at most
 * this much: a fast area that ends early in a step is not followed by
 * tens of MiB more. */
#define CACHE_STEP_MAX (8ULL << 20)
/* A burst that slowed down for good on a card with no cache: the rest
 * after which it is timed again (ns): cards that throttle when hot cool
 * down in seconds */
#define SLOWDOWN_REST 5e9

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* n writes each as slow as the slowest write seen so far (the cautious
 * estimate: any of them may pay for garbage collection) */
static double cautious(const struct ctx *c, uint64_t n)
{
	return budget_estimate(&c->b, n, fmax(c->b.worst_write, c->b.write_floor), 0);
}

double linear_estimate(const struct ctx *c, uint64_t n, uint64_t len)
{
	double per = c->lin_chunk ? c->lin_write * fmax(1, (double)len / (double)c->lin_chunk)
				  : c->b.fast_write_per_byte * (double)len;

	return budget_estimate(&c->b, n, 2 * per, 0);
}

/* One round (the program NAME): a chunk to each of n erase blocks in turn,
 * each at its own offset; t[a] gets the time of each write.  0, 1 (the
 * bound refused it), -1. */
static int write_round(struct ctx *c, const char *name, const int64_t *off, unsigned n, uint64_t chunk, double *t)
{
	struct vm_result *res;
	const struct vm_result *ws;
	int rc = write_at(c, name, chunk, off, n, cautious(c, n), &res);

	if (rc)
		return rc;
	ws = result_descend(res, 2);
	for (unsigned a = 0; a < n; a++)
		t[a] = a < ws->nkid ? ws->kid[a].value : 0;
	vm_result_free(res);
	return 0;
}

/* ------------------------------------------------------------ cache */

/* Writes of `chunk` bytes: `per` linear ones from the start of each of
 * `aus` erase blocks `stride` apart from off; their times are appended to
 * *t (of *n, room for *cap).  0, 1 (refused), -1. */
static int cache_burst(struct ctx *c, uint64_t off, uint64_t stride, uint64_t aus, uint64_t per, uint64_t chunk,
		       double est_ns, double **t, size_t *n, size_t *cap)
{
	struct vm_result *res;
	const struct vm_result *au;
	struct vm_op *prog;
	const char *var[] = { "offset", "erasesize", "burst_aus", "burst_chunks" };
	const uint64_t val[] = { off, stride, aus, per };
	int rc;

	if (*n + aus * per > *cap) {
		size_t want = (*n + aus * per) * 2;
		double *m = realloc(*t, want * sizeof(**t));
		if (!m)
			return fb_fail(c->e, EXIT_DEVICE, "out of memory");
		*t = m;
		*cap = want;
	}
	if (builtin_list(c, "write-cache", chunk, 0, var, val, 4, NULL, 0, &prog))
		return -1;
	if ((rc = run_step(c, prog, est_ns, &res)))
		return rc;
	au = result_descend(res, 3);
	for (size_t a = 0; a < au->nkid; a++)
		for (size_t w = 0; w < au->kid[a].nkid; w++)
			(*t)[(*n)++] = au->kid[a].kid[w].value;
	vm_result_free(res);
	return 0;
}

/* The median of the last writes of a burst: the speed writes settled at. */
static double settled(const double *t, size_t n)
{
	size_t k = n / 4 ? n / 4 : n;
	double *v = malloc((k ? k : 1) * sizeof(*v)), m = 0;

	if (v && k) {
		memcpy(v, t + n - k, k * sizeof(*v));
		qsort(v, k, sizeof(*v), cmp_d);
		m = v[k / 2];
	}
	free(v);
	return m;
}

/* Behind a burst that went slow: is the fast stretch a queue the flash
 * works off later (a RAM cache: writes time the work queued before them,
 * so every measurement needs a warm-up of its own kind), or an area that
 * took the first writes fast and now lets every write go to the flash as
 * it comes (pseudo-SLC in front of TLC: writes are timed as they are, no
 * warm-up)?  Right after the burst, with the fast stretch still full: one
 * chunk to each of fresh erase blocks, then linear chunks.  Garbage
 * collection paid at once is no queue.  *fast gets the verdict. */
static int lag_test(struct ctx *c, uint64_t chunk, uint64_t n, int *fast)
{
	double *t = NULL;
	size_t nt = 0, cap = 0;
	struct write_cache w;
	int rc;

	*fast = 0;
	rc = cache_burst(c, take_aus(c, c->open_limit), c->e_size, c->open_limit, 1, chunk, cautious(c, c->open_limit),
			 &t, &nt, &cap);
	if (!rc)
		rc = cache_burst(c, take_aus(c, 1), c->e_size, 1, n, chunk, linear_estimate(c, n, chunk), &t, &nt, &cap);
	if (!rc)
		*fast = analyze_cache(t, nt, c->open_limit, chunk, &w) == CACHE_NONE;
	free(t);
	return rc < 0 ? -1 : 0;
}

/* The chunk the cache probe writes: 64 KiB, at most 1/16 of an erase block. */
static uint64_t cache_chunk(const struct ctx *c)
{
	uint64_t ss = dev_sector(c->d), chunk = CACHE_CHUNK;

	if (chunk > c->e_size / 16)
		chunk = c->e_size / 16 / ss * ss;
	return chunk < ss ? ss : chunk;
}

/* The cautious first probe, before the write tests provoke a garbage
 * collection: two linear chunks at the start of a fresh erase block, then
 * one at its end.  A card that keeps erase blocks whole copies the skipped
 * rest from the old block (at most one erase block; the block is then full
 * and closes without more): that write less a linear one, scaled to a
 * whole erase block, is what a collapse costs on this card, and the bound
 * counts on it (write_floor) before anything pays for one, on cards that
 * copy far slower than they write too.  A write taken into a cache or a
 * fast area (no copy at once) leaves the floor as it was, and the cache
 * probe's sweep follows as before.  0, 1 (refused), -1. */
static int copy_probe(struct ctx *c)
{
	uint64_t chunk = cache_chunk(c), gap = c->e_size - 3 * chunk, at = take_aus(c, 1); /* chunk <= e / 16 */
	int64_t off[3] = { (int64_t)at, (int64_t)(at + chunk), (int64_t)(at + c->e_size - chunk) };
	double w[3], pace = c->pace[c->phase];
	int rc;

	if ((rc = write_round(c, "copy-probe", off, 3, chunk, w)))
		return rc;
	c->pace[c->phase] = pace; /* the copy stands for no later step's pace (write_floor does) */
	c->probe_linear = w[1];
	c->probe_skip = w[2];
	if (w[2] > w[1])
		c->b.write_floor = fmax(c->b.write_floor, w[1] + (w[2] - w[1]) * (double)c->e_size / (double)gap);
	return 0;
}

/* A burst that went slow for good where the cautious first probe paid for
 * its copy at once: no cache or fast area took the first writes (they
 * would have taken that one too, in any order, leaving the erase blocks
 * alone), so the card itself slowed down.  After SLOWDOWN_REST of rest,
 * linear writes in a fresh erase block elsewhere: as fast as at first
 * again, it slows down with sustained writing and recovers with rest,
 * wherever it writes (throttling, as when hot), not a cache or an area;
 * still slow, it cannot tell why (heat a longer rest would cool, or worn
 * or slower flash).  Either way no cache or fast area is reported
 * (r->slowed: 1 recovered, 2 not), and the later tests time the card at
 * the pace it is at (their own drift checks see it change).  0, 1
 * (refused), -1. */
static int slowdown_test(struct ctx *c, uint64_t chunk, uint64_t n)
{
	struct auto_report *r = c->r;
	double *t = NULL, after;
	size_t nt = 0, cap = 0;
	int rc;

	dev_idle(c->d, (uint64_t)SLOWDOWN_REST);
	c->b.elapsed += SLOWDOWN_REST;
	r->device_ns += SLOWDOWN_REST;
	r->cost[c->phase].device_ns += SLOWDOWN_REST;
	/* fewer writes than went fast before: the card is timed before it
	 * could slow down again */
	if (n > r->wcache.bytes / chunk)
		n = r->wcache.bytes / chunk;
	if (n < 3)
		n = 3;
	rc = cache_burst(c, take_aus(c, 1), c->e_size, 1, n, chunk, linear_estimate(c, n, chunk), &t, &nt, &cap);
	if (rc || nt < 2) {
		free(t);
		return rc < 0 ? -1 : 0;
	}
	qsort(t + 1, nt - 1, sizeof(*t), cmp_d); /* the first pays for opening the erase block */
	after = t[1 + (nt - 1) / 2];
	free(t);
	r->slow_after = r->wcache.bytes;
	r->slow_x = r->wcache.fast > 0 ? r->wcache.late / r->wcache.fast : 0;
	r->slowed = after < sqrt(r->wcache.fast * r->wcache.late) ? 1 : 2;
	r->slow_rested = after;
	r->cache = 0;
	r->cache_verdict = CACHE_NONE;
	return 0;
}

static void slowdown_evidence(struct auto_report *r, uint64_t chunk)
{
	char a[32], b[32], d[32], e[32], ch[32], rs[32];

	format_size(a, sizeof(a), r->slow_after);
	format_time(b, sizeof(b), r->wcache.fast);
	format_time(d, sizeof(d), r->wcache.late);
	format_time(e, sizeof(e), r->slow_rested);
	format_size(ch, sizeof(ch), chunk);
	format_duration(rs, sizeof(rs), (uint64_t)SLOWDOWN_REST);
	r->cache_area.nevidence = 0;
	if (r->slowed == 1)
		finding_evidence(&r->cache_area, "writes went %.1fx slower after about %s written in a row (%s per %s write, "
				 "then %s) and were fast again after a rest of %s, in another place (%s): the card slows down "
				 "when it writes for long and recovers with rest, wherever it writes (throttling, as when "
				 "hot), no cache or fast area", r->slow_x, a, b, ch, d, rs, e);
	else
		finding_evidence(&r->cache_area, "writes went %.1fx slower after about %s written in a row (%s per %s write, "
				 "then %s) and were still slow after a rest of %s (%s): no cache or fast area, but why the "
				 "card slowed down is not known (heat a longer rest would cool, or slower flash)",
				 r->slow_x, a, b, ch, d, rs, e);
	finding_evidence(&r->cache_area, "the first writes were the card's own: a write that skipped the rest of an erase "
			 "block paid for its copy at once, where a cache or fast area would have taken it");
}

/* Does the card finish writes later than it acknowledges them (a write
 * cache), or take the first writes into a fast area?  One burst from the
 * idle card, timed write by write: one chunk to each of as many fresh erase
 * blocks as the open-AU search may try (up to 16; on most cards: garbage
 * collection for each), then linear chunks in one fresh erase block.
 * Without a cache garbage collection is paid at once and the linear chunks
 * cost the same from the first; a cache that held the burst makes them wait.
 * When neither showed, the burst goes on linearly through fresh erase
 * blocks, each step as long as the burst so far (and no longer than its
 * share of the bound allows), until writes slow down (the cache or fast
 * area filled) or the burst is longer than CACHE_MAX.  A stretch that went
 * slow is then told apart (lag_test): a queue makes every later write
 * measurement wait for a warm-up of twice its size, a fast area none. */
int cache_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	uint64_t chunk = cache_chunk(c), n, per, half;
	unsigned sweep;
	double *t = malloc(8 * sizeof(*t));
	size_t nt = 0, cap = 8;
	int rc = 0, cut = 0, swept = 0;
	uint64_t run_lo = 0, run_hi = 0;

	if (!t)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	if ((rc = copy_probe(c)) < 0) {
		free(t);
		return -1;
	}
	n = c->e_size / chunk < CACHE_WRITES ? c->e_size / chunk : CACHE_WRITES;
	per = c->e_size / chunk;
	half = c->region_aus / 2;
	/* the cautious first probe paid for its copy at once (copy_probe):
	 * nothing took that write into a cache or a fast area, and the sweep
	 * has nothing more to say (on a card whose erase block the reads
	 * found: where they found none, the sweep also tells an SSD-like
	 * medium, whose many open erase blocks pay nothing) */
	if (!rc && c->probe_skip > 0 && !r->erase_assumed && cache_sweep_paid(&c->probe_skip, 1, c->probe_linear)) {
		t[nt++] = c->probe_skip;
		swept = 1;
	} else if (!rc) {
		/* else the sweep: one chunk to each of as many fresh erase blocks
		 * as the search may try */
		rc = cache_burst(c, take_aus(c, c->open_limit), c->e_size, c->open_limit, 1, chunk,
				 cautious(c, c->open_limit), &t, &nt, &cap);
		swept = !rc;
	}
	sweep = (unsigned)nt; /* the sweep's writes: the verdict's first ones */
	if (!rc)
		rc = cache_burst(c, take_aus(c, 1), c->e_size, 1, n, chunk, linear_estimate(c, n, chunk), &t, &nt, &cap);
	while (!rc && (r->cache_verdict = analyze_cache(t, nt, sweep, chunk, &r->wcache)) ==
			      CACHE_UNDECIDED && nt * chunk <= CACHE_MAX) {
		/* as many bytes again, just past CACHE_MAX at most, in whole
		 * erase blocks, half the trial region and CACHE_STEP_MAX at most,
		 * and no more than the part's share of the bytes */
		uint64_t step = nt * chunk < CACHE_MAX + chunk - nt * chunk ? nt * chunk : CACHE_MAX + chunk - nt * chunk;
		if (step > CACHE_STEP_MAX)
			step = CACHE_STEP_MAX;
		uint64_t aus = (step + per * chunk - 1) / (per * chunk), room;
		if (out_of_time(c))
			break;
		room = c->b.part_bytes > c->b.written ? (c->b.part_bytes - c->b.written) / (per * chunk) : 0;
		if (c->b.part_bytes && aus > room)
			aus = room;
		if (aus > half)
			aus = half;
		if (!aus) {
			cut = 1;
			break;
		}
		uint64_t at = take_aus(c, aus);
		rc = cache_burst(c, at, c->e_size, aus, per, chunk,
				 budget_estimate(&c->b, aus * per, 2 * fmax(settled(t, nt), c->b.fast_write_per_byte * chunk), 0),
				 &t, &nt, &cap);
		if (!rc && at == run_hi) { /* whole erase blocks written in one run: an area that holds data */
			run_hi += aus * c->e_size;
		} else if (!rc) {
			run_lo = at;
			run_hi = at + aus * c->e_size;
		}
		if (run_hi - run_lo > c->burst_hi - c->burst_lo) {
			c->burst_lo = run_lo;
			c->burst_hi = run_hi;
		}
	}
	if (rc > 0 || (!rc && nt * chunk <= CACHE_MAX && r->cache_verdict == CACHE_UNDECIDED))
		cut = 1;
	/* the burst for the chart: every write, or every k-th of a long one */
	r->burst_every = nt / AUTO_MAX_BURST + 1;
	for (r->nburst = 0; r->nburst * r->burst_every < nt; r->nburst++)
		r->burst_ns[r->nburst] = t[r->nburst * r->burst_every];
	if (rc < 0) {
		free(t);
		return -1;
	}
	if (!swept) { /* not even the sweep: nothing to say */
		free(t);
		r->cache_unprobed = 1;
		analyze_cache_finding(&r->wcache, CACHE_UNDECIDED, 0, r->cost[PHASE_CACHE].device_ns, &r->cache_area);
		budget_cut(c, &r->cache_area, CONF_LOW, "the write-cache probe");
		return 0;
	}
	if (nt) {
		r->cache_verdict = analyze_cache(t, nt, sweep, chunk, &r->wcache);
		if (nt > sweep) { /* the linear writes' pace (not the sweep's) */
			c->lin_write = settled(t + sweep, nt - sweep);
			c->lin_chunk = chunk;
		}
	}
	free(t);
	r->cache = r->cache_verdict == CACHE_SEEN ? r->wcache.bytes : 0;
	if (r->cache && !r->wcache.queued && c->probe_skip > 0 && !r->erase_assumed &&
	    cache_sweep_paid(&c->probe_skip, 1, c->probe_linear)) {
		/* it went slow for good, but the first writes were no fast
		 * area's: the cautious probe paid for its copy at once */
		if ((rc = slowdown_test(c, chunk, n)) < 0)
			return -1;
	} else if (r->cache && !r->wcache.queued) {
		/* it went slow without late writes: a queue, or a fast area? */
		if (lag_test(c, chunk, n, &r->fast_area))
			return -1;
	}
	r->warmup = r->fast_area ? 0 : 2 * r->cache;
	analyze_cache_finding(&r->wcache, r->cache_verdict, r->fast_area, r->cost[PHASE_CACHE].device_ns, &r->cache_area);
	if (r->slowed)
		slowdown_evidence(r, chunk);
	if (cut && r->cache_verdict == CACHE_UNDECIDED)
		budget_cut(c, &r->cache_area, CONF_LOW, "the burst");
	/* a write may take as long as copying one erase block at the speed
	 * linear writes went: the cost bound counts on it */
	if (c->lin_write > 0)
		c->b.write_floor = fmax(c->b.write_floor, c->lin_write * (double)c->e_size / (double)chunk);
	return 0;
}

/* Behind a write cache the write findings rest on steady-state timing after
 * a warm-up: they could be wrong in ways the timing cannot show (a cache that
 * is smarter than a queue), so they are medium at most; the FAT area, whose
 * probes cannot be warmed up inside the erase block they probe, is not
 * determined.  Behind a fast area writes are timed as they go to the flash:
 * medium at most too (the area may not be full in the way the burst left
 * it).  When no cache showed in the whole burst (or as much of it as the
 * bound allowed) but garbage collection did not show at once either, a
 * larger cache cannot be ruled out: what only a cache could fake is not
 * determined (open-AU counts that never collapsed, a minimum write that
 * every size meets, a FAT area), and the rest is medium at most; a minimum
 * write below which writes cost as much as it does was paid to the flash
 * and keeps its confidence. */
void cache_caveat(struct auto_report *r, struct finding *f)
{
	const struct write_cache *w = &r->wcache;
	char a[32], b[32], d[32], e2[32], p[32], pt[32], ch[32];
	int is_min = f == &r->min_write, is_fat = f == &r->fat;

	if (!f->determined)
		return;
	if (r->cache_unprobed) {
		finding_evidence(f, "the write-cache probe was cut short: a cache cannot be ruled out");
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		return;
	}
	format_size(p, sizeof(p), w->probed);
	format_time(pt, sizeof(pt), r->cost[PHASE_CACHE].device_ns);
	if (r->cache_verdict == CACHE_UNDECIDED) {
		int paid = is_min && !f->at_most, fake = is_fat || (is_min && f->at_most) || (!is_min && f->at_least);
		format_time(b, sizeof(b), w->fast);
		format_size(ch, sizeof(ch), w->chunk);
		if (fake) {
			finding_not(f, "writes kept one speed (%s per %s write) through a burst of %s (%s of device time): "
				    "a write cache or fast area larger than that would make every write look like this",
				    b, ch, p, pt);
			return;
		}
		finding_evidence(f, "writes kept one speed (%s per %s write) through a burst of %s (%s of device "
				 "time): no write cache that small, but a larger one %s", b, ch, p, pt,
				 paid ? "would take writes of every size at the bus's speed: these were paid to "
					"the flash" : "could be what these writes timed");
		if (!paid && f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		return;
	}
	if (!r->cache)
		return;
	format_size(a, sizeof(a), r->cache);
	format_size(e2, sizeof(e2), r->warmup);
	format_time(b, sizeof(b), w->late);
	format_time(d, sizeof(d), w->steady);
	if (r->fast_area) {
		finding_evidence(f, "in one burst of %s (%s of device time) writes went slow after about %s (%s per "
				 "write, then %s) and paid for garbage collection at once after it: a fast area in front "
				 "of the flash, full while these writes were timed", p, pt, a, format_time(ch, sizeof(ch), w->fast), d);
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		return;
	}
	if (is_fat && !r->fat_lagged) {
		finding_not(f, "in one burst writes went slow after about %s (up to %s per write, then %s): a "
			    "write cache hides how fast single erase blocks write", a, b, d);
		return;
	}
	if (is_fat) {
		finding_evidence(f, "in one burst writes went slow after about %s (up to %s per write, then %s): a "
				 "write cache; each kind of write was timed by the writes after it, which waited for its "
				 "work", a, b, d);
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		return;
	}
	finding_evidence(f, "in one burst of %s (%s of device time) writes went slow after about %s (up to "
			 "%s per write, then %s): a write cache; each measurement came after %s of the same "
			 "writes", p, pt, a, b, d, e2);
	if (f->conf > CONF_MEDIUM)
		f->conf = CONF_MEDIUM;
}

/* ------------------------------------------------------------ minimum write */

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

/* The bytes the sweep writes for erase blocks of e (no warm-up): what the
 * parts before it leave for it. */
uint64_t min_write_bytes(uint64_t e, uint64_t ss)
{
	uint64_t sizes[32], sum = 0;
	size_t n = write_sizes(e, ss, sizes, 32);

	for (size_t i = 0; i < n; i++)
		sum += sizes[i] * (sizes[i] > MINW_FEW_ABOVE ? 4 : 8);
	return sum;
}

/* The linear stream the sweep writes in: through fresh erase blocks, none
 * straddled (a write that would starts the next one). */
struct stream {
	uint64_t block, pos;
};

/* n writes of sz in the stream, the first `warm` untimed (behind a write
 * cache: as many bytes of the same size as fill it, so that the timed ones
 * wait for their own kind): the median and spread of the timed ones.  0, 1
 * (the bound refused it), -1. */
static int timed_writes(struct ctx *c, struct stream *st, uint64_t sz, uint64_t warm, size_t timed,
			struct chunk_time *out)
{
	struct vm_result *res;
	double v[8];
	size_t k = 0;
	int64_t *off = malloc((warm + timed) * sizeof(*off));
	int rc;

	if (!off)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (uint64_t w = 0; w < warm + timed; w++) {
		st->pos = (st->pos + sz - 1) / sz * sz;
		if (st->pos + sz > c->e_size) {
			st->block = take_aus(c, 1);
			st->pos = 0;
		}
		off[w] = (int64_t)(st->block + st->pos);
		st->pos += sz;
	}
	rc = write_at(c, "min-write", sz, off, warm + timed, linear_estimate(c, warm + timed, sz), &res);
	free(off);
	if (rc)
		return rc;
	for (const struct vm_result *ws = result_descend(res, 2); k < timed && warm + k < ws->nkid; k++)
		v[k] = ws->kid[warm + k].value;
	qsort(v, k, sizeof(v[0]), cmp_d);
	out->size = sz;
	out->ns = k ? (v[(k - 1) / 2] + v[k / 2]) / 2 : 0;
	out->spread = k == 8 ? v[5] - v[2] : k == 4 ? MINW_SPREAD_OF_4 * (v[2] - v[1]) : 0;
	vm_result_free(res);
	return 0;
}

static size_t timed_count(uint64_t sz)
{
	return sz > MINW_FEW_ABOVE ? 4 : 8;
}

/* Eight writes of each size (four above MINW_FEW_ABOVE), one after
 * another, all sizes in one linear stream, so that only the first write in
 * each erase block pays for opening it.  With a reference size ref, each
 * size comes right after writes of ref, and its time is scaled by how much
 * slower (or faster) they went than the first reference: a card that
 * slows down as it heats up (or drifts) is timed as if it had not.  0, 1
 * (stopped by the bound), -1. */
static int sweep(struct ctx *c, struct stream *st, const uint64_t *sizes, size_t nsizes, uint64_t ref)
{
	struct auto_report *r = c->r;
	struct chunk_time first = { 0 };
	int rc = 0;

	r->nchunks = 0;
	for (size_t i = 0; i < nsizes && !rc; i++) {
		struct chunk_time t, rt;
		double f = 1;
		if (i >= 2 && out_of_time(c))
			return 1;
		if (ref && (rc = timed_writes(c, st, ref, 0, timed_count(ref), &rt)))
			break;
		if (ref && !i)
			first = rt;
		if (ref && first.ns > 0 && rt.ns > 0)
			f = rt.ns / first.ns;
		if ((rc = timed_writes(c, st, sizes[i], (r->warmup + sizes[i] - 1) / sizes[i], timed_count(sizes[i]), &t)))
			break;
		t.ns /= f;
		t.spread /= f;
		r->chunks[r->nchunks++] = t;
	}
	return rc;
}

/* The minimum-write sweep, between two timings of a reference size (the
 * largest of at most 128 KiB): when the second takes another time than the
 * first, beyond what the writes' own spread allows (write_drift), the card
 * changed pace during the sweep (throttling when hot, or drift) and the
 * sweep is done again with each size scaled by a reference right before it.
 * Behind a write cache the times are a queue's, not the card's pace: no
 * second look. */
int min_write_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	struct stream st = { take_aus(c, 1), 0 };
	struct chunk_time before = { 0 }, after;
	uint64_t sizes[32], ref = 0;
	size_t nsizes = write_sizes(c->e_size, dev_sector(c->d), sizes, 32);
	int rc = 0;

	for (size_t i = 0; i < nsizes && !ref; i++)
		if (sizes[i] <= (128 << 10))
			ref = sizes[i];
	if (ref && !r->warmup) { /* in an erase block of its own: the sweep starts a fresh one */
		struct stream one = { st.block, 0 };
		if ((rc = timed_writes(c, &one, ref, 0, timed_count(ref), &before)) < 0)
			return -1;
		st.block = take_aus(c, 1);
	}
	if (!rc)
		rc = sweep(c, &st, sizes, nsizes, 0);
	if (rc < 0)
		return -1;
	if (!rc && before.ns > 0 && r->nchunks == nsizes && !out_of_time(c)) {
		if ((rc = timed_writes(c, &st, ref, 0, timed_count(ref), &after)) < 0)
			return -1;
		if (!rc && write_drift(&before, &after)) {
			r->drift = after.ns / before.ns;
			if ((rc = sweep(c, &st, sizes, nsizes, ref)) < 0)
				return -1;
		}
	}
	analyze_min_write(r->chunks, r->nchunks, &r->min_write);
	if (r->drift > 0 && r->min_write.determined) {
		if (r->min_write.nevidence >= EVIDENCE_MAX)
			r->min_write.nevidence = EVIDENCE_MAX - 1;
		finding_evidence(&r->min_write, "writes went %.1fx %s during a first sweep (a card that slows down when "
				 "hot, or drifts): each size was timed again right after %s writes and scaled by them",
				 r->drift > 1 ? r->drift : 1 / r->drift, r->drift > 1 ? "slower" : "faster",
				 format_size((char[32]){ 0 }, 32, ref));
		if (r->min_write.conf > CONF_MEDIUM)
			r->min_write.conf = CONF_MEDIUM;
	}
	if (r->nchunks < nsizes && r->nchunks) {
		/* the smallest size measured may only be a bound */
		char a[32], what[64];
		int bound = r->min_write.value == r->chunks[r->nchunks - 1].size;
		r->min_write.at_most |= bound;
		snprintf(what, sizeof(what), "sizes measured down to %s only",
			 format_size(a, sizeof(a), r->chunks[r->nchunks - 1].size));
		budget_cut(c, &r->min_write, bound ? CONF_LOW : CONF_MEDIUM, what);
	} else if (r->nchunks < nsizes) {
		budget_cut(c, &r->min_write, CONF_LOW, "no size could be measured");
	}
	return 0;
}

/* ------------------------------------------------------------ open erase blocks */

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
	rc = write_at(c, "open-au-retire", chunk, off, n, linear_estimate(c, n, chunk) + cautious(c, 1), &res);
	free(off);
	if (!rc)
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
	int rc;

	for (unsigned a = 0; a < s->n; a++) {
		if (k < n && trial_room_for(c, s->w[a], WRITE_ROUNDS, chunk, shuffled)) {
			s->off[k] = s->off[a];
			s->w[k++] = s->w[a];
		} else if (shuffled && s->w[a] && (rc = trial_retire(c, s, a, chunk))) {
			return rc;
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
#define TRIAL_ALL_AT_ONCE 3           /* slow erase blocks in one round that collapse a linear trial */
/* ... once this many of its writes were slow: pauses as frequent as one write in 40 would fake that
 * with a chance of 3e-7 (open_pause_check asks for 1e-5) */
#define TRIAL_SURE_SLOW 4

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
 * collapsed one, or of the writes not slow).  0, 1 (refused: no verdict),
 * -1. */
static int trial_run(struct ctx *c, struct trial_set *s, uint64_t chunk, int shuffled, const struct judge *j,
		     struct open_trial *o)
{
	double *level = &o->mean_ns;
	int *collapsed = &o->collapsed;
	unsigned n = s->n, warm = 1, pooled = c->r->cache != 0 && !c->r->fast_area;
	uint64_t per_round = (uint64_t)n * chunk;
	int64_t off[AUTO_OPEN_LIMIT];
	double t[AUTO_OPEN_LIMIT], v[AUTO_OPEN_LIMIT][WRITE_ROUNDS];
	unsigned nslow[AUTO_OPEN_LIMIT] = { 0 }, m = 0, groups = pooled ? 1 : n, full, eslow = 0, ewrites = 0;
	int rc, at_once = 0, together = 0, early;

	warm += (unsigned)((c->r->warmup + per_round - 1) / per_round);
	full = 1 + (unsigned)((c->r->cache + per_round - 1) / per_round);
	early = pooled && c->queue_clean;
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
				if (shuffled && (rc = trial_retire(c, s, a, chunk)))
					return rc;
				s->off[a] = take_aus(c, 1);
				s->w[a] = 0;
			}
			off[a] = (int64_t)trial_pos(s, a, chunk, shuffled);
		}
		if ((rc = write_round(c, "open-au-trial", off, n, chunk, t)))
			return rc;
		for (unsigned a = 0; a < n; a++)
			s->w[a]++;
		/* behind a queue that held only healthy work, the writes past
		 * the cache's size wait for this trial's own: a collapse shows
		 * there already (most of them slow), without the rest of the
		 * warm-up adding collections the next trial must wait for */
		if (round < warm && early && round >= full && j) {
			for (unsigned a = 0; a < n; a++)
				eslow += slow(j, t[a]);
			ewrites += n;
			if (eslow >= TRIAL_SURE_SLOW && 2 * eslow >= ewrites) {
				for (unsigned a = 0; a < n; a++)
					v[a][0] = t[a];
				m = 1;
				*collapsed = at_once = 1;
				break;
			}
		}
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
		/* linear order: one erase block too many makes every one of them
		 * pay at once (the card closes the least recently used, the next
		 * one to be written); most of them slow in the same round, and at
		 * least TRIAL_ALL_AT_ONCE, is no pause (pauses come one by one),
		 * once TRIAL_SURE_SLOW writes in all were slow */
		if (!shuffled && !pooled && j && n >= TRIAL_ALL_AT_ONCE) {
			unsigned now = 0, all = 0;
			for (unsigned a = 0; a < n; a++) {
				now += slow(j, t[a]);
				all += nslow[a];
			}
			together = now >= TRIAL_ALL_AT_ONCE && 2 * now > n && (m == 1 || together);
			at_once = together && all >= TRIAL_SURE_SLOW;
			bad |= at_once;
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
	o->slow = o->writes = o->worst_slow = o->worst_writes = 0;
	if (!j && m) {
		/* the first linear trial sets the healthy time: its writes
		 * slower than a collapse from its own median are its pauses */
		double all[AUTO_OPEN_LIMIT * WRITE_ROUNDS], mid;
		size_t k = 0;
		for (unsigned a = 0; a < n; a++)
			for (unsigned i = 0; i < m; i++)
				all[k++] = v[a][i];
		mid = analyze_median(all, k);
		for (unsigned a = 0; a < n; a++)
			for (unsigned i = 0; i < m; i++)
				o->slow += write_collapsed(v[a][i], mid, 0);
		o->writes = (unsigned)k;
	}
	if (j)
		for (unsigned g = 0; g < groups; g++) {
			unsigned q = pooled ? m * n : m;
			o->slow += nslow[g];
			o->writes += q;
			if (g == 0 || nslow[g] > o->worst_slow) {
				o->worst_slow = nslow[g];
				o->worst_writes = q;
			}
		}
	c->at_once = at_once;
	if (at_once && ewrites) { /* behind the queue, in the warm-up */
		o->slow = eslow;
		o->writes = ewrites;
	}
	if (at_once) { /* judged on all the erase blocks together (what a pause would have to fake) */
		o->worst_slow = o->slow;
		o->worst_writes = o->writes;
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

/* Record a trial of the open-AU search.  0, 1 (refused), -1. */
static int open_trial(struct ctx *c, struct trial_set *s, int shuffled, const struct judge *j, struct open_trial *t,
		      size_t *nt)
{
	int rc;

	/* the queue holds the last trial's work: healthy, or collections */
	c->queue_clean = *nt > 0 && !t[*nt - 1].collapsed;
	if ((rc = trial_run(c, s, c->r->trial_chunk, shuffled, j, &t[*nt])))
		return rc;
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
int open_search(struct ctx *c, int shuffled, double collapse_level)
{
	struct auto_report *r = c->r;
	struct open_trial *t = shuffled ? r->rnd : r->lin;
	size_t *nt = shuffled ? &r->nrnd : &r->nlin;
	struct trial_set s = { .n = 0 };
	struct judge j = { .ref = r->write_ref, .collapse = collapse_level };
	unsigned n = 1, knee = 0, limit = c->open_limit;
	int cut = 0, rc = 0, restarted = 0, resumed = 0, knee_at_once = 0, knee_sure = 0;
	double pace = 0;

	*nt = 0;
search:
	for (; n <= c->open_limit && *nt < AUTO_MAX_TRIALS; n++) {
		if (n > 1 && out_of_time(c)) {
			cut = 1;
			break;
		}
		if ((rc = trial_grow(c, &s, n, r->trial_chunk, shuffled)))
			break;
		/* the first random-order trial is judged against linear writes,
		 * later ones against the first if it was healthy; both against
		 * the linear collapse when one was seen.  More random-order erase
		 * blocks than the card has slots make one of them pay for garbage
		 * collection while the others stay healthy, which may be a smaller
		 * step when erase blocks are small: 1.5x the first counts too. */
		j.random_rule = shuffled && n > 1;
		if ((rc = open_trial(c, &s, shuffled, n == 1 && !shuffled ? NULL : &j, t, nt)))
			break;
		if (n == 1 && !shuffled) {
			r->write_ref = j.ref = t[0].mean_ns;
			t[0].collapsed = write_collapsed(t[0].mean_ns, j.ref, collapse_level);
		}
		if (n == 1 && shuffled && !t[*nt - 1].collapsed)
			j.ref = t[*nt - 1].mean_ns;
		if (t[*nt - 1].collapsed) {
			knee = n;
			knee_at_once = c->at_once;
			break;
		}
	}
	if (rc < 0)
		return -1;
	if (rc > 0)
		cut = 1;
	if (cut)
		limit = *nt ? t[*nt - 1].n : 0;
	/* confirm: the last healthy count and the first collapsed one again */
	if (knee && *nt < AUTO_MAX_TRIALS && !cut && out_of_time(c))
		cut = 1;
	if (knee > 1 && *nt < AUTO_MAX_TRIALS && !cut) {
		trial_keep(&s, knee - 1, shuffled);
		j.random_rule = shuffled && knee - 1 > 1;
		if ((rc = open_trial(c, &s, shuffled, &j, t, nt)) < 0)
			return -1;
		cut |= rc > 0;
	}
	/* the count that was healthy collapsed too: did the whole card slow
	 * down (throttling when hot), not garbage collection?  One erase block
	 * alone cannot make the card collect garbage: if it is as slow, the
	 * search starts again against the new pace (once) */
	if (knee > 1 && !cut && !restarted && t[*nt - 1].collapsed && *nt < AUTO_MAX_TRIALS - 1) {
		struct trial_set one = { .n = 0 };
		struct judge jp = j;
		jp.random_rule = 0;
		/* in random order the erase blocks of the trial hold the
		 * random-order slots: written to their end first (closed), or
		 * the one alone would pay for a collection without one */
		for (unsigned a = 0; shuffled && a < s.n && !rc; a++)
			if (s.w[a] && (rc = trial_retire(c, &s, a, r->trial_chunk)) < 0)
				return -1;
		if (shuffled)
			s.n = 0;
		if (!rc && (rc = trial_grow(c, &one, 1, r->trial_chunk, shuffled)) < 0)
			return -1;
		if (!rc && (rc = open_trial(c, &one, shuffled, &jp, t, nt)) < 0)
			return -1;
		cut |= rc > 0;
		if (!rc && t[*nt - 1].collapsed) {
			pace = t[*nt - 1].mean_ns / j.ref;
			restarted = 1;
			j.ref = t[*nt - 1].mean_ns;
			if (!shuffled)
				r->write_ref = j.ref;
			t[0] = t[*nt - 1];
			t[0].collapsed = 0;
			*nt = 1;
			s = one;
			n = 2;
			knee = 0;
			goto search;
		}
	}
	if (knee > 1 && *nt < AUTO_MAX_TRIALS && !cut && out_of_time(c))
		cut = 1;
	/* a knee where every erase block paid at once needs no second look
	 * (no pause does that; the healthy count was looked at twice) */
	if (knee > 1 && knee_at_once && !cut && !t[*nt - 1].collapsed && t[*nt - 1].n == knee - 1)
		knee_sure = 1;
	if (knee && *nt < AUTO_MAX_TRIALS && !cut && !knee_sure) {
		/* one erase block again, in a fresh one: the one written in
		 * random order is written to its end first (closed, its
		 * random-order slot is free again, as it was for the first look) */
		if (knee == 1 && shuffled && s.n && s.w[0] && (rc = trial_retire(c, &s, 0, r->trial_chunk)) < 0)
			return -1;
		cut |= rc > 0;
		if (knee == 1)
			s.n = 0;
		if (!rc && (rc = trial_grow(c, &s, knee, r->trial_chunk, shuffled)) < 0)
			return -1;
		j.random_rule = shuffled && knee > 1;
		if (knee == 1 && shuffled)
			j.ref = r->write_ref;
		if (!rc && (rc = open_trial(c, &s, shuffled, &j, t, nt)) < 0)
			return -1;
		cut |= rc > 0;
		/* the knee did not collapse again: a pause may have made the
		 * first look collapse.  One more look decides; healthy again, the
		 * search goes on above it (twice at most) */
		if (!rc && !t[*nt - 1].collapsed && resumed < 2 && *nt < AUTO_MAX_TRIALS - 2 && !out_of_time(c)) {
			if ((rc = open_trial(c, &s, shuffled, &j, t, nt)) < 0)
				return -1;
			cut |= rc > 0;
			if (!rc && !t[*nt - 1].collapsed) {
				resumed++;
				n = knee + 1;
				knee = 0;
				goto search;
			}
		}
	}
	analyze_open(t, *nt, limit, shuffled, r->trial_chunk, j.ref, shuffled ? &r->open_random : &r->open_linear);
	open_pause_check(shuffled ? &r->open_random : &r->open_linear, t, *nt, shuffled ? r->lin : NULL,
			 shuffled ? r->nlin : 0);
	if (pace > 0) {
		struct finding *f = shuffled ? &r->open_random : &r->open_linear;
		if (f->conf > CONF_MEDIUM)
			f->conf = CONF_MEDIUM;
		finding_evidence(f, "writes went %.1fx slower during the search, one erase block alone too (a card that "
				 "slows down when hot): the search started again against the new pace", pace);
	}
	if (cut)
		budget_cut(c, shuffled ? &r->open_random : &r->open_linear, CONF_MEDIUM,
			   knee ? "the confirming trials were left out" : "the search stopped before writes collapsed");
	return 0;
}

/* ------------------------------------------------------------ FAT area */

/* One kind of FAT-probe write at off: WRITE_ROUNDS writes of `size`, linear
 * or shuffled, in batches of FAT_BATCH; the median time per write after the
 * first (which may pay for opening the erase block; a pause for garbage
 * collection now and then does not move it).  After `batches` batches it
 * stops once most writes after the first took longer than stop_above (0:
 * never): a probe that cannot be faster than its reference (more than
 * twice it; or as slow as a reference that paid for garbage collection on
 * every write), or a reference whose every random-order write pays for a
 * garbage collection (the middle has no random-order slot free: seven of
 * them tell that level as well as fifteen, three once the block before
 * showed it).  0, 1 (refused), -1. */
#define FAT_BATCH 4
static int fat_kind(struct ctx *c, uint64_t off, uint64_t size, int shuffled, double stop_above, unsigned batches,
		    double *median)
{
	struct trial_set one = { .off = { off }, .n = 1 };
	int64_t offs[FAT_BATCH];
	double t[WRITE_ROUNDS];
	unsigned n = 0, over = 0;
	int rc;

	while (n < WRITE_ROUNDS) {
		for (unsigned i = 0; i < FAT_BATCH; i++, one.w[0]++)
			offs[i] = (int64_t)trial_pos(&one, 0, size, shuffled);
		if ((rc = write_round(c, "fat-probe", offs, FAT_BATCH, size, t + n)))
			return rc;
		for (unsigned i = n ? n : 1; i < n + FAT_BATCH; i++)
			over += stop_above > 0 && t[i] > stop_above;
		n += FAT_BATCH;
		if (n >= batches * FAT_BATCH && 2 * over > n - 1)
			break;
	}
	qsort(t + 1, n - 1, sizeof(t[0]), cmp_d);
	*median = t[1 + (n - 1) / 2];
	return 0;
}

/* Behind a queue (a write cache that acknowledges writes and works them
 * off later), a write waits for the work of the writes acknowledged before
 * it: what the kind's writes cost shows in the writes after them.  So the
 * kind's WRITE_ROUNDS writes are followed by fillers (linear chunks in fresh
 * erase blocks of their own stream), twice as many bytes as the cache is
 * thought to hold, and the queue held fillers before them too: over the
 * whole run the writes waited for the fillers before, the kind's work and
 * the fillers after, so the kind's work is the run's time less one steady
 * filler's time (the median of the last fillers, which waited for fillers)
 * per filler written.  This needs no exact cache size.  *per_write gets the
 * kind's work per kind write.  0, 1 (refused), -1. */
static int fillers(struct ctx *c, struct stream *fill, uint64_t n, double *t)
{
	uint64_t fc = c->r->fat_chunk;
	int64_t *fo = malloc(n * sizeof(*fo));
	struct vm_result *res;
	int rc;

	if (!fo)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (uint64_t i = 0; i < n; i++) {
		if (fill->pos + fc > c->e_size) {
			fill->block = take_aus(c, 1);
			fill->pos = 0;
		}
		fo[i] = (int64_t)(fill->block + fill->pos);
		fill->pos += fc;
	}
	rc = write_at(c, "fat-probe", fc, fo, n, linear_estimate(c, n, fc) + cautious(c, WRITE_ROUNDS), &res);
	free(fo);
	if (rc)
		return rc;
	for (uint64_t i = 0; t && i < n; i++)
		t[i] = i < result_descend(res, 2)->nkid ? result_descend(res, 2)->kid[i].value : 0;
	vm_result_free(res);
	return 0;
}

static uint64_t filler_count(const struct ctx *c, uint64_t kind)
{
	return (2 * c->r->cache + kind + c->r->fat_chunk - 1) / c->r->fat_chunk;
}

static int fat_kind_lagged(struct ctx *c, struct stream *fill, uint64_t off, uint64_t size, double *per_write)
{
	struct trial_set one = { .off = { off }, .n = 1 };
	uint64_t nfill = filler_count(c, WRITE_ROUNDS * size), tail = nfill / 4 ? nfill / 4 : 1;
	int64_t offs[WRITE_ROUNDS];
	double t[WRITE_ROUNDS], *ft = malloc(nfill * sizeof(*ft)), sum = 0, steady;
	int rc;

	if (!ft)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (unsigned i = 0; i < WRITE_ROUNDS; i++, one.w[0]++)
		offs[i] = (int64_t)trial_pos(&one, 0, size, 0);
	if ((rc = write_round(c, "fat-probe", offs, WRITE_ROUNDS, size, t)) || (rc = fillers(c, fill, nfill, ft))) {
		free(ft);
		return rc;
	}
	for (unsigned i = 0; i < WRITE_ROUNDS; i++)
		sum += t[i];
	for (uint64_t i = 0; i < nfill; i++)
		sum += ft[i];
	qsort(ft + nfill - tail, tail, sizeof(*ft), cmp_d);
	steady = ft[nfill - tail + tail / 2];
	free(ft);
	*per_write = fmax(sum - (double)nfill * steady, 0) / WRITE_ROUNDS;
	return 0;
}

/* In each of the first erase blocks, three kinds of write, each timed right
 * after the same writes in a fresh erase block in the middle (the
 * reference): linear chunks at the start of the block, small writes after
 * them, chunks in random order at its end.  No sweep in between: the
 * reference always goes first, so it never finds the card in a better state
 * (a random-order slot free) than the probe after it.  Stops after two
 * ordinary erase blocks, or one where the area ends sharply. */
int fat_phase(struct ctx *c)
{
	struct auto_report *r = c->r;
	size_t normal_run = 0;
	uint64_t limit = dev_size(c->d) / 4 / c->e_size, ss = dev_sector(c->d);
	int cut = 0, rc = 0, gc_before = 0;
	uint64_t fc = r->trial_chunk, small;
	struct stream fill = { 0, c->e_size }; /* the lagged probe's fillers: a fresh erase block first */

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
	if (limit > c->fat_hi / c->e_size) /* inside the announced range */
		limit = c->fat_hi / c->e_size;
	r->nfat = 0;
	/* behind a queue: the kinds timed by the writes after them (the small
	 * writes show both kinds of FAT area; random order is left out) */
	r->fat_lagged = r->cache && !r->fast_area;
	if (r->fat_lagged) /* the queue holds fillers before the first kind */
		rc = fillers(c, &fill, filler_count(c, 0), NULL);
	for (uint64_t j = 0; j < limit && !rc; j++) {
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
		for (int i = 0; i < FAT_KINDS && !rc; i++) {
			int k = order[i], gc_ref;
			uint64_t size = k == FAT_SMALL ? small : fc;
			if (r->fat_lagged && k == FAT_RANDOM) {
				p->ref[k] = p->ns[k] = 0;
				continue;
			}
			if (r->fat_lagged) {
				rc = fat_kind_lagged(c, &fill, ref + at[k], size, &p->ref[k]);
				if (!rc)
					rc = fat_kind_lagged(c, &fill, j * c->e_size + at[k], size, &p->ns[k]);
				continue;
			}
			/* random order in the middle that pays for a collection on
			 * every write (as a linear trial one erase block too many) */
			rc = fat_kind(c, ref + at[k], size, k == FAT_RANDOM,
				      k == FAT_RANDOM ? write_collapse_level(p->ref[FAT_LINEAR]) : 0, gc_before ? 1 : 2,
				      &p->ref[k]);
			gc_ref = k == FAT_RANDOM && write_collapsed(p->ref[k], p->ref[FAT_LINEAR], 0);
			if (!rc)
				rc = fat_kind(c, j * c->e_size + at[k], size, k == FAT_RANDOM,
					      gc_ref ? fat_not_faster(p->ref[k]) : 2 * p->ref[k], gc_ref ? 2 : 1, &p->ns[k]);
			if (k == FAT_RANDOM)
				gc_before = gc_ref;
		}
		if (rc)
			break;
		r->nfat++;
		analyze_fat(r->fat_probe, r->nfat, c->e_size, &r->fat);
		normal_run = r->fat.value < r->nfat ? normal_run + 1 : 0;
		/* the area has ended: sharply (high) after one ordinary erase
		 * block, else after two */
		if (normal_run >= 2 || (normal_run == 1 && r->fat.conf == CONF_HIGH))
			break;
	}
	if (rc < 0)
		return -1;
	cut |= rc > 0;
	analyze_fat(r->fat_probe, r->nfat, c->e_size, &r->fat);
	if (cut) {
		char what[64];
		snprintf(what, sizeof(what), "the probe stopped after %zu erase block%s", r->nfat, r->nfat == 1 ? "" : "s");
		budget_cut(c, &r->fat, r->fat.at_least ? CONF_LOW : CONF_MEDIUM, what);
	}
	return 0;
}
