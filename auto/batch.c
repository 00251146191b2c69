/* batch.c — many cards in one run (batch.h): the cards pinned and refused,
 * the map and its check, a thread per card, each card's identity checked
 * before every timing phase. */
#include "auto/batch.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dev.h"
#include "guard/claim.h"
#include "lib/crc32c.h"
#include "lib/pin.h"
#include "lib/sysroot.h"
#include "lib/units.h"

/* The check: a warm-up read, then CHECK_READS reads of CHECK_LEN at the
 * start of each card, alone and then with the cards it would run beside.
 * A card is slowed when its median together passes its median alone by
 * more than CHECK_MARGIN, or CHECK_NOISE times its own spread alone
 * (max - min over median) when that is more: a card whose reads alone
 * disagree that much cannot show a smaller slowdown. */
#define CHECK_LEN (512u << 10)
#define CHECK_READS 5
#define CHECK_MARGIN 0.15
#define CHECK_NOISE 2.0

const char *batch_state_name(enum batch_state s)
{
	static const char *const names[] = { "ready", "done", "failed", "refused", "stopped" };

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int stopped(const struct batch *b)
{
	return b->o.stop && *b->o.stop;
}

static void refuse(struct batch_card *c, enum batch_state s, const struct fb_err *e)
{
	c->state = s;
	c->err = *e;
}

/* ------------------------------------------------------------ identity */

/* "serial S0001, usb 1-1.1, Generic Flash Disk" */
static void describe(const struct medium *m, const struct topo *t, int sim, char *buf, size_t len)
{
	const char *serial = t->serial[0] ? t->serial : m->serial;
	size_t k = 0;

	buf[0] = '\0';
	if (sim)
		k += (size_t)snprintf(buf, len, "simulated");
	if (serial[0])
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, "%sserial %s", k ? ", " : "", serial);
	if (t->port[0])
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, "%s%s", k ? ", " : "", t->port);
	if (t->product[0])
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, "%s%s", k ? ", " : "", t->product);
	if (!k)
		snprintf(buf, len, "no serial, port not known");
}

/* Where a card with the serial of c is now, by its serial: "/dev/sdc", or
 * "" when no block device has it. */
static void find_elsewhere(const struct batch_card *c, char *out, size_t len)
{
	const char *serial = c->topo.serial[0] ? c->topo.serial : c->medium.serial;
	char dir[64], node[300];
	struct dirent *de;
	DIR *dp;

	out[0] = '\0';
	if (!serial[0])
		return;
	sysroot_path(dir, sizeof(dir), SYSROOT_BLOCK, NULL);
	if (!(dp = sysroot_opendir(dir)))
		return;
	while (!out[0] && (de = readdir(dp))) {
		struct topo t;
		struct medium m;
		if (de->d_name[0] == '.')
			continue;
		sysroot_path(node, sizeof(node), SYSROOT_DEV, "%.200s", de->d_name);
		if (!strcmp(node, c->path))
			continue;
		medium_of(node, &m);
		if (m.kind != MEDIUM_DISK || m.offset)
			continue; /* whole disks only */
		topo_of(node, &t);
		if (!strcmp(t.serial[0] ? t.serial : m.serial, serial))
			snprintf(out, len, "%s", node);
	}
	closedir(dp);
}

int batch_card_check(const struct batch_card *c, struct fb_err *e)
{
	struct medium m;
	struct topo t;
	char now[BATCH_IDENTITY], where[300];

	if (c->sim)
		return 0;
	medium_of(c->path, &m);
	topo_of(c->path, &t);
	if (m.kind == MEDIUM_NONE) {
		find_elsewhere(c, where, sizeof(where));
		return fb_fail(e, EXIT_DEVICE, "%s went away (it was %s)%s%s%s: nothing more is written to it", c->path,
			       c->identity, where[0] ? "; the card is now " : "", where,
			       where[0] ? ": run it again under that name" : "");
	}
	if (m.kind == c->medium.kind && m.dev == c->medium.dev && m.ino == c->medium.ino &&
	    m.offset == c->medium.offset && m.size == c->medium.size && !strcmp(m.serial, c->medium.serial) &&
	    !strcmp(t.port, c->topo.port) && !strcmp(t.serial, c->topo.serial))
		return 0;
	describe(&m, &t, 0, now, sizeof(now));
	find_elsewhere(c, where, sizeof(where));
	return fb_fail(e, EXIT_DEVICE, "%s is no longer the card it was at the start (%s): it now reaches %s%s%s%s%s%s; "
		       "nothing more is written to it", c->path, c->identity,
		       m.kind == MEDIUM_FILE ? "another file" : "another disk", strcmp(now, c->identity) ? " (" : "",
		       strcmp(now, c->identity) ? now : "", strcmp(now, c->identity) ? ")" : "",
		       where[0] ? "; the card is now " : "", where);
}

static void identify(struct batch *b, struct batch_card *c)
{
	struct fb_err e = { 0 };
	struct claim *cl = NULL;

	c->sim = dev_is_sim(c->path);
	if (!c->sim && pin(c->path)) {
		fb_fail(&e, EXIT_DEVICE, "cannot open %s: %s", c->path, strerror(pin_failed(c->path) ? pin_failed(c->path) : errno));
		return refuse(c, BATCH_REFUSED, &e);
	}
	if (!c->sim) {
		medium_of(c->path, &c->medium);
		if (c->medium.kind == MEDIUM_NONE) {
			fb_fail(&e, EXIT_USAGE, "%s is neither a block device nor a regular file", c->path);
			return refuse(c, BATCH_REFUSED, &e);
		}
	}
	topo_of(c->path, &c->topo);
	describe(&c->medium, &c->topo, c->sim, c->identity, sizeof(c->identity));
	/* what a write run would refuse, refused now, by name (the run's own
	 * claim checks again) */
	if (b->o.writes && !c->sim) {
		if (claim_take(c->path, &cl, &e))
			return refuse(c, BATCH_REFUSED, &e);
		claim_release(cl);
	}
}

/* The same card named twice: the later name is refused. */
static void duplicates(struct batch *b)
{
	for (size_t j = 0; j < b->n; j++) {
		struct batch_card *c = &b->card[j];
		for (size_t i = 0; i < j && c->state == BATCH_READY && !c->sim; i++) {
			const struct batch_card *a = &b->card[i];
			struct fb_err e = { 0 };
			if (a->state != BATCH_READY || a->sim || !medium_same(&a->medium, &c->medium) ||
			    !medium_overlap(&a->medium, &c->medium))
				continue;
			fb_fail(&e, EXIT_USAGE, "%s is the same card as %s (given twice): it runs once, as %s", c->path,
				a->path, a->path);
			refuse(c, BATCH_REFUSED, &e);
		}
	}
}

/* ------------------------------------------------------------ the map */

/* The cards that run, in the map's order. */
struct ready {
	size_t *card;        /* [n]: the card of each place in the map */
	size_t n;
};

static int map(struct batch *b, struct ready *r, struct fb_err *e)
{
	struct topo *t = calloc(b->n ? b->n : 1, sizeof(*t));

	r->card = calloc(b->n ? b->n : 1, sizeof(*r->card));
	r->n = 0;
	if (!t || !r->card) {
		free(t);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	for (size_t i = 0; i < b->n; i++)
		if (b->card[i].state == BATCH_READY) {
			t[r->n] = b->card[i].topo;
			r->card[r->n++] = i;
		}
	if (topo_group(t, r->n, &b->map)) {
		free(t);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	free(t);
	if (b->o.side_by_side) { /* the caller's word: every card alone */
		for (size_t i = 0; i < b->map.ngroups; i++)
			b->map.g[i].turns = 0;
	}
	return 0;
}

/* ------------------------------------------------------------ the check */

struct start;

struct probe {
	struct batch *b;
	struct dev *d;
	size_t slot;                    /* its place in the map */
	uint64_t len;
	double ns[CHECK_READS];
	double median, spread;
	int failed;
	struct start *start;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The reads: a warm-up, then CHECK_READS timed; 0 or -1. */
static int reads(struct probe *p)
{
	uint64_t ns;
	double v[CHECK_READS];

	for (int i = -1; i < CHECK_READS; i++) {
		if (stopped(p->b) || dev_read(p->d, 0, p->len, &ns))
			return -1;
		if (i >= 0)
			p->ns[i] = (double)ns;
	}
	memcpy(v, p->ns, sizeof(v));
	qsort(v, CHECK_READS, sizeof(v[0]), cmp_double);
	p->median = v[CHECK_READS / 2];
	p->spread = p->median > 0 ? (v[CHECK_READS - 1] - v[0]) / p->median : 0;
	return 0;
}

/* The threads of a round start together once all of them exist (go 1),
 * or leave (go -1) when one could not be made. */
struct start {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;
	pthread_barrier_t bar;
};

static void *together(void *arg)
{
	struct probe *p = arg;
	struct start *s = p->start;
	struct fb_err e;
	int go;

	pthread_mutex_lock(&s->mu);
	while (!s->go)
		pthread_cond_wait(&s->cv, &s->mu);
	go = s->go;
	pthread_mutex_unlock(&s->mu);
	if (go < 0)
		return NULL;
	dev_phase(p->d, 1, &e);
	pthread_barrier_wait(&s->bar); /* every card of the round uses its link */
	p->failed = reads(p);
	pthread_barrier_wait(&s->bar);
	dev_phase(p->d, 0, &e);
	return NULL;
}

/* Read the cards of one round at once; 0, or -1 when threads cannot be made. */
static int round_of(struct probe *p, size_t n)
{
	struct start s = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };
	pthread_t *th = calloc(n, sizeof(*th));
	size_t made = 0;

	if (!th || pthread_barrier_init(&s.bar, NULL, (unsigned)n)) {
		free(th);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		p[i].start = &s;
	while (made < n && !pthread_create(&th[made], NULL, together, &p[made]))
		made++;
	pthread_mutex_lock(&s.mu);
	s.go = made < n ? -1 : 1;
	pthread_cond_broadcast(&s.cv);
	pthread_mutex_unlock(&s.mu);
	for (size_t i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&s.bar);
	free(th);
	return made < n ? -1 : 0;
}

static void check(struct batch *b, const struct ready *r)
{
	struct probe *p = calloc(r->n, sizeof(*p)), *round = calloc(r->n, sizeof(*round));
	size_t *seen = calloc(b->map.ngroups ? b->map.ngroups : 1, sizeof(*seen));
	double *alone = calloc(r->n, sizeof(*alone)), *spread = calloc(r->n, sizeof(*spread));
	size_t most = 0;

	if (!p || !round || !seen || !alone || !spread) {
		snprintf(b->check.why, sizeof(b->check.why), "out of memory");
		goto out;
	}
	/* each alone */
	for (size_t i = 0; i < r->n; i++) {
		struct batch_card *c = &b->card[r->card[i]];
		struct fb_err e = { 0 };
		p[i].b = b;
		p[i].slot = i;
		if (dev_open(&p[i].d, c->path, DEV_READONLY, &e) ||
		    dev_prepare(p[i].d, CHECK_LEN, &e)) {
			refuse(c, BATCH_FAILED, &e);
			continue;
		}
		p[i].len = dev_size(p[i].d) / 4 < CHECK_LEN ? dev_size(p[i].d) / 4 / dev_sector(p[i].d) * dev_sector(p[i].d)
							    : CHECK_LEN;
		if (!p[i].len)
			p[i].len = dev_sector(p[i].d);
		dev_phase(p[i].d, 1, &e);
		if (reads(&p[i])) {
			dev_phase(p[i].d, 0, &e);
			if (stopped(b))
				goto out;
			fb_fail(&e, EXIT_DEVICE, "%s: a read at its start failed (the batch's check)", c->path);
			refuse(c, BATCH_FAILED, &e);
			continue;
		}
		dev_phase(p[i].d, 0, &e);
		alone[i] = c->alone_ns = p[i].median;
		spread[i] = p[i].spread;
	}
	/* then together: round k reads the k-th card of each group at once */
	for (size_t g = 0; g < b->map.ngroups; g++)
		most = b->map.g[g].members > most ? b->map.g[g].members : most;
	for (size_t k = 0; k < most && !stopped(b); k++) {
		size_t n = 0, slowed = 0, first = (size_t)-1;
		double worst = 0;
		char why[200], a[32], t[32];
		memset(seen, 0, b->map.ngroups * sizeof(*seen));
		for (size_t i = 0; i < r->n; i++) {
			size_t g = b->map.group[i];
			if (seen[g]++ != k || b->card[r->card[i]].state != BATCH_READY)
				continue;
			round[n] = p[i];
			round[n++].slot = i;
		}
		if (n < 2)
			continue;
		b->check.rounds++;
		if (round_of(round, n)) {
			snprintf(b->check.why, sizeof(b->check.why), "cut short: no threads for a round of %zu cards", n);
			break;
		}
		for (size_t j = 0; j < n; j++) {
			size_t i = round[j].slot;
			double x = round[j].median / (alone[i] > 0 ? alone[i] : 1);
			struct batch_card *c = &b->card[r->card[i]];
			if (round[j].failed)
				continue;
			if (round[j].median > c->together_ns)
				c->together_ns = round[j].median;
			if (x <= 1 + (CHECK_MARGIN > CHECK_NOISE * spread[i] ? CHECK_MARGIN : CHECK_NOISE * spread[i]))
				continue;
			slowed++;
			if (x > worst) {
				worst = x;
				format_time(a, sizeof(a), alone[i]);
				format_time(t, sizeof(t), round[j].median);
			}
			if (first == (size_t)-1)
				first = i;
			else
				topo_join(&b->map, first, i, "");
		}
		if (!slowed)
			continue;
		if (slowed == 1) /* slowed by someone it cannot name: it takes turns with all of them */
			for (size_t j = 0; j < n; j++)
				topo_join(&b->map, first, round[j].slot, "");
		snprintf(why, sizeof(why), "reading together slowed them up to %.1fx (%s alone, %s together): a link no "
			 "map shows", worst, a, t);
		snprintf(b->map.g[b->map.group[first]].by.name, sizeof(b->map.g[0].by.name), "%.95s", why);
		b->check.joined += slowed;
	}
	b->check.ran = 1;
out:
	for (size_t i = 0; p && i < r->n; i++)
		if (p[i].d) {
			double c = dev_clock(p[i].d);
			b->card[r->card[i]].check_ns = c > 0 ? c : 0;
			dev_close(p[i].d);
		}
	free(p);
	free(round);
	free(seen);
	free(alone);
	free(spread);
}

/* ------------------------------------------------------------ plan */

int batch_plan(struct batch *b, const char *const *paths, size_t n, const struct batch_options *o,
	       struct fb_err *e)
{
	struct ready r = { 0 };

	memset(b, 0, sizeof(*b));
	b->o = *o;
	b->n = n;
	if (!(b->card = calloc(n ? n : 1, sizeof(*b->card))))
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	(void)crc32c(0, "", 0); /* its tables, made once before the threads */
	for (size_t i = 0; i < n; i++) {
		b->card[i].path = paths[i];
		b->card[i].index = i;
		identify(b, &b->card[i]);
	}
	duplicates(b);
	if (map(b, &r, e))
		goto fail;
	if (o->side_by_side)
		snprintf(b->check.why, sizeof(b->check.why), "not timed: every card runs side by side, as asked");
	else if (o->no_check)
		snprintf(b->check.why, sizeof(b->check.why), "not timed, as asked: the map is trusted");
	else if (r.n < 2)
		snprintf(b->check.why, sizeof(b->check.why), "not timed: only one card runs");
	else
		check(b, &r);
	if (!(b->gate = calloc(b->map.ngroups ? b->map.ngroups : 1, sizeof(*b->gate))))
		goto oom;
	for (size_t g = 0; g < b->map.ngroups; g++)
		if (b->map.g[g].turns && gate_new(&b->gate[g], o->stop, e))
			goto fail;
	for (size_t i = 0; i < r.n; i++) {
		struct batch_card *c = &b->card[r.card[i]];
		c->group = b->map.group[i];
		c->turns = b->map.g[c->group].turns;
	}
	if (stopped(b))
		for (size_t i = 0; i < n; i++)
			if (b->card[i].state == BATCH_READY) {
				struct fb_err s = { 0 };
				fb_fail(&s, EXIT_DEVICE, "stopped by a signal before its run");
				refuse(&b->card[i], BATCH_STOPPED, &s);
			}
	free(r.card);
	return 0;
oom:
	fb_fail(e, EXIT_DEVICE, "out of memory");
fail:
	free(r.card);
	batch_free(b);
	return -1;
}

/* ------------------------------------------------------------ run */

static int identity_check(void *ctx, struct fb_err *e)
{
	return batch_card_check(ctx, e);
}

int batch_attach(struct batch *b, struct batch_card *c, struct dev **d, struct fb_err *e)
{
	struct gate *g = c->group < b->map.ngroups ? b->gate[c->group] : NULL;

	if (gate_wrap(d, c->turns ? g : NULL, identity_check, c, &c->times, e))
		return -1;
	gate_start_at(*d, c->check_ns);
	return 0;
}

struct job {
	struct batch *b;
	struct batch_card *c;
	int (*run)(void *ctx, struct batch_card *c, struct fb_err *e);
	void *ctx;
};

static void *card_thread(void *arg)
{
	struct job *j = arg;
	struct batch_card *c = j->c;
	struct fb_err e = { 0 };
	int rc;

	if (stopped(j->b)) {
		fb_fail(&e, EXIT_DEVICE, "stopped by a signal before its run");
		refuse(c, BATCH_STOPPED, &e);
		return NULL;
	}
	rc = batch_card_check(c, &e) || j->run(j->ctx, c, &e);
	if (!rc)
		c->state = BATCH_DONE;
	else
		refuse(c, stopped(j->b) ? BATCH_STOPPED : BATCH_FAILED, &e);
	return NULL;
}

size_t batch_run(struct batch *b, int (*run)(void *ctx, struct batch_card *c, struct fb_err *e), void *ctx)
{
	struct job *jobs = calloc(b->n ? b->n : 1, sizeof(*jobs));
	pthread_t *th = calloc(b->n ? b->n : 1, sizeof(*th));
	char *made = calloc(b->n ? b->n : 1, 1);
	double t0 = wall();
	size_t bad = 0;

	for (size_t i = 0; jobs && th && made && i < b->n; i++) {
		struct batch_card *c = &b->card[i];
		if (c->state != BATCH_READY)
			continue;
		jobs[i] = (struct job){ b, c, run, ctx };
		if (pthread_create(&th[i], NULL, card_thread, &jobs[i])) /* no thread: it runs here, after the others */
			card_thread(&jobs[i]);
		else
			made[i] = 1;
	}
	for (size_t i = 0; th && made && i < b->n; i++)
		if (made[i])
			pthread_join(th[i], NULL);
	b->wall_ns = wall() - t0;
	for (size_t i = 0; i < b->n; i++) {
		struct batch_card *c = &b->card[i];
		if (!jobs || !th || !made) {
			if (c->state == BATCH_READY) {
				struct fb_err e = { 0 };
				fb_fail(&e, EXIT_DEVICE, "out of memory");
				refuse(c, BATCH_FAILED, &e);
			}
		}
		bad += c->state != BATCH_DONE;
		if (c->times.timeline_ns > b->device_ns)
			b->device_ns = c->times.timeline_ns;
		if (c->times.device_ns > 0)
			b->sum_ns += c->times.device_ns;
	}
	free(jobs);
	free(th);
	free(made);
	return bad;
}

void batch_free(struct batch *b)
{
	for (size_t g = 0; b->gate && g < b->map.ngroups; g++)
		gate_free(b->gate[g]);
	free(b->gate);
	topo_map_free(&b->map);
	free(b->card);
	memset(b, 0, sizeof(*b));
}
