/* capacity.c — runs the --capacity plan (see capacity.h); the verdict is
 * capacity_verdict.c's. */
#include "auto/capacity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev.h"
#include "lib/units.h"
#include "prog/programs.h"
#include "vm.h"

#define STRATA 32                    /* spread probes (one per stratum) */
/* The flush window is rewritten in groups this long, aligned to it, from
 * the top group down and in ascending order inside each: whole erase
 * blocks of any power-of-two size up to it, written in order, so that a
 * card closes each one full, without garbage collection. */
#define WINDOW_GROUP (16ULL << 20)
#define CHUNK (1ULL << 20)           /* signature and flush requests */
#define FLUSH_FIRST (4ULL << 20)     /* the first flush checkpoint; then doubling */
#define GRID_MAX 65536               /* one-sector reads of the alias grid at most */
#define ROUND_MAX 63                 /* probes in one bisection round at most */
/* An edge is found to the sector (a stretch written whole, read back after
 * the flush) when the flush it needs is at most this long; past it, a
 * flush costs more than the sector is worth: the edge is found to 1 MiB. */
#define EXACT_FLUSH_MAX (16ULL << 20)
#define SPAN_MAX (4ULL << 20)        /* an edge's last round writes a stretch this long at most */

const double cap_missing_share[4] = { 0.01, 0.05, 0.10, 0.20 };

struct ctx {
	struct dev *d;
	const struct capacity_options *o;
	struct capacity_report *r;
	struct fb_err *e;
	uint64_t ss, plen, G;
	uint64_t ref_len;
	uint64_t written;                /* bytes written so far */
	uint64_t probe_written[CAP_MAX_PROBES]; /* c->written when each probe was written */
	struct vm_op *held;
	uint64_t done;                   /* requests so far (progress) */
	unsigned part;                   /* 1 the signatures, 2 the flush, 3 the edges (progress) */
	uint64_t expect;                 /* bytes the signatures and the flush write (progress) */
	uint64_t flush_at, group_lo;     /* the next flush chunk, and the bottom of its group */
	uint64_t distinct;               /* bytes rewritten since the flush began at the top */
	uint64_t distinct_most;          /* the most of them before it went round again */
	uint64_t pending_off, pending_len; /* a stretch written whole, not in the report yet */
	int announced;
	/* what the card was seen to take, for choosing a bisection round */
	double probe_ns;                 /* device time per probe written (the spread's) */
	double flush_ns_per_byte;        /* device time per byte of flush */
};


static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The device's time now: its virtual clock, or the wall clock. */
static double now_ns(const struct ctx *c)
{
	return c->r->virtual_clock ? dev_clock(c->d) : wall_now();
}

/* The share is what was written of what the signatures and the flush
 * write; the edges' rounds are not known ahead. */
static void progress_total(void *ctx, uint64_t done)
{
	static const char *const part[4] = { "", "signatures", "flush", "edges" };
	struct ctx *c = ctx;
	struct progress_now now = { .done = c->done + done, .part = part[c->part], .part_no = c->part,
				    .parts = c->o->quick ? 0 : 3, .share = -1 };

	if (c->part < 3 && c->expect)
		now.share = fmin(0.99, (double)c->written / (double)c->expect);
	c->o->progress(c->o->progress_ctx, &now);
}

/* Run a built-in program with $blocksize bs, $pattern pass and the list
 * $offsets; the caller frees *res (NULL: results not wanted). */
static int run(struct ctx *c, const char *name, uint64_t bs, unsigned pass, const int64_t *off, size_t n,
	       struct vm_result **res)
{
	struct vm_run how = { .stop = c->o->stop, .salt = c->o->salt,
			      .progress = c->o->progress ? progress_total : NULL, .progress_ctx = c };
	struct test_params t;
	struct prog_vars v;
	struct vm_plan plan;
	struct vm_result *out = NULL;
	struct vm_op *prog;
	const char *format;
	int rc;

	if (res)
		*res = NULL;
	test_defaults(&t);
	t.blocksize = bs;
	t.pattern = (int)pass;
	program_vars(&t, dev_size(c->d), dev_sector(c->d), &v);
	prog_vars_set_list(&v, "offsets", off, n);
	if (program_builtin(name, &v, &prog, &format, c->e))
		return -1;
	vm_free(c->held);
	c->held = prog;
	rc = vm_plan(prog, dev_size(c->d), dev_sector(c->d), &plan, c->e);
	how.plan = &plan;
	if (!rc)
		rc = vm_run(prog, c->d, &how, &out, c->e);
	if (rc)
		return -1;
	c->done += plan.requests;
	if (plan.bytes_written) {
		c->r->writes += plan.requests;
		c->r->bytes_written += plan.bytes_written;
		if (!strcmp(name, "capacity-flush"))
			c->r->rewritten += plan.bytes_written;
		c->written += plan.bytes_written;
		vm_plan_span(&plan, &c->r->written_lo, &c->r->written_hi);
	} else {
		c->r->reads += plan.requests;
	}
	if (res)
		*res = out;
	else
		vm_result_free(out);
	return 0;
}

/* The node of the i-th offset in a capacity-sig-* result tree. */
static const struct vm_result *at_offset(const struct vm_result *root, size_t i)
{
	const struct vm_result *list = root && root->nkid && root->kid[0].nkid ? &root->kid[0].kid[0] : NULL;

	return list && i < list->nkid ? &list->kid[i] : NULL;
}

/* ------------------------------------------------------------ probes */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct cap_probe *probe_at(struct capacity_report *r, uint64_t off)
{
	for (unsigned i = 0; i < r->nprobes; i++)
		if (r->probe[i].off == off)
			return &r->probe[i];
	return NULL;
}

/* What a read of one probe found. */
static void judge_read(const struct ctx *c, struct cap_probe *p, const struct vm_result *n)
{
	const struct sig_tally *t = &n->st.sig;
	uint64_t sectors = c->plen / c->ss;

	if (t->good == sectors)
		p->last = CAP_GOOD;
	else if (t->moved) {
		p->last = CAP_MOVED;
		p->moved_from = t->moved_from - (t->moved_at - p->off);
	} else {
		p->last = CAP_LOST;
		p->held_old |= t->stale > 0 || t->foreign > t->blank;
	}
	p->flushed = c->written - c->probe_written[p - c->r->probe];
	if (p->last == CAP_LOST && !p->seen_lost) { /* the first look that found it lost */
		p->seen_lost = 1;
		p->flushed_lost = p->flushed;
	}
	if (p->first == CAP_UNREAD)
		p->first = p->last;
}

/* Write probes at off[0..n) (sorted), pass, as round `round`. */
static int write_probes(struct ctx *c, const uint64_t *off, size_t n, unsigned pass, unsigned round)
{
	int64_t *list = malloc((n ? n : 1) * sizeof(*list));
	size_t k = 0;
	int rc;

	if (!list)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (c->r->nprobes >= CAP_MAX_PROBES || probe_at(c->r, off[i]))
			continue;
		struct cap_probe *p = &c->r->probe[c->r->nprobes++];
		memset(p, 0, sizeof(*p));
		p->off = off[i];
		p->round = (uint8_t)round;
		p->spread = round == 0;
		list[k++] = (int64_t)off[i];
	}
	rc = k ? run(c, "capacity-sig-write", c->plen, pass, list, k, NULL) : 0;
	/* each probe was written before the ones after it: what came after
	 * counts toward flushing it */
	for (size_t i = 0; i < k && !rc; i++)
		c->probe_written[probe_at(c->r, (uint64_t)list[i]) - c->r->probe] = c->written - (k - 1 - i) * c->plen;
	free(list);
	return rc;
}

/* A good reading is proven when a place written after it reads lost in the
 * same look: a card that keeps its latest writes lets go of them in the
 * order they came (by count or by address), so a place it still held
 * would have been let go of too.  (A card that lost nothing to a cache,
 * needed 0, needs no proof.) */
static void prove(struct ctx *c, struct cap_probe **who, size_t k)
{
	uint64_t newest_lost = 0;
	int any_lost = 0;

	for (size_t i = 0; i < k; i++)
		if (who[i]->last == CAP_LOST || who[i]->last == CAP_MOVED) {
			uint64_t w = c->probe_written[who[i] - c->r->probe];
			if (!any_lost || w > newest_lost)
				newest_lost = w;
			any_lost = 1;
		}
	for (size_t i = 0; i < k && any_lost; i++)
		if (who[i]->last == CAP_GOOD && c->probe_written[who[i] - c->r->probe] < newest_lost)
			who[i]->proven = 1;
}

/* Read the probes of `round` (0: the spread), lost ones too: a place
 * written later that reads lost proves the good readings before it. */
static int look(struct ctx *c, int round, unsigned pass)
{
	int64_t *list = malloc((c->r->nprobes ? c->r->nprobes : 1) * sizeof(*list));
	struct cap_probe **who = malloc((c->r->nprobes ? c->r->nprobes : 1) * sizeof(*who));
	struct vm_result *res = NULL;
	size_t k = 0;
	int rc = 0;

	if (!list || !who) {
		free(list);
		free(who);
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	}
	for (unsigned i = 0; i < c->r->nprobes; i++) {
		struct cap_probe *p = &c->r->probe[i];
		if (p->round != round)
			continue;
		who[k] = p;
		list[k++] = (int64_t)p->off;
	}
	if (k && !(rc = run(c, "capacity-sig-read", c->plen, pass, list, k, &res)))
		for (size_t i = 0; i < k; i++) {
			const struct vm_result *n = at_offset(res, i);
			if (n)
				judge_read(c, who[i], n);
		}
	if (!rc)
		prove(c, who, k);
	vm_result_free(res);
	free(list);
	free(who);
	return rc;
}

/* ------------------------------------------------------------ the spread */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The reference block: long enough that one-sector reads ref_len apart
 * cover the device in at most GRID_MAX reads, and about as costly to write
 * (and put back) as the grid is to read: sqrt(size / 512 MiB) MiB, a power
 * of two. */
static uint64_t ref_length(uint64_t size)
{
	uint64_t len = CHUNK;

	while ((double)len * (double)len * 2 <= (double)size * (double)CHUNK / 512)
		len *= 2;
	while (size / len > GRID_MAX)
		len *= 2;
	return len;
}

/* One probe in each of K strata of the device (above the reference, below
 * the end probe), at a granule drawn from the device size: the same places
 * on every run of this device.  The flush leaves their chunks alone. */
static size_t spread(const struct ctx *c, unsigned strata, uint64_t *off)
{
	const struct capacity_report *r = c->r;
	uint64_t lo = c->ref_len / c->G, hi = (r->size - c->plen) / c->G, span = hi - lo, x = mix(r->size ^ 0x5ca1ab1e);
	size_t n = 0;

	for (unsigned j = 0; j < strata; j++) {
		uint64_t a = lo + span * j / strata, b = lo + span * (j + 1) / strata, g;
		if (b <= a)
			continue;
		x = mix(x + j);
		g = a + x % (b - a);
		off[n++] = g * c->G;
	}
	off[n++] = r->size - c->plen; /* the very end */
	return n;
}

/* The quick check's spread, within its time (capacity_options.max_ns):
 * the end probe first, the cautious one.  A probe is one write in an erase
 * block of its own, which the card pays for with a garbage collection (at
 * once, or when it closes the block), and putting it back costs another;
 * the last sector of the device is the end of its last erase block on most
 * cards, so the end probe costs the copy of at most one erase block, and
 * its time tells what every other probe will cost before any is written.
 * Then as many strata as that time allows (with their putting back), a
 * power of two of them evenly spread (strata k * S / N), so that the
 * verdict's chances hold for the strata written (r->strata); four at
 * least when they fit in CAP_QUICK_MAX_NS. */
static int quick_spread(struct ctx *c, uint64_t *off, size_t n)
{
	struct capacity_report *r = c->r;
	double t0 = now_ns(c), each, spent, left, most;
	unsigned strata = (unsigned)(n - 1), keep = 0, step;
	uint64_t end = off[n - 1];
	size_t k = 0;

	if (write_probes(c, &end, 1, 1, 0))
		return -1;
	each = now_ns(c) - t0;
	spent = now_ns(c) - r->clock0;
	/* what is written is put back: the reference about as fast as it went,
	 * the end probe as dear */
	most = c->o->hard_ns > 0 ? fmin(c->o->hard_ns, CAP_QUICK_MAX_NS) : CAP_QUICK_MAX_NS;
	left = fmin(c->o->max_ns > 0 ? c->o->max_ns : CAP_QUICK_NS, most) - 2 * spent;
	while (keep < strata && 2 * each * (double)(2 * keep > 0 ? 2 * keep : 1) <= left)
		keep = keep ? 2 * keep : 1;
	/* quarters at least (a card missing a quarter of its flash anywhere
	 * cannot pass), unless they would take far longer (a card that copies
	 * its erase blocks very slowly) */
	while (keep < CAP_QUICK_MIN_STRATA && keep < strata &&
	       2 * each * (double)(keep ? 2 * keep : 1) <= most - 2 * spent)
		keep = keep ? 2 * keep : 1;
	if (keep > strata)
		keep = strata;
	step = keep ? strata / keep : 0;
	for (unsigned j = 0; keep && j < strata && k < keep; j += step)
		off[k++] = off[j];
	if (k && write_probes(c, off, k, 1, 0))
		return -1;
	r->strata = (unsigned)k;
	c->probe_ns = (now_ns(c) - t0) / (double)(k + 1);
	return 0;
}

/* Write the reference block at 0 (pass 1). */
static int write_reference(struct ctx *c)
{
	int64_t list[64];
	size_t n = 0;

	for (uint64_t at = 0; at < c->ref_len && n < 64; at += CHUNK)
		list[n++] = (int64_t)at;
	return run(c, "capacity-sig-write", c->ref_len < CHUNK ? c->ref_len : CHUNK, 1, list, n, NULL);
}

/* Read the reference back: 0 good, else what it held (moved: an alias). */
static int read_reference(struct ctx *c, struct sig_tally *t)
{
	int64_t list[64];
	struct vm_result *res = NULL;
	size_t n = 0;

	for (uint64_t at = 0; at < c->ref_len && n < 64; at += CHUNK)
		list[n++] = (int64_t)at;
	if (run(c, "capacity-sig-read", c->ref_len < CHUNK ? c->ref_len : CHUNK, 1, list, n, &res))
		return -1;
	*t = res->st.sig;
	vm_result_free(res);
	return 0;
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* A read at `at` found the signature written for `from`: both reach the
 * same flash, and the addresses repeat every |at - from| bytes or a divisor
 * of it.  Every such distance is a whole number of periods, so the period
 * is their greatest common divisor (not the smallest one: when the period
 * is shorter than the reference, later writes overwrite it, and what a
 * read finds may lie any number of periods away).  The nearest pair is
 * kept for the evidence. */
static void alias_seen(struct capacity_report *r, uint64_t at, uint64_t from)
{
	uint64_t d = dist(at, from);

	if (!d)
		return;
	r->aliases++;
	r->period = size_gcd(r->period, d);
	if (!r->alias_at || d < dist(r->alias_at, r->alias_from)) {
		r->alias_at = at;
		r->alias_from = from;
	}
}

/* The alias grid: one sector every ref_len bytes.  An address that maps
 * onto the reference block (a card that wraps around after P bytes: every
 * address in [P, P + ref_len)) reads the reference's signature of another
 * offset; the first such read gives P. */
static int alias_grid(struct ctx *c)
{
	uint64_t step = c->ref_len, n = c->r->size / step;
	int64_t *list = malloc((size_t)(n ? n : 1) * sizeof(*list));
	struct vm_result *res = NULL;
	size_t k = 0;
	int rc;

	if (!list)
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	for (uint64_t m = 1; m < n; m++)
		list[k++] = (int64_t)(m * step);
	c->r->grid_step = step;
	rc = k ? run(c, "capacity-sig-read", c->ss, 1, list, k, &res) : 0;
	for (size_t i = 0; i < k && !rc; i++) {
		const struct vm_result *node = at_offset(res, i);
		c->r->grid_reads++;
		if (node && node->st.sig.moved) {
			c->r->grid_moved++;
			alias_seen(c->r, node->st.sig.moved_at, node->st.sig.moved_from);
		}
	}
	vm_result_free(res);
	free(list);
	return rc;
}

/* ------------------------------------------------------------ flushing */

/* The first place in [a, b) that holds a probe, a stretch written whole,
 * or the stretch being written now, and its end (*end); b when none.  The
 * flush leaves those alone: rewriting them would write them again, and a
 * card that keeps its latest writes by address would keep them. */
static uint64_t busy_from(const struct ctx *c, uint64_t a, uint64_t b, uint64_t *end)
{
	const struct capacity_report *r = c->r;
	uint64_t first = b;

	*end = b;
	for (unsigned i = 0; i <= r->nprobes + r->nspans; i++) {
		uint64_t lo, hi;
		if (i < r->nprobes) {
			lo = r->probe[i].off;
			hi = lo + r->plan.probe_len;
		} else if (i < r->nprobes + r->nspans) {
			lo = r->spans[i - r->nprobes].off;
			hi = lo + r->spans[i - r->nprobes].len;
		} else {
			lo = c->pending_off;
			hi = lo + c->pending_len;
		}
		if (hi <= a || lo >= b || hi <= lo)
			continue;
		if (lo < a)
			lo = a;
		if (lo < first || (lo == first && hi > *end)) {
			first = lo;
			*end = hi;
		}
	}
	return first;
}

/* Start the flush at the top of its window: the group below the end probe. */
static void flush_restart(struct ctx *c)
{
	const struct capacity_plan *p = &c->r->plan;
	uint64_t top = p->window_off + p->window_len;

	c->group_lo = (top - 1) / WINDOW_GROUP * WINDOW_GROUP;
	if (c->group_lo < p->window_off)
		c->group_lo = p->window_off;
	c->flush_at = c->group_lo;
	c->distinct = 0;
}

/* The chunk after c->flush_at in the window's order: up to the end of its
 * group, then the bottom of the group below, and round to the top again. */
static void flush_next(struct ctx *c)
{
	const struct capacity_plan *p = &c->r->plan;
	uint64_t top = p->window_off + p->window_len, group_hi = (c->group_lo / WINDOW_GROUP + 1) * WINDOW_GROUP;

	if (group_hi > top)
		group_hi = top;
	if ((c->flush_at += CHUNK) < group_hi)
		return;
	if (c->group_lo <= p->window_off) {
		flush_restart(c);
		return;
	}
	c->group_lo = c->group_lo - p->window_off > WINDOW_GROUP ? c->group_lo - WINDOW_GROUP : p->window_off;
	c->flush_at = c->group_lo;
}

/* Rewrite one piece of a chunk that holds a probe: a request of its own. */
static int flush_piece(struct ctx *c, uint64_t off, uint64_t len)
{
	int64_t at = (int64_t)off;

	return run(c, "capacity-flush", len, 0, &at, 1, NULL);
}

/* Rewrite `bytes` more of the flush window (from its top when `restart`),
 * each chunk with the bytes it holds: distinct places past the real end of
 * a fake card, so that a cache of its latest writes, however it keeps them
 * (by count or by address), lets go of every probe written before; the
 * data stay as they were.  A chunk that holds a probe or a stretch is
 * rewritten around it, so that as many places past the real end are
 * written whatever lies there. */
static int flush(struct ctx *c, uint64_t bytes, int restart)
{
	size_t n = (size_t)((bytes + CHUNK - 1) / CHUNK), k = 0;
	uint64_t chunks = c->r->plan.window_len / CHUNK, seen = 0, done = 0;
	int64_t *list;
	int rc = 0;

	if (restart)
		flush_restart(c);
	if (!n || !chunks)
		return 0;
	if (!(list = malloc(n * sizeof(*list))))
		return fb_fail(c->e, EXIT_DEVICE, "out of memory");
	while (done < bytes && seen < n + 2 * chunks && !rc) { /* a window all probes ends it */
		uint64_t a = c->flush_at, b = a + CHUNK, end, at, got = 0;
		if (bytes - done < CHUNK) /* the last one: no more than asked (whole sectors) */
			b = a + (bytes - done + c->ss - 1) / c->ss * c->ss;
		at = busy_from(c, a, b, &end);
		if (at == b && b - a == CHUNK) { /* whole: with the others, in order */
			list[k++] = (int64_t)a;
			got = CHUNK;
		} else {
			if (k)
				rc = run(c, "capacity-flush", CHUNK, 0, list, k, NULL);
			k = 0;
			for (uint64_t from = a; from < b && !rc; from = end, at = busy_from(c, from, b, &end)) {
				if (at > from) {
					rc = flush_piece(c, from, at - from);
					got += at - from;
				}
				if (at == b)
					break;
			}
		}
		done += got;
		c->distinct += got;
		if (c->distinct > c->distinct_most)
			c->distinct_most = c->distinct;
		flush_next(c);
		seen++;
	}
	if (!rc && k)
		rc = run(c, "capacity-flush", CHUNK, 0, list, k, NULL);
	free(list);
	return rc;
}

static int any(const struct capacity_report *r, int which_last, int state)
{
	for (unsigned i = 0; i < r->nprobes; i++)
		if ((which_last ? r->probe[i].last : r->probe[i].first) == state)
			return 1;
	return 0;
}

/* Flush in doubling steps up to max_cache, looking at the probes after
 * each; stop one step after the first probe was lost.  Returns the bytes a
 * read needs after a write to trust it: the flush at which the card let go
 * (0 when it never did). */
static int flush_and_look(struct ctx *c, uint64_t *needed)
{
	struct capacity_report *r = c->r;
	uint64_t done = 0, before = 0, target = FLUSH_FIRST, lost_at = 0;
	double t0 = now_ns(c);

	*needed = 0;
	c->distinct_most = 0;
	while (done < r->max_cache) {
		uint64_t w0 = c->written;
		if (target > r->max_cache)
			target = r->max_cache;
		if (flush(c, target - done, !done) || look(c, 0, 1))
			return -1;
		done += c->written - w0; /* whole chunks: at least what was asked */
		r->flushed = done;
		if (lost_at)
			break;
		if (any(r, 1, CAP_LOST) || any(r, 1, CAP_MOVED)) {
			lost_at = done;
			r->cache_hi = done;
			r->cache_lo = before;
		}
		before = done;
		target = done * 2;
	}
	/* a cache kept by address lets go only for distinct places */
	r->flush_distinct = c->distinct_most < done ? c->distinct_most : done;
	r->flush_full = done >= r->max_cache && r->flush_distinct >= r->max_cache;
	if (done) /* with the looks between, a little more than the flush alone */
		c->flush_ns_per_byte = (now_ns(c) - t0) / (double)done;
	*needed = lost_at;
	return 0;
}

/* ------------------------------------------------------------ bisection */

/* The nearest probes around a boundary: the highest good one below the
 * lowest lost one (up: the edge where loss begins), or the lowest good one
 * above the highest lost one (down: where it ends).  0 when none. */
static int edge(const struct capacity_report *r, int up, uint64_t *good, uint64_t *lost)
{
	uint64_t lo_lost = UINT64_MAX, hi_lost = 0;
	int found = 0;

	for (unsigned i = 0; i < r->nprobes; i++)
		if (r->probe[i].last == CAP_LOST) {
			lo_lost = r->probe[i].off < lo_lost ? r->probe[i].off : lo_lost;
			hi_lost = r->probe[i].off > hi_lost ? r->probe[i].off : hi_lost;
			found = 1;
		}
	if (!found)
		return 0;
	*lost = up ? lo_lost : hi_lost;
	*good = up ? 0 : r->size;
	for (unsigned i = 0; i < r->nprobes; i++) {
		const struct cap_probe *p = &r->probe[i];
		if (!cap_kept(r, p))
			continue;
		if (up && p->off < *lost && p->off >= *good)
			*good = p->off;
		if (!up && p->off > *lost && p->off < *good)
			*good = p->off;
	}
	return up || *good < r->size;
}

/* One request of bs bytes at each of off[0..n): signatures written, or
 * read and tallied into t. */
static int span_run(struct ctx *c, int write, uint64_t bs, unsigned pass, const int64_t *off, size_t n,
		    struct sig_tally *t)
{
	struct vm_result *res = NULL;

	if (run(c, write ? "capacity-sig-write" : "capacity-sig-read", bs, pass, off, n, write ? NULL : &res))
		return -1;
	if (res)
		sig_tally_add(t, &res->st.sig);
	vm_result_free(res);
	return 0;
}

/* Write (or read and tally into t) the signatures of [a, b), at most
 * SPAN_MAX bytes: whole chunks, then the rest. */
static int span_io(struct ctx *c, int write, uint64_t a, uint64_t b, unsigned pass, struct sig_tally *t)
{
	uint64_t whole = (b - a) / CHUNK * CHUNK;
	int64_t list[SPAN_MAX / CHUNK], tail = (int64_t)(a + whole);
	size_t n = 0;

	for (uint64_t at = a; at < a + whole && n < sizeof(list) / sizeof(list[0]); at += CHUNK)
		list[n++] = (int64_t)at;
	if (n && span_run(c, write, CHUNK, pass, list, n, t))
		return -1;
	return b > a + whole ? span_run(c, write, b - a - whole, pass, &tail, 1, t) : 0;
}

/* The control of a round: the known-lost place `lost` written again, last
 * (pass, as round `round`), so that it is the newest write past the real
 * end.  Once it reads lost again, the card has let go of everything the
 * round wrote before it; while it reads good, the round proves nothing. */
static int write_control(struct ctx *c, uint64_t lost, unsigned pass, unsigned round)
{
	struct cap_probe *p = probe_at(c->r, lost);
	int64_t at = (int64_t)lost;

	if (!p)
		return 0;
	if (run(c, "capacity-sig-write", c->plen, pass, &at, 1, NULL))
		return -1;
	p->round = (uint8_t)round;
	c->probe_written[p - c->r->probe] = c->written;
	return 0;
}

/* Flush *needed from the top and read the round (`read` reads what it
 * wrote; look() reads its probes and its control); while the control still
 * reads good, flush twice as much and read again, up to max_cache.  *ok: 1
 * when the card let go of the control (*needed is then what it took), 0
 * when not even max_cache made it. */
static int until_let_go(struct ctx *c, uint64_t *needed, struct cap_probe *control, int round, unsigned pass,
			int (*read)(struct ctx *c, void *arg), void *arg, int *ok)
{
	uint64_t f = *needed;

	*ok = 0;
	for (;;) {
		if (flush(c, f, 1) || (read && read(c, arg)) || look(c, round, pass))
			return -1;
		if (!control || control->last != CAP_GOOD) {
			*ok = 1;
			*needed = f;
			return 0;
		}
		if (f >= c->r->max_cache)
			return 0;
		f = f ? 2 * f : CHUNK;
		if (f > c->r->max_cache)
			f = c->r->max_cache;
	}
}

/* A round that proved nothing: its readings are set aside (the probes stay
 * written, to be put back, but no edge is drawn from them), and the control
 * is known lost, as it was. */
static void set_aside(struct capacity_report *r, int round, struct cap_probe *control)
{
	for (unsigned i = 0; i < r->nprobes; i++)
		if (r->probe[i].round == round && &r->probe[i] != control)
			r->probe[i].last = CAP_UNREAD;
	if (control)
		control->last = CAP_LOST;
	r->unproven++;
}

/* The last round of an edge: the stretch between the nearest good probe
 * and the nearest lost one, the lost probe's own sectors with it, written
 * whole and read back sector by sector after `needed` bytes of flush.  Up
 * (loss begins in it): the first sector that did not keep its signature is
 * where; every sector below it did.  Down (loss ends in it): the end of the
 * last one that did not.  A stretch that reads back whole (the card kept
 * this time what it lost before) leaves the probes' edge. */
struct span_read {
	uint64_t a, b;
	unsigned pass;
	struct sig_tally t;
};

static int read_span(struct ctx *c, void *arg)
{
	struct span_read *s = arg;

	memset(&s->t, 0, sizeof(s->t));
	return span_io(c, 0, s->a, s->b, s->pass, &s->t);
}

static int exact_edge(struct ctx *c, int up, uint64_t good, uint64_t lost, uint64_t *needed, unsigned round)
{
	struct capacity_report *r = c->r;
	struct span_read s = { .a = up ? good + c->plen : lost, .b = up ? lost + c->plen : good, .pass = 1 + round };
	struct cap_probe *control = *needed ? probe_at(r, lost) : NULL;
	uint64_t a = s.a, b = s.b;
	struct sig_tally t;
	int ok, rc;

	c->pending_off = a; /* the flush leaves it alone */
	c->pending_len = b - a;
	rc = span_io(c, 1, a, b, s.pass, NULL) || (control && write_control(c, lost, s.pass, round)) ||
	     until_let_go(c, needed, control, (int)round, s.pass, read_span, &s, &ok);
	c->pending_len = 0;
	if (rc)
		return -1;
	if (!ok) {
		set_aside(r, (int)round, control);
		return 0;
	}
	t = s.t;
	if (r->nspans >= sizeof(r->spans) / sizeof(r->spans[0]))
		return 0;
	r->spans[r->nspans].off = a;
	r->spans[r->nspans].len = b - a;
	r->spans[r->nspans].bad_lo = t.bad_lo;
	r->spans[r->nspans].bad_hi = t.bad_hi;
	r->spans[r->nspans].up = up;
	r->nspans++;
	if (t.bad_hi && up)
		r->exact_from = t.bad_lo;
	else if (t.bad_hi)
		r->exact_to = t.bad_hi;
	return 0;
}

/* Rounds of m probes that narrow `span` bytes to one granule. */
static unsigned rounds_for(uint64_t span, uint64_t granule, unsigned m)
{
	unsigned k = 0;

	for (double left = (double)span; left > (double)granule && k < 64; left /= m + 1)
		k++;
	return k;
}

/* Probes per bisection round: the number that narrows `span` to one granule
 * at the least cost, counted from what the card was seen to take.  A round
 * costs its flush (needed bytes) and its probes, each written and put back
 * (on most cards each costs an erase block's garbage collection, but
 * probes nearer than an erase block share one: the count is an upper
 * bound).  Without a flush, one probe per round (plain bisection) is
 * cheapest but for the rounds' own reads. */
static unsigned round_size(const struct ctx *c, uint64_t span, uint64_t needed)
{
	double flush = (double)needed * c->flush_ns_per_byte, probe = 2 * c->probe_ns, best = -1;
	unsigned m_best = 1;

	for (unsigned m = 1; m <= ROUND_MAX; m++) {
		double cost = rounds_for(span, c->G, m) * (flush + m * probe);
		if (best < 0 || cost < best) {
			best = cost;
			m_best = m;
		}
	}
	return m_best;
}

/* Refine one edge: rounds of m probes between the good and the lost one,
 * written, then read after `needed` bytes of flush, until one granule is
 * left, or a stretch short enough for exact_edge when its flush is short. */
static int bisect(struct ctx *c, int up, uint64_t *needed, unsigned *round)
{
	struct capacity_report *r = c->r;
	uint64_t good, lost, off[ROUND_MAX];
	unsigned m;
	int ok;

	while (edge(r, up, &good, &lost)) {
		uint64_t lo = up ? good : lost, hi = up ? lost : good;
		struct cap_probe *control;
		size_t n = 0;
		m = round_size(c, hi - lo, *needed);
		if (*needed <= EXACT_FLUSH_MAX && hi - lo <= SPAN_MAX - c->plen && hi - lo <= (m + 1) * c->G)
			return exact_edge(c, up, good, lost, needed, ++*round);
		if (hi - lo <= c->G)
			return 0;
		if (r->nprobes + m > CAP_MAX_PROBES)
			break;
		for (unsigned i = 1; i <= m; i++) {
			uint64_t at = (lo + (hi - lo) / (m + 1) * i) / c->G * c->G;
			if (at <= lo)
				at = (lo / c->G + 1) * c->G;
			if (at >= hi || (n && off[n - 1] >= at) || probe_at(r, at))
				continue;
			off[n++] = at;
		}
		if (!n)
			break;
		++*round;
		/* a card that lost even its newest write at once keeps none: no control */
		control = *needed ? probe_at(r, lost) : NULL;
		if (write_probes(c, off, n, 1 + *round, *round) ||
		    (control && write_control(c, lost, 1 + *round, *round)) ||
		    until_let_go(c, needed, control, (int)*round, 1 + *round, NULL, NULL, &ok))
			return -1;
		if (!ok) {
			set_aside(r, (int)*round, control);
			return 0;
		}
		r->needed = *needed;
	}
	return 0;
}

/* The bytes written after a probe before the card had let go of it: the
 * least `flushed` at which a probe was seen lost (0: lost at once). */
static uint64_t trust_after(const struct capacity_report *r)
{
	uint64_t least = UINT64_MAX;

	for (unsigned i = 0; i < r->nprobes; i++) {
		const struct cap_probe *p = &r->probe[i];
		uint64_t f = p->flushed_lost;
		if (p->seen_lost && f < least)
			least = f;
	}
	return least == UINT64_MAX ? 0 : least;
}

/* The spread's good readings are proven once a place written after them
 * reads lost: when some are not (they were written after every probe that
 * lost its data, or read before the card had let go), a known-lost place
 * (the lowest) is written again, last, then *needed is flushed and the
 * spread read again, more while the card still holds that place. */
static int settle(struct ctx *c, uint64_t *needed)
{
	struct capacity_report *r = c->r;
	struct cap_probe *control = NULL;
	int again = 0, ok;

	for (unsigned i = 0; i < r->nprobes; i++) {
		struct cap_probe *p = &r->probe[i];
		again |= p->round == 0 && p->last == CAP_GOOD && !p->proven;
		if (p->round == 0 && p->last == CAP_LOST && (!control || p->off < control->off))
			control = p;
	}
	if (!again || !control || !*needed)
		return 0;
	if (write_control(c, control->off, 1, 0) || until_let_go(c, needed, control, 0, 1, NULL, NULL, &ok))
		return -1;
	if (!ok) {
		control->last = CAP_LOST;
		r->unproven++;
	}
	return 0;
}

/* Does the sector read at `at` hold the new signature written for `from`
 * in pass `pass` (the two addresses reach the same flash)? */
static int holds_new(struct ctx *c, uint64_t at, uint64_t from, unsigned pass, int *same)
{
	struct vm_result *res = NULL;
	int64_t list[1] = { (int64_t)at };

	*same = 0;
	if (at + c->ss > c->r->size)
		return 0;
	if (run(c, "capacity-sig-read", c->ss, pass, list, 1, &res))
		return -1;
	*same = res->st.sig.moved && res->st.sig.moved_from == from && res->st.sig.moved_pass == pass;
	vm_result_free(res);
	return 0;
}

/* The prime factors of n (trial division to 2^16; what is left over is
 * taken as one factor), with multiplicity; returns how many. */
static unsigned factors(uint64_t n, uint64_t *f, unsigned max)
{
	unsigned k = 0;

	for (uint64_t p = 2; p <= 65536 && p * p <= n && k < max; p += p == 2 ? 1 : 2)
		while (n % p == 0 && k < max) {
			f[k++] = p;
			n /= p;
		}
	if (n > 1 && k < max)
		f[k++] = n;
	return k;
}

/* The period, proved with writes of its own.  Every distance seen between
 * two addresses that share flash is a whole number of periods, so the true
 * period divides their greatest common divisor Q.  A new signature is
 * written over byte 0's sector; then for each prime factor f of Q (in
 * sectors) a read at P / f that finds it means the period divides P / f as
 * well, and P shrinks to it.  Last, a second new sector is written at
 * y = P/2, and reads at P and 2P (and P + y, 2P + y) must find the new
 * signatures of the places P (or 2P) below them: the same flash again.
 * Reads only, but for the two one-sector writes (a longer one would wrap
 * over itself on a period shorter than it: 8 KiB was read as 1 MiB). */
static int confirm_period(struct ctx *c)
{
	struct capacity_report *r = c->r;
	uint64_t f[64], p = r->period, y;
	unsigned pass = 0xa0, nf = factors(r->period / c->ss, f, 64);
	int64_t at[1] = { 0 };
	int same;

	r->period_seen = r->period;
	/* one sector: a longer write would wrap over itself on a period
	 * shorter than it, and byte 0's flash would hold another offset's */
	if (run(c, "capacity-sig-write", c->ss, pass, at, 1, NULL))
		return -1;
	for (unsigned i = 0; i < nf; i++) {
		if (p / c->ss % f[i])
			continue;
		if (holds_new(c, p / f[i], 0, pass, &same))
			return -1;
		if (same)
			p /= f[i];
	}
	r->period = p;
	/* the start's flash again at P and 2P, and a second place halfway
	 * into the period (a new sector there) again at P + y and 2P + y */
	y = p / 2 / c->ss * c->ss;
	at[0] = (int64_t)y;
	if (y && run(c, "capacity-sig-write", c->ss, pass + 1, at, 1, NULL))
		return -1;
	for (unsigned j = 0; j < 4; j++) {
		uint64_t from = j < 2 ? 0 : y, to = (j % 2 ? 2 * p : p) + from;
		if ((j >= 2 && !y) || to + c->ss > r->size)
			continue;
		if (holds_new(c, to, from, j < 2 ? pass : pass + 1, &same))
			return -1;
		r->period_checks++;
		r->period_agree += same;
	}
	return 0;
}

/* ------------------------------------------------------------ the plan */

static void plan(struct ctx *c)
{
	struct capacity_report *r = c->r;
	struct capacity_plan *p = &r->plan;
	uint64_t top = (r->size - c->plen) / c->G * c->G;

	p->probe_len = c->plen;
	p->max_probes = CAP_MAX_PROBES;
	p->ref_len = c->ref_len;
	/* the flush window: max_cache of distinct places at the top, below
	 * the end probe (past the real end of a fake card), above the
	 * reference, and room for the chunks it leaves alone (every probe
	 * and the edges' stretches may lie in it) */
	p->window_len = (r->max_cache + CHUNK - 1) / CHUNK * CHUNK +
			(CAP_MAX_PROBES + 2 * (SPAN_MAX / CHUNK + 1)) * CHUNK;
	if (p->window_len > top - c->ref_len)
		p->window_len = top - c->ref_len;
	p->window_off = top - p->window_len;
	p->flush = c->o->quick ? 0 : r->max_cache;
	p->span_max = SPAN_MAX;
	/* the flush journals what it rewrites, once: the first max_cache of
	 * its window, and one more chunk for each probe found in it later */
	p->max_saved = c->ref_len + p->max_probes * c->plen + 2 * SPAN_MAX + (p->flush ? p->window_len : 0);
}

/* The probe's length, the granule and the reference's length on d. */
static void sizes(struct ctx *c, const struct dev *d)
{
	c->ss = dev_sector(d);
	c->plen = dev_physical_sector(d) > 4096 ? dev_physical_sector(d) : 4096;
	if (c->plen % c->ss)
		c->plen = c->ss;
	c->G = CAP_RESOLUTION;
	c->ref_len = ref_length(c->r->size);
}

int capacity_quick_plan(const struct dev *d, struct capacity_plan *p, uint64_t *least)
{
	static const struct capacity_options quick = { .quick = 1 };
	struct capacity_report *r = calloc(1, sizeof(*r));
	struct ctx c = { .o = &quick, .r = r };

	if (!r || dev_size(d) < CAP_MIN_SIZE) {
		free(r);
		return -1;
	}
	r->size = dev_size(d);
	r->max_cache = CAP_MAX_CACHE < r->size ? CAP_MAX_CACHE : r->size;
	sizes(&c, d);
	plan(&c);
	*p = r->plan;
	*least = c.ref_len + c.plen; /* the reference and the end probe, always written */
	free(r);
	return 0;
}

void capacity_account(struct capacity_report *r, const struct dev *d)
{
	r->device_ns = r->virtual_clock ? dev_clock(d) - r->clock0 : wall_now() - r->clock0;
}

int capacity_check(struct dev *d, const struct capacity_options *o, struct capacity_report *r, struct fb_err *e)
{
	struct ctx c = { .d = d, .o = o, .r = r, .e = e };
	uint64_t off[STRATA * 4 + 2], needed = 0;
	struct sig_tally ref;
	unsigned round = 0, strata = o->strata ? o->strata : STRATA;
	size_t n;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->size = dev_size(d);
	r->sector = dev_sector(d);
	r->max_cache = o->max_cache ? o->max_cache : CAP_MAX_CACHE;
	if (r->max_cache > r->size) /* a cache is flash of the card: never larger than it */
		r->max_cache = r->size;
	r->virtual_clock = dev_clock(d) >= 0;
	r->clock0 = r->virtual_clock ? dev_clock(d) : wall_now();
	if (strata > STRATA * 4)
		strata = STRATA * 4;
	r->strata = strata;
	if (r->size < CAP_MIN_SIZE)
		return fb_fail(e, EXIT_USAGE, "%s has %llu bytes: --capacity checks devices of 64MiB or more",
			       dev_path(d), (unsigned long long)r->size);
	sizes(&c, d);
	plan(&c);
	if (o->before_writes && o->before_writes(o->ctx, &r->plan, e))
		return -1;

	/* the spread: reference, probes (in ascending order, the end last),
	 * read at once, then the alias grid */
	n = spread(&c, strata, off);
	qsort(off, n, sizeof(off[0]), cmp_u64);
	c.part = 1;
	c.expect = c.ref_len + n * c.plen + (o->quick ? 0 : r->plan.flush);
	if (write_reference(&c))
		goto out;
	{ /* the reference's first sectors are the probe at 0 */
		struct cap_probe *p0 = &r->probe[r->nprobes++];
		memset(p0, 0, sizeof(*p0));
		p0->spread = 1;
		c.probe_written[0] = c.written - (c.ref_len - c.plen);
	}
	if (o->quick) {
		if (quick_spread(&c, off, n))
			goto out;
	} else {
		double t0 = now_ns(&c);
		if (write_probes(&c, off, n, 1, 0))
			goto out;
		c.probe_ns = (now_ns(&c) - t0) / (double)n;
	}
	if (look(&c, 0, 1) ||
	    read_reference(&c, &ref) || alias_grid(&c))
		goto out;
	if (ref.moved)
		alias_seen(r, ref.moved_at, ref.moved_from);
	else if (ref.bad_hi && ref.bad_lo >= c.plen && r->nprobes < CAP_MAX_PROBES) {
		/* the reference itself lost sectors past its first ones: a loss
		 * inside it is a loss like a probe's (a card missing its first
		 * MiBs but for the start would pass otherwise) */
		struct cap_probe *q = &r->probe[r->nprobes];
		memset(q, 0, sizeof(*q));
		q->off = ref.bad_lo / c.plen * c.plen;
		q->first = q->last = CAP_LOST;
		q->seen_lost = q->spread = 1;
		c.probe_written[r->nprobes] = c.written - (c.ref_len - q->off);
		q->flushed = q->flushed_lost = c.written - c.probe_written[r->nprobes];
		q->held_old = ref.foreign > ref.blank || ref.stale > 0;
		if (!probe_at(r, q->off))
			r->nprobes++;
	}

	if (!r->period && !any(r, 1, CAP_LOST) && !any(r, 1, CAP_MOVED) && !o->quick) {
		/* nothing wrong at once: a cache of the latest writes may hold
		 * them; flush it and look again */
		c.part = 2;
		if (flush_and_look(&c, &needed))
			goto out;
	}
	for (unsigned i = 0; i < r->nprobes; i++)
		if (r->probe[i].last == CAP_MOVED)
			alias_seen(r, r->probe[i].off, r->probe[i].moved_from);
	c.part = 3;
	if (r->period) {
		if (confirm_period(&c))
			goto out;
	} else if (any(r, 1, CAP_LOST)) {
		/* a read is trusted after as many bytes as the card took to
		 * lose a probe; probes read good sooner are looked at again */
		needed = trust_after(r);
		r->needed = needed;
		if (settle(&c, &needed))
			goto out;
		r->needed = needed;
		/* where loss begins, and where it ends below a working end */
		if (bisect(&c, 1, &needed, &round) || bisect(&c, 0, &needed, &round))
			goto out;
	}
	r->needed = needed;
	rc = 0;
out:
	vm_free(c.held);
	capacity_account(r, d);
	if (!rc)
		capacity_judge(r);
	return rc;
}
