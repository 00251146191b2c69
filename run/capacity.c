/* capacity.c — --capacity: a device it can check, the announcement of
 * what it writes and the journal's room for all of it, the progress line,
 * the check, the data put back, then the report. */
#include "run/run.h"

#include "run/mode.h"

#include <stdlib.h>
#include <string.h>

#include "auto/capacity.h"
#include "dev.h"
#include "guard/preserve.h"
#include "lib/salt.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/identity.h"
#include "report/plot.h"
#include "report/report_capacity.h"
#include "report/summary.h"

/* --capacity: a device it can check, and a cache it can flush. */
static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	if (dev_size(d) < CAP_MIN_SIZE)
		return fb_fail(e, EXIT_USAGE, "%s has %llu bytes: --capacity checks devices of 64MiB or more", dev_path(d),
			       (unsigned long long)dev_size(d));
	if (c->max_cache > dev_size(d))
		return fb_fail(e, EXIT_USAGE, "--max-cache=%llu is more than %s holds (%llu bytes): a cache of the latest "
			       "writes is flash of the card itself; give at most its size", (unsigned long long)c->max_cache,
			       dev_path(d), (unsigned long long)dev_size(d));
	return 0;
}

int run_capacity_reserve(struct dev *d, const struct capacity_plan *p, struct fb_err *e)
{
	return preserve_reserve_bytes(d, p->max_saved, e);
}

uint64_t run_capacity_signatures(const struct capacity_plan *p)
{
	return p->ref_len + p->max_probes * p->probe_len + CAP_MAX_SPANS * p->span_max;
}

void run_capacity_writes(char *buf, size_t len, const struct capacity_plan *p, const char *where)
{
	char probe[32], ref[32], span[32], all[32];

	format_size(ref, sizeof(ref), p->ref_len);
	format_size(probe, sizeof(probe), p->probe_len);
	format_size(span, sizeof(span), p->span_max);
	format_size(all, sizeof(all), run_capacity_signatures(p));
	snprintf(buf, len, "%s of signatures at its start, %s at up to %u places%s and a stretch of up to %s at each "
		 "of up to %d edges it finds (at most %s of signatures in all)", ref, probe, p->max_probes, where, span,
		 CAP_MAX_SPANS, all);
}

/* --capacity: before the first write, in three lines (doc/style.md): what
 * it writes, the journal, what it rewrites to flush a cache; with -v the
 * detail.  It reserves the journal's room for all of it first. */
static int announce_capacity(void *ctx, const struct capacity_plan *p, struct fb_err *e)
{
	const struct run *r = ctx;
	char sigs[512], where[300], window[32], flush[32], most[32], all[32];
	int v = r->c.verbose;

	if (run_capacity_reserve(r->d, p, e))
		return -1;
	snprintf(where, sizeof(where), " anywhere on %s", r->c.device);
	run_capacity_writes(sigs, sizeof(sigs), p, where);
	format_size(window, sizeof(window), p->window_len);
	format_size(flush, sizeof(flush), p->flush);
	format_size(most, sizeof(most), p->max_saved);
	format_size(all, sizeof(all), run_capacity_signatures(p));
	if (note("--capacity writes up to %s of signatures, then puts it all back", all) < 0 ||
	    (v && note("  %s", sigs) < 0) ||
	    note("journal: %s", r->guard.journal) < 0 ||
	    (v && note("  it saves up to %s (it has room for them) and puts each range back at the end", most) < 0) ||
	    (p->flush && note("to flush a cache it rewrites up to %s with the bytes it holds", window) < 0) ||
	    (v && p->flush &&
	     note("  %s at a time, from the top down, of bytes %llu to %llu (room for the probes it leaves alone), "
		  "read and saved just before: nothing there changes", flush, (unsigned long long)p->window_off,
		  (unsigned long long)(p->window_off + p->window_len - 1)) < 0))
		return run_unannounced("--capacity", e);
	return 0;
}

/* --capacity's progress: its part, the share done, what was written */
static void capacity_progress(void *ctx, const struct progress_now *where)
{
	struct run *r = ctx;
	struct dev_tally t;
	struct progress_now now = *where;

	dev_written(r->d, &t);
	now.writes = 1;
	now.written = t.bytes;
	progress_update(&r->pr, &now);
}

/* --capacity: the check, the data put back, then the report (which says
 * the data are back). */
struct drawn {
	const char *device;
	const struct capacity_report *r;
};

static int draw(FILE *f, const void *ctx)
{
	const struct drawn *d = ctx;

	return plot_capacity(f, d->device, d->r);
}

static int run_capacity(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct capacity_options o = { .stop = &run_stop, .max_cache = c->max_cache,
				      .before_writes = announce_capacity, .ctx = r };
	struct capacity_report *cr = malloc(sizeof(*cr));
	struct identity id;
	double t0 = wall_ns();
	uint64_t saved;
	int rc;

	if (!cr)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	o.salt = salt_new();
	if (progress_start(&r->pr, "--capacity", c->progress)) {
		o.progress = capacity_progress;
		o.progress_ctx = r;
	}
	rc = capacity_check(r->d, &o, cr, e);
	progress_end(&r->pr);
	saved = preserve_saved(r->d);
	if (rc && run_stop > 0) {
		/* a signal: what it read so far, no verdict; the data go back
		 * after, and the stop line says what came of it */
		r->stopped = 1;
		r->stop_note = "before its verdict";
		cr->interrupted = 1;
		cr->saved = saved;
		finding_init(&cr->verdict, "verdict", "capacity", 0);
		finding_init(&cr->usable, "usable", "usable size", 1);
		finding_not(&cr->usable, "interrupted: the run was stopped by a signal before its verdict");
		capacity_account(cr, r->d);
		run_identify(c, r->d, &id);
		if (c->json)
			report_capacity_json(r->out, &id, cr, wall_ns() - t0);
		else if (!c->summary)
			report_capacity_text(r->out, &id, cr, wall_ns() - t0);
		free(cr);
		return 0;
	}
	if (rc || run_put_back(r, e)) {
		free(cr);
		return -1;
	}
	cr->saved = saved;
	cr->put_back = r->guard.back.bytes; /* the put back verified every byte of it */
	cr->untouched = r->guard.back.untouched;
	capacity_account(cr, r->d);
	run_identify(c, r->d, &id);
	if (r->row)
		summary_capacity(r->row, &id, cr);
	if (c->summary)
		summary_capacity(r->out, &id, cr);
	else if (c->json)
		report_capacity_json(r->out, &id, cr, wall_ns() - t0);
	else
		report_capacity_text(r->out, &id, cr, wall_ns() - t0);
	if (c->plot)
		rc = run_plot_with(c, draw, &(struct drawn){ c->device, cr }, e);
	free(cr);
	return rc;
}

const struct mode mode_capacity = {
	.name = "capacity", .letter = 'C', .section = SEC_AUTO, .help_after = "budget",
	.usage = " [OPTION]... DEVICE", .brief = "is the medium as large as it says? (fake cards)",
	.help = "is the medium as large as it says?  finds fake cards\n(wrapping around, losing or caching "
		"writes past their\nreal size, bad regions) and the real usable size; it\nwrites, but saves "
		"every range to a journal first and\nputs it back (--preserve=FILE names the journal)",
	.takes = OPT_RESULTS | OPT_PROGRESS | OPT_MAX_CACHE | OPT_JOURNAL | OPT_SUMMARY | OPT_BATCH,
	.flags = MODE_DEVICE | MODE_DEVICES | MODE_WRITES | MODE_JOURNALED | MODE_JOURNAL_LATER | MODE_WHOLE_DEVICE,
	.run = run_capacity, .check_device = check_device,
};
