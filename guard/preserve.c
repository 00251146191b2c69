/* preserve.c — the façade that protects a run's writes (preserve.h). */
#include "guard/preserve.h"

#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "guard/claim.h"
#include "guard/layer.h"
#include "guard/outputs.h"
#include "guard/place.h"
#include "guard/save.h"
#include "lib/extents.h"

/* May the journal lie on tmpfs/ramfs?  With --preserve-volatile; and a
 * simulated card's data live in this process: there a journal on tmpfs
 * loses nothing a crash would not. */
static unsigned journal_flags(const struct preserve *p, const struct dev *d)
{
	return p->s.volatile_ok || (dev_caps(d) & DEV_CAP_VIRTUAL_CLOCK) ? PLACE_VOLATILE_OK : 0;
}

int preserve_check(struct preserve *p, const struct preserve_setup *s, struct fb_err *e)
{
	memset(p, 0, sizeof(*p));
	p->s = *s;
	if (!s->own_journal)
		place_default_path(s->device, p->default_path, sizeof(p->default_path));
	else if (place_own_path(s->device, p->default_path, sizeof(p->default_path), e))
		return -1;
	snprintf(p->journal, sizeof(p->journal), "%s", s->journal ? s->journal : p->default_path);
	if (output_check_run(s->device, s->out, s->plot, s->journal_kept ? p->journal : NULL, e))
		return -1;
	/* never a journal as the device */
	return s->writes ? place_check_target(s->device, e) : 0;
}

int preserve_begin(struct preserve *p, struct dev **d, uint64_t lo, uint64_t hi, struct fb_err *e)
{
	const struct preserve_setup *s = &p->s;

	/* refuse a used device (what uses the bytes it writes; all of them for
	 * a run that may write anywhere), or one with an unfinished journal,
	 * before anything is written */
	if (s->writes &&
	    (claim_take_for(s->device, SAFETY_WRITE_TEST, s->whole ? 0 : lo, s->whole ? 0 : hi, &p->claim,
			    e) ||
	     place_check_absent(p->default_path, s->device, s->journal_kept && !s->journal, e) ||
	     (s->journal && place_check_absent(s->journal, s->device, 1, e))))
		return -1;
	if (s->needs_data && !(dev_caps(*d) & DEV_CAP_STORES_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	/* a journal made later (after the reads) is refused now */
	if (s->journal_kept && !s->journal_now &&
	    place_check(p->journal, s->device, journal_flags(p, *d), e))
		return -1;
	if (s->writes && (dev_caps(*d) & DEV_CAP_REOPEN_RW)) {
		dev_close(*d);
		*d = NULL;
		if (dev_open(d, s->device, DEV_READWRITE, e) || claim_recheck(p->claim, e))
			return -1;
	}
	if (s->opened && s->opened(s->opened_ctx, d, e))
		return -1;
	if (s->out && outfile_open(&p->out, "--out", s->out, e))
		return -1;
	return s->journal_now ? preserve_journal_begin(p, d, e) : 0;
}

int preserve_journal_begin(struct preserve *p, struct dev **d, struct fb_err *e)
{
	struct restore_report none;
	struct journal *j;
	struct fb_err ignored;

	if (save_create(&j, p->journal, *d, p->s.device, journal_flags(p, *d), e))
		return -1;
	if (layer_wrap(d, j, e)) {
		save_finish(j, &none, &ignored); /* nothing saved yet: removes it */
		return -1;
	}
	save_watch(j, p->s.stop, p->s.restoring);
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

int preserve_put_back(struct preserve *p, struct dev **d, int unwrap, struct restore_report *r,
		      struct fb_err *e)
{
	int rc = layer_finish(*d, r, e);

	if (unwrap)
		*d = layer_unwrap(*d);
	if (rc > 0 && !unwrap) { /* the run's journal */
		p->finished = 1;
		p->back = *r;
	}
	if (p->s.restoring) /* back (or kept for --restore): no longer putting back */
		*p->s.restoring = 0;
	return rc;
}

int preserve_end(struct preserve *p, struct dev **d, int keep_out, struct fb_err *e)
{
	struct restore_report r;
	int rc = 0;

	if (*d && layer_journal(*d))
		rc = preserve_put_back(p, d, 0, &r, e) < 0 ? -1 : 0;
	if (!rc && keep_out && p->out.f)
		rc = output_commit(&p->out, p->s.stop, e);
	preserve_abandon(p, d);
	return rc;
}

void preserve_abandon(struct preserve *p, struct dev **d)
{
	if (p->out.f)
		outfile_abort(&p->out);
	dev_close(*d); /* a journal still open stays on disk */
	*d = NULL;
	claim_release(p->claim); /* after the device and its journal are closed */
	p->claim = NULL;
}

int preserve_explain(const struct dev *d, struct fb_err *e)
{
	struct journal *j = layer_journal(d);

	return j ? save_explain(j, e) : 0;
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
