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
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "auto/capacity.h"
#include "auto/characterize.h"
#include "saved/compare.h"
#include "dev.h"
#include "dev/devinfo.h"
#include "lib/err.h"
#include "lib/extents.h"
#include "lib/json_read.h"
#include "lib/outfile.h"
#include "lib/pin.h"
#include "lib/stdfds.h"
#include "report/plot.h"
#include "guard/claim.h"
#include "guard/outputs.h"
#include "guard/layer.h"
#include "guard/place.h"
#include "guard/restore.h"
#include "guard/save.h"
#include "prog/programs.h"
#include "lib/progress.h"
#include "prog/progfile.h"
#include "modes.h"
#include "options.h"
#include "report/report_analyze.h"
#include "report/report_auto.h"
#include "report/report_capacity.h"
#include "report/report_json.h"
#include "saved/saved_json.h"
#include "prog/results.h"
#include "testkinds.h"
#include "report/summary.h"
#include "lib/units.h"
#include "vm.h"

static int die(const struct fb_err *e)
{
	fprintf(stderr, "flashbench: %s\n", e->msg);
	return e->status;
}

/* Everything a run holds, released in one place. */
struct run {
	int saving_stopped;        /* a signal came while --preserve saved: no request was made */
	uint64_t saved;            /* then: the bytes it had saved */
	int journal_done;          /* the journal was finished: put_back bytes went back, */
	uint64_t put_back, untouched; /* untouched ones were saved but never changed */
	struct cli c;
	struct claim *claim;            /* a write run's hold on its medium */
	struct dev *d;
	struct vm_op *prog;
	struct vm_result *res;
	struct vm_plan plan;
	struct extents writes, changes; /* with a journal: the ranges the program writes, and changes */
	struct outfile of;
	FILE *out;
	char journal_path[4096];
	struct print_ctx p;        /* what the text printers know */
	struct progress pr;
	size_t rows;               /* rows measured (and printed, as text) so far */
	size_t lines_out;          /* lines of the results that went out whole */
	FILE *held;                /* results printed whole, held to go out a line at a time */
	char *held_buf;
	size_t held_len;
	int out_error;             /* errno of a failed write of the results */
	int stopped;               /* a signal stopped the run: what was complete was written */
	const char *stopped_in;    /* --auto: the part it stopped in */
	int report_whole;          /* what it printed is whole after a stop too (--auto's report): -o is kept */
};

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
	return c->mode->check ? c->mode->check(c, e) : 0;
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
	return c->mode->check_device ? c->mode->check_device(c, d, e) : 0;
}

/* The test kind's checks, before and with the device. */
int test_check(const struct cli *c, struct fb_err *e)
{
	return c->kind->check ? c->kind->check(&c->t, c->device, 0, 0, e) : 0;
}

int test_check_device(const struct cli *c, struct dev *d, struct fb_err *e)
{
	return c->kind->check ? c->kind->check(&c->t, dev_path(d), dev_size(d), dev_sector(d), e) : 0;
}

/* --capacity: a device it can check, and a cache it can flush. */
int capacity_check_device(const struct cli *c, struct dev *d, struct fb_err *e)
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

/* Parse the program once before the device is opened: syntax errors and a
 * missing --write are refused without touching anything. */
int program_check(struct cli *c, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;
	struct stat st;
	int rc;

	if (!stat(c->program, &st) && !S_ISREG(st.st_mode))
		return fb_fail(e, EXIT_USAGE, "--program=%s is %s: give a program file (it is read before the device "
			       "is opened and again after)", c->program, S_ISDIR(st.st_mode) ? "a directory" :
			       S_ISFIFO(st.st_mode) ? "a FIFO" : "not a regular file");
	program_vars(&c->t, 0, 0, &v);
	v.formats = test_kind_names();
	if (progfile_load(c->program, &v, &prog, &format, e))
		return -1;
	c->program_writes = program_writes(prog);
	c->kind = test_kind_named(format); /* the parser took only the kinds' names */
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
	return c->program_writes ? device_check_input(c->device, "--program", c->program, e) : 0;
}

/* The program of a test kind, or of --program. */
struct vm_op *test_build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	const struct test_kind *k = c->kind;
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	program_vars(&c->t, dev_size(d), dev_sector(d), &v);
	return program_builtin(c->t.random && k->program_random ? k->program_random : k->program, &v, &prog, &format,
			       e) ? NULL : prog;
}

struct vm_op *program_build(const struct cli *c, struct dev *d, struct fb_err *e)
{
	struct prog_vars v;
	struct vm_op *prog;
	const char *format;

	program_vars(&c->t, dev_size(d), dev_sector(d), &v);
	return progfile_load(c->program, &v, &prog, &format, e) ? NULL : prog;
}

/* A write test that cannot say on standard error which range it overwrites
 * (closed, full) does not write: status 1, and the line that says so goes
 * wherever standard error still lets it. */
static int unannounced(const char *what, struct fb_err *e)
{
	return fb_fail(e, EXIT_DEVICE, "%s cannot announce the range it overwrites: standard error: %s; nothing "
		       "was written", what, strerror(errno));
}

static int announce(const struct cli *c, const struct vm_plan *p, struct fb_err *e)
{
	char range[32], total[32];

	format_size(range, sizeof(range), p->write_hi - p->write_lo);
	format_size(total, sizeof(total), p->bytes_written);
	if (fprintf(stderr, "flashbench: %s overwrites bytes %llu to %llu of %s (%s); %s written in all\n",
		    c->mode_option, (unsigned long long)p->write_lo, (unsigned long long)p->write_hi - 1,
		    c->device, range, total) < 0 || fflush(stderr))
		return unannounced(c->mode_option, e);
	return 0;
}

/* stop_requested: 0, or the signal that asked the run to stop (SIGINT,
 * SIGTERM, SIGHUP), or STOP_OUTPUT when the results could not be written
 * (a reader that went away, a full disk): the VM stops at its next request
 * either way, and the run then ends as the cause wants. */
#define STOP_OUTPUT (-1)
static volatile sig_atomic_t stop_requested, restoring;

/* The first signal is the one that stopped the run (a script passing on
 * the Ctrl-C its terminal also sent, or a SIGTERM during the put-back, is
 * not a new cause); a stop for the output gives way to a signal. */
static void on_signal(int sig)
{
	static const char msg[] = "flashbench: putting the saved data back; this is not interrupted, please wait\n";
	static volatile sig_atomic_t told;

	if (stop_requested <= 0)
		stop_requested = sig;
	if (restoring && !told) {
		told = 1;
		(void)!write(2, msg, sizeof(msg) - 1);
	}
}

/* Ctrl-C and friends stop a test at the next request, cleanly. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* one at a time: two pending at once (Ctrl-C, then kill) would else
	 * nest, the later handler running first and taking the cause */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a reader that went away is a write error (EPIPE), seen where the
	 * results are written: the run stops, the saved data go back, then it
	 * ends quietly as filters do */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	outfile_watch(&stop_requested);
}

/* End as the signal sig would have ended us (after the cleanup), so that a
 * shell sees 128 + sig and a loop around us stops on Ctrl-C too. */
static int end_by_signal(int sig)
{
	struct sigaction sa;
	sigset_t set;

	fflush(stdout);
	fflush(stderr);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

/* Commit an output file; one stopped by a signal says so. */
static int commit(struct outfile *o, struct fb_err *e)
{
	const char *opt = o->opt;
	char target[sizeof(o->target)];
	int in_place = !o->tmp[0];

	memcpy(target, o->target, sizeof(target));
	if (!in_place && output_check_stdin_copy(opt, target, e)) {
		outfile_abort(o);
		return -1;
	}
	if (!outfile_commit(o, e))
		return 0;
	if (stop_requested > 0)
		fb_fail(e, EXIT_DEVICE, "stopped by a signal (%s) while writing %s=%s%s", signal_name(stop_requested), opt,
			target, outfile_untouched(target, in_place));
	return -1;
}


static void identify(const struct cli *c, const struct dev *d, struct identity *id)
{
	memset(id, 0, sizeof(*id));
	id->path = c->device;
	id->size = dev_size(d);
	id->sector = dev_sector(d);
	id->physical = dev_physical_sector(d);
	id->simulated = (dev_caps(d) & DEV_CAP_VIRTUAL_CLOCK) != 0;
	dev_describe(d, id->model);
	if (!id->simulated)
		devinfo_read(c->device, &id->info);
}

/* What --auto's callback needs: the run, and what it says when it cancels. */
struct auto_ctx {
	const struct cli *c;
	struct dev *d;
	struct fb_err err;
};

/* "flashbench: --preserve: this run saves at most ..." */
static void announce_room(const char *journal, uint64_t bytes)
{
	char sz[32];

	format_size(sz, sizeof(sz), bytes);
	fprintf(stderr, "flashbench: --preserve: this run saves at most %llu bytes (%s); %s has room for them\n",
		(unsigned long long)bytes, sz, journal);
}

/* --auto --write: say what may be overwritten, the most it writes and how
 * long it may take, before the first write, and with --preserve reserve the
 * journal's room for what it may save (each byte once: no more than both
 * areas, nor than it writes) */
static int announce_auto(void *ctx, const struct write_plan *p)
{
	struct auto_ctx *a = ctx;
	struct journal *j = layer_journal(a->d);
	uint64_t lo = p->range[0][1] < p->range[1][0] ? p->range[0][1] : p->range[1][0];
	char s0[32], s1[32], w[32], t[32];
	/* the bytes of both areas, each once */
	uint64_t most = p->range[0][1] - p->range[0][0] + p->range[1][1] - p->range[1][0] -
			(p->range[0][1] > p->range[1][0] && p->range[1][1] > p->range[0][0] ? p->range[0][1] - lo : 0);

	format_size(s0, sizeof(s0), p->range[0][1] - p->range[0][0]);
	format_size(s1, sizeof(s1), p->range[1][1] - p->range[1][0]);
	format_size(w, sizeof(w), p->bytes);
	format_duration(t, sizeof(t), (uint64_t)p->ns);
	/* a line that cannot be printed stops the run before its first write */
	if (fprintf(stderr, "flashbench: --auto --write overwrites bytes %llu to %llu (%s) and %llu to %llu (%s) of %s\n",
		    (unsigned long long)p->range[0][0], (unsigned long long)p->range[0][1] - 1, s0,
		    (unsigned long long)p->range[1][0], (unsigned long long)p->range[1][1] - 1, s1, a->c->device) < 0 ||
	    (p->ns_given && p->ns <= p->spent_ns ?
		     fprintf(stderr, "flashbench: it writes nothing: the reads took %s of device time already, all that "
			     "--budget allows (the write tests are left out)\n", t) :
		     fprintf(stderr, "flashbench: it writes at most %s and takes at most about %s of device time in all%s; "
			     "the capacity check it makes first is apart and says its own\n", w, t,
			     p->bytes_given && p->ns_given ? " (--budget)" : p->bytes_given || p->ns_given ?
			     " (--budget and the default)" : " (the default; --budget=TIME,SIZE changes it)")) < 0 ||
	    fflush(stderr))
		return unannounced("--auto --write", &a->err);
	if (!j)
		return 0;
	if (p->bytes && p->bytes < most)
		most = p->bytes;
	if (save_reserve(j, most, most / dev_sector(a->d) + 2, &a->err))
		return -1;
	announce_room(save_file(j), most);
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
	if (r ? plot_auto(o.f, "--auto", c->device, r) : c->kind->plot(o.f, res, &p)) {
		outfile_abort(&o);
		return fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw (no rows, or none above zero)",
			       c->plot);
	}
	return commit(&o, e);
}

/* Every file the run writes can be written, and none is the device under
 * test: checked before anything runs. */
static int check_outputs(const struct cli *c, const char *journal_path, struct fb_err *e)
{
	const char *device = c->device ? c->device : "";
	int j = mode_journal_kept(c);

	return (c->out && output_check("--out", c->out, device, e)) ||
	       (c->plot && output_check("--plot", c->plot, device, e)) ||
	       (j && outfile_check_dir("--preserve", journal_path, e)) ||
	       (c->out && j && outfile_check_apart("--out", c->out, "--preserve", journal_path, e)) ||
	       (c->plot && j && outfile_check_apart("--plot", c->plot, "--preserve", journal_path, e))
		       ? -1 : 0;
}

/* No output lands on a file the run reads (--compare's, --analyze's or
 * --program's, standard input among them), and -o and --plot land in two
 * files: checked before anything is read or run. */
static int check_inputs(const struct cli *c, struct fb_err *e)
{
	const char *in[2] = { c->program, c->analyze };
	const char *opt[2] = { "--out", "--plot" }, *path[2] = { c->out, c->plot };

	if (c->out && c->plot && outfile_check_apart("--out", c->out, "--plot", c->plot, e))
		return -1;
	/* standard output and error are outputs too, whatever -o says */
	for (int i = 0; i < 2; i++)
		if (in[i] && output_check_stdio_input(i ? "--analyze" : "--program", in[i], e))
			return -1;
	for (int i = 0; i < c->nfiles; i++)
		if (output_check_stdio_input("--compare", c->files[i], e))
			return -1;
	for (int o = 0; o < 2; o++) {
		for (int i = 0; path[o] && i < 2; i++)
			if (in[i] && output_check_input(opt[o], path[o], in[i], e))
				return -1;
		for (int i = 0; path[o] && i < c->nfiles; i++)
			if (output_check_input(opt[o], path[o], c->files[i], e))
				return -1;
	}
	return 0;
}

/* --restore JOURNAL DEVICE */
int run_restore(struct run *run, struct fb_err *e)
{
	const struct cli *c = &run->c;
	struct claim *claim = NULL;
	struct dev *d = NULL;
	struct restore_report r;
	char sz[32];
	int rc;

	restoring = 1;
	if (place_check_target(c->device, e) || claim_take_for(c->device, SAFETY_RESTORE, 0, 0, &claim, e) ||
	    dev_open(&d, c->device, DEV_READWRITE, e) || claim_recheck(claim, e)) {
		dev_close(d);
		claim_release(claim);
		return -1;
	}
	rc = restore_journal(c->journal, d, c->device, c->device_changed ? RESTORE_DEVICE_CHANGED : 0, &r, e);
	dev_close(d);
	claim_release(claim);
	if (r.warning[0])
		fprintf(stderr, "flashbench: warning: %s\n", r.warning);
	if (rc)
		return -1;
	format_size(sz, sizeof(sz), r.bytes);
	printf("restored %llu bytes (%s) in %u range%s from %s to %s, read back and verified; journal removed\n",
	       (unsigned long long)r.bytes, sz, r.ranges, r.ranges == 1 ? "" : "s", c->journal, c->device);
	if (r.torn)
		printf("the journal's last record was incomplete: the run was stopped while saving it, "
		       "before that range was overwritten, so it needed no restoring\n");
	return 0;
}


/* The results in place: the -o file renamed over its target, or standard
 * output flushed. */
static int commit_out(struct outfile *of, struct fb_err *e)
{
	if (of->f)
		return commit(of, e);
	return fflush(stdout) ? fb_fail(e, EXIT_DEVICE, "cannot write the results: %s", strerror(errno)) : 0;
}

/* -o and --plot of a run on saved results (no device). */
static int open_outputs(const struct cli *c, struct outfile *out, struct outfile *plot, struct fb_err *e)
{
	return check_outputs(c, "", e) || (c->out && outfile_open(out, "--out", c->out, e)) ||
	       (c->plot && outfile_open(plot, "--plot", c->plot, e)) ? -1 : 0;
}

static int close_outputs(struct outfile *out, struct outfile *plot, int rc, struct fb_err *e)
{
	if (!rc && plot->f)
		rc = commit(plot, e);
	if (!rc)
		rc = commit_out(out, e);
	if (plot->f)
		outfile_abort(plot);
	if (out->f)
		outfile_abort(out);
	return rc;
}

/* --compare A.json B.json ...: no device; -o, --json and --plot apply */
int run_compare(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct outfile out = { .f = NULL }, plot = { .f = NULL };
	int rc = open_outputs(c, &out, &plot, e);

	if (!rc)
		rc = compare_files(c->files, c->nfiles, c->json ? COMPARE_JSON : COMPARE_TEXT, out.f ? out.f : stdout,
				   plot.f, e);
	return close_outputs(&out, &plot, rc, e);
}

/* What follows --compare: two or more files. */
int compare_args(struct cli *c, int argc, char **argv, struct fb_err *e)
{
	c->files = (const char *const *)argv;
	c->nfiles = argc;
	return c->nfiles < 2 ? fb_fail(e, EXIT_USAGE, "--compare needs two or more files written with --json "
				       "(flashbench --compare A.json B.json)") : 0;
}

/* What follows --analyze: one file, or none for standard input. */
int analyze_args(struct cli *c, int argc, char **argv, struct fb_err *e)
{
	if (argc > (c->analyze ? 0 : 1))
		return fb_fail(e, EXIT_USAGE, "--analyze reads one file ('%s' is one too many)", argv[argc - 1]);
	if (!c->analyze)
		c->analyze = argc ? argv[0] : "-";
	return 0;
}

/* --restore=FILE: the journal's name. */
int restore_check_args(const struct cli *c, struct fb_err *e)
{
	if (!c->journal || !*c->journal)
		return fb_fail(e, EXIT_USAGE, "--restore needs the journal's file name (flashbench --restore=FILE DEVICE)");
	return 0;
}

/* A FIFO in a file system (not the pipe of <(command)): opening it waits
 * for a writer that may never come. */
static int named_fifo(const char *path)
{
	struct stat st;
	struct statfs fs;

	return !stat(path, &st) && S_ISFIFO(st.st_mode) && !statfs(path, &fs) &&
	       (unsigned long)fs.f_type != PIPEFS_MAGIC;
}

/* --analyze FILE: saved results, no device */
int run_analyze(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	int stdin_ = !strcmp(c->analyze, "-");
	const char *name = stdin_ ? "-" : c->analyze;
	FILE *in = stdin_ || named_fifo(c->analyze) ? stdin : fopen(c->analyze, "r");
	struct saved_text *t = malloc(sizeof(*t));
	struct saved_report *s = malloc(sizeof(*s));
	struct saved_findings *found = malloc(sizeof(*found));
	struct outfile out = { .f = NULL }, plot = { .f = NULL };
	char *text = NULL;
	size_t len;
	int rc = -1;

	if (!stdin_ && in == stdin)
		fb_fail(e, EXIT_USAGE, "--analyze=%s is a named FIFO, which may never get a writer: give a file, or "
			"read it as standard input (flashbench --analyze - < %s)", c->analyze, c->analyze);
	else if (!in)
		fb_fail(e, EXIT_USAGE, "cannot read %s: %s (--analyze takes a saved results file, or - for "
			"standard input)", c->analyze, strerror(errno));
	else if (!t || !s || !found)
		fb_fail(e, EXIT_DEVICE, "out of memory");
	else if (!read_stream(in, stdin_ ? "standard input" : c->analyze, &text, &len, e) &&
		 !saved_read(text, len, stdin_ ? "standard input" : c->analyze, t, found, e)) {
		if (!found->have && !t->nalign && !t->nopen && !t->nfat && !t->nother)
			fb_fail(e, EXIT_USAGE, "%s: no flashbench -a, -O or --find-fat table found (%u lines read); give "
				"the saved output of flashbench -a, -O or --find-fat, or a --json result",
				stdin_ ? "standard input" : c->analyze, t->lines);
		else
			rc = 0;
	}
	if (!rc && !(rc = open_outputs(c, &out, &plot, e))) {
		if (found->have)
			reanalyze_findings(found, s);
		else
			reanalyze(t, s);
		if (c->json)
			report_analyze_json(out.f ? out.f : stdout, name, t, s);
		else
			report_analyze_text(out.f ? out.f : stdout, name, t, s);
		/* a chart with nothing to show loses only itself: the text
		 * asked for is written first */
		if (plot.f && (found->have ? plot_auto(plot.f, "--analyze", stdin_ ? "standard input" : name, &s->r)
					   : plot_saved(plot.f, stdin_ ? "standard input" : name, t, &s->r)) &&
		    !(rc = commit_out(&out, e)))
			rc = fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw (no align, open-au or find-fat "
				     "rows); the report was written", c->plot);
	}
	if (in && in != stdin)
		fclose(in);
	free(text);
	free(t);
	free(s);
	free(found);
	return close_outputs(&out, &plot, rc, e);
}


/* May the journal lie on tmpfs/ramfs?  With --preserve-volatile; and a
 * simulated card's data live in this process: there a journal loses
 * nothing a crash would not. */
static int volatile_ok(const struct cli *c, const struct dev *d)
{
	return c->preserve_volatile || (dev_caps(d) & DEV_CAP_VIRTUAL_CLOCK);
}

/* --preserve: a journal, and the device wrapped in the layer that saves
 * every range into it before the range is first written. */
static int preserve_device(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	uint64_t bytes = 0, records = 0;
	struct restore_report none;
	struct journal *journal;
	struct fb_err ignored;

	/* the most a test saves is known now; --auto's and --capacity's once
	 * they announce what they write */
	if (!mode_later_room(c))
		save_plan(&r->writes, &bytes, &records);
	if (save_create(&journal, r->journal_path, r->d, c->device, volatile_ok(c, r->d) ? PLACE_VOLATILE_OK : 0, e))
		return -1;
	save_watch(journal, &stop_requested); /* Ctrl-C stops the saving too */
	if ((!mode_later_room(c) && save_reserve(journal, bytes, records, e)) || layer_wrap(&r->d, journal, e)) {
		save_finish(journal, &none, &ignored); /* nothing saved yet: removes it */
		return -1;
	}
	if (!mode_later_room(c))
		announce_room(r->journal_path, bytes);
	return 0;
}

/* A built-in test that reaches past the end: name the options that took it
 * there. */
static int name_reach(const struct cli *c, struct fb_err *e)
{
	static const char hint[] = " (use a smaller size, count or offset)";
	char opts[128], *at = strstr(e->msg, hint);

	cli_reach_options(c, opts, sizeof(opts));
	if ((c->mode->flags & MODE_KIND) && at && opts[0])
		snprintf(at, sizeof(e->msg) - (size_t)(at - e->msg), " (use a smaller %s)", opts);
	return -1;
}

/* Where the journal goes when --preserve names none: ./flashbench-NAME.journal;
 * for a simulated card, whose data live in this process, a file of this
 * run's own in $TMPDIR, named by its PID and 64 random bits: two runs on
 * one spec never meet, the current directory is left alone, and one that a
 * SIGKILL left behind (it holds nothing of a real medium) never blocks a
 * later run that gets the same PID. */
static void default_journal(const struct cli *c, char *buf, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	uint64_t tag;

	if (dev_is_sim(c->device)) {
		if (getrandom(&tag, sizeof(tag), 0) != sizeof(tag))
			tag = (uint64_t)wall_ns() ^ (uint64_t)getpid() << 32;
		snprintf(buf, len, "%s/flashbench-sim.%d.%016llx.journal", tmp && *tmp ? tmp : "/tmp", (int)getpid(),
			 (unsigned long long)tag);
	} else {
		place_default_path(c->device, buf, len);
	}
}

/* Everything before the first request: outputs, safety, the device, the
 * program and its plan, the journal. */
static int prepare(struct run *r, struct fb_err *e)
{
	struct cli *c = &r->c;

	default_journal(c, r->journal_path, sizeof(r->journal_path));
	if (check_outputs(c, c->preserve && c->journal ? c->journal : r->journal_path, e))
		return -1;
	/* never a journal as the device; then read-only first: size and sector
	 * size for the checks and the plan (reading harms nothing) */
	if ((mode_writes(c) && place_check_target(c->device, e)) || dev_open(&r->d, c->device, DEV_READONLY, e) ||
	    check_device(c, r->d, e))
		return -1;
	if (c->mode->build) {
		e->msg[0] = '\0';
		if (!(r->prog = c->mode->build(c, r->d, e)))
			return e->msg[0] ? -1 : fb_fail(e, EXIT_DEVICE, "out of memory");
		if (vm_plan_extents(r->prog, dev_size(r->d), dev_sector(r->d), &r->plan, mode_journaled(c) ? &r->writes : NULL,
				    mode_journaled(c) ? &r->changes : NULL, e))
			return name_reach(c, e);
	}
	/* refuse a used device (what uses the bytes the plan writes: --auto
	 * --write's are not known yet, --capacity's lie anywhere, so all of
	 * them), or one with an unfinished journal, before anything is written */
	if (mode_writes(c) &&
	    (claim_take_for(c->device, SAFETY_WRITE_TEST, mode_whole_device(c) ? 0 : r->plan.write_lo,
			    mode_whole_device(c) ? 0 : r->plan.write_hi, &r->claim, e) ||
	     place_check_absent(r->journal_path, c->device, mode_journal_kept(c) && !c->journal, e) ||
	     (c->preserve && c->journal && place_check_absent(c->journal, c->device, 1, e))))
		return -1;
	if (c->preserve && c->journal)
		snprintf(r->journal_path, sizeof(r->journal_path), "%s", c->journal);
	if (c->preserve && !(c->mode->flags & MODE_JOURNALED) && !(dev_caps(r->d) & DEV_CAP_STORES_DATA))
		return fb_fail(e, EXIT_USAGE, "--preserve needs a real device: a simulated one holds no data");
	/* the capacity check's own journal is made after the reads: refused now */
	if (mode_journal_kept(c) && !mode_journaled(c) &&
	    place_check(r->journal_path, c->device, volatile_ok(c, r->d) ? PLACE_VOLATILE_OK : 0, e))
		return -1;
	if (mode_writes(c) && (dev_caps(r->d) & DEV_CAP_REOPEN_RW)) {
		dev_close(r->d);
		r->d = NULL;
		if (dev_open(&r->d, c->device, DEV_READWRITE, e) || claim_recheck(r->claim, e))
			return -1;
	}
	if (c->out) {
		if (outfile_open(&r->of, "--out", c->out, e))
			return -1;
		r->out = r->of.f;
	}
	return mode_journaled(c) ? preserve_device(r, e) : 0;
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
		if (!stop_requested)
			stop_requested = STOP_OUTPUT;
	} else {
		r->lines_out++;
	}
}

/* Results printed whole (a table at the end, JSON, --auto's report) are
 * held in memory, then go out a line at a time: a stop while a slow reader
 * holds them back can then say how many lines went out.  hold() gives the
 * stream to print them to (the output itself when memory is short). */
static FILE *hold(struct run *r)
{
	r->held = open_memstream(&r->held_buf, &r->held_len);
	return r->held ? r->held : r->out;
}

static void let_go(struct run *r)
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
			if (!stop_requested)
				stop_requested = STOP_OUTPUT;
		} else {
			r->lines_out++;
		}
	}
	free(r->held_buf);
	r->held_buf = NULL;
}

static void test_progress(void *ctx, uint64_t done)
{
	struct run *r = ctx;
	struct progress_now now = { .done = done, .total = r->plan.requests, .share = -1, .writes = mode_writes(&r->c) };
	struct dev_tally t;

	dev_written(r->d, &t);
	now.written = t.bytes;
	progress_update(&r->pr, &now);
}

static void auto_progress(void *ctx, const struct auto_progress *a)
{
	struct run *r = ctx;
	struct progress_now now = { .done = a->requests, .part = auto_phase_title[a->phase], .part_no = a->phase + 1,
				    .parts = a->phases > 1 ? a->phases : 0, .share = a->share, .writes = r->c.write,
				    .written = a->bytes_written, .late = a->late };

	progress_update(&r->pr, &now);
}

/* Writing the results failed (r->out_error): why, for the error line. */
static int out_failed(struct run *r, struct fb_err *e)
{
	const char *where = r->c.out ? r->c.out : "standard output";

	if (stop_requested > 0)
		return fb_fail(e, EXIT_DEVICE, "stopped by a signal (%s) while writing the results to %s: %zu line%s of "
			       "them went out, the rest did not", signal_name(stop_requested), where, r->lines_out,
			       r->lines_out == 1 ? "" : "s");
	return fb_fail(e, EXIT_DEVICE, "cannot write the results to %s: %s", where, strerror(r->out_error));
}

static int auto_capacity(void *ctx, struct dev *d, struct fb_err *e);

/* --auto: the plan, then its report (what it finished, after a stop). */
int run_auto(struct run *run, struct fb_err *e)
{
	const struct cli *c = &run->c;
	struct auto_ctx actx = { .c = c, .d = run->d, .err = { 0, "" } };
	struct auto_options o = { .write = c->write, .stop = &stop_requested, .before_writes = announce_auto,
				  .ctx = &actx, .progress_ctx = run, .budget_ns = c->budget_ns,
				  .budget_bytes = c->budget_bytes, .read_speed = c->summary, .capacity = auto_capacity,
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
	identify(c, run->d, &id);
	if (c->summary) {
		summary_line(hold(run), &id, r);
	} else if (c->json) {
		report_auto_json(hold(run), &id, r, c->write, wall_ns() - t0);
	} else {
		report_auto_text(hold(run), &id, r, c->write, wall_ns() - t0);
	}
	let_go(run);
	if (run->out_error)
		rc = out_failed(run, e);
	else if (c->plot && (!r->interrupted || r->nrows))
		rc = write_plot(c, NULL, r, e);
	free(r);
	return rc;
}

/* A test or program: announce, save, run, print (rows as they come). */
int run_test(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct vm_run how = { .stop = &stop_requested, .plan = &r->plan, .on_result = row_done, .result_ctx = r,
			      .keep_partial = 1 };
	int rc;

	/* signatures (sig-write, sig-read) carry a salt of this run's own */
	if (getrandom(&how.salt, sizeof(how.salt), 0) != sizeof(how.salt))
		how.salt = (uint64_t)wall_ns();
	if (mode_writes(c) && announce(c, &r->plan, e))
		return -1;
	if (layer_journal(r->d)) { /* save now, to say so; vm_run then finds nothing new */
		char sz[32];
		if (dev_will_write(r->d, &r->changes, e)) {
			if (!stop_requested)
				return -1;
			r->saving_stopped = 1; /* at a piece's end: no test request was made */
			r->saved = save_total(layer_journal(r->d));
		} else {
			format_size(sz, sizeof(sz), save_total(layer_journal(r->d)));
			fprintf(stderr, "flashbench: --preserve: saved %llu bytes (%s) to %s%s\n",
				(unsigned long long)save_total(layer_journal(r->d)), sz, r->journal_path,
				program_rewrites(r->prog) ? "; what it rewrites is saved as it reads it" : "");
		}
	}
	r->p = (struct print_ctx){ .kind = c->kind, .device = c->device, .t = &c->t, .verbose = c->verbose };
	if (r->saving_stopped) {
		rc = -1;
	} else {
		if (progress_start(&r->pr, c->mode->flags & MODE_KIND ? c->kind->name : c->mode->name, c->progress)) {
			how.progress = test_progress;
			how.progress_ctx = r;
		}
		rc = vm_run(r->prog, r->d, &how, &r->res, e);
		progress_end(&r->pr);
	}
	if (r->out_error)
		return out_failed(r, e);
	if (rc && !stop_requested)
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
		identify(c, r->d, &id);
		report_test_json(hold(r), c->kind, &id, &c->t, r->stopped && !c->kind->row ? NULL : r->res, &done,
				 r->stopped);
	} else if (!c->kind->row && !r->stopped) {
		c->kind->text(hold(r), r->res, &r->p);
	}
	let_go(r);
	if (r->out_error)
		return out_failed(r, e);
	return c->plot && (!r->stopped || r->rows) ? write_plot(c, r->res, NULL, e) : 0;
}

/* Put back the saved ranges the run wrote to (the others the device
 * still holds); a second signal does not interrupt this. */
static int finish_journal(struct run *r, struct fb_err *e)
{
	struct restore_report put;
	const char *who = r->c.mode->flags & MODE_JOURNALED ? r->c.mode_option : "--preserve";
	char sz[32], left[96] = "";
	int rc;

	if (!layer_journal(r->d))
		return 0;
	restoring = 1;
	rc = layer_finish(r->d, &put, e) < 0 ? -1 : 0;
	r->journal_done = 1;
	r->put_back = put.bytes;
	r->untouched = put.untouched;
	if (rc || (!put.bytes && !put.untouched)) /* nothing was saved */
		return rc;
	if (put.untouched) {
		format_size(sz, sizeof(sz), put.untouched);
		snprintf(left, sizeof(left), "; %llu bytes (%s) saved but never changed were left as they were",
			 (unsigned long long)put.untouched, sz);
	}
	format_size(sz, sizeof(sz), put.bytes);
	if (put.bytes)
		fprintf(stderr, "flashbench: %s: put back %llu bytes (%s) and verified them%s\n", who,
			(unsigned long long)put.bytes, sz, left);
	else
		fprintf(stderr, "flashbench: %s: the run wrote to none of the %llu bytes (%s) it saved: nothing "
			"was put back; the journal is removed\n", who, (unsigned long long)put.untouched,
			(format_size(sz, sizeof(sz), put.untouched), sz));
	return 0;
}

/* What the end of the journal did, for the stop line: "" without one. */
static const char *put_back_note(const struct run *r)
{
	if (!r->journal_done || (!r->put_back && !r->untouched))
		return "";
	return r->put_back ? "; the saved data were put back and verified" : "; nothing needed putting back";
}

/* Reserve the journal's room for the most a capacity check saves, before
 * its first write (the journal on d, if any). */
static int capacity_room(struct dev *d, const struct capacity_plan *p, struct fb_err *e)
{
	struct journal *j = layer_journal(d);

	return j ? save_reserve(j, p->max_saved, p->max_saved / dev_sector(d) + 2, e) : 0;
}

/* What a capacity check writes of its signatures, for its announcement:
 * "2MiB of signatures at its start, 4KiB at up to 256 places anywhere on
 * DEV and a stretch of up to 4MiB at each of up to 2 edges it finds (at
 * most 11MiB of signatures in all)" (the flush, which writes back what it
 * read, is said apart). */
static void capacity_signatures(char *buf, size_t len, const struct capacity_plan *p, const char *where)
{
	char probe[32], ref[32], span[32], all[32];

	format_size(ref, sizeof(ref), p->ref_len);
	format_size(probe, sizeof(probe), p->probe_len);
	format_size(span, sizeof(span), p->span_max);
	format_size(all, sizeof(all), p->ref_len + p->max_probes * p->probe_len + CAP_MAX_SPANS * p->span_max);
	snprintf(buf, len, "%s of signatures at its start, %s at up to %u places%s and a stretch of up to %s at each "
		 "of up to %d edges it finds (at most %s of signatures in all)", ref, probe, p->max_probes, where, span,
		 CAP_MAX_SPANS, all);
}

/* --capacity: say what may be written before the first write, and reserve
 * the journal's room for all of it. */
static int announce_capacity(void *ctx, const struct capacity_plan *p, struct fb_err *e)
{
	const struct run *r = ctx;
	char sigs[512], where[300], window[32], flush[32], most[32];

	if (capacity_room(r->d, p, e))
		return -1;
	snprintf(where, sizeof(where), " anywhere on %s", r->c.device);
	capacity_signatures(sigs, sizeof(sigs), p, where);
	format_size(window, sizeof(window), p->window_len);
	format_size(flush, sizeof(flush), p->flush);
	format_size(most, sizeof(most), p->max_saved);
	fprintf(stderr, "flashbench: --capacity writes %s; each range is saved to %s first (at most %s; it has room "
		"for them) and put back at the end.  To flush a cache it also rewrites up to %s at a time, from the "
		"top down, of bytes %llu to %llu (%s, room for the probes it leaves alone) with the bytes they hold, "
		"read and saved just before: nothing there changes\n", sigs, r->journal_path, most, flush,
		(unsigned long long)p->window_off, (unsigned long long)(p->window_off + p->window_len - 1), window);
	return 0;
}

/* --capacity's progress: requests so far and what was written */
static void capacity_progress(void *ctx, uint64_t done)
{
	struct run *r = ctx;
	struct dev_tally t;
	struct progress_now now = { .done = done, .share = -1, .writes = 1 };

	dev_written(r->d, &t);
	now.written = t.bytes;
	progress_update(&r->pr, &now);
}

/* --auto --write: a quick capacity check at the start of its write plan:
 * fewer probes and no flush, so what a fake loses at once or wraps onto
 * other flash is found (the writes past the middle that --auto makes would
 * land on the user's data at the start of a card that wraps around); a fake
 * that hides its loss in a cache is left to --capacity.  Its writes go
 * through the --preserve journal (put back at the end), or one of their own
 * that is put back before --auto writes anything; on a fake card --auto
 * stops there.  Its cost lies outside --auto's own bound: said here. */
#define AUTO_CAPACITY_STRATA 16
#define AUTO_CAPACITY_SETTLE 2000000000ULL  /* ns */

struct quick_ctx {
	struct dev *d;          /* the device with the journal's layer */
	int own;                /* a journal of its own */
};

/* Say what the quick check may write and reserve the journal's room (the
 * most --auto saves is reserved on top, when it announces its areas). */
static int announce_quick(void *ctx, const struct capacity_plan *p, struct fb_err *e)
{
	const struct quick_ctx *q = ctx;
	char sigs[512], most[32];

	if (capacity_room(q->d, p, e))
		return -1;
	capacity_signatures(sigs, sizeof(sigs), p, "");
	format_size(most, sizeof(most), p->max_saved);
	fprintf(stderr, "flashbench: --auto --write checks the capacity first: %s; each range is saved to %s first (at "
		"most %s) and put back %s\n", sigs, save_file(layer_journal(q->d)), most,
		q->own ? "before --auto writes" : "at the end");
	return 0;
}

static int auto_capacity(void *ctx, struct dev *d, struct fb_err *e)
{
	struct run *r = ctx;
	struct quick_ctx q = { .d = d, .own = !layer_journal(d) };
	struct capacity_options o = { .stop = &stop_requested, .quick = 1, .strata = AUTO_CAPACITY_STRATA,
				      .before_writes = announce_quick, .ctx = &q };
	struct capacity_report *cr = malloc(sizeof(*cr));
	struct journal *j = NULL;
	struct dev_tally was;
	char a[32], b[32];
	struct restore_report restored;
	int rc = -1;

	dev_written(d, &was);
	if (!cr)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	if (getrandom(&o.salt, sizeof(o.salt), 0) != sizeof(o.salt))
		o.salt = (uint64_t)wall_ns();
	if (q.own && (save_create(&j, r->journal_path, d, r->c.device, volatile_ok(&r->c, d) ? PLACE_VOLATILE_OK : 0,
				     e) ||
		      layer_wrap(&q.d, j, e))) {
		free(cr);
		return -1;
	}
	rc = capacity_check(q.d, &o, cr, e);
	if (q.own) {
		struct fb_err why;
		int put;
		restoring = 1;
		put = layer_finish(q.d, &restored, rc ? &why : e);
		q.d = layer_unwrap(q.d);
		if (put < 0 && !rc)
			rc = -1;
		else if (put < 0)
			snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; %s", why.msg);
		else if ((rc || cr->kind != CAP_GENUINE) && restored.bytes) /* stopped, or a fake */
			fprintf(stderr, "flashbench: the capacity check put back the %llu bytes (%s) it wrote and verified "
				"them\n", (unsigned long long)restored.bytes, format_size(a, sizeof(a), restored.bytes));
	}
	restoring = 0;
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
	} else if (!rc) {
		format_time(a, sizeof(a), cr->device_ns);
		fprintf(stderr, "flashbench: no fake capacity seen (a cache that hides one is left to --capacity); the "
			"check took %s%s, outside --auto's own cost%s\n", a, cr->virtual_clock ? " of device time" : "",
			q.own ? ", and its data are back" : "");
	}
	free(cr);
	return rc;
}

/* --capacity: the check, the data put back, then the report (which says
 * the data are back). */
int run_capacity(struct run *r, struct fb_err *e)
{
	const struct cli *c = &r->c;
	struct capacity_options o = { .stop = &stop_requested, .max_cache = c->max_cache,
				      .before_writes = announce_capacity, .ctx = r };
	struct capacity_report *cr = malloc(sizeof(*cr));
	struct journal *j = layer_journal(r->d);
	struct identity id;
	double t0 = wall_ns();
	uint64_t saved;
	int rc;

	if (!cr)
		return fb_fail(e, EXIT_DEVICE, "out of memory");
	if (getrandom(&o.salt, sizeof(o.salt), 0) != sizeof(o.salt))
		o.salt = (uint64_t)t0 ^ (uint64_t)getpid() << 32;
	if (progress_start(&r->pr, "--capacity", c->progress)) {
		o.progress = capacity_progress;
		o.progress_ctx = r;
	}
	rc = capacity_check(r->d, &o, cr, e);
	progress_end(&r->pr);
	saved = j ? save_total(j) : 0;
	if (rc || finish_journal(r, e)) {
		free(cr);
		return -1;
	}
	cr->saved = saved;
	cr->put_back = r->put_back; /* finish_journal verified every byte of it */
	cr->untouched = r->untouched;
	capacity_account(cr, r->d);
	identify(c, r->d, &id);
	if (c->summary)
		report_capacity_summary(r->out, &id, cr);
	else if (c->json)
		report_capacity_json(r->out, &id, cr, wall_ns() - t0);
	else
		report_capacity_text(r->out, &id, cr, wall_ns() - t0);
	if (c->plot) {
		struct outfile o2;
		if (outfile_open(&o2, "--plot", c->plot, e))
			rc = -1;
		else if (plot_capacity(o2.f, c->device, cr)) {
			outfile_abort(&o2);
			rc = fb_fail(e, EXIT_USAGE, "%s: the results have nothing to draw", c->plot);
		} else {
			rc = commit(&o2, e);
		}
	}
	free(cr);
	return rc;
}

/* Put the data back, then the results in place (after a stop, only when
 * something complete was written: else -o is left as it was). */
static int finish(struct run *r, struct fb_err *e)
{
	if (finish_journal(r, e))
		return -1;
	if (r->stopped && r->of.f && !r->rows && !r->report_whole) {
		outfile_abort(&r->of);
		return 0;
	}
	if (!r->of.f && fflush(stdout)) {
		r->out_error = errno;
		return out_failed(r, e);
	}
	return r->of.f ? commit(&r->of, e) : 0;
}

static void release(struct run *r)
{
	if (r->of.f)
		outfile_abort(&r->of);
	vm_result_free(r->res);
	vm_free(r->prog);
	extents_free(&r->writes);
	extents_free(&r->changes);
	dev_close(r->d);
	claim_release(r->claim); /* after the device and its journal are closed */
}

/* What was written, and where: "24MiB (25165824 bytes) written within
 * bytes 16777216 to 41943039 of /dev/sdb", or "nothing was written". */
static void written_note(const struct run *r, char *buf, size_t len)
{
	struct dev_tally t = { 0, 0, 0 };
	char sz[32];

	if (r->d)
		dev_written(r->d, &t);
	if (t.hi <= t.lo) {
		snprintf(buf, len, "nothing was written to %s", r->c.device);
		return;
	}
	format_size(sz, sizeof(sz), t.bytes);
	snprintf(buf, len, "%s (%llu bytes) written within bytes %llu to %llu of %s", sz, (unsigned long long)t.bytes,
		 (unsigned long long)t.lo, (unsigned long long)t.hi - 1, r->c.device);
}

/* The run was stopped by a signal and what it finished is written: say
 * what is complete and what was written, and end as the signal would. */
static int stopped(struct run *r)
{
	int sig = stop_requested;
	char what[192], wrote[256], saved[32], range[32];

	if (r->saving_stopped)
		snprintf(what, sizeof(what), "while --preserve saved the range it overwrites (%s of %s saved), before "
			 "its first request: no results%s", (format_size(saved, sizeof(saved), r->saved), saved),
			 (format_size(range, sizeof(range), r->plan.write_hi - r->plan.write_lo), range),
			 r->c.json ? " (JSON: \"interrupted\": true)" : "");
	else if (r->stopped_in)
		snprintf(what, sizeof(what), "during its %s part: findings it had not finished say \"interrupted\"",
			 r->stopped_in);
	else if (r->c.kind && r->c.kind->row)
		snprintf(what, sizeof(what), "after %zu complete row%s%s; the rest were not measured", r->rows,
			 r->rows == 1 ? "" : "s", r->c.json ? " (JSON: \"interrupted\": true)" : "");
	else
		snprintf(what, sizeof(what), "before the program ended: no results%s",
			 r->c.json ? " (JSON: \"interrupted\": true)" : "");
	if (r->c.out && !r->report_whole && !r->rows)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), access(r->c.out, F_OK) ?
			 "; no --out=%s was made" : "; --out=%s was left as it was", r->c.out);
	written_note(r, wrote, sizeof(wrote));
	/* stopped before a byte was saved: the journal had nothing to put back
	 * either, and the line says so as it does after a partial save */
	fprintf(stderr, "flashbench: stopped by a signal (%s) %s; %s%s\n", signal_name(sig), what, wrote,
		r->journal_done && !*put_back_note(r) ? "; nothing needed putting back" : put_back_note(r));
	release(r);
	return end_by_signal(sig);
}

static int fail(struct run *r, struct fb_err *e)
{
	int quiet = r->out_error == EPIPE && stop_requested <= 0;
	char wrote[256];

	if (r->d && layer_journal(r->d)) {
		struct fb_err why = *e;
		if (finish_journal(r, &why))
			fprintf(stderr, "flashbench: %s\n", why.msg);
		else if (!quiet)
			snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "%s", put_back_note(r));
	}
	if (quiet) { /* the reader went away (| head): it wanted no more */
		release(r);
		return end_by_signal(SIGPIPE);
	}
	if (stop_requested > 0) { /* stopped while writing the results */
		written_note(r, wrote, sizeof(wrote));
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; %s", wrote);
		fprintf(stderr, "flashbench: %s\n", e->msg);
		release(r);
		return end_by_signal(stop_requested);
	}
	release(r);
	return die(e);
}

int main(int argc, char **argv)
{
	static struct run r;
	struct fb_err e = { 0, "" };
	int rc;

	if (stdfds_hold() < 0) /* a closed descriptor that cannot be held: no message can go anywhere safe */
		return EXIT_DEVICE;
	if (output_check_stdio(NULL, &e)) /* even --help: nothing goes into a block device */
		return die(&e);
	rc = cli_parse(argc, argv, &r.c, &e);
	if (rc > 0)
		return 0;
	/* the device is looked up by its name once, now: every check, the claim
	 * and every open concern that file, whatever the name does meanwhile */
	if (!rc && r.c.device && strncmp(r.c.device, "sim:", 4))
		pin(r.c.device);
	/* so are the outputs: what their checks saw is what they replace */
	if (!rc && r.c.out)
		pin(r.c.out);
	if (!rc && r.c.plot)
		pin(r.c.plot);
	if (!rc && output_check_stdio(r.c.device, &e))
		return die(&e);
	if (rc < 0 || check_params(&r.c, &e) || check_inputs(&r.c, &e) ||
	    (r.c.mode->check_input && r.c.mode->check_input(&r.c, &e)))
		return die(&e);
	if (!(r.c.mode->flags & MODE_DEVICE)) /* saved results */
		return r.c.mode->run(&r, &e) ? die(&e) : 0;
	catch_signals();
	if (r.c.mode->flags & MODE_OWN_START)
		return r.c.mode->run(&r, &e) ? die(&e) : 0;
	r.out = stdout;
	if (prepare(&r, &e) || r.c.mode->run(&r, &e))
		return fail(&r, &e);
	if (finish(&r, &e))
		return fail(&r, &e);
	if (r.stopped || stop_requested > 0)
		return stopped(&r);
	release(&r);
	return 0;
}
