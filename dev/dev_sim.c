/* dev_sim.c — the simulated device backend: requests go to the flash model
 * (sim.h) and take the time it computes on its virtual clock.  It holds no
 * data, so it has no copies (dev.c refuses them: no DEV_CAP_STORES_DATA). */
#include "dev/dev_impl.h"

#include <string.h>

#include "lib/json.h"
#include "dev/sim.h"

static int sim_dev_read(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	*ns = sim_read(d->priv, off, len);
	return 0;
}

static int sim_dev_write(struct dev *d, uint64_t off, uint64_t len, int pattern, uint64_t *ns)
{
	(void)pattern;
	*ns = sim_write(d->priv, off, len);
	return 0;
}

static int sim_dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	*ns = sim_discard(d->priv, off, len);
	return 0;
}

static void sim_describe(const struct dev *d, struct json_member *model)
{
	const struct sim_params *p = sim_params_of(d->priv);
	const struct json_member m[] = {
		{ "erase", JM_UINT, .uint = p->erase }, { "page", JM_UINT, .uint = p->page },
		{ "planes", JM_UINT, .uint = p->planes }, { "open", JM_UINT, .uint = p->open },
		{ "random", JM_UINT, .uint = p->random }, { "fat", JM_UINT, .uint = p->fat },
		{ "minwrite", JM_UINT, .uint = p->minwrite }, { "noise", JM_NUMBER, .number = p->noise },
		{ "seed", JM_UINT, .uint = p->seed }, JM_END,
	};

	_Static_assert(sizeof(m) <= DEV_MODEL_MEMBERS * sizeof(m[0]), "DEV_MODEL_MEMBERS too small for the model");
	memcpy(model, m, sizeof(m));
}

static void sim_close(struct dev *d)
{
	sim_destroy(d->priv);
}

static const struct dev_ops sim_ops = {
	.name = "sim",
	.read = sim_dev_read, .write = sim_dev_write, .discard = sim_dev_discard,  /* the timed requests */
	.describe = sim_describe,
	.close = sim_close,
};

int dev_sim_open(struct dev *d, const char *spec, struct fb_err *e)
{
	struct sim_params p;
	struct sim *s;

	if (sim_parse(spec, &p, e) || sim_create(&s, &p, e))
		return -1;
	d->ops = &sim_ops;
	d->priv = s;
	d->caps = DEV_CAP_VIRTUAL_CLOCK | DEV_CAP_DISCARD;
	d->size = p.size;
	d->sector = d->physical = (unsigned)p.sector;
	return 0;
}
