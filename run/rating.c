/* rating.c — --rating: the label's marks (--claim) checked before
 * anything is read, a device it can rate, the journal (its own on a
 * device that holds a user's data, unless --preserve made one), the
 * announcement of what it writes and the journal's room for all of it,
 * the progress line, the check, the data put back, then the report. */
#include "run/run.h"

#include "run/mode.h"

#include <stdlib.h>
#include <string.h>

#include "auto/rating.h"
#include "dev.h"
#include "guard/preserve.h"
#include "guard/restore.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/identity.h"
#include "report/report_rating.h"
#include "report/summary.h"

static int check_args(const struct cli *c, struct fb_err *e)
{
	const struct sd_mark *m[SD_FAMILIES];

	return c->claim ? rating_parse_claims(c->claim, m, e) : 0;
}

static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	char a[32];

	if (dev_size(d) < RATING_MIN_SIZE)
		return fb_fail(e, EXIT_USAGE, "%s has %llu bytes: --rating checks devices of 64MiB or more",
			       dev_path(d), (unsigned long long)dev_size(d));
	if (c->sustained > dev_size(d) / 2)
		return fb_fail(e, EXIT_USAGE, "--sustained=%s is more than half of %s (%llu bytes): the recording "
			       "takes at most half the device", format_size(a, sizeof(a), c->sustained), dev_path(d),
			       (unsigned long long)dev_size(d));
	return 0;
}

/* Say what it writes before the first write (three lines at most; -v
 * the places), and reserve the journal's room for all of it. */
static int announce_rating(void *ctx, const struct rating_report *rr, struct fb_err *e)
{
	const struct run *r = ctx;
	const char *j = preserve_journal(r->d);
	char au[32], most[32], sus[32], est[32], sest[32], most_t[32];
	int v = r->c.verbose;

	if (preserve_reserve_bytes(r->d, rr->max_bytes, e))
		return -1;
	format_size(au, sizeof(au), rr->au);
	format_size(most, sizeof(most), rr->max_bytes);
	format_size(sus, sizeof(sus), rr->sus_len);
	format_duration(est, sizeof(est), (uint64_t)rr->estimate_ns);
	format_duration(sest, sizeof(sest), (uint64_t)rr->sus_estimate_ns);
	format_duration(most_t, sizeof(most_t), (uint64_t)rr->bound_ns);
	if (note("--rating writes up to %s (%u AUs of %s, a %s recording)", most, rr->naus, au, sus) < 0 ||
	    (v && note("  %u AUs of %s spread over %s, FAT cycles near its start, random 4KiB in 256MiB, then a "
		       "recording of %s", rr->naus, au, r->c.device, sus) < 0))
		return run_unannounced("--rating", e);
	for (unsigned i = 0; v && i < rr->naus; i++)
		note("  AU %u at byte %llu", i, (unsigned long long)rr->aus[i].off);
	if ((j ? note("journal: %s", j) : note("nothing is saved: a simulated card holds no user's data")) < 0 ||
	    (j && v && note("  it has room for %s; each range is put back at the end", most) < 0) ||
	    note("bound: at most %s of device time (about %s at 20MB/s)", most_t, est) < 0 ||
	    (v && note("  a part slower than 2MB/s is cut short; the recording takes about %s", sest) < 0))
		return run_unannounced("--rating", e);
	return 0;
}

/* --rating's progress: its part, the share done, what was written */
static void rating_progress(void *ctx, const struct progress_now *where)
{
	struct run *r = ctx;
	struct dev_tally t;
	struct progress_now now = *where;

	dev_written(r->d, &t);
	now.writes = 1;
	now.written = t.bytes;
	progress_update(&r->pr, &now);
}

/* A journal of its own, unless --preserve made one: on every device that
 * holds a user's data. */
static int own_journal(struct run *r, struct fb_err *e)
{
	if (preserve_journal(r->d) || !(dev_caps(r->d) & DEV_CAP_STORES_DATA))
		return 0;
	if (preserve_journal_begin(&r->guard, &r->d, e))
		return -1;
	r->keeper = "--rating";
	return 0;
}

struct drawn {
	const char *device;
	const struct rating_report *r;
};

static int draw(FILE *f, const void *ctx)
{
	const struct drawn *d = ctx;

	return plot_rating(f, d->device, d->r);
}

static int run_rating(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct rating_options o = { .stop = &run_stop, .sustained = c->sustained, .before_writes = announce_rating,
				    .ctx = r };
	struct rating_report *rr = calloc(1, sizeof(*rr));
	struct identity id;
	double t0 = wall_ns();
	uint64_t saved;
	int rc;

	if (!rr)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	if ((c->claim && rating_parse_claims(c->claim, o.claim, e)) || own_journal(r, e)) {
		free(rr);
		return -1;
	}
	if (c->erase_given)
		o.au = c->t.erasesize;
	if (progress_start(&r->pr, "--rating", c->progress)) {
		o.progress = rating_progress;
		o.progress_ctx = r;
	}
	rc = rating_check(r->d, &o, rr, e);
	progress_end(&r->pr);
	saved = preserve_saved(r->d);
	if (rc && run_stop > 0) {
		/* a signal: what it measured so far, no verdict; the data go
		 * back after, and the stop line says what came of it */
		r->stopped = 1;
		r->stop_note = "before its verdicts";
		rr->interrupted = 1;
		rr->nmarks = 0;
		rr->saved = saved;
		rating_account(rr, r->d);
		run_identify(c, r->d, &id);
		if (c->json)
			report_rating_json(r->out, &id, rr, wall_ns() - t0);
		else if (!c->summary)
			report_rating_text(r->out, &id, rr, wall_ns() - t0);
		rating_free(rr);
		free(rr);
		return 0;
	}
	if (rc || run_put_back(r, e)) {
		rating_free(rr);
		free(rr);
		return -1;
	}
	rr->saved = saved;
	rr->put_back = r->guard.back.bytes;
	rating_account(rr, r->d);
	run_identify(c, r->d, &id);
	if (r->row)
		summary_rating(r->row, &id, rr);
	if (c->summary)
		summary_rating(r->out, &id, rr);
	else if (c->json)
		report_rating_json(r->out, &id, rr, wall_ns() - t0);
	else
		report_rating_text(r->out, &id, rr, wall_ns() - t0);
	if (c->plot)
		rc = run_plot_with(c, draw, &(struct drawn){ c->device, rr }, e);
	rating_free(rr);
	free(rr);
	return rc;
}

const struct mode mode_rating = {
	.name = "rating", .letter = 'G', .section = SEC_AUTO, .help_after = "max-cache",
	.usage = " [OPTION]... DEVICE", .brief = "is it as fast as its marks say? (C10, U3, V30, A2)",
	.help = "is it as fast as its marks say?  checks the\nspeed marks (C10, U1/U3, V6-V90, A1/A2) its "
		"SD Status\nclaims, or --claim's, the way the SD spec measures\nthem: meets, fails (which "
		"figure, where) or untestable\nhere; it writes, but saves every range to a journal\nfirst "
		"and puts it back",
	.takes = OPT_RESULTS | OPT_PROGRESS | OPT_MARKS | OPT_ERASE | OPT_JOURNAL | OPT_SUMMARY |
		 OPT_BATCH,
	.flags = MODE_DEVICE | MODE_DEVICES | MODE_WRITES | MODE_JOURNAL_LATER | MODE_WHOLE_DEVICE,
	.run = run_rating, .check_args = check_args, .check_device = check_device,
};
