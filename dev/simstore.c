/* simstore.c — what a simulated card holds, sparsely (see simstore.h). */
#include "dev/simstore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/le.h"
#include "lib/sig.h"

enum kind { K_NONE, K_PATTERN, K_SIG, K_COPY, K_RAW };

struct extent {
	uint64_t start, n;      /* sectors */
	uint64_t a;             /* pattern: the byte; sig: salt; copy: the first source sector */
	uint64_t b;             /* sig: the offset written for, of the first sector */
	uint64_t stamp;         /* write counter before the first sector */
	uint32_t pass;          /* sig */
	uint8_t kind;
	unsigned char *raw;     /* raw: n sectors */
};

struct simstore {
	unsigned ss;
	uint64_t seed;
	int made;
	struct extent *v;
	size_t n, cap;
	uint64_t raw_bytes;
};

static const char made_magic[8] = { 'F', 'B', 'S', 'I', 'M', 'D', 'A', 'T' };

static uint64_t made_word(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static uint64_t made_seed(const struct simstore *s, uint64_t sec)
{
	return (s->seed * 0x9e3779b97f4a7c15ULL ^ (sec + 1) * 0xd1b54a32d192ed03ULL) | 1;
}

/* The factory content of sector sec: the magic, the sector, the card's
 * seed, then a pseudo-random stream (the "user data" a card comes with). */
void store_made(const struct simstore *s, uint64_t sec, void *buf)
{
	unsigned char *p = buf;
	uint64_t x = made_seed(s, sec);

	memcpy(p, made_magic, 8);
	le64_put(p + 8, sec);
	le64_put(p + 16, s->seed);
	le64_put(p + 24, 0);
	for (unsigned i = 32; i + 8 <= s->ss; i += 8)
		le64_put(p + i, made_word(&x));
}

/* Is p the factory content of some sector of this card?  Which one. */
static int made_parse(const struct simstore *s, const unsigned char *p, uint64_t *sec)
{
	uint64_t x;

	if (memcmp(p, made_magic, 8) || le64_get(p + 16) != s->seed || le64_get(p + 24))
		return 0;
	*sec = le64_get(p + 8);
	x = made_seed(s, *sec);
	for (unsigned i = 32; i + 8 <= s->ss; i += 8)
		if (le64_get(p + i) != made_word(&x))
			return 0;
	return 1;
}

int store_create(struct simstore **out, unsigned sector, uint64_t seed, int made)
{
	struct simstore *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->ss = sector;
	s->seed = seed;
	s->made = made;
	*out = s;
	return 0;
}

void store_destroy(struct simstore *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].raw);
	free(s->v);
	free(s);
}

/* ------------------------------------------------------------ extents */

/* The first extent that ends after sector sec. */
static size_t find(const struct simstore *s, uint64_t sec)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->v[mid].start + s->v[mid].n <= sec)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Drop the first m sectors of e. */
static void trim_head(struct simstore *s, struct extent *e, uint64_t m)
{
	e->start += m;
	e->n -= m;
	e->stamp += m * s->ss;
	if (e->kind == K_SIG)
		e->b += m * s->ss;
	else if (e->kind == K_COPY)
		e->a += m;
	else if (e->kind == K_RAW) {
		memmove(e->raw, e->raw + m * s->ss, e->n * s->ss);
		s->raw_bytes -= m * s->ss;
	}
}

/* Keep only the first m sectors of e. */
static void trim_tail(struct simstore *s, struct extent *e, uint64_t m)
{
	if (e->kind == K_RAW)
		s->raw_bytes -= (e->n - m) * s->ss;
	e->n = m;
}

static void remove_at(struct simstore *s, size_t i, size_t count)
{
	memmove(&s->v[i], &s->v[i + count], (s->n - i - count) * sizeof(*s->v));
	s->n -= count;
}

static int insert_at(struct simstore *s, size_t i, const struct extent *e)
{
	struct extent *v = grow(s->v, &s->cap, s->n, sizeof(*v), 16);

	if (!v)
		return -ENOMEM;
	s->v = v;
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = *e;
	s->n++;
	return 0;
}

/* Make [lo, hi) absent; the index where it was.  May split one extent. */
static int punch(struct simstore *s, uint64_t lo, uint64_t hi, size_t *at)
{
	size_t i = find(s, lo);

	while (i < s->n && s->v[i].start < hi) {
		struct extent *e = &s->v[i];
		uint64_t end = e->start + e->n;

		if (e->start < lo && end > hi) { /* split: a head and a tail remain */
			struct extent tail = *e;
			if (e->kind == K_RAW) {
				if (!(tail.raw = malloc((end - hi) * s->ss)))
					return -ENOMEM;
				memcpy(tail.raw, e->raw + (hi - e->start) * s->ss, (end - hi) * s->ss);
				s->raw_bytes += (end - hi) * s->ss;
				tail.start = hi;
				tail.n = end - hi;
				tail.stamp = e->stamp + (hi - e->start) * s->ss;
			} else {
				trim_head(s, &tail, hi - e->start);
			}
			trim_tail(s, e, lo - e->start);
			if (insert_at(s, i + 1, &tail)) {
				if (tail.raw)
					s->raw_bytes -= tail.n * s->ss;
				free(tail.raw);
				return -ENOMEM;
			}
			i++;
			break;
		}
		if (e->start < lo) {
			trim_tail(s, e, lo - e->start);
			i++;
		} else if (end > hi) {
			trim_head(s, e, hi - e->start);
			break;
		} else {
			if (e->kind == K_RAW)
				s->raw_bytes -= e->n * s->ss;
			free(e->raw);
			remove_at(s, i, 1);
		}
	}
	*at = i;
	return 0;
}

/* Can b follow a directly (one extent)? */
static int continues(const struct simstore *s, const struct extent *a, const struct extent *b)
{
	if (a->kind != b->kind || a->start + a->n != b->start || b->stamp != a->stamp + a->n * s->ss)
		return 0;
	switch (a->kind) {
	case K_PATTERN: return a->a == b->a;
	case K_SIG: return a->a == b->a && a->pass == b->pass && b->b == a->b + a->n * s->ss;
	case K_COPY: return b->a == a->a + a->n;
	case K_RAW: return 1;
	default: return 0;
	}
}

/* Join v[i] with v[i + 1] when they continue each other. */
static void join(struct simstore *s, size_t i)
{
	struct extent *a, *b;

	if (i + 1 >= s->n || !continues(s, &s->v[i], &s->v[i + 1]))
		return;
	a = &s->v[i];
	b = &s->v[i + 1];
	if (a->kind == K_RAW) {
		unsigned char *r = realloc(a->raw, (a->n + b->n) * s->ss);
		if (!r)
			return; /* stays two extents */
		memcpy(r + a->n * s->ss, b->raw, b->n * s->ss);
		a->raw = r;
		free(b->raw);
	}
	a->n += b->n;
	remove_at(s, i + 1, 1);
}

/* ------------------------------------------------------------ classify */

/* What one sector of data is, as a one-sector extent at sec. */
static void classify(const struct simstore *s, const unsigned char *p, uint64_t sec, uint64_t stamp,
		     struct extent *e)
{
	uint64_t salt, off, src;
	uint32_t pass;
	unsigned i;

	memset(e, 0, sizeof(*e));
	e->start = sec;
	e->n = 1;
	e->stamp = stamp;
	if (sig_parse(p, s->ss, &salt, &off, &pass)) {
		e->kind = K_SIG;
		e->a = salt;
		e->b = off;
		e->pass = pass;
		return;
	}
	if (made_parse(s, p, &src)) {
		e->kind = s->made && src == sec ? K_NONE : K_COPY;
		e->a = src;
		return;
	}
	for (i = 1; i < s->ss && p[i] == p[0]; i++)
		;
	if (i == s->ss) {
		e->kind = K_PATTERN;
		e->a = p[0];
		return;
	}
	e->kind = K_RAW;
}

int store_write(struct simstore *s, uint64_t sec, uint64_t n, const void *buf, int pattern, uint64_t stamp)
{
	const unsigned char *p = buf;
	struct extent *runs = NULL, one;
	size_t nruns = 0, cap = 0, at, at0;
	uint64_t raw = 0;
	int rc = 0;

	/* the runs of alike sectors first, so that a write that does not fit
	 * changes nothing */
	for (uint64_t k = 0; k < n; k++) {
		if (p)
			classify(s, p + k * s->ss, sec + k, stamp + k * s->ss, &one);
		else
			one = (struct extent){ .start = sec + k, .n = 1, .a = (uint64_t)(pattern & 0xff),
					       .stamp = stamp + k * s->ss, .kind = K_PATTERN };
		if (!p && k == 0) {
			one.n = n; /* a pattern write is one run */
			k = n - 1;
		}
		if (one.kind == K_RAW)
			raw += one.n * s->ss;
		if (nruns && (runs[nruns - 1].kind == K_NONE ? one.kind == K_NONE : continues(s, &runs[nruns - 1], &one))) {
			runs[nruns - 1].n += one.n;
			continue;
		}
		struct extent *r = grow(runs, &cap, nruns, sizeof(*runs), 8);
		if (!r) {
			free(runs);
			return -ENOMEM;
		}
		runs = r;
		runs[nruns++] = one;
	}
	if (s->n + nruns + 1 > STORE_MAX_EXTENTS || s->raw_bytes + raw > STORE_MAX_RAW) {
		free(runs);
		return -ENOSPC;
	}
	if ((rc = punch(s, sec, sec + n, &at))) {
		free(runs);
		return rc;
	}
	at0 = at;
	for (size_t r = 0; r < nruns && !rc; r++) {
		struct extent e = runs[r];
		if (e.kind == K_NONE)
			continue;
		if (e.kind == K_RAW) {
			if (!(e.raw = malloc(e.n * s->ss))) {
				rc = -ENOMEM;
				break;
			}
			memcpy(e.raw, p + (e.start - sec) * s->ss, e.n * s->ss);
			s->raw_bytes += e.n * s->ss;
		}
		if ((rc = insert_at(s, at, &e))) {
			if (e.kind == K_RAW)
				s->raw_bytes -= e.n * s->ss;
			free(e.raw);
			break;
		}
		at++;
	}
	free(runs);
	/* join across the edges of what was written: the far edge first, so
	 * that the near one keeps its index */
	if (at > at0)
		join(s, at - 1);
	if (at0 > 0)
		join(s, at0 - 1);
	return rc;
}

void store_read(const struct simstore *s, uint64_t sec, uint64_t n, void *buf)
{
	unsigned char *p = buf;
	size_t i = find(s, sec);

	for (uint64_t k = 0; k < n; k++, p += s->ss) {
		uint64_t at = sec + k;
		while (i < s->n && s->v[i].start + s->v[i].n <= at)
			i++;
		if (i >= s->n || s->v[i].start > at) {
			if (s->made)
				store_made(s, at, p);
			else
				memset(p, 0, s->ss);
			continue;
		}
		const struct extent *e = &s->v[i];
		uint64_t j = at - e->start;
		switch (e->kind) {
		case K_PATTERN: memset(p, (int)e->a, s->ss); break;
		case K_SIG: sig_fill(p, e->b + j * s->ss, s->ss, s->ss, e->a, e->pass); break;
		case K_COPY: store_made(s, e->a + j, p); break;
		case K_RAW: memcpy(p, e->raw + j * s->ss, s->ss); break;
		default: memset(p, 0, s->ss); break;
		}
	}
}

/* Forget the first m sectors of v[i], all of them taking the extent away;
 * whether v[i] is still there. */
static int forget_head(struct simstore *s, size_t i, uint64_t m)
{
	struct extent *e = &s->v[i];

	if (m < e->n) {
		trim_head(s, e, m);
		return 1;
	}
	if (e->kind == K_RAW)
		s->raw_bytes -= e->n * s->ss;
	free(e->raw);
	remove_at(s, i, 1);
	return 0;
}

void store_forget(struct simstore *s, uint64_t before)
{
	size_t i = 0;

	while (i < s->n) {
		const struct extent *e = &s->v[i];
		if (e->stamp >= before || forget_head(s, i, (before - e->stamp + s->ss - 1) / s->ss))
			i++;
	}
}

/* The oldest go first: each round takes the extent stamped first (with a
 * write counter's stamps, all its sectors were written before any other
 * extent's) and forgets as many of its first sectors as there are too
 * many.  A round costs a walk over the extents and takes one away, except
 * the last round, so the work stays that of the extents written. */
void store_keep_latest(struct simstore *s, uint64_t n)
{
	for (;;) {
		size_t oldest = 0;
		uint64_t held = 0, first = UINT64_MAX;
		for (size_t i = 0; i < s->n; i++) {
			held += s->v[i].n;
			if (s->v[i].stamp < first) {
				first = s->v[i].stamp;
				oldest = i;
			}
		}
		if (held <= n)
			return;
		forget_head(s, oldest, held - n);
	}
}

uint64_t store_changed(const struct simstore *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->v[i].n;
	return n;
}
