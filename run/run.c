/* run.c — what the modes share (run.h): the stop flag, outputs committed,
 * results held and let go a line at a time, the charts, the device named
 * for the reports, and the journal's end. */
#include "run/run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "dev/devinfo.h"
#include "dev/medium.h"
#include "guard/outputs.h"
#include "guard/preserve.h"
#include "lib/units.h"
#include "lib/wrap.h"
#include "report/identity.h"
#include "report/plot.h"

volatile sig_atomic_t run_stop, run_restoring;

int run_commit(struct outfile *o, struct fb_err *e)
{
	return output_commit(o, &run_stop, e);
}

int run_commit_out(struct outfile *of, struct fb_err *e)
{
	if (of->f)
		return run_commit(of, e);
	return fflush(stdout) ? fb_fail(e, EXIT_DEVICE, "cannot write the results: %s", strerror(errno)) : 0;
}

int run_open_outputs(const struct cli *c, struct outfile *out, struct outfile *plot, struct fb_err *e)
{
	return output_check_run(c->device, c->out, c->plot, NULL, e) ||
	       (c->out && outfile_open(out, "--out", c->out, e)) ||
	       (c->plot && outfile_open(plot, "--plot", c->plot, e)) ? -1 : 0;
}

int run_close_outputs(struct outfile *out, struct outfile *plot, int rc, struct fb_err *e)
{
	if (!rc && plot->f)
		rc = run_commit(plot, e);
	if (!rc)
		rc = run_commit_out(out, e);
	if (plot->f)
		outfile_abort(plot);
	if (out->f)
		outfile_abort(out);
	return rc;
}

void run_identify(const struct cli *c, const struct dev *d, struct identity *id)
{
	memset(id, 0, sizeof(*id));
	id->path = c->device;
	id->size = dev_size(d);
	id->sector = dev_sector(d);
	id->physical = dev_physical_sector(d);
	id->simulated = (dev_caps(d) & DEV_CAP_VIRTUAL_CLOCK) != 0;
	dev_describe(d, id->model);
	if (!id->simulated) {
		struct medium m;
		devinfo_read(c->device, &id->info);
		if (!medium_of(c->device, &m) && m.kind == MEDIUM_FILE)
			snprintf(id->file, sizeof(id->file), "%s", m.how[0] ? m.how : "a regular file");
	}
	dev_card(d, &id->card);
}

int run_plot_with(const struct cli *c, int (*draw)(FILE *f, const void *ctx), const void *ctx,
		  struct fb_err *e)
{
	struct outfile o;

	if (outfile_open(&o, "--plot", c->plot, e))
		return -1;
	if (draw(o.f, ctx)) {
		outfile_abort(&o);
		return fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw (no rows, or none above zero)",
			       c->plot);
	}
	return run_commit(&o, e);
}

struct test_plot {
	const struct cli *c;
	const struct vm_result *res;
	const struct auto_report *r;
};

static int draw_test(FILE *f, const void *ctx)
{
	const struct test_plot *t = ctx;
	struct print_ctx p = { .kind = t->c->kind, .device = t->c->device, .t = &t->c->t,
			       .verbose = t->c->verbose };

	return t->r ? plot_auto(f, "--auto", t->c->device, t->r) : t->c->kind->plot(f, t->res, &p);
}

int run_plot(const struct cli *c, const struct vm_result *res, const struct auto_report *r,
	     struct fb_err *e)
{
	struct test_plot t = { c, res, r };

	return run_plot_with(c, draw_test, &t, e);
}

FILE *run_hold(struct run *r)
{
	r->held = open_memstream(&r->held_buf, &r->held_len);
	return r->held ? r->held : r->out;
}

void run_let_go(struct run *r)
{
	const char *p, *end, *nl;

	if (!r->held)
		return;
	fclose(r->held);
	r->held = NULL;
	for (p = r->held_buf, end = p + r->held_len; p < end && !r->out_error; p = nl) {
		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl ? nl + 1 : end;
		errno = 0;
		if (fwrite(p, 1, (size_t)(nl - p), r->out) != (size_t)(nl - p) || fflush(r->out)) {
			r->out_error = errno ? errno : EIO;
			if (!run_stop)
				run_stop = RUN_STOP_OUTPUT;
		} else {
			r->lines_out++;
		}
	}
	free(r->held_buf);
	r->held_buf = NULL;
}

int run_out_failed(struct run *r, struct fb_err *e)
{
	const char *where = r->c.out ? r->c.out : "standard output";

	if (run_stop > 0)
		return fb_fail(e, EXIT_DEVICE, "stopped by a signal (%s) while writing the results to %s: %zu line%s of "
			       "them went out, the rest did not", fb_signal_name(run_stop), where, r->lines_out,
			       r->lines_out == 1 ? "" : "s");
	return fb_fail(e, EXIT_DEVICE, "cannot write the results to %s: %s", where, strerror(r->out_error));
}

/* A write test that cannot say on standard error which range it overwrites
 * (closed, full) does not write: status 1, and the line that says so goes
 * wherever standard error still lets it. */
int run_unannounced(const char *what, struct fb_err *e)
{
	return fb_fail(e, EXIT_DEVICE, "%s cannot announce the range it overwrites: standard error: %s; nothing "
		       "was written", what, strerror(errno));
}

void run_announce_room(const char *journal, uint64_t bytes)
{
	char sz[32];

	note("journal: %s (room for %s)", journal, format_size(sz, sizeof(sz), bytes));
}

void run_areas_text(char *buf, size_t len, const uint64_t range[][2], int n)
{
	char a[32], b[32];
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s at %s", i ? i + 1 == n ? " and " : ", " : "",
				       format_size_exact(a, sizeof(a), range[i][1] - range[i][0]),
				       format_size_exact(b, sizeof(b), range[i][0]));
}

int run_bytes_note(const uint64_t range[][2], int n, const char *device)
{
	char buf[256];
	size_t at = 0;

	for (int i = 0; i < n && at < sizeof(buf); i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%llu to %llu", i ? " and " : "",
				       (unsigned long long)range[i][0], (unsigned long long)range[i][1] - 1);
	return note("  bytes %s of %s", buf, device);
}

int run_put_back(struct run *r, struct fb_err *e)
{
	struct restore_report put;

	if (!preserve_journal(r->d))
		return 0;
	if (preserve_put_back(&r->guard, &r->d, 0, &put, e) < 0)
		return -1;
	run_said_put_back(r);
	return 0;
}

void run_said_put_back(struct run *r)
{
	const struct restore_report *put = &r->guard.back;
	const char *who = r->keeper;
	char sz[32], left[96] = "";

	if (!r->guard.finished || r->put_back_said)
		return;
	r->put_back_said = 1;
	if (!put->bytes && !put->untouched) /* nothing was saved */
		return;
	if (put->untouched) {
		format_size(sz, sizeof(sz), put->untouched);
		snprintf(left, sizeof(left), "; %llu bytes (%s) saved but never changed were left as they were",
			 (unsigned long long)put->untouched, sz);
	}
	format_size(sz, sizeof(sz), put->bytes);
	if (put->bytes)
		note("%s: put back %llu bytes (%s) and verified them%s", who, (unsigned long long)put->bytes, sz,
		     left);
	else
		note("%s: the run wrote to none of the %llu bytes (%s) it saved: nothing was put back; the journal is "
		     "removed", who, (unsigned long long)put->untouched, (format_size(sz, sizeof(sz), put->untouched), sz));
}
