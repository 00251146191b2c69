/* layer.c — the --preserve layer (layer.h). */
#include "guard/layer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dev/dev_impl.h"
#include "guard/restore.h"
#include "guard/save.h"

/* The layer's state (d->priv) is its journal, NULL once finished.  Every
 * op it leaves NULL goes to the device below (d->lower, dev.c). */

static int layer_will_write(struct dev *d, const struct extents *changes, struct fb_err *e)
{
	if (d->priv && save_protect(d->priv, changes, e))
		return -1;
	return dev_will_write(d->lower, changes, e);
}

/* Writes and discards go below once the journal knows where: at the end
 * only the saved ranges that were written to are put back. */
static int layer_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	if (d->priv)
		save_touch(d->priv, off, len);
	return dev_write(d->lower, off, len, pattern, ns);
}

/* Data requests (--capacity's signatures) are writes like any other. */
static int layer_write_data(struct dev *d, uint64_t off, uint64_t len, const void *buf, uint64_t *ns)
{
	if (d->priv)
		save_touch(d->priv, off, len);
	return dev_write_data(d->lower, off, len, buf, ns);
}

/* A rewrite: the bytes read are journaled (once) before they go back, and
 * the range is not touched: nothing changes, the end puts nothing back. */
static int layer_rewrite(struct dev *d, uint64_t off, uint64_t len, void *buf, uint64_t *ns)
{
	uint64_t t_read = 0, t_write = 0;
	struct fb_err e;
	int rc = dev_read_data(d->lower, off, len, buf, &t_read);

	if (!rc && d->priv && save_rewrite(d->priv, off, len, buf, &e))
		rc = errno == ENOSPC || errno == EDQUOT ? -ENOSPC : -EIO; /* not written back */
	if (!rc)
		rc = dev_write_data(d->lower, off, len, buf, &t_write);
	*ns = t_read + t_write;
	return rc;
}

static int layer_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	if (d->priv)
		save_touch(d->priv, off, len);
	return dev_discard(d->lower, off, len, ns);
}

/* Queued writes (dev_queue, --rating's IOPS) are noted like the others
 * before they go below. */
static void layer_touch(struct dev *d, uint64_t off, uint64_t len)
{
	if (d->priv)
		save_touch(d->priv, off, len);
}

static void layer_close(struct dev *d)
{
	save_abandon(d->priv); /* an unfinished journal stays on disk */
	dev_close(d->lower);
}

static const struct dev_ops preserve_ops = {
	.name = "preserve",
	.write = layer_write,
	.write_data = layer_write_data,
	.rewrite = layer_rewrite,
	.discard = layer_discard,
	.will_write = layer_will_write,
	.touch = layer_touch,
	.close = layer_close,
};

int layer_wrap(struct dev **d, struct journal *j, struct fb_err *e)
{
	struct dev *lower = *d, *up;

	if (!(lower->caps & DEV_CAP_HOLDS_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	up = calloc(1, sizeof(*up));
	if (!up || !(up->path = strdup(lower->path))) {
		free(up);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	up->ops = &preserve_ops;
	up->priv = j;
	up->caps = lower->caps | DEV_CAP_SAVES_FIRST;
	up->size = lower->size;
	up->sector = lower->sector;
	up->physical = lower->physical;
	up->lower = lower;
	*d = up;
	return 0;
}

struct journal *layer_journal(const struct dev *d)
{
	return d && d->ops == &preserve_ops ? d->priv : NULL;
}

int layer_finish(struct dev *d, struct restore_report *r, struct fb_err *e)
{
	struct journal *j = layer_journal(d);

	memset(r, 0, sizeof(*r));
	if (!j)
		return 0;
	d->priv = NULL;
	return save_finish(j, r, e) ? -1 : 1;
}

struct dev *layer_unwrap(struct dev *d)
{
	struct dev *lower;

	if (!d || d->ops != &preserve_ops)
		return d;
	lower = d->lower;
	save_abandon(d->priv); /* NULL once finished */
	free(d->path);
	free(d);
	return lower;
}
