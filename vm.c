/* vm.c — runs test programs against a device (see vm.h for the opcodes). */
#include "vm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "lib/extents.h"

#define VM_MAX_REQUESTS 100000000ULL   /* a program making more is refused */
#define VM_MAX_STEPS    1000000000ULL  /* loop steps, with or without I/O */
#define VM_MAX_SHUFFLE  (1u << 24)
/* Result nodes a program may keep: each is a struct vm_result (~100 bytes)
 * and grows the text and JSON output; 2^21 (~200 MB) allows a scatter
 * test of 2^20 positions. */
#define VM_MAX_KEPT     (1ULL << 21)

#define VM_ROW_(code, nm, isio, argnames, ka, kb, mean) \
	[VM_##code] = { .name = nm, .io = isio, .args = argnames, .arg = { VM_ARG_##ka, VM_ARG_##kb }, .meaning = mean },
static const struct vm_opinfo opinfo[VM_NOPCODES] = { VM_OPCODES(VM_ROW_) };
#undef VM_ROW_

const struct vm_opinfo *vm_opinfo(enum vm_opcode code)
{
	return (unsigned)code < VM_NOPCODES ? &opinfo[code] : NULL;
}

int vm_opcode_nargs(enum vm_opcode code)
{
	const struct vm_opinfo *i = vm_opinfo(code);
	return i ? (i->arg[0] != VM_ARG_NONE) + (i->arg[1] != VM_ARG_NONE) : 0;
}

int vm_opcode_writes(enum vm_opcode code)
{
	return code == VM_WRITE || code == VM_ERASE || code == VM_SIG_WRITE || code == VM_REWRITE;
}

int vm_opcode_changes(enum vm_opcode code)
{
	return vm_opcode_writes(code) && code != VM_REWRITE;
}

const char *vm_opcode_name(enum vm_opcode code)
{
	return (unsigned)code < VM_NOPCODES ? opinfo[code].name : "?";
}

/* ------------------------------------------------------------ building */

struct vm_op *vm_add(struct vm_op *op, struct vm_op *child)
{
	struct vm_op **b;

	if (!op || !child) {
		vm_free(op);
		vm_free(child);
		return NULL;
	}
	b = realloc(op->body, (op->nbody + 1) * sizeof(*b));
	if (!b) {
		vm_free(op);
		vm_free(child);
		return NULL;
	}
	op->body = b;
	op->body[op->nbody++] = child;
	return op;
}

struct vm_op *vm_new(enum vm_opcode code, int64_t a, int64_t b, unsigned flags, ...)
{
	struct vm_op *op = calloc(1, sizeof(*op)), *child;
	int failed = !op;
	va_list ap;

	if (op) {
		op->code = code;
		op->a = a;
		op->b = b;
		op->flags = flags;
	}
	va_start(ap, flags);
	while ((child = va_arg(ap, struct vm_op *)) != NULL) {
		if (failed) {
			vm_free(child);
			continue;
		}
		if (!(op = vm_add(op, child)))
			failed = 1;
	}
	va_end(ap);
	return failed ? NULL : op;
}

struct vm_op *vm_label(struct vm_op *op, const char *label)
{
	if (op)
		op->label = label;
	return op;
}

void vm_free(struct vm_op *op)
{
	if (!op)
		return;
	for (size_t i = 0; i < op->nbody; i++)
		vm_free(op->body[i]);
	if (op->owns_label)
		free((char *)op->label);
	free(op->body);
	free(op->list);
	free(op);
}

/* ------------------------------------------------------------ walking */

struct regs {
	uint64_t off, len, unit;
	int pattern;
};

struct walk {
	struct dev *dev;           /* NULL when planning */
	const struct vm_run *how;
	struct vm_plan *plan;
	uint64_t size;
	unsigned sector;
	uint64_t done;
	uint64_t steps;            /* planning: bodies run */
	unsigned depth;            /* of the node running (the root: 0) */
	int first_path;            /* it and every node above it are first kept children */
	struct fb_err *e;
	struct extents *writes;    /* planning: the ranges written or erased (NULL: not wanted), */
	struct extents *changes;   /* and those changed (all but a rewrite's) */
	int no_memory;             /* ... and one of them could not grow */
	double elapsed, slowest;   /* running: device time so far, slowest request */
	void *buf;                 /* signatures: the data buffer */
	size_t buf_len;
	struct vm_queue *queue;    /* inside a queue: its requests wait here */
};

/* A queue's requests, handed to the device in batches (dev_queue). */
#define VM_QUEUE_BATCH 1024u
struct vm_queue {
	unsigned depth;
	struct dev_req req[VM_QUEUE_BATCH];
	size_t n;
	size_t target;             /* the next batch: the depth, then as the time bound allows */
	struct vm_stats st;        /* every request of the queue, its time the queue's */
};

void vm_stats_add(struct vm_stats *a, const struct vm_stats *b)
{
	if (!b->count)
		return;
	if (!a->count || b->min_ns < a->min_ns)
		a->min_ns = b->min_ns;
	if (!a->count || b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
	a->count += b->count;
	a->bytes += b->bytes;
	a->total_ns += b->total_ns;
	sig_tally_add(&a->sig, &b->sig);
}

/* Free what a node owns (its kept children), not the node itself. */
static void free_kids(struct vm_result *r)
{
	for (size_t i = 0; i < r->nkid; i++)
		free_kids(&r->kid[i]);
	free(r->kid);
	r->kid = NULL;
	r->nkid = 0;
}

void vm_result_free(struct vm_result *r)
{
	if (!r)
		return;
	free_kids(r);
	free(r);
}

static int exec(struct walk *w, const struct vm_op *op, struct regs r, struct vm_result *node);

/* sig-write and sig-read: the buffer is filled before and checked after
 * the timed request; rewrite: it holds what was read until it is written
 * back */
static int data_io(struct walk *w, enum vm_opcode code, const struct regs *r, struct vm_result *node, uint64_t *ns)
{
	unsigned ss = dev_sector(w->dev);
	uint64_t salt = w->how ? w->how->salt : 0;
	int rc;

	if (w->buf_len < r->len) {
		void *b;
		free(w->buf);
		w->buf = NULL;
		w->buf_len = 0;
		if (posix_memalign(&b, 4096, r->len))
			return -ENOMEM;
		w->buf = b;
		w->buf_len = r->len;
	}
	if (code == VM_REWRITE)
		return dev_rewrite(w->dev, r->off, r->len, w->buf, ns);
	if (code == VM_SIG_WRITE) {
		sig_fill(w->buf, r->off, r->len, ss, salt, (uint32_t)r->pattern);
		return dev_write_data(w->dev, r->off, r->len, w->buf, ns);
	}
	if ((rc = dev_read_data(w->dev, r->off, r->len, w->buf, ns)))
		return rc;
	sig_check(w->buf, r->off, r->len, ss, salt, (uint32_t)r->pattern, &node->st.sig);
	return 0;
}

/* What a request past the end advises (FB_PAST_END: a caller that knows
 * which options reach that far names them instead). */
#define VM_PAST_END_ADVICE "use a smaller size, count or offset"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* off = base + a * b, refused when it does not fit in 64 bits (a request
 * there is past any device's end: said before it could wrap around). */
static int off_at(struct walk *w, uint64_t base, uint64_t a, uint64_t b, uint64_t *off)
{
	uint64_t p;

	if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(base, p, off))
		return fb_fail(w->e, EXIT_USAGE, "the test moves past byte %llu, beyond any device (offset %llu plus "
			       "%llu x %llu)", (unsigned long long)UINT64_MAX, (unsigned long long)base,
			       (unsigned long long)a, (unsigned long long)b),
		       fb_advise(w->e, FB_PAST_END, VM_PAST_END_ADVICE);
	return 0;
}

/* Hand the queue's waiting requests to the device, as the time bound and
 * a stop allow (a batch is one step: the bound counts the slowest batch). */
static int queue_flush(struct walk *w)
{
	struct vm_queue *q = w->queue;
	uint64_t ns = 0;
	int rc;

	if (!q->n)
		return 0;
	if (w->how && w->how->stop && *w->how->stop)
		return fb_fail(w->e, EXIT_DEVICE, "stopped by a signal");
	if (w->how && w->how->deadline_ns > 0 && w->elapsed >= w->how->deadline_ns) {
		if (w->how->deadline_hit)
			*w->how->deadline_hit = 1;
		return fb_fail(w->e, EXIT_DEVICE,
			       "stopped: the next requests could pass the time bound");
	}
	if ((rc = dev_queue(w->dev, q->req, q->n, q->depth, &ns)))
		return fb_fail(w->e, EXIT_DEVICE, "%zu queued requests from offset %llu failed: %s",
			       q->n, (unsigned long long)q->req[0].off,
			       rc == -EOPNOTSUPP ? "the journal cannot see queued writes through this "
			       "device" : strerror(-rc));
	for (size_t i = 0; i < q->n; i++) {
		struct dev_req *x = &q->req[i];
		struct vm_stats one = { 1, x->len, x->ns, x->ns, 0, { 0 } };
		if (x->rc)
			return fb_fail(w->e, EXIT_DEVICE,
				       "queued %s of %llu bytes at offset %llu failed: %s",
				       x->write ? "write" : "read", (unsigned long long)x->len,
				       (unsigned long long)x->off, strerror(-x->rc));
		vm_stats_add(&q->st, &one);
	}
	q->st.total_ns += (double)ns;
	w->done += q->n;
	w->elapsed += (double)ns;
	if ((double)ns > w->slowest)
		w->slowest = (double)ns;
	{ /* the next batch: twice this one, as far as the time bound leaves room */
		double per = ns && q->n ? (double)ns / (double)q->n : 0, left;
		size_t next = 2 * q->n;
		if (w->how && w->how->deadline_ns > 0 && per > 0) {
			left = w->how->deadline_ns - w->elapsed;
			if (left < per * (double)next)
				next = left > per ? (size_t)(left / per) : 1;
		}
		q->target = next < 1 ? 1 : next > VM_QUEUE_BATCH ? VM_QUEUE_BATCH : next;
	}
	q->n = 0;
	if (w->how && w->how->progress)
		w->how->progress(w->how->progress_ctx, w->done);
	return 0;
}

static int do_io(struct walk *w, const struct vm_op *op, const struct regs *r, struct vm_result *node)
{
	uint64_t ns = 0;
	int rc;

	if (!w->dev) { /* planning: check and account only */
		struct vm_plan *p = w->plan;
		if (r->off > w->size || r->len > w->size - r->off)
			return fb_fail(w->e, EXIT_USAGE, "the test reaches byte %llu but the device has only %llu bytes",
				       (unsigned long long)(r->off > w->size ? r->off : sat_add(r->off, r->len)),
				       (unsigned long long)w->size),
			       fb_advise(w->e, FB_PAST_END, VM_PAST_END_ADVICE);
		if (!r->len)
			return fb_fail(w->e, EXIT_USAGE,
				       "a %s of 0 bytes at offset %llu: give it a length (len SIZE above it, or "
				       "len-unit inside unit-halve or unit-double)",
				       opinfo[op->code].name, (unsigned long long)r->off);
		if (r->off % w->sector || r->len % w->sector)
			return fb_fail(w->e, EXIT_USAGE,
				       "a request of %llu bytes at offset %llu is not a whole number of %u-byte sectors",
				       (unsigned long long)r->len, (unsigned long long)r->off, w->sector);
		if (w->queue && op->code != VM_READ && op->code != VM_WRITE)
			return fb_fail(w->e, EXIT_USAGE,
				       "a %s inside a queue: a queue takes reads and writes only",
				       opinfo[op->code].name);
		if (w->queue && r->len > DEV_MAX_BUFFER)
			return fb_fail(w->e, EXIT_USAGE,
				       "a queued request of %llu bytes: queued requests are at most %u bytes",
				       (unsigned long long)r->len, DEV_MAX_BUFFER);
		if ((op->code == VM_SIG_WRITE || op->code == VM_SIG_READ || op->code == VM_REWRITE) &&
		    r->len > DEV_MAX_BUFFER)
			return fb_fail(w->e, EXIT_USAGE,
				       "a %s of %llu bytes at offset %llu: data requests are at most %u bytes "
				       "(write more with off-linear)", opinfo[op->code].name, (unsigned long long)r->len,
				       (unsigned long long)r->off, DEV_MAX_BUFFER);
		if (++p->requests > VM_MAX_REQUESTS)
			return fb_fail(w->e, EXIT_USAGE, "the test would make more than %llu requests; refusing",
				       VM_MAX_REQUESTS);
		if (r->len > p->max_len)
			p->max_len = r->len;
		if (vm_opcode_writes(op->code)) {
			if (p->write_lo == p->write_hi || r->off < p->write_lo)
				p->write_lo = r->off;
			if (r->off + r->len > p->write_hi)
				p->write_hi = r->off + r->len;
			p->bytes_written += op->code != VM_ERASE ? r->len : 0;
			if (w->writes && extents_add(w->writes, r->off, r->off + r->len))
				w->no_memory = 1;
			if (w->changes && vm_opcode_changes(op->code) &&
			    extents_add(w->changes, r->off, r->off + r->len))
				w->no_memory = 1;
		}
		ns = 0;
	} else if (w->queue) { /* waits for its batch (queue_flush): its time is the queue's */
		if (w->queue->n >= w->queue->target && queue_flush(w))
			return -1;
		w->queue->req[w->queue->n++] =
			(struct dev_req){ r->off, r->len, op->code == VM_WRITE, r->pattern, 0, 0 };
		node->st.count = 1;
		node->st.bytes = r->len;
		return 0;
	} else {
		if (w->how && w->how->stop && *w->how->stop)
			return fb_fail(w->e, EXIT_DEVICE, "stopped by a signal");
		if (w->how && w->how->deadline_ns > 0 && w->elapsed + w->slowest > w->how->deadline_ns) {
			if (w->how->deadline_hit)
				*w->how->deadline_hit = 1;
			return fb_fail(w->e, EXIT_DEVICE, "stopped: the next request could pass the time bound");
		}
		if (op->code == VM_READ)
			rc = dev_read(w->dev, r->off, r->len, &ns);
		else if (op->code == VM_WRITE)
			rc = dev_write(w->dev, r->off, r->len, r->pattern, &ns);
		else if (op->code == VM_ERASE)
			rc = dev_discard(w->dev, r->off, r->len, &ns);
		else
			rc = data_io(w, op->code, r, node, &ns);
		if (rc)
			return fb_fail(w->e, EXIT_DEVICE, "%s of %llu bytes at offset %llu failed: %s",
				       opinfo[op->code].name, (unsigned long long)r->len,
				       (unsigned long long)r->off, strerror(-rc));
		w->done++;
		w->elapsed += (double)ns;
		if ((double)ns > w->slowest)
			w->slowest = (double)ns;
		if (w->how && w->how->progress)
			w->how->progress(w->how->progress_ctx, w->done);
	}
	node->value = (double)ns;
	node->st.count = 1;
	node->st.bytes = r->len;
	node->st.min_ns = node->st.max_ns = ns;
	node->st.total_ns = (double)ns;
	return 0;
}

struct reducer {
	unsigned how;
	double v;
	uint64_t n;
};

static void reduce(struct reducer *red, double v)
{
	switch (red->how) {
	case VM_MIN: if (!red->n || v < red->v) red->v = v; break;
	case VM_MAX: if (!red->n || v > red->v) red->v = v; break;
	default: red->v += v; break;
	}
	red->n++;
}

/* Planning: account for n steps of loops, and refuse a program that would
 * not end even if it makes no request. */
static int count_steps(struct walk *w, uint64_t n)
{
	if (w->dev || (w->steps += n) <= VM_MAX_STEPS)
		return 0;
	return fb_fail(w->e, EXIT_USAGE, "the test would run more than %llu loop steps (a loop that would not end?); "
		       "refusing", VM_MAX_STEPS);
}

/* ------------------------------------------------------------ counting */

/* What a program will do, counted from its tree before any walk: loop
 * steps (bodies run, and a step per shuffled entry, as count_steps counts
 * them) and requests.  A loop multiplies its body's counts; only the unit
 * loops are followed unit by unit (a body's counts depend on the unit
 * through off-span and off-shuffle), and a unit loop's counts do not depend
 * on the unit around it, so each is counted once (memo).  Saturates at
 * UINT64_MAX. */
struct tally {
	uint64_t steps, requests;
};

struct counter {
	const struct vm_op *op[64];
	struct tally val[64];
	size_t n;
};

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static void tally_add(struct tally *t, struct tally b)
{
	t->steps = sat_add(t->steps, b.steps);
	t->requests = sat_add(t->requests, b.requests);
}

static struct tally times(uint64_t n, struct tally b)
{
	return (struct tally){ sat_mul(n, b.steps), sat_mul(n, b.requests) };
}

static struct tally count_op(struct counter *c, const struct vm_op *op, uint64_t unit);

/* One run of op's body: a step, and what its children do. */
static struct tally count_body(struct counter *c, const struct vm_op *op, uint64_t unit)
{
	struct tally t = { 1, 0 };

	for (size_t i = 0; i < op->nbody; i++)
		tally_add(&t, count_op(c, op->body[i], unit));
	return t;
}

static struct tally count_units(struct counter *c, const struct vm_op *op)
{
	struct tally t = { 0, 0 };

	for (size_t i = 0; i < c->n; i++)
		if (c->op[i] == op)
			return c->val[i];
	if (op->code == VM_UNIT_HALVE) {
		uint64_t to = op->b > 0 ? (uint64_t)op->b : 1;
		for (uint64_t u = (uint64_t)op->a; u >= to && u; u /= 2) {
			tally_add(&t, count_body(c, op, u));
			if (u % 2)
				break;
		}
	} else {
		uint64_t from = op->a > 0 ? (uint64_t)op->a : 1;
		for (uint64_t u = from; u <= (uint64_t)op->b; u *= 2) {
			tally_add(&t, count_body(c, op, u));
			if (u > UINT64_MAX / 2)
				break;
		}
	}
	if (c->n < sizeof(c->op) / sizeof(c->op[0])) {
		c->op[c->n] = op;
		c->val[c->n++] = t;
	}
	return t;
}

static struct tally count_op(struct counter *c, const struct vm_op *op, uint64_t unit)
{
	uint64_t n;

	if ((unsigned)op->code < VM_NOPCODES && opinfo[op->code].io)
		return (struct tally){ 0, 1 };
	switch (op->code) {
	case VM_REPEAT:
		return op->a > 0 ? times((uint64_t)op->a, count_body(c, op, unit)) : (struct tally){ 0, 0 };
	case VM_OFF_LINEAR:
		return op->b > 0 ? times((uint64_t)op->b, count_body(c, op, unit)) : (struct tally){ 0, 0 };
	case VM_OFF_SPAN:
	case VM_OFF_SHUFFLE: {
		struct tally t;
		if (!unit)
			return (struct tally){ 0, 0 }; /* refused when walked */
		n = (uint64_t)op->a / unit;
		t = times(n, count_body(c, op, unit));
		if (op->code == VM_OFF_SHUFFLE)
			t.steps = sat_add(t.steps, n);
		return t;
	}
	case VM_OFF_LIST:
		return times(op->nlist, count_body(c, op, unit));
	case VM_LEN_UNIT:
		return count_body(c, op, unit);
	case VM_UNIT_HALVE:
	case VM_UNIT_DOUBLE:
		return count_units(c, op);
	default:
		return count_body(c, op, unit);
	}
}

/* Refuse a program that would run too long before walking any of it. */
static int check_counts(const struct vm_op *prog, struct fb_err *e)
{
	struct counter *c = calloc(1, sizeof(*c));
	struct tally t;

	if (!c)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	t = count_op(c, prog, 0);
	free(c);
	if (t.requests > VM_MAX_REQUESTS)
		return fb_fail(e, EXIT_USAGE, "the test would make %s%llu requests, more than %llu; refusing",
			       t.requests == UINT64_MAX ? "more than " : "", (unsigned long long)t.requests,
			       VM_MAX_REQUESTS);
	if (t.steps > VM_MAX_STEPS)
		return fb_fail(e, EXIT_USAGE, "the test would run %s%llu loop steps, more than %llu (a loop that would "
			       "not end?); refusing", t.steps == UINT64_MAX ? "more than " : "",
			       (unsigned long long)t.steps, VM_MAX_STEPS);
	return 0;
}

/* Run the body once with registers r, adding one child per body op. */
static int run_body(struct walk *w, const struct vm_op *op, const struct regs *r,
		    struct vm_result *node, struct reducer *red)
{
	if (count_steps(w, 1))
		return -1;
	for (size_t i = 0; i < op->nbody; i++) {
		struct vm_result tmp, *kid = &tmp;
		int rc;

		if ((op->flags & VM_KEEP) && !w->dev && ++w->plan->kept > VM_MAX_KEPT)
			return fb_fail(w->e, EXIT_USAGE,
				       "the test would keep more than %llu results in memory (about %zu bytes each): "
				       "make fewer requests (a smaller --scatter-order or count, a larger block size) "
				       "or, in a program, keep fewer nodes",
				       VM_MAX_KEPT, sizeof(struct vm_result));
		if ((op->flags & VM_KEEP) && w->dev) {
			/* grow geometrically: capacities are powers of two */
			size_t n = node->nkid;
			if (n == 0 || (n >= 4 && !(n & (n - 1)))) {
				struct vm_result *k = realloc(node->kid, (n ? 2 * n : 4) * sizeof(*k));
				if (!k)
					return fb_fail(w->e, EXIT_DEVICE, "out of memory for results");
				node->kid = k;
			}
			kid = &node->kid[node->nkid++];
		}
		memset(kid, 0, sizeof(*kid));
		{
			int parent_first = w->first_path;
			w->first_path = parent_first && kid != &tmp && node->nkid == 1;
			w->depth++;
			rc = exec(w, op->body[i], *r, kid);
			w->depth--;
			w->first_path = parent_first;
			if (!rc && kid != &tmp && w->how && w->how->on_result)
				w->how->on_result(w->how->result_ctx, kid, w->depth + 1, parent_first);
		}
		vm_stats_add(&node->st, &kid->st);
		reduce(red, kid->value);
		if (kid == &tmp)
			free_kids(&tmp);
		if (rc)
			return rc;
	}
	return 0;
}

static int shuffle_order(struct walk *w, uint64_t n, uint64_t seed, uint32_t **out)
{
	uint32_t *v;
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;

	if (n > VM_MAX_SHUFFLE)
		return fb_fail(w->e, EXIT_USAGE, "a shuffled span of %llu steps is too long (at most %u)",
			       (unsigned long long)n, VM_MAX_SHUFFLE);
	if (count_steps(w, n)) /* shuffling costs a step per entry */
		return -1;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return fb_fail(w->e, EXIT_DEVICE, "out of memory");
	for (uint64_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	for (uint64_t i = n; i > 1; i--) { /* Fisher-Yates with xorshift64 */
		uint64_t j;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		uint32_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
	*out = v;
	return 0;
}

static int exec(struct walk *w, const struct vm_op *op, struct regs r, struct vm_result *node)
{
	struct reducer red = { op->flags & VM_REDUCE_MASK, 0, 0 };
	int rc = 0;

	node->op = op;
	node->off = r.off;
	node->len = r.len;
	node->unit = r.unit;

	if ((unsigned)op->code < VM_NOPCODES && opinfo[op->code].io)
		return do_io(w, op, &r, node);
	switch (op->code) {
	case VM_SEQ:
		rc = run_body(w, op, &r, node, &red);
		break;
	case VM_REPEAT:
		for (int64_t i = 0; i < op->a && !rc; i++)
			rc = run_body(w, op, &r, node, &red);
		break;
	case VM_LEN:
		r.len = (uint64_t)op->a;
		node->len = r.len;
		rc = run_body(w, op, &r, node, &red);
		break;
	case VM_LEN_UNIT:
		r.len = r.unit;
		node->len = r.len;
		rc = run_body(w, op, &r, node, &red);
		break;
	case VM_PATTERN:
		r.pattern = (int)(op->a & 0xff);
		rc = run_body(w, op, &r, node, &red);
		break;
	case VM_OFF:
		if (op->a < 0 && (0 - (uint64_t)op->a) > r.off)
			return fb_fail(w->e, EXIT_USAGE, "the test would start before the beginning of the device");
		if (op->a >= 0 && off_at(w, r.off, (uint64_t)op->a, 1, &r.off))
			return -1;
		if (op->a < 0)
			r.off -= (0 - (uint64_t)op->a);
		node->off = r.off;
		rc = run_body(w, op, &r, node, &red);
		break;
	case VM_OFF_UNIT: {
		uint64_t step;
		if (op->b <= 0)
			return fb_fail(w->e, EXIT_USAGE, "off-unit needs a positive divisor");
		if (__builtin_mul_overflow(r.unit, (uint64_t)op->a, &step))
			step = r.unit / (uint64_t)op->b * (uint64_t)op->a; /* unit * a overflows: divide first */
		else
			step /= (uint64_t)op->b;
		if (off_at(w, r.off, step, 1, &r.off))
			return -1;
		node->off = r.off;
		rc = run_body(w, op, &r, node, &red);
		break;
	}
	case VM_OFF_LINEAR: {
		uint64_t base = r.off, step = op->a ? (uint64_t)op->a : r.unit;
		for (int64_t i = 0; i < op->b && !rc; i++) {
			if (off_at(w, base, (uint64_t)i, step, &r.off))
				return -1;
			rc = run_body(w, op, &r, node, &red);
		}
		break;
	}
	case VM_OFF_SPAN:
	case VM_OFF_SHUFFLE: {
		uint64_t base = r.off, n;
		uint32_t *order = NULL;
		if (!r.unit)
			return fb_fail(w->e, EXIT_USAGE, "%s needs a unit (put it inside unit-halve or unit-double)",
				       opinfo[op->code].name);
		n = (uint64_t)op->a / r.unit;
		if (op->code == VM_OFF_SHUFFLE && (rc = shuffle_order(w, n, (uint64_t)op->b, &order)))
			return rc;
		for (uint64_t i = 0; i < n && !rc; i++) {
			if ((rc = off_at(w, base, order ? order[i] : i, r.unit, &r.off)))
				break;
			rc = run_body(w, op, &r, node, &red);
		}
		free(order);
		break;
	}
	case VM_OFF_LIST: {
		uint64_t base = r.off;
		for (size_t i = 0; i < op->nlist && !rc; i++) {
			if (op->list[i] < 0 && (0 - (uint64_t)op->list[i]) > base)
				return fb_fail(w->e, EXIT_USAGE, "the test would start before the beginning of the device");
			if (op->list[i] < 0)
				r.off = base - (0 - (uint64_t)op->list[i]);
			else if (off_at(w, base, (uint64_t)op->list[i], 1, &r.off))
				return -1;
			rc = run_body(w, op, &r, node, &red);
		}
		break;
	}
	case VM_UNIT_HALVE: {
		uint64_t to = op->b > 0 ? (uint64_t)op->b : 1;
		for (uint64_t u = (uint64_t)op->a; u >= to && u && !rc; u /= 2) {
			r.unit = u;
			rc = run_body(w, op, &r, node, &red);
			if (u % 2)
				break; /* no further halving in whole bytes */
		}
		break;
	}
	case VM_UNIT_DOUBLE: {
		uint64_t from = op->a > 0 ? (uint64_t)op->a : 1;
		for (uint64_t u = from; u <= (uint64_t)op->b && !rc; u *= 2) {
			r.unit = u;
			rc = run_body(w, op, &r, node, &red);
			if (u > UINT64_MAX / 2)
				break;
		}
		break;
	}
	case VM_QUEUE: {
		struct vm_queue *q;
		if (w->queue)
			return fb_fail(w->e, EXIT_USAGE,
				       "a queue inside a queue (one queue holds all its requests)");
		if (op->a < 1 || op->a > 64)
			return fb_fail(w->e, EXIT_USAGE,
				       "queue %lld: the depth is 1 to 64 requests in flight",
				       (long long)op->a);
		if (!(q = calloc(1, sizeof(*q))))
			return fb_fail(w->e, EXIT_DEVICE, "out of memory");
		q->depth = (unsigned)op->a;
		q->target = q->depth;
		w->queue = q;
		rc = run_body(w, op, &r, node, &red);
		if (!rc && w->dev)
			rc = queue_flush(w);
		w->queue = NULL;
		if (w->dev) { /* the requests' times overlap: the node holds the queue's */
			node->st = q->st;
			red.v = q->st.total_ns;
			red.how = VM_SUM;
		}
		free(q);
		break;
	}
	default:
		return fb_fail(w->e, EXIT_USAGE, "unknown VM opcode %d", (int)op->code);
	}
	if (red.how == VM_AVG && red.n)
		red.v /= (double)red.n;
	node->value = red.v;
	return rc;
}

int vm_plan_extents(const struct vm_op *prog, uint64_t dev_size, unsigned sector, struct vm_plan *plan,
		    struct extents *writes, struct extents *changes, struct fb_err *e)
{
	struct vm_plan own;
	struct walk w = { .plan = plan ? plan : &own, .size = dev_size, .sector = sector ? sector : 512, .e = e,
			  .writes = writes, .changes = changes };
	struct vm_result node;
	struct regs r = { 0, 0, 0, 0 };
	int rc;

	memset(w.plan, 0, sizeof(*w.plan));
	memset(&node, 0, sizeof(node));
	if (check_counts(prog, e))
		return -1;
	rc = exec(&w, prog, r, &node);
	free(node.kid);
	if (!rc && w.no_memory)
		rc = fb_fail(e, EXIT_DEVICE, "out of memory");
	return rc;
}

int vm_plan(const struct vm_op *prog, uint64_t dev_size, unsigned sector, struct vm_plan *plan, struct fb_err *e)
{
	return vm_plan_extents(prog, dev_size, sector, plan, NULL, NULL, e);
}

int vm_run(const struct vm_op *prog, struct dev *d, const struct vm_run *how,
	   struct vm_result **out, struct fb_err *e)
{
	struct walk w = { .dev = d, .how = how, .size = dev_size(d), .sector = dev_sector(d), .e = e, .first_path = 1 };
	struct vm_result *node = calloc(1, sizeof(*node));
	struct vm_plan own;
	const struct vm_plan *plan = how && how->plan ? how->plan : &own;
	/* a layer that saves what is changed first (--preserve) is told the
	 * ranges before the first request */
	struct extents changes = { 0 };
	int tell = (dev_caps(d) & DEV_CAP_SAVES_FIRST) != 0;
	struct regs r = { 0, 0, 0, 0 };
	int rc;

	*out = NULL;
	if (!node)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	/* the plan checks bounds and sizes the buffer (and finds the changed
	 * ranges); walk it only once */
	rc = plan == &own || tell ? vm_plan_extents(prog, dev_size(d), dev_sector(d), plan == &own ? &own : NULL,
						     NULL, tell ? &changes : NULL, e) : 0;
	if (rc || dev_prepare(d, plan->max_len, e) || (tell && dev_will_write(d, &changes, e))) {
		extents_free(&changes);
		free(node);
		return -1;
	}
	extents_free(&changes);
	/* the program is a timing phase: a card that shares its link with
	 * others in a batch takes its turn for it */
	if (dev_phase(d, 1, e)) {
		free(node);
		return -1;
	}
	rc = exec(&w, prog, r, node);
	dev_phase(d, 0, NULL);
	free(w.buf);
	if (rc && !(how && how->keep_partial)) {
		vm_result_free(node);
		node = NULL;
	}
	*out = node;
	return rc ? -1 : 0;
}

void vm_plan_span(const struct vm_plan *p, uint64_t *lo, uint64_t *hi)
{
	if (p->write_lo == p->write_hi)
		return;
	if (*lo == *hi || p->write_lo < *lo)
		*lo = p->write_lo;
	if (p->write_hi > *hi)
		*hi = p->write_hi;
}

double vm_throughput(const struct vm_result *r)
{
	return r->st.total_ns > 0 ? (double)r->st.bytes * 1e9 / r->st.total_ns : 0;
}
