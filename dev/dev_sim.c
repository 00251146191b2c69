/* dev_sim.c — the simulated device backend: requests go to the flash model
 * (sim.h) and take the time it computes on its virtual clock; what they
 * write is remembered (sparsely) so that data can be read back and copied.
 * It holds no user's data, so --preserve refuses it (no
 * DEV_CAP_STORES_DATA); copies and data requests work (DEV_CAP_HOLDS_DATA)
 * and cost device time like the requests they are.  A card on a bus
 * (bus=, link=) shares its link with the other cards on it
 * (dev/simlink.h): a request takes at least its share of the link. */
#include "dev/dev_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/json.h"
#include "dev/sim.h"
#include "dev/simlink.h"

/* d->priv: the card, and its link */
struct simdev {
	struct sim *s;
	struct simlink *link;   /* NULL: a link of its own */
	int in_phase;           /* it uses its link from dev_phase on */
};

#define SIM(d) (((struct simdev *)(d)->priv)->s)

/* A request of len bytes the card alone takes ns for, on its link: the
 * card uses the link for it, and the time the link takes beyond the card's
 * own passes on the card's clock as a rest (the card waits for the link). */
static uint64_t on_link(struct dev *d, uint64_t len, uint64_t ns)
{
	struct simdev *sd = d->priv;
	uint64_t t;

	if (!sd->link)
		return ns;
	if (!sd->in_phase)
		simlink_use(sd->link, 1);
	t = simlink_cost(sd->link, len, ns);
	if (!sd->in_phase)
		simlink_use(sd->link, -1);
	if (t > ns)
		sim_idle(sd->s, t - ns);
	return t;
}

/* twall: each request also takes real time (a signal cuts the wait short:
 * the run then stops at its next request as it would anyway) */
static void pace(const struct dev *d, size_t requests)
{
	uint64_t ns = sim_params_of(SIM(d))->t_wall * requests;
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };

	if (ns)
		nanosleep(&ts, NULL);
}

static int sim_dev_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	pace(d, 1);
	*ns = on_link(d, len, sim_read(SIM(d), off, len));
	return 0;
}

static int sim_dev_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	pace(d, 1);
	*ns = on_link(d, len, sim_write(SIM(d), off, len));
	return sim_data_write(SIM(d), off, len, NULL, pattern);
}

static int sim_dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	pace(d, 1);
	*ns = sim_discard(SIM(d), off, len);
	return 0;
}

/* Data requests are timed without random draws (sim_exact): the
 * measurements after a capacity check draw what they would have drawn. */
static int sim_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns)
{
	pace(d, 1);
	sim_exact(SIM(d), 1);
	*ns = on_link(d, len, sim_write(SIM(d), off, len));
	sim_exact(SIM(d), 0);
	return sim_data_write(SIM(d), off, len, buf, 0);
}

static int sim_read_data(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	pace(d, 1);
	sim_exact(SIM(d), 1);
	*ns = on_link(d, len, sim_read(SIM(d), off, len));
	sim_exact(SIM(d), 0);
	return sim_data_read(SIM(d), off, len, buf);
}

static int sim_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len)
{
	uint64_t ns;

	return sim_read_data(d, off, len, buf, &ns);
}

static int sim_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len)
{
	uint64_t ns;

	return sim_write_data(d, off, len, buf, &ns);
}

static void sim_describe(const struct dev *d, struct json_member *model)
{
	const struct sim_params *p = sim_params_of(SIM(d));
	const struct json_member m[] = {
		{ "erase", JM_UINT, .uint = p->erase }, { "page", JM_UINT, .uint = p->page },
		{ "planes", JM_UINT, .uint = p->planes }, { "open", JM_UINT, .uint = p->open },
		{ "random", JM_UINT, .uint = p->random }, { "fat", JM_UINT, .uint = p->fat },
		{ "minwrite", JM_UINT, .uint = p->minwrite }, { "noise", JM_NUMBER, .number = p->noise },
		{ "seed", JM_UINT, .uint = p->seed },
		/* a fake card: the truth a capacity check is scored against */
		{ "fake", JM_STRING, .string = sim_fake_name(p->fake) }, { "real", JM_UINT, .uint = p->real },
		{ "keep", JM_UINT, .uint = p->keep }, { "goodend", JM_UINT, .uint = p->goodend },
		{ "bad", JM_NUMBER, .number = p->bad }, { "bad_regions", JM_STRING, .string = sim_bad_text(SIM(d)) },
		/* the truth of "every byte put back" */
		{ "sectors_changed", JM_UINT, .uint = sim_data_changed(SIM(d)) }, JM_END,
	};
	size_t n = p->fake ? 15 : 9;

	_Static_assert(sizeof(m) <= DEV_MODEL_MEMBERS * sizeof(m[0]), "DEV_MODEL_MEMBERS too small for the model");
	memcpy(model, m, n * sizeof(m[0]));
	if (sim_data_used(SIM(d)))
		model[n++] = m[15];
	if (p->bus[0]) { /* the link it shares (the sim's bus keys) */
		model[n++] = (struct json_member){ "bus", JM_STRING, .string = p->bus };
		model[n++] = (struct json_member){ "link", JM_UINT, .uint = p->link };
	}
	model[n] = m[16];
}

/* Queued requests: the model overlaps them as its host and card queue. */
static int sim_dev_queue(struct dev *d, struct dev_req *r, size_t n, unsigned depth, uint64_t *ns)
{
	struct sim_req *q = calloc(n ? n : 1, sizeof(*q));
	uint64_t *lat = calloc(n ? n : 1, sizeof(*lat));
	uint64_t bytes = 0;

	if (!q || !lat) {
		free(q);
		free(lat);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		q[i] = (struct sim_req){ r[i].off, r[i].len, r[i].write };
		bytes += r[i].len;
	}
	pace(d, n);
	*ns = on_link(d, bytes, sim_queue(SIM(d), q, n, depth, lat));
	for (size_t i = 0; i < n; i++) {
		r[i].ns = lat[i];
		r[i].rc = r[i].write ? sim_data_write(SIM(d), r[i].off, r[i].len, NULL, r[i].pattern)
				     : 0;
	}
	free(q);
	free(lat);
	return 0;
}

/* The card's word is its ssr key; its host's limits hostqd and link. */
static void sim_card(const struct dev *d, struct dev_card *c)
{
	const struct sim_params *p = sim_params_of(SIM(d));

	sim_ssr(p, c->ssr);
	c->preferred_erase = c->ssr[0] ? p->erase : 0;
	c->queue_known = c->link_known = 1;
	c->queue_depth = p->host_qd ? p->host_qd : 32;
	c->link_rate = p->link;
	snprintf(c->host, sizeof(c->host), "sim");
}

static double sim_dev_clock(const struct dev *d)
{
	return sim_clock(SIM(d));
}

static void sim_dev_idle(struct dev *d, uint64_t ns)
{
	sim_rest(SIM(d), ns);
}

static int sim_dev_phase(struct dev *d, int on, struct fb_err *e)
{
	struct simdev *sd = d->priv;

	(void)e;
	if (sd->link && !on != !sd->in_phase)
		simlink_use(sd->link, on ? 1 : -1);
	sd->in_phase = on;
	return 0;
}

static void sim_close(struct dev *d)
{
	struct simdev *sd = d->priv;

	if (!sd)
		return;
	if (sd->link && sd->in_phase)
		simlink_use(sd->link, -1);
	simlink_detach(sd->link);
	sim_destroy(sd->s);
	free(sd);
}

static const struct dev_ops sim_ops = {
	.name = "sim",
	.read = sim_dev_read, .write = sim_dev_write, .discard = sim_dev_discard,  /* the timed requests */
	.write_data = sim_write_data, .read_data = sim_read_data,
	.copy_out = sim_copy_out, .copy_in = sim_copy_in,
	.describe = sim_describe,
	.clock = sim_dev_clock, .idle = sim_dev_idle, .phase = sim_dev_phase,
	.queue = sim_dev_queue, .card = sim_card,
	.close = sim_close,
};

int dev_sim_open(struct dev *d, const char *spec, struct fb_err *e)
{
	struct sim_params p;
	struct simdev *sd = calloc(1, sizeof(*sd));

	if (!sd)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	if (sim_parse(spec, &p, e) || sim_create(&sd->s, &p, e) ||
	    (p.bus[0] && simlink_attach(p.bus, p.link, &sd->link, e))) {
		if (sd->s)
			sim_destroy(sd->s);
		free(sd);
		return -1;
	}
	d->ops = &sim_ops;
	d->priv = sd;
	d->caps = DEV_CAP_VIRTUAL_CLOCK | DEV_CAP_DISCARD | DEV_CAP_HOLDS_DATA;
	d->size = p.size;
	d->sector = d->physical = (unsigned)p.sector;
	return 0;
}
