/* flashbench.c — the command line: parses options (the classic names and
 * letters, sizes with suffixes), refuses bad input before the device is
 * opened, picks the test program, opens the device with the access the test
 * needs (after the safety checks for write tests), runs it and hands the
 * results to the output.  No timing and no formatting details live here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "characterise.h"
#include "dev.h"
#include "devinfo.h"
#include "err.h"
#include "outfile.h"
#include "plot.h"
#include "preserve.h"
#include "programs.h"
#include "progress.h"
#include "progfile.h"
#include "options.h"
#include "report_auto.h"
#include "report_json.h"
#include "results.h"
#include "testkinds.h"
#include "safety.h"
#include "units.h"
#include "vm.h"

static int die(const struct fb_err *e)
{
	fprintf(stderr, "flashbench: %s\n", e->msg);
	return e->status;
}

/* Checks that need no device. */
static int check_params(const struct cli *c, struct fb_err *e)
{
	const struct test_params *t = &c->t;

	if (t->blocksize % 512)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%llu is not a multiple of 512 bytes (try 16k)",
			       (unsigned long long)t->blocksize);
	if (t->erasesize % 512)
		return fb_fail(e, EXIT_USAGE, "--erasesize=%llu is not a multiple of 512 bytes (try 4M)",
			       (unsigned long long)t->erasesize);
	if (t->offset != UINT64_MAX && t->offset % 512)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of 512 bytes",
			       (unsigned long long)t->offset);
	if (c->mode == RUN_TEST && c->kind->check)
		return c->kind->check(t, c->device, 0, 0, e);
	return 0;
}

/* Checks that need the device's size and sector size. */
static int check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	const struct test_params *t = &c->t;
	unsigned ss = dev_sector(d);

	if (t->blocksize % ss)
		return fb_fail(e, EXIT_USAGE, "--blocksize=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->blocksize, ss);
	if (t->offset != UINT64_MAX && t->offset % ss)
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is not a multiple of the device's %u-byte sector size",
			       (unsigned long long)t->offset, ss);
	if (t->offset != UINT64_MAX && t->offset >= dev_size(d))
		return fb_fail(e, EXIT_USAGE, "--offset=%llu is past the end of %s (%llu bytes)",
			       (unsigned long long)t->offset, dev_path(d), (unsigned long long)dev_size(d));
	if (c->mode == RUN_TEST && c->kind->check)
		return c->kind->check(t, dev_path(d), dev_size(d), ss, e);
	return 0;
}

/* The variables a program file may use. */
static void program_vars(const struct cli *c, uint64_t size, struct prog_vars *v)
{
	const struct test_params *t = &c->t;
	struct { const char *name; uint64_t value; } all[] = {
		{ "blocksize", t->blocksize }, { "erasesize", t->erasesize }, { "count", t->count },
		{ "offset", t->offset == UINT64_MAX ? 0 : t->offset }, { "open_au_nr", t->open_au_nr },
		{ "fat_nr", t->fat_nr }, { "scatter_order", t->scatter_order }, { "scatter_span", t->scatter_span },
		{ "interval_order", t->interval_order }, { "spacing", size ? align_spacing(size, 0) : 1 << 20 },
		{ "scatter_positions", 1ULL << t->scatter_order },
		{ "interval_max", t->blocksize << t->interval_order },
		{ "size", size }, { "open_au_offset", t->offset == UINT64_MAX ? open_au_default_offset(t->erasesize)
									      : t->offset },
	};
	v->n = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		v->name[v->n] = all[i].name;
		v->value[v->n++] = all[i].value;
	}
}

/* Parse the program once before the device is opened: syntax errors and a
 * missing --write are refused without touching anything. */
static int check_program(struct cli *c, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;
	int rc;

	program_vars(c, 0, &v);
	if (progfile_load(c->program, &v, &prog, &format, e))
		return -1;
	c->program_writes = program_writes(prog);
	if (!(c->kind = test_kind_named(format)))
		rc = fb_fail(e, EXIT_USAGE, "%s: unknown format '%s'", c->program, format);
	else
		rc = result_shape_check(prog, &c->kind->shape, c->program, format, e);
	vm_free(prog);
	if (rc)
		return -1;
	if (c->plot && !c->kind->plot)
		return fb_fail(e, EXIT_USAGE, "%s: --plot needs a chart, and the '%s' format has none (add a "
			       "'format align' line or similar)", c->program, format);
	if (c->program_writes && !c->write)
		return fb_fail(e, EXIT_USAGE, "%s writes to the device: add --write to allow it (the data in the "
			       "range it announces are lost)", c->program);
	return 0;
}

static struct vm_op *build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	if (c->mode == RUN_TEST)
		return c->kind->build(&c->t, dev_size(d));
	program_vars(c, dev_size(d), &v);
	return progfile_load(c->program, &v, &prog, &format, e) ? NULL : prog;
}

static void announce(const struct cli *c, const struct vm_plan *p)
{
	char range[32], total[32];

	format_size(range, sizeof(range), p->write_hi - p->write_lo);
	format_size(total, sizeof(total), p->bytes_written);
	fprintf(stderr, "flashbench: %s overwrites bytes %llu to %llu of %s (%s); %s written in all\n",
		c->mode_option, (unsigned long long)p->write_lo, (unsigned long long)p->write_hi - 1,
		c->device, range, total);
}

static volatile sig_atomic_t stop_requested, restoring;

static void on_signal(int sig)
{
	static const char msg[] = "flashbench: putting the saved data back; this is not interrupted, please wait\n";

	(void)sig;
	stop_requested = 1;
	if (restoring)
		(void)!write(2, msg, sizeof(msg) - 1);
}

/* Ctrl-C and friends stop a test at the next request, cleanly. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}


static void identify(const struct cli *c, const struct dev *d, struct identity *id)
{
	memset(id, 0, sizeof(*id));
	id->path = c->device;
	id->size = dev_size(d);
	id->sector = dev_sector(d);
	id->physical = dev_physical_sector(d);
	id->sim = dev_sim_params(d);
	if (!id->sim)
		devinfo_read(c->device, &id->info);
}

/* --auto --write: say what may be overwritten before the first write */
static int announce_auto(void *ctx, const uint64_t range[2][2])
{
	const struct cli *c = ctx;
	char a[32], b[32];

	format_size(a, sizeof(a), range[0][1] - range[0][0]);
	format_size(b, sizeof(b), range[1][1] - range[1][0]);
	fprintf(stderr, "flashbench: --auto --write overwrites bytes %llu to %llu (%s) and %llu to %llu (%s) of %s\n",
		(unsigned long long)range[0][0], (unsigned long long)range[0][1] - 1, a,
		(unsigned long long)range[1][0], (unsigned long long)range[1][1] - 1, b, c->device);
	return 0;
}

/* --plot: the chart of a test's results (res) or of --auto's (r) */
static int write_plot(const struct cli *c, const struct vm_result *res, const struct auto_report *r,
		      struct fb_err *e)
{
	struct print_ctx p = { .kind = c->kind, .device = c->device, .t = &c->t, .verbose = c->verbose };
	struct outfile o;

	if (outfile_open(&o, "--plot", c->plot, e))
		return -1;
	if (r ? plot_auto(o.f, c->device, r) : c->kind->plot(o.f, res, &p)) {
		outfile_abort(&o);
		return fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw (no rows, or none above zero)",
			       c->plot);
	}
	return outfile_commit(&o, e);
}

/* Every file the run writes can be written, and none is the device under
 * test: checked before anything runs. */
static int check_outputs(const struct cli *c, const char *journal_path, struct fb_err *e)
{
	return (c->out && outfile_check("--out", c->out, c->device, e)) ||
	       (c->plot && outfile_check("--plot", c->plot, c->device, e)) ||
	       (c->preserve && outfile_check_dir("--preserve", journal_path, e)) ? -1 : 0;
}

/* --auto --write --preserve: save what each write program will overwrite */
static struct journal *journal;
static int protect(void *ctx, const struct vm_op *prog, struct fb_err *e)
{
	(void)ctx;
	return journal ? journal_protect(journal, prog, e) : 0;
}

static int run_auto(const struct cli *c, struct dev *d, FILE *out, struct fb_err *e)
{
	struct auto_options o = { .write = c->write, .stop = &stop_requested, .before_writes = announce_auto,
				  .protect = protect, .ctx = (void *)c };
	struct auto_report *r = malloc(sizeof(*r));
	struct identity id;
	double t0 = wall_ns();
	struct progress pr;

	if (!r)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	o.progress = progress_start(&pr, "--auto", 0, c->progress);
	o.progress_ctx = &pr;
	if (characterise(d, &o, r, e)) {
		progress_end(&pr);
		free(r);
		return -1;
	}
	progress_end(&pr);
	identify(c, d, &id);
	if (c->json)
		report_auto_json(out, &id, r, c->write, wall_ns() - t0);
	else
		report_auto_text(out, &id, r, c->write, wall_ns() - t0);
	if (c->plot && write_plot(c, NULL, r, e)) {
		free(r);
		return -1;
	}
	free(r);
	return 0;
}

/* --restore JOURNAL DEVICE */
static int do_restore(const struct cli *c)
{
	struct fb_err e = { 0, "" };
	struct dev *d = NULL;
	uint64_t bytes;
	unsigned ranges, torn;
	char sz[32];

	restoring = 1;
	if (safety_check_write(c->device, &e) || dev_open(&d, c->device, DEV_READWRITE, &e))
		return die(&e);
	if (journal_restore(c->journal, d, c->device, &bytes, &ranges, &torn, &e)) {
		dev_close(d);
		return die(&e);
	}
	dev_close(d);
	format_size(sz, sizeof(sz), bytes);
	printf("restored %llu bytes (%s) in %u range%s from %s to %s, read back and verified; journal removed\n",
	       (unsigned long long)bytes, sz, ranges, ranges == 1 ? "" : "s", c->journal, c->device);
	if (torn)
		printf("the journal's last record was incomplete: the run was stopped while saving it, "
		       "before that range was overwritten, so it needed no restoring\n");
	return 0;
}

/* Put the saved ranges back; a second signal does not interrupt this. */
static int finish_journal(struct fb_err *e)
{
	uint64_t bytes = 0;
	char sz[32];
	int rc;

	if (!journal)
		return 0;
	restoring = 1;
	rc = journal_finish(journal, &bytes, e);
	journal = NULL;
	if (!rc) {
		format_size(sz, sizeof(sz), bytes);
		fprintf(stderr, "flashbench: --preserve: put back %llu bytes (%s) and verified them\n",
			(unsigned long long)bytes, sz);
	}
	return rc;
}

/* Everything a run holds, released in one place. */
struct run {
	struct cli c;
	struct dev *d;
	struct vm_op *prog;
	struct vm_result *res;
	struct vm_plan plan;
	struct outfile of;
	FILE *out;
	char journal_path[4096];
};

/* Everything before the first request: outputs, safety, the device, the
 * program and its plan, the journal. */
static int prepare(struct run *r, struct fb_err *e)
{
	struct cli *c = &r->c;

	journal_default_path(c->device, r->journal_path, sizeof(r->journal_path));
	if (check_outputs(c, c->preserve && c->journal ? c->journal : r->journal_path, e))
		return -1;
	/* refuse a used device, or one with an unfinished journal, before
	 * opening anything */
	if (cli_writes(c) && (safety_check_write(c->device, e) || journal_check_absent(r->journal_path, c->device, e)))
		return -1;
	if (c->preserve && c->journal)
		snprintf(r->journal_path, sizeof(r->journal_path), "%s", c->journal);
	/* read-only first: size and sector size for the checks and the plan */
	if (dev_open(&r->d, c->device, DEV_READONLY, e) || check_device(c, r->d, e))
		return -1;
	if (c->mode != RUN_AUTO) {
		e->msg[0] = '\0';
		if (!(r->prog = build(c, r->d, e)))
			return e->msg[0] ? -1 : fb_fail(e, EXIT_DEVICE, "out of memory");
		if (vm_plan(r->prog, dev_size(r->d), dev_sector(r->d), &r->plan, e))
			return -1;
	}
	if (c->preserve && dev_is_sim(r->d))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	if (cli_writes(c) && !dev_is_sim(r->d)) {
		dev_close(r->d);
		r->d = NULL;
		if (dev_open(&r->d, c->device, DEV_READWRITE, e)) {
			struct fb_err why;
			if (safety_check_write(c->device, &why))
				*e = why;
			return -1;
		}
	}
	if (c->out) {
		if (outfile_open(&r->of, "--out", c->out, e))
			return -1;
		r->out = r->of.f;
	}
	return c->preserve ? journal_create(&journal, r->journal_path, r->d, c->device,
					    c->mode == RUN_AUTO ? 64ULL << 20 : r->plan.write_hi - r->plan.write_lo, e)
			   : 0;
}

/* A test or program: announce, save, run, print. */
static int run_test(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct vm_run how = { .stop = &stop_requested, .plan = &r->plan };
	struct print_ctx p = { .kind = c->kind, .device = c->device, .t = &c->t, .verbose = c->verbose };
	struct progress pr;
	int rc;

	if (cli_writes(c))
		announce(c, &r->plan);
	if (journal) {
		char sz[32];
		if (journal_protect(journal, r->prog, e))
			return -1;
		format_size(sz, sizeof(sz), journal_saved(journal));
		fprintf(stderr, "flashbench: --preserve: saved %llu bytes (%s) to %s\n",
			(unsigned long long)journal_saved(journal), sz, r->journal_path);
	}
	how.progress = progress_start(&pr, c->mode == RUN_PROGRAM ? "program" : c->kind->name, r->plan.requests,
				      c->progress);
	how.progress_ctx = &pr;
	rc = vm_run(r->prog, r->d, &how, &r->res, e);
	progress_end(&pr);
	if (rc)
		return -1;
	if (c->json) {
		struct identity id;
		identify(c, r->d, &id);
		report_test_json(r->out, c->kind, &id, &c->t, r->res, &r->plan);
	} else {
		c->kind->text(r->out, r->res, &p);
	}
	return c->plot ? write_plot(c, r->res, NULL, e) : 0;
}

/* Put the data back, then the results in place. */
static int finish(struct run *r, struct fb_err *e)
{
	if (finish_journal(e))
		return -1;
	if (r->of.f)
		return outfile_commit(&r->of, e);
	return fflush(stdout) ? fb_fail(e, EXIT_DEVICE, "cannot write the results: %s", strerror(errno)) : 0;
}

static void release(struct run *r)
{
	if (r->of.f)
		outfile_abort(&r->of);
	vm_result_free(r->res);
	vm_free(r->prog);
	dev_close(r->d);
}

static int fail(struct run *r, struct fb_err *e)
{
	if (journal) {
		struct fb_err why = *e;
		if (finish_journal(&why))
			fprintf(stderr, "flashbench: %s\n", why.msg);
		else
			snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg),
				 "; the saved data were put back and verified");
	}
	release(r);
	return die(e);
}

int main(int argc, char **argv)
{
	static struct run r;
	struct fb_err e = { 0, "" };
	int rc = cli_parse(argc, argv, &r.c, &e);

	if (rc > 0)
		return 0;
	if (rc < 0 || check_params(&r.c, &e) || (r.c.mode == RUN_PROGRAM && check_program(&r.c, &e)))
		return die(&e);
	catch_signals();
	if (r.c.mode == RUN_RESTORE)
		return do_restore(&r.c);
	r.out = stdout;
	if (prepare(&r, &e) || (r.c.mode == RUN_AUTO ? run_auto(&r.c, r.d, r.out, &e) : run_test(&r, &e)) ||
	    finish(&r, &e))
		return fail(&r, &e);
	release(&r);
	return 0;
}
