/* test.c — the classic tests (a test kind's option) and --program's run:
 * the kind's checks, its built-in program, the announcement of what it
 * overwrites, the journal's save, the rows printed as they come, the
 * progress line, the text, JSON and chart at the end. */
#include "run/run.h"

#include "run/mode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "guard/preserve.h"
#include "lib/salt.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "prog/results.h"
#include "report/identity.h"
#include "report/report_json.h"

/* The test kind's checks, before and with the device. */
static int check(const struct cli *c, struct fb_err *e)
{
	return c->kind->check ? c->kind->check(&c->t, c->device, 0, 0, e) : 0;
}

static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	return c->kind->check ? c->kind->check(&c->t, dev_path(d), dev_size(d), dev_sector(d), e) : 0;
}

/* The program of a test kind, or of --program. */
static struct vm_op *build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	const struct test_kind *k = c->kind;
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	program_vars(&c->t, dev_size(d), dev_sector(d), &v);
	return program_builtin(c->t.random && k->program_random ? k->program_random : k->program, &v, &prog, &format,
			       e) ? NULL : prog;
}

/* "flashbench: --open-au overwrites 12MiB at 16MiB of sim:sd-4m, 36MiB in
 * all" (with -v the bytes), before the first write. */
static int announce(const struct cli *c, const struct vm_plan *p, struct fb_err *e)
{
	const uint64_t range[1][2] = { { p->write_lo, p->write_hi } };
	char where[96], total[32];

	run_areas_text(where, sizeof(where), range, 1);
	format_size(total, sizeof(total), p->bytes_written);
	if (note("%s overwrites %s of %s, %s in all", c->mode_option, where, c->device, total) < 0 ||
	    (c->verbose && run_bytes_note(range, 1, c->device) < 0))
		return run_unannounced(c->mode_option, e);
	return 0;
}

/* The VM finished a result node: a row of the test's text is printed and
 * flushed at once (people watch a sweep and stop it once it has
 * collapsed); JSON and charts wait for the end. */
static void row_done(void *ctx, const struct vm_result *node, unsigned depth, int first_path)
{
	struct run *r = ctx;
	const struct test_kind *k = r->c.kind;

	if (!k->row || depth != k->row_depth || !first_path)
		return;
	r->rows++;
	if (r->c.json || r->out_error)
		return;
	if (r->pr.shown && isatty(fileno(r->out)))
		progress_end(&r->pr); /* the row goes where the progress line was */
	errno = 0;
	k->row(r->out, node, &r->p);
	if (fflush(r->out) || ferror(r->out)) {
		r->out_error = errno ? errno : EIO;
		if (!run_stop)
			run_stop = RUN_STOP_OUTPUT;
	} else {
		r->lines_out++;
	}
}

static void test_progress(void *ctx, uint64_t done)
{
	struct run *r = ctx;
	struct progress_now now = { .done = done, .total = r->plan.requests, .share = -1, .writes = r->writing };
	struct dev_tally t;

	dev_written(r->d, &t);
	now.written = t.bytes;
	progress_update(&r->pr, &now);
}

/* A test or program: announce, save, run, print (rows as they come). */
int run_test(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct vm_run how = { .stop = &run_stop, .plan = &r->plan, .on_result = row_done, .result_ctx = r,
			      .keep_partial = 1 };
	int rc;

	/* signatures (sig-write, sig-read) carry a salt of this run's own */
	how.salt = salt_new();
	if (r->writing && announce(c, &r->plan, e))
		return -1;
	if (preserve_journal(r->d)) { /* save now, to say so; vm_run then finds nothing new */
		char sz[32];
		if (preserve_save(r->d, &r->changes, e)) {
			if (!run_stop)
				return -1;
			r->saving_stopped = 1; /* at a piece's end: no test request was made */
			r->saved = preserve_saved(r->d);
		} else {
			format_size(sz, sizeof(sz), preserve_saved(r->d));
			note("--preserve: saved %llu bytes (%s) to %s%s", (unsigned long long)preserve_saved(r->d), sz,
			     r->guard.journal, program_rewrites(r->prog) ? "; what it rewrites is saved as it reads it" : "");
		}
	}
	r->p = (struct print_ctx){ .kind = c->kind, .device = c->device, .t = &c->t, .verbose = c->verbose };
	if (r->saving_stopped) {
		rc = -1;
	} else {
		if (progress_start(&r->pr, c->mode_option, c->progress)) {
			how.progress = test_progress;
			how.progress_ctx = r;
		}
		rc = vm_run(r->prog, r->d, &how, &r->res, e);
		progress_end(&r->pr);
	}
	if (r->out_error)
		return run_out_failed(r, e);
	if (rc && !run_stop)
		return -1;
	if (rc) { /* stopped by a signal: the rows complete so far */
		r->stopped = 1;
		if (c->kind->row)
			result_keep_rows(r->res, c->kind->row_depth, r->rows);
	}
	if (c->json) {
		struct identity id;
		struct vm_plan done = r->plan;
		if (r->stopped) { /* what it wrote, not what it would have */
			struct dev_tally t;
			dev_written(r->d, &t);
			done.write_lo = t.lo;
			done.write_hi = t.hi;
			done.bytes_written = t.bytes;
		}
		run_identify(c, r->d, &id);
		report_test_json(run_hold(r), c->kind, &id, &c->t, r->stopped && !c->kind->row ? NULL : r->res, &done,
				 r->stopped);
	} else if (!c->kind->row && !r->stopped) {
		c->kind->text(run_hold(r), r->res, &r->p);
	}
	run_let_go(r);
	if (r->out_error)
		return run_out_failed(r, e);
	return c->plot && (!r->stopped || r->rows) ? run_plot(c, r->res, NULL, e) : 0;
}

/* The test kinds' row: each kind (testkinds.c) has its own option and help. */
const struct mode mode_test = {
	.name = "test", .usage = " [OPTION]... DEVICE",
	.takes = OPT_RESULTS | OPT_PROGRESS | OPT_GEOMETRY | OPT_ERASE | OPT_BATCH,
	.takes_writing = OPT_WRITE | OPT_JOURNAL,
	.flags = MODE_DEVICE | MODE_DEVICES | MODE_KIND,
	.run = run_test, .check = check, .check_device = check_device, .build = build,
};
