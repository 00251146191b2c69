/* start.c — the shared start and end of a run of a device, between
 * which its mode runs: the device opened and checked, its program planned,
 * the guard's start (guard/preserve.h: outputs, safety, the claim, the
 * journal); then the data put back, the results in place, the guard's end.
 * main (flashbench.c) runs one; a batch (run/batch.c) one per card. */
#include "run/run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dev.h"
#include "guard/preserve.h"
#include "run/mode.h"
#include "vm.h"

/* Checks that need the device's size and sector size. */
static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	const struct test_params *t = &c->t;
	unsigned ss = dev_sector(d);

	if (!dev_size(d)) /* an empty file or a reader with no card: nothing to measure */
		return fb_fail(e, EXIT_DEVICE, "%s is empty (0 bytes): nothing to measure; is the card in, or the "
			       "file the right one?", dev_path(d));
	if (t->blocksize % ss)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->blocksize, ss);
	if (t->offset != UINT64_MAX && t->offset % ss)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->offset, ss);
	if (t->offset != UINT64_MAX && t->offset >= dev_size(d))
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is past the end of %s (%llu bytes)",
			       (unsigned long long)t->offset, dev_path(d), (unsigned long long)dev_size(d));
	return c->mode->check_device ? c->mode->check_device(c, d, e) : 0;
}

/* Everything before the first request: the outputs and the journal's
 * place checked, the device opened read-only (size and sector size for the
 * checks and the plan: reading harms nothing), the program and its plan,
 * then the guard's start (guard/preserve.h: the claim, the device for
 * writing, -o, the journal).  The most a test saves is known now;
 * --auto's and --capacity's once they announce what they write. */
int run_prepare(struct run *r, struct fb_err *e)
{
	struct cli *c = &r->c;
	struct preserve_setup s = { .device = c->device, .out = c->out, .plot = c->plot,
				    .journal = c->preserve ? c->journal : NULL, .writes = mode_writes(c),
				    .whole = mode_whole_device(c), .journal_now = mode_journaled(c),
				    .journal_kept = mode_journal_kept(c),
				    .own_journal = !c->preserve && mode_journal_kept(c),
				    .needs_data = c->preserve && !(c->mode->flags & MODE_JOURNALED),
				    .volatile_ok = c->preserve_volatile, .stop = &run_stop,
				    .restoring = &run_restoring,
				    .opened = r->opened, .opened_ctx = r->opened_ctx };
	uint64_t bytes;

	r->writing = s.writes;
	r->keeper = c->mode->flags & MODE_JOURNALED ? c->mode_option : "--preserve";
	if (preserve_check(&r->guard, &s, e) || dev_open(&r->d, c->device, DEV_READONLY, e) ||
	    check_device(c, r->d, e))
		return -1;
	if (c->mode->build) {
		e->msg[0] = '\0';
		if (!(r->prog = c->mode->build(c, r->d, e)))
			return e->msg[0] ? -1 : fb_fail(e, EXIT_DEVICE, "out of memory");
		if (vm_plan_extents(r->prog, dev_size(r->d), dev_sector(r->d), &r->plan,
				    s.journal_now ? &r->writes : NULL, s.journal_now ? &r->changes : NULL, e))
			return -1; /* past the end: main names the options (cli_name_reach) */
	}
	if (preserve_begin(&r->guard, &r->d, r->plan.write_lo, r->plan.write_hi, e))
		return -1;
	if (r->guard.out.f || !r->out) /* a batch's card has its own */
		r->out = r->guard.out.f ? r->guard.out.f : stdout;
	if (!s.journal_now || mode_later_room(c))
		return 0;
	if (preserve_reserve_ranges(r->d, &r->writes, &bytes, e))
		return -1;
	run_announce_room(r->guard.journal, bytes);
	return 0;
}

/* The guard's end (the data put back, -o in place or, after a stop with
 * nothing complete in it, left as it was; the device closed, the claim let
 * go), and what was put back said. */
int run_end_guard(struct run *r, int keep_out, struct fb_err *e)
{
	int rc;

	if (r->d)
		dev_written(r->d, &r->written);
	rc = preserve_end(&r->guard, &r->d, keep_out, e);
	run_said_put_back(r);
	return rc;
}

/* Put the data back, then the results in place (standard output flushed;
 * -o by the guard's end). */
int run_finish(struct run *r, struct fb_err *e)
{
	if (run_put_back(r, e))
		return -1;
	if (!r->c.out && fflush(stdout)) {
		r->out_error = errno;
		return run_out_failed(r, e);
	}
	return run_end_guard(r, !(r->stopped && r->c.out && !r->rows && !r->report_whole), e);
}

void run_release(struct run *r)
{
	preserve_abandon(&r->guard, &r->d); /* nothing once the guard ended */
	vm_result_free(r->res);
	vm_free(r->prog);
	extents_free(&r->writes);
	extents_free(&r->changes);
}

