/* gate.c — turns on a shared link (gate.h): a FIFO of cards waiting for
 * the turn, the card that holds it (timing, or lingering after its phase),
 * and how many requests outside a phase are under way. */
#include "dev/gate.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev/dev_impl.h"

struct seat {
	struct gate *g;             /* NULL: a card that runs side by side */
	int (*check)(void *ctx, struct fb_err *e);
	void *ctx;
	int in_phase;
	struct seat *next;          /* in the gate's queue */
	int queued;
	double t, seen;             /* the timeline: where the card is, and the device time accounted */
	double waited;
	unsigned phases, turns;
	struct gate_times *final;
};

struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const volatile sig_atomic_t *stop;
	struct seat *holder;        /* the card whose turn it is */
	int lingering;              /* its phase ended; it keeps the turn until linger_until */
	double linger_until;
	struct seat *head, *tail;   /* waiting for the turn */
	unsigned shared;            /* requests outside a phase under way */
	double free_at;             /* the timeline: when the last turn ended */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int stopped(const struct gate *g)
{
	return g->stop && *g->stop;
}

int gate_new(struct gate **out, const volatile sig_atomic_t *stop, struct fb_err *e)
{
	struct gate *g = calloc(1, sizeof(*g));
	pthread_condattr_t ca;

	if (!g)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	pthread_mutex_init(&g->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cv, &ca);
	pthread_condattr_destroy(&ca);
	g->stop = stop;
	*out = g;
	return 0;
}

void gate_free(struct gate *g)
{
	if (!g)
		return;
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

/* Wait (g->mu held) at most GATE_POLL_MS, less when a lingering turn runs
 * out sooner. */
static void nap(struct gate *g)
{
	double until = now_ns() + GATE_POLL_MS * 1e6;
	struct timespec ts;

	if (g->lingering && g->linger_until < until)
		until = g->linger_until;
	ts.tv_sec = (time_t)(until / 1e9);
	ts.tv_nsec = (long)(until - (double)ts.tv_sec * 1e9);
	pthread_cond_timedwait(&g->cv, &g->mu, &ts);
}

/* A lingering turn that ran out is free. */
static void expire(struct gate *g)
{
	if (g->holder && g->lingering && now_ns() >= g->linger_until) {
		g->holder = NULL;
		g->lingering = 0;
		pthread_cond_broadcast(&g->cv);
	}
}

static void dequeue(struct gate *g, struct seat *s)
{
	struct seat **p;

	if (!s->queued)
		return;
	for (p = &g->head; *p && *p != s; p = &(*p)->next)
		;
	if (*p)
		*p = s->next;
	if (g->tail == s) {
		g->tail = NULL;
		for (struct seat *x = g->head; x; x = x->next)
			g->tail = x;
	}
	s->next = NULL;
	s->queued = 0;
	pthread_cond_broadcast(&g->cv);
}

/* Wait for the turn: 0, or -1 when the batch is stopped meanwhile. */
static int take_turn(struct seat *s, struct fb_err *e)
{
	struct gate *g = s->g;
	double t0 = now_ns();

	pthread_mutex_lock(&g->mu);
	if (g->holder == s) { /* it kept its turn */
		g->lingering = 0;
		pthread_mutex_unlock(&g->mu);
		return 0;
	}
	s->next = NULL;
	s->queued = 1;
	if (g->tail)
		g->tail->next = s;
	else
		g->head = s;
	g->tail = s;
	for (;;) {
		expire(g);
		if (stopped(g)) {
			dequeue(g, s);
			pthread_mutex_unlock(&g->mu);
			return fb_fail(e, EXIT_DEVICE, "stopped by a signal");
		}
		if (!g->holder && g->head == s && !g->shared)
			break;
		nap(g);
	}
	dequeue(g, s);
	g->holder = s;
	g->lingering = 0;
	if (s->t < g->free_at) /* the timeline: it waited for the turns before */
		s->t = g->free_at;
	s->turns++;
	s->waited += now_ns() - t0;
	pthread_mutex_unlock(&g->mu);
	return 0;
}

static void end_turn(struct seat *s, int linger)
{
	struct gate *g = s->g;

	pthread_mutex_lock(&g->mu);
	if (g->holder == s) {
		if (s->t > g->free_at)
			g->free_at = s->t;
		if (linger && !stopped(g)) {
			g->lingering = 1;
			g->linger_until = now_ns() + GATE_LINGER_MS * 1e6;
		} else {
			g->holder = NULL;
			g->lingering = 0;
		}
		pthread_cond_broadcast(&g->cv);
	}
	dequeue(g, s);
	pthread_mutex_unlock(&g->mu);
}

/* A request outside a phase: it waits while another card of the gate
 * times (not after a stop); 1 when it was counted as shared. */
static int share_begin(struct seat *s)
{
	struct gate *g = s->g;

	if (!g)
		return 0;
	pthread_mutex_lock(&g->mu);
	if (g->holder == s) {
		pthread_mutex_unlock(&g->mu);
		return 0;
	}
	for (;;) {
		expire(g);
		if (stopped(g) || (!g->holder && !g->head))
			break;
		nap(g);
	}
	g->shared++;
	pthread_mutex_unlock(&g->mu);
	return 1;
}

static void share_end(struct seat *s, int counted)
{
	struct gate *g = s->g;

	if (!counted)
		return;
	pthread_mutex_lock(&g->mu);
	g->shared--;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* The card's own device time since it was last accounted goes on its
 * timeline (virtual clocks only). */
static void account(struct dev *d)
{
	struct seat *s = d->priv;
	double c = dev_clock(d->lower);

	if (c < 0)
		return;
	s->t += c - s->seen;
	s->seen = c;
}

static int gate_phase(struct dev *d, int on, struct fb_err *e)
{
	struct seat *s = d->priv;
	struct fb_err none;

	if (!on) {
		if (!s->in_phase)
			return 0;
		s->in_phase = 0;
		dev_phase(d->lower, 0, &none);
		account(d);
		if (s->g)
			end_turn(s, 1);
		return 0;
	}
	if (s->in_phase)
		return 0;
	account(d);
	if (s->g && take_turn(s, e))
		return -1;
	if ((s->check && s->check(s->ctx, e)) || dev_phase(d->lower, 1, e)) {
		if (s->g)
			end_turn(s, 0);
		return -1;
	}
	s->in_phase = 1;
	s->phases++;
	return 0;
}

/* Every request: in a phase it has the turn; outside one it goes as a
 * shared request. */
#define PASS(call)                                      \
	do {                                            \
		struct seat *s = d->priv;               \
		int counted, rc;                        \
		if (s->in_phase)                        \
			return call;                    \
		counted = share_begin(s);               \
		rc = call;                              \
		share_end(s, counted);                  \
		return rc;                              \
	} while (0)

static int gate_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	PASS(dev_read(d->lower, off, len, ns));
}

static int gate_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	PASS(dev_write(d->lower, off, len, pattern, ns));
}

static int gate_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	PASS(dev_discard(d->lower, off, len, ns));
}

static int gate_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns)
{
	PASS(dev_write_data(d->lower, off, len, buf, ns));
}

static int gate_read_data(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	PASS(dev_read_data(d->lower, off, len, buf, ns));
}

static int gate_rewrite(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	PASS(dev_rewrite(d->lower, off, len, buf, ns));
}

static int gate_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len)
{
	PASS(dev_copy_out(d->lower, buf, off, len));
}

static int gate_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len)
{
	PASS(dev_copy_in(d->lower, buf, off, len));
}

static void times_of(struct dev *gd, struct gate_times *t);

/* The layer goes: its turn is given up, its times told. */
static void leave(struct dev *gd)
{
	struct seat *s = gd->priv;

	if (!s)
		return;
	if (s->g)
		end_turn(s, 0);
	if (s->final)
		times_of(gd, s->final);
	free(s);
	gd->priv = NULL;
}

static void gate_close(struct dev *d)
{
	leave(d);
	dev_close(d->lower);
}

static const struct dev_ops gate_ops = {
	.name = "gate",
	.read = gate_read, .write = gate_write, .discard = gate_discard,
	.write_data = gate_write_data, .read_data = gate_read_data, .rewrite = gate_rewrite,
	.copy_out = gate_copy_out, .copy_in = gate_copy_in,
	.phase = gate_phase,
	.close = gate_close,
};

int gate_wrap(struct dev **d, struct gate *g, int (*check)(void *ctx, struct fb_err *e), void *ctx,
	      struct gate_times *final, struct fb_err *e)
{
	struct dev *lower = *d, *up = calloc(1, sizeof(*up));
	struct seat *s = calloc(1, sizeof(*s));

	if (!up || !s || !(up->path = strdup(lower->path))) {
		free(up);
		free(s);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	s->g = g;
	s->check = check;
	s->ctx = ctx;
	s->final = final;
	s->seen = dev_clock(lower) > 0 ? dev_clock(lower) : 0;
	up->ops = &gate_ops;
	up->priv = s;
	up->caps = lower->caps;
	up->size = lower->size;
	up->sector = lower->sector;
	up->physical = lower->physical;
	up->lower = lower;
	*d = up;
	return 0;
}

struct dev *gate_unwrap(struct dev *d)
{
	struct dev **p = &d, *gd;

	while (*p && (*p)->ops != &gate_ops)
		p = &(*p)->lower;
	if (!*p)
		return d;
	gd = *p;
	*p = gd->lower;
	leave(gd);
	free(gd->path);
	free(gd);
	return d;
}

static struct dev *find_gate(const struct dev *d)
{
	while (d && d->ops != &gate_ops)
		d = d->lower;
	return (struct dev *)d;
}

static void times_of(struct dev *gd, struct gate_times *t)
{
	struct seat *s = gd->priv;
	double c = dev_clock(gd->lower);

	account(gd);
	t->timeline_ns = c < 0 ? -1 : s->t;
	t->device_ns = c;
	t->waited_ns = s->waited;
	t->phases = s->phases;
	t->turns = s->turns;
}

void gate_times(const struct dev *d, struct gate_times *t)
{
	struct dev *gd = find_gate(d);

	memset(t, 0, sizeof(*t));
	if (gd && gd->priv)
		times_of(gd, t);
}

void gate_start_at(struct dev *d, double ns)
{
	struct dev *gd = find_gate(d);

	if (gd && ((struct seat *)gd->priv)->t < ns)
		((struct seat *)gd->priv)->t = ns;
}
