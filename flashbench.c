/* flashbench.c — main: the command line parsed (options.c), bad input
 * refused before the device is opened, the signals caught, then the mode's
 * row (modes.h) run: a mode on saved results or one that starts itself
 * directly, any other between the shared start of a run (the device opened,
 * its program planned, and the guard's start, guard/preserve.h: outputs,
 * safety, the claim, the journal) and its shared end (the guard's: the data
 * put back, the results in place; then what a stop or a failure leaves
 * said).  The modes themselves are in run/; no timing and no formatting
 * details live here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "guard/outputs.h"
#include "guard/preserve.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "lib/pin.h"
#include "lib/stdfds.h"
#include "lib/units.h"
#include "modes.h"
#include "options.h"
#include "run/run.h"
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
	return c->mode->check ? c->mode->check(c, e) : 0;
}

/* The first signal is the one that stopped the run (a script passing on
 * the Ctrl-C its terminal also sent, or a SIGTERM during the put-back, is
 * not a new cause); a stop for the output gives way to a signal. */
static void on_signal(int sig)
{
	static const char msg[] = "flashbench: putting the saved data back; this is not interrupted, please wait\n";
	static volatile sig_atomic_t told;

	if (run_stop <= 0)
		run_stop = sig;
	if (run_restoring && !told) {
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
	outfile_watch(&run_stop);
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

/* What the end of the journal did, for the stop line: "" without one. */
static const char *put_back_note(const struct run *r)
{
	const struct restore_report *b = &r->guard.back;

	if (!r->guard.finished || (!b->bytes && !b->untouched))
		return "";
	return b->bytes ? "; the saved data were put back and verified" : "; nothing needed putting back";
}

/* What was written, and where: "24MiB (25165824 bytes) written within
 * bytes 16777216 to 41943039 of /dev/sdb", or "nothing was written". */
static void written_note(const struct run *r, char *buf, size_t len)
{
	struct dev_tally t = r->written;
	char sz[32];

	if (r->checked.hi > r->checked.lo) { /* and what --auto's capacity check wrote */
		t.lo = t.hi > t.lo && t.lo < r->checked.lo ? t.lo : r->checked.lo;
		t.hi = t.hi > r->checked.hi ? t.hi : r->checked.hi;
		t.bytes += r->checked.bytes;
	}
	if (t.hi <= t.lo) {
		snprintf(buf, len, "nothing was written to %s", r->c.device);
		return;
	}
	format_size(sz, sizeof(sz), t.bytes);
	snprintf(buf, len, "%s (%llu bytes) written within bytes %llu to %llu of %s", sz,
		 (unsigned long long)t.bytes, (unsigned long long)t.lo, (unsigned long long)t.hi - 1,
		 r->c.device);
}

/* The run was stopped by a signal and what it finished is written: say
 * what is complete and what was written, and end as the signal would. */
static int stopped(struct run *r)
{
	int sig = run_stop;
	char what[192], wrote[256], saved[32], range[32];

	if (r->saving_stopped)
		snprintf(what, sizeof(what), "while --preserve saved the range it overwrites (%s of %s saved), before "
			 "its first request: no results%s", (format_size(saved, sizeof(saved), r->saved), saved),
			 (format_size(range, sizeof(range), r->plan.write_hi - r->plan.write_lo), range),
			 r->c.json ? " (JSON: \"interrupted\": true)" : "");
	else if (r->stopped_in)
		snprintf(what, sizeof(what), "during its %s part: findings it had not finished say \"interrupted\"",
			 r->stopped_in);
	else if (r->stop_note)
		snprintf(what, sizeof(what), "%s", r->stop_note);
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
	fprintf(stderr, "flashbench: stopped by a signal (%s) %s; %s%s\n", fb_signal_name(sig), what, wrote,
		r->guard.finished && !*put_back_note(r) ? "; nothing needed putting back" : put_back_note(r));
	run_release(r);
	return end_by_signal(sig);
}

static int fail(struct run *r, struct fb_err *e)
{
	int quiet = r->out_error == EPIPE && run_stop <= 0, had = r->guard.finished;
	struct fb_err why;
	char wrote[256];

	preserve_explain(r->d, e); /* a request its journal's layer refused: why */
	why = *e;
	/* the data go back whatever failed; a put back that fails says why */
	if (run_end_guard(r, 0, &why))
		fprintf(stderr, "flashbench: %s\n", why.msg);
	else if (!had && r->guard.finished && !quiet)
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "%s", put_back_note(r));
	if (quiet) { /* the reader went away (| head): it wanted no more */
		run_release(r);
		return end_by_signal(SIGPIPE);
	}
	if (run_stop > 0) { /* stopped while writing the results */
		written_note(r, wrote, sizeof(wrote));
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; %s", wrote);
		fprintf(stderr, "flashbench: %s\n", e->msg);
		run_release(r);
		return end_by_signal(run_stop);
	}
	run_release(r);
	return die(e);
}

int main(int argc, char **argv)
{
	static struct run r;
	struct fb_err e = { 0 };
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
	if (!rc && r.c.device && strncmp(r.c.device, "sim:", 4) && !r.c.all_removable && !r.c.devices)
		pin(r.c.device);
	/* so are the outputs: what their checks saw is what they replace */
	if (!rc && r.c.out && !r.c.devices && !r.c.all_removable)
		pin(r.c.out);
	if (!rc && r.c.plot)
		pin(r.c.plot);
	if (!rc && !r.c.all_removable && output_check_stdio(r.c.device, &e))
		return die(&e);
	for (int i = 0; !rc && i < r.c.ndevices; i++)
		if (output_check_stdio(r.c.devices[i], &e))
			return die(&e);
	if (rc < 0 || check_params(&r.c, &e) || check_inputs(&r.c, &e) ||
	    (r.c.mode->check_input && r.c.mode->check_input(&r.c, &e)))
		return die(&e);
	if (!(r.c.mode->flags & MODE_DEVICE)) /* saved results */
		return r.c.mode->run(&r, &e) ? die(&e) : 0;
	catch_signals();
	if (r.c.mode->flags & MODE_OWN_START)
		return r.c.mode->run(&r, &e) ? die(&e) : 0;
	if (r.c.devices || r.c.all_removable) { /* a batch: a run per card (run/batch.c) */
		int sig;
		rc = run_batch(&r, &sig, &e);
		if (sig)
			return rc ? (fprintf(stderr, "flashbench: %s\n", e.msg), end_by_signal(run_stop))
				  : end_by_signal(run_stop);
		return rc ? die(&e) : 0;
	}
	r.out = stdout;
	if (run_prepare(&r, &e))
		return cli_name_reach(&r.c, &e), fail(&r, &e);
	if (r.c.mode->run(&r, &e))
		return fail(&r, &e);
	if (run_finish(&r, &e))
		return fail(&r, &e);
	if (r.stopped || run_stop > 0)
		return stopped(&r);
	run_release(&r);
	return 0;
}
