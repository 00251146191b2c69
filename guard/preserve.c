/* preserve.c — the façade that protects a run's writes (preserve.h). */
#include "guard/preserve.h"

#include "dev.h"
#include "guard/layer.h"
#include "guard/restore.h"
#include "guard/save.h"
#include "lib/extents.h"

int preserve_begin(struct dev **d, const struct preserve_setup *s, struct fb_err *e)
{
	struct restore_report none;
	struct journal *j;
	struct fb_err ignored;

	if (save_create(&j, s->journal, *d, s->device, s->flags, e))
		return -1;
	if (layer_wrap(d, j, e)) {
		save_finish(j, &none, &ignored); /* nothing saved yet: removes it */
		return -1;
	}
	save_watch(j, s->stop, s->restoring);
	return 0;
}

int preserve_reserve_ranges(struct dev *d, const struct extents *writes, uint64_t *bytes,
			    struct fb_err *e)
{
	struct journal *j = layer_journal(d);
	uint64_t records;

	save_plan(writes, bytes, &records);
	return j ? save_reserve(j, *bytes, records, e) : 0;
}

int preserve_reserve_bytes(struct dev *d, uint64_t bytes, struct fb_err *e)
{
	struct journal *j = layer_journal(d);

	return j ? save_reserve(j, bytes, bytes / dev_sector(d) + 2, e) : 0;
}

int preserve_reserve_areas(struct dev *d, const struct extents *areas, uint64_t limit,
			   uint64_t *bytes, struct fb_err *e)
{
	*bytes = 0;
	for (size_t i = 0; i < areas->n; i++) /* disjoint: each byte once */
		*bytes += areas->v[i].hi - areas->v[i].lo;
	if (limit && limit < *bytes)
		*bytes = limit;
	return preserve_reserve_bytes(d, *bytes, e);
}

int preserve_save(struct dev *d, const struct extents *changes, struct fb_err *e)
{
	return dev_will_write(d, changes, e);
}

int preserve_end(struct dev **d, int unwrap, struct restore_report *r, struct fb_err *e)
{
	int rc = layer_finish(*d, r, e);

	if (unwrap)
		*d = layer_unwrap(*d);
	return rc;
}

void preserve_abandon(struct dev **d)
{
	*d = layer_unwrap(*d);
}

const char *preserve_journal(const struct dev *d)
{
	struct journal *j = layer_journal(d);

	return j ? save_file(j) : NULL;
}

uint64_t preserve_saved(const struct dev *d)
{
	struct journal *j = layer_journal(d);

	return j ? save_total(j) : 0;
}
