/* dev_preserve.c — the --preserve layer: wraps any device that stores data
 * (like f3's safe device).  Every request goes to the device below; before a
 * program's first request (dev_will_write, called by vm_run) the ranges it
 * will write are saved to the journal and synced (preserve.c). */
#include "dev_impl.h"

#include <stdlib.h>
#include <string.h>

#include "preserve.h"

struct layer {
	struct dev *lower;
	struct journal *j;
};

#define LOWER(d) (((struct layer *)(d)->priv)->lower)

static int layer_prepare(struct dev *d, uint64_t max_len, struct fb_err *e)
{
	return dev_prepare(LOWER(d), max_len, e);
}

static int layer_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	return dev_read(LOWER(d), off, len, ns);
}

static int layer_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	return dev_write(LOWER(d), off, len, pattern, ns);
}

static int layer_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	return dev_discard(LOWER(d), off, len, ns);
}

static int layer_copy_out(struct dev *d, void *buf, uint64_t off, uint64_t len)
{
	return dev_copy_out(LOWER(d), buf, off, len);
}

static int layer_copy_in(struct dev *d, const void *buf, uint64_t off, uint64_t len)
{
	return dev_copy_in(LOWER(d), buf, off, len);
}

static int layer_will_write(struct dev *d, const struct vm_op *prog, struct fb_err *e)
{
	struct layer *l = d->priv;

	if (l->j && journal_protect(l->j, prog, e))
		return -1;
	return dev_will_write(l->lower, prog, e);
}

static void layer_describe(const struct dev *d, struct json *j)
{
	dev_describe(LOWER(d), j);
}

static void layer_close(struct dev *d)
{
	struct layer *l = d->priv;

	if (!l)
		return;
	journal_abandon(l->j); /* an unfinished journal stays on disk */
	dev_close(l->lower);
	free(l);
}

static const struct dev_ops preserve_ops = {
	.name = "preserve",
	.prepare = layer_prepare,
	.read = layer_read,
	.write = layer_write,
	.discard = layer_discard,
	.copy_out = layer_copy_out,
	.copy_in = layer_copy_in,
	.will_write = layer_will_write,
	.describe = layer_describe,
	.close = layer_close,
};

int dev_preserve(struct dev **d, struct journal *j, struct fb_err *e)
{
	struct dev *lower = *d, *up;
	struct layer *l;

	if (!(lower->caps & DEV_CAP_STORES_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	up = calloc(1, sizeof(*up));
	l = calloc(1, sizeof(*l));
	if (!up || !l || !(up->path = strdup(lower->path))) {
		free(up);
		free(l);
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	}
	up->ops = &preserve_ops;
	up->priv = l;
	up->caps = lower->caps;
	up->size = lower->size;
	up->sector = lower->sector;
	up->physical = lower->physical;
	l->lower = lower;
	l->j = j;
	*d = up;
	return 0;
}

struct journal *dev_journal(const struct dev *d)
{
	return d && d->ops == &preserve_ops ? ((struct layer *)d->priv)->j : NULL;
}

int dev_preserve_finish(struct dev *d, uint64_t *restored, struct fb_err *e)
{
	struct layer *l;
	struct journal *j = dev_journal(d);

	*restored = 0;
	if (!j)
		return 0;
	l = d->priv;
	l->j = NULL;
	return journal_finish(j, restored, e) ? -1 : 1;
}
