/* dev.c — the device interface (dev.h): opening picks the backend, every
 * request is checked against the device's size and sector here, then goes
 * to the backend's dev_ops. */
#include "dev/dev_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/err.h"
#include "lib/json.h"

int dev_is_sim(const char *path)
{
	return strncmp(path, "sim:", 4) == 0;
}

int dev_open(struct dev **out, const char *path, enum dev_mode mode, struct fb_err *e)
{
	struct dev *d = calloc(1, sizeof(*d));
	int rc;

	if (!d || !(d->path = strdup(path))) {
		free(d);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	rc = dev_is_sim(path) ? dev_sim_open(d, path + 4, e) : dev_block_open(d, path, mode, e);
	if (rc) {
		dev_close(d);
		return -1;
	}
	*out = d;
	return 0;
}

void dev_close(struct dev *d)
{
	if (!d)
		return;
	if (d->ops && d->ops->close)
		d->ops->close(d);
	free(d->path);
	free(d);
}

uint64_t dev_size(const struct dev *d) { return d->size; }
unsigned dev_sector(const struct dev *d) { return d->sector; }
unsigned dev_physical_sector(const struct dev *d) { return d->physical; }
const char *dev_path(const struct dev *d) { return d->path; }
unsigned dev_caps(const struct dev *d) { return d->caps; }

void dev_describe(const struct dev *d, struct json_member *model)
{
	model[0] = (struct json_member)JM_END;
	if (d->ops->describe)
		d->ops->describe(d, model);
	else if (d->lower)
		dev_describe(d->lower, model);
}

int dev_prepare(struct dev *d, uint64_t max_len, struct fb_err *e)
{
	if (d->ops->prepare)
		return d->ops->prepare(d, max_len, e);
	return d->lower ? dev_prepare(d->lower, max_len, e) : 0;
}

int dev_will_write(struct dev *d, const struct extents *changes, struct fb_err *e)
{
	if (d->ops->will_write)
		return d->ops->will_write(d, changes, e);
	return d->lower ? dev_will_write(d->lower, changes, e) : 0;
}

static int in_range(const struct dev *d, uint64_t off, uint64_t len)
{
	if (off > d->size || len > d->size - off)
		return -ERANGE;
	if (off % d->sector || len % d->sector)
		return -EINVAL;
	return 0;
}

/* Requests are checked against the device they are made to; a layer has
 * the size and sectors of the device it wraps. */
int dev_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	int rc = in_range(d, off, len);

	if (rc)
		return rc;
	return d->ops->read ? d->ops->read(d, off, len, ns) : dev_read(d->lower, off, len, ns);
}

void dev_written(const struct dev *d, struct dev_tally *t)
{
	*t = d->written;
}

void dev_written_set(struct dev *d, const struct dev_tally *t)
{
	d->written = *t;
}

static void tally(struct dev *d, uint64_t off, uint64_t len, uint64_t bytes)
{
	struct dev_tally *t = &d->written;

	if (t->lo == t->hi || off < t->lo)
		t->lo = off;
	if (off + len > t->hi)
		t->hi = off + len;
	t->bytes += bytes;
}

int dev_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	int rc = in_range(d, off, len);

	if (rc)
		return rc;
	tally(d, off, len, len);
	return d->ops->write ? d->ops->write(d, off, len, pattern, ns) : dev_write(d->lower, off, len, pattern, ns);
}

int dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	int rc = in_range(d, off, len);

	if (!rc && !(d->caps & DEV_CAP_DISCARD))
		rc = -EOPNOTSUPP;
	if (rc)
		return rc;
	tally(d, off, len, 0);
	return d->ops->discard ? d->ops->discard(d, off, len, ns) : dev_discard(d->lower, off, len, ns);
}

/* Only a device that holds data has data to copy or read back. */
static int copy_range(const struct dev *d, uint64_t off, uint64_t len)
{
	return d->caps & DEV_CAP_HOLDS_DATA ? in_range(d, off, len) : -EOPNOTSUPP;
}

/* A data request: on a device that holds data, in range, one buffer long. */
static int data_range(const struct dev *d, uint64_t off, uint64_t len)
{
	int rc = copy_range(d, off, len);

	return !rc && len > DEV_MAX_BUFFER ? -EINVAL : rc;
}

int dev_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns)
{
	int rc = data_range(d, off, len);

	if (rc)
		return rc;
	tally(d, off, len, len);
	return d->ops->write_data ? d->ops->write_data(d, off, len, buf, ns) : dev_write_data(d->lower, off, len, buf, ns);
}

int dev_read_data(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	int rc = data_range(d, off, len);

	if (rc)
		return rc;
	return d->ops->read_data ? d->ops->read_data(d, off, len, buf, ns) : dev_read_data(d->lower, off, len, buf, ns);
}

int dev_rewrite(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	uint64_t t_read = 0, t_write = 0;
	int rc = data_range(d, off, len);

	if (rc)
		return rc;
	tally(d, off, len, len);
	if (d->ops->rewrite)
		return d->ops->rewrite(d, off, len, buf, ns);
	if (d->lower)
		return dev_rewrite(d->lower, off, len, buf, ns);
	if (!(rc = d->ops->read_data(d, off, len, buf, &t_read)))
		rc = d->ops->write_data(d, off, len, buf, &t_write);
	*ns = t_read + t_write;
	return rc;
}

/* Queued requests: every layer that sees writes is told of each queued
 * write (or the batch is refused), then the first device that queues
 * takes them; one that cannot runs them one after the other. */
int dev_queue(struct dev *d, struct dev_req *r, size_t n, unsigned depth, uint64_t *ns)
{
	struct dev *q = d;
	int writes = 0, rc;

	for (size_t i = 0; i < n; i++) {
		if ((rc = in_range(d, r[i].off, r[i].len)))
			return rc;
		writes |= r[i].write;
	}
	for (struct dev *l = d; l->lower; l = l->lower)
		if (writes && (l->ops->write || l->ops->discard) && !l->ops->touch)
			return -EOPNOTSUPP;
	for (size_t i = 0; i < n; i++)
		if (r[i].write) {
			tally(d, r[i].off, r[i].len, r[i].len);
			for (struct dev *l = d; l->lower; l = l->lower)
				if (l->ops->touch)
					l->ops->touch(l, r[i].off, r[i].len);
		}
	while (!q->ops->queue && q->lower)
		q = q->lower;
	if (q->ops->queue)
		return q->ops->queue(q, r, n, depth, ns);
	*ns = 0;
	for (size_t i = 0; i < n; i++) {
		r[i].rc = r[i].write ? q->ops->write(q, r[i].off, r[i].len, r[i].pattern, &r[i].ns)
				     : q->ops->read(q, r[i].off, r[i].len, &r[i].ns);
		*ns += r[i].ns;
	}
	return 0;
}

void dev_card(const struct dev *d, struct dev_card *c)
{
	memset(c, 0, sizeof(*c));
	while (!d->ops->card && d->lower)
		d = d->lower;
	if (d->ops->card)
		d->ops->card(d, c);
}

void dev_idle(struct dev *d, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	if (d->ops->idle)
		d->ops->idle(d, ns);
	else if (d->lower)
		dev_idle(d->lower, ns);
	else
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
}

int dev_phase(struct dev *d, int on, struct fb_err *e)
{
	if (d->ops->phase)
		return d->ops->phase(d, on, e);
	return d->lower ? dev_phase(d->lower, on, e) : 0;
}

double dev_clock(const struct dev *d)
{
	if (d->ops->clock)
		return d->ops->clock(d);
	return d->lower ? dev_clock(d->lower) : -1;
}

double dev_now(const struct dev *d)
{
	struct timespec ts;
	double v = dev_clock(d);

	if (v >= 0)
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int dev_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len)
{
	int rc = copy_range(d, off, len);

	if (rc)
		return rc;
	return d->ops->copy_out ? d->ops->copy_out(d, buf, off, len) : dev_copy_out(d->lower, buf, off, len);
}

int dev_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len)
{
	int rc = copy_range(d, off, len);

	if (rc)
		return rc;
	return d->ops->copy_in ? d->ops->copy_in(d, buf, off, len) : dev_copy_in(d->lower, buf, off, len);
}
