/* auto.c — --auto: the plan and its report, the announcement of what
 * --auto --write overwrites and the journal's room for it, the progress
 * line, and the quick capacity check it makes before its first write. */
#include "run/run.h"

#include "run/mode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto/capacity.h"
#include "auto/characterize.h"
#include "dev.h"
#include "guard/preserve.h"
#include "guard/restore.h"
#include "lib/salt.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/identity.h"
#include "report/report_auto.h"
#include "report/summary.h"

/* What --auto's callback needs: the run, and what it says when it cancels. */
struct auto_ctx {
	struct run *r;
	struct dev *d;
	struct fb_err err;
};

/* --auto --write: before the first write, in three lines (doc/style.md):
 * what it overwrites, the journal, the bound; with -v the bytes, the room
 * and the capacity check's plan.  With --preserve it also reserves the
 * journal's room for what it may save (each byte once: no more than both
 * areas, nor than it writes). */
static int announce_auto(void *ctx, const struct write_plan *p)
{
	struct auto_ctx *a = ctx;
	const struct cli *c = &a->r->c;
	const char *journal = preserve_journal(a->d) ? preserve_journal(a->d) : a->r->guard.journal;
	struct extents areas = { 0 };
	char where[128], w[32], t[32];
	uint64_t most = 0;
	int rc = 0;

	if (preserve_journal(a->d)) {
		if (extents_add(&areas, p->range[0][0], p->range[0][1]) ||
		    extents_add(&areas, p->range[1][0], p->range[1][1]))
			rc = fb_fail(&a->err, EXIT_DEVICE, "out of memory");
		else
			rc = preserve_reserve_areas(a->d, &areas, p->bytes - p->check_bytes, &most, &a->err);
		extents_free(&areas);
		/* the capacity check's own, wherever its probes land: one figure */
		if (!rc && p->check_bytes && !(rc = preserve_reserve_bytes(a->d, p->check_bytes, &a->err)))
			most += p->check_bytes;
		if (rc)
			return rc;
	}
	run_areas_text(where, sizeof(where), p->range, 2);
	format_size(w, sizeof(w), p->bytes);
	format_duration(t, sizeof(t), (uint64_t)p->ns);
	/* a line that cannot be printed stops the run before its first write */
	if (note("--auto --write overwrites %s%s", where, preserve_journal(a->d) ? ", saved first" : " for good") < 0 ||
	    (c->verbose && run_bytes_note(p->range, 2, c->device) < 0) ||
	    note("journal: %s", journal) < 0 ||
	    (c->verbose && note("  %s", preserve_journal(a->d) ? "every range is saved there first and put back at "
				"the end" : "the capacity check's: its ranges are put back before the tests") < 0) ||
	    (c->verbose && most && note("  it has room for the %s --auto may save", format_size(w, sizeof(w), most)) < 0) ||
	    (p->ns_given && p->ns <= p->spent_ns ?
		     note("bound: the reads took %s of device time, all --budget allows: no write test runs", t) :
		     note("bound: %s written, %s of device time (%s)", format_size(w, sizeof(w), p->bytes), t,
			  p->check_left_out ? "--budget; check left out" :
			  p->bytes_given || p->ns_given ? "--budget" : "--budget changes it")) < 0 ||
	    (c->verbose && p->check_bytes &&
	     note("  the capacity check it makes first counts in the bound (%s at most)",
		  format_size(w, sizeof(w), p->check_bytes)) < 0) ||
	    (c->verbose && p->check_left_out &&
	     note("  the capacity check is left out: --budget cannot hold it (-C checks)") < 0))
		return run_unannounced("--auto --write", &a->err);
	return 0;
}

static void auto_progress(void *ctx, const struct auto_progress *a)
{
	struct run *r = ctx;
	struct progress_now now = { .done = a->requests, .part = auto_phase_title[a->phase], .part_no = a->phase + 1,
				    .parts = a->phases > 1 ? a->phases : 0, .share = a->share, .writes = r->c.write,
				    .written = a->bytes_written, .late = a->late };

	progress_update(&r->pr, &now);
}

static int auto_capacity(void *ctx, struct dev *d, double max_ns, uint64_t *written, struct fb_err *e);

/* --auto: the plan, then its report (what it finished, after a stop). */
static int run_auto(struct run *run, struct fb_err *e)
{
	const struct cli *c = &run->c;
	struct auto_ctx actx = { .r = run, .d = run->d, .err = { 0 } };
	struct auto_options o = { .write = c->write, .stop = &run_stop, .before_writes = announce_auto,
				  .ctx = &actx, .progress_ctx = run, .budget_ns = c->budget_ns,
				  .budget_bytes = c->budget_bytes, .read_speed = c->summary || run->row, .capacity = auto_capacity,
				  .capacity_ctx = run };
	struct auto_report *r = malloc(sizeof(*r));
	struct identity id;
	double t0 = wall_ns();
	int rc = 0;

	if (!r)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	if (progress_start(&run->pr, "--auto", c->progress))
		o.progress = auto_progress;
	rc = characterize(run->d, &o, r, e);
	progress_end(&run->pr);
	if (rc) {
		free(r);
		if (actx.err.msg[0]) /* the callback said why it cancelled */
			*e = actx.err;
		return -1;
	}
	run->stopped = r->interrupted;
	run->report_whole = 1;
	run->stopped_in = r->interrupted ? auto_stop_title(r) : NULL;
	run_identify(c, run->d, &id);
	if (run->row)
		summary_auto(run->row, &id, r);
	if (c->summary) {
		summary_auto(run_hold(run), &id, r);
	} else if (c->json) {
		report_auto_json(run_hold(run), &id, r, c->write, wall_ns() - t0);
	} else {
		report_auto_text(run_hold(run), &id, r, c->write, wall_ns() - t0);
	}
	run_let_go(run);
	if (run->out_error)
		rc = run_out_failed(run, e);
	else if (c->plot && (!r->interrupted || r->nrows))
		rc = run_plot(c, NULL, r, e);
	free(r);
	return rc;
}

/* --auto --write: a quick capacity check at the start of its write plan:
 * fewer probes and no flush, so what a fake loses at once or wraps onto
 * other flash is found (the writes past the middle that --auto makes would
 * land on the user's data at the start of a card that wraps around); a fake
 * that hides its loss in a cache is left to --capacity.  Its writes go
 * through the --preserve journal (put back at the end), or one of their own
 * that is put back before --auto writes anything; on a fake card --auto
 * stops there.  Its device time counts in --auto's bound (characterize
 * adds it before the write tests) but not in the tests' own cost: said here. */
#define AUTO_CAPACITY_STRATA 16

#define AUTO_CAPACITY_SETTLE 2000000000ULL  /* ns */

struct quick_ctx {
	struct dev *d;          /* the device with the journal's layer */
	int own;                /* a journal of its own */
	int verbose;            /* -v: say what it writes, and that it found no fake */
};

/* Reserve its own journal's room for what the quick check may write
 * (--preserve's holds it already: announce_auto counts it in); with
 * -v say what it writes (--auto's announcement named the journal). */
static int announce_quick(void *ctx, const struct capacity_plan *p, struct fb_err *e)
{
	const struct quick_ctx *q = ctx;
	char sigs[512], most[32];

	if (q->own && run_capacity_reserve(q->d, p, e)) /* --preserve's: reserved with --auto's */
		return -1;
	if (!q->verbose)
		return 0;
	run_capacity_writes(sigs, sizeof(sigs), p, "");
	format_size(most, sizeof(most), p->max_saved);
	note("--auto --write checks the capacity first: %s; each range is saved to %s first (at most %s) and put "
	     "back %s", sigs, preserve_journal(q->d), most, q->own ? "before --auto writes" : "at the end");
	return 0;
}

static int auto_capacity(void *ctx, struct dev *d, double max_ns, uint64_t *written, struct fb_err *e)
{
	struct run *r = ctx;
	struct quick_ctx q = { .d = d, .own = !preserve_journal(d), .verbose = r->c.verbose };
	/* its share of the bound, less the rest it gives the card after it:
	 * no more than its usual time, and never more than the share, even
	 * for the quarters it takes at least */
	double most = max_ns > 0 ? fmax(1, max_ns - AUTO_CAPACITY_SETTLE) : 0;
	struct capacity_options o = { .stop = &run_stop, .quick = 1, .strata = AUTO_CAPACITY_STRATA,
				      .before_writes = announce_quick, .ctx = &q, .hard_ns = most,
				      .max_ns = most > 0 && most < CAP_QUICK_NS ? most : 0 };
	struct capacity_report *cr = malloc(sizeof(*cr));
	struct dev_tally was;
	char a[32], b[32];
	struct restore_report restored;
	/* the clock --auto's cost line reads the check's figure on */
	double t0 = dev_clock(d) >= 0 ? dev_clock(d) : wall_ns();
	int rc = -1;

	dev_written(d, &was);
	if (!cr)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	o.salt = salt_new();
	/* its own journal, where --preserve's would be: a stop ends its saving
	 * at the next piece, or the check at its next request, then the data
	 * go back */
	if (q.own && preserve_journal_begin(&r->guard, &q.d, e)) {
		free(cr);
		return -1;
	}
	rc = capacity_check(q.d, &o, cr, e);
	*written = cr->bytes_written;
	if (rc && q.own)
		preserve_explain(q.d, e); /* a request its journal's layer refused: why */
	if (q.own) {
		struct fb_err why;
		int put;
		put = preserve_put_back(&r->guard, &q.d, 1, &restored, rc ? &why : e);
		if (put < 0 && !rc)
			rc = -1;
		else if (put < 0)
			snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; %s", why.msg);
		else if ((rc || cr->kind != CAP_GENUINE) && restored.bytes) /* stopped, or a fake */
			note("the capacity check put back the %llu bytes (%s) it wrote and verified them",
			     (unsigned long long)restored.bytes, format_size(a, sizeof(a), restored.bytes));
	}
	dev_written(d, &r->checked); /* written all the same (the stop line says it) */
	r->checked.bytes -= was.bytes;
	dev_written_set(d, &was); /* what the check wrote is not --auto's to report */
	/* the card finishes the garbage collection the check left it before
	 * --auto times its writes */
	if (!rc)
		dev_idle(d, AUTO_CAPACITY_SETTLE);
	if (!rc && cr->kind != CAP_GENUINE) {
		/* what becomes of its writes, as the check saw it */
		static const char *const fate[CAP_KINDS] = {
			[CAP_WRAP] = "its writes past the usable size would overwrite the flash below it (the data at the start)",
			[CAP_DROP] = "its writes past the usable size are lost",
			[CAP_CACHE] = "its writes past the usable size are lost a while later",
			[CAP_END] = "its writes past the usable size are lost, but for a working region at the end",
			[CAP_BAD] = "its writes to its bad regions are lost",
		};
		format_size_floor(a, sizeof(a), cr->usable.value);
		format_size(b, sizeof(b), cr->size);
		rc = fb_fail(e, EXIT_DEVICE, "%s: %s (usable %s%s of %s); --auto --write measures nothing on it, as %s "
			     "(flashbench --capacity %s says more)", r->c.device, cap_kind_title[cr->kind],
			     cr->usable.at_most ? "at most " : "", a, b, fate[cr->kind], r->c.device);
	} else if (!rc && r->c.verbose) {
		/* two figures, named: the check's own requests, and the cost
		 * line's (putting back and the rest after it included) */
		format_time(a, sizeof(a), cr->device_ns);
		format_time(b, sizeof(b), (dev_clock(d) >= 0 ? dev_clock(d) : wall_ns()) - t0);
		note("no fake capacity seen (a cache that hides one is left to --capacity); the check took %s%s, %s with "
		     "%sthe rest it gives the card after (the cost line's capacity figure), in the bound but apart from "
		     "the tests' own cost%s", a, cr->virtual_clock ? " of device time" : "", b,
		     q.own ? "putting its data back and " : "", q.own ? ", and its data are back" : "");
	}
	free(cr);
	return rc;
}

const struct mode mode_auto = {
	.name = "auto", .letter = 'A', .section = SEC_AUTO, .usage = " [OPTION]... DEVICE",
	.brief = "find page and erase block size (more with --write)",
	.help = "find page and erase block size (read-only), and with\n--write also the smallest efficient "
		"write, open erase\nblocks and FAT area; says how sure it is and how to\npartition and "
		"format the medium",
	.takes = OPT_RESULTS | OPT_PROGRESS | OPT_WRITE | OPT_BUDGET | OPT_JOURNAL | OPT_SUMMARY |
		 OPT_BATCH,
	.flags = MODE_DEVICE | MODE_DEVICES | MODE_WRITES_ASKED | MODE_JOURNAL_LATER | MODE_WHOLE_DEVICE,
	.run = run_auto,
};
