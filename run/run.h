/* run.h — the modes' part: one file per mode (run/test.c, program.c,
 * auto.c, capacity.c, rating.c, restore.c, analyze.c, compare.c), each
 * with its row (mode.h), its runner, its announcement and its progress,
 * and what they share (run.c): the command line they were given, everything a run holds,
 * the stop flag the signals set, results held and let go a line at a time,
 * outputs committed.  The command line (flashbench.c) does the shared
 * start and end of a run, through guard/preserve.h. */
#ifndef FLASHBENCH_RUN_H
#define FLASHBENCH_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "guard/preserve.h"
#include "lib/err.h"
#include "lib/extents.h"
#include "lib/outfile.h"
#include "lib/progress.h"
#include "prog/printer.h"
#include "prog/programs.h"
#include "prog/testkind.h"
#include "vm.h"

struct auto_report;
struct capacity_plan;
struct identity;
struct mode;

/* The parsed command line (options.c fills it). */
struct cli {
	const struct mode *mode;        /* its mode's row (mode.h; NULL: none chosen) */
	const struct test_kind *kind;   /* a test kind's mode: the test; --program: its format */
	const struct test_kind *kinds;  /* the test kinds (testkinds.h): a program's formats */
	char mode_option[40];           /* "--align": the option that chose the run */
	struct test_params t;
	const char *device;
	const char *const *devices;     /* a batch (MODE_DEVICES): every device named, device the first */
	int ndevices;                   /* how many (0 or 1: one device) */
	int all_removable;              /* --all-removable: every removable disk attached */
	int side_by_side;               /* --side-by-side: no card shares a link (no turns, no check) */
	const char *out;                /* -o FILE */
	const char *plot;               /* --plot FILE.svg */
	const char *journal;            /* --preserve=FILE or --restore FILE */
	const char *program;            /* --program FILE */
	const char *analyze;            /* --analyze FILE ("-": standard input) */
	const char *const *files;       /* --compare FILE... */
	int nfiles;
	int verbose, write, json, preserve, progress, summary;
	int device_changed;             /* --restore: accept a changed device identity */
	int preserve_volatile;          /* --preserve: accept a journal on tmpfs/ramfs */
	int program_writes;             /* the program writes or erases */
	uint64_t budget_ns;             /* --budget: --auto --write's device time (0: the default) */
	uint64_t budget_bytes;          /* --budget: bytes it may write (0: the default) */
	uint64_t max_cache;             /* --max-cache: the cache --capacity flushes (0: default) */
	const char *claim;              /* --claim: --rating's label marks (rating.c parses them) */
	uint64_t sustained;             /* --sustained: --rating's long recording (0: its default) */
	int erase_given;                /* -e was given (--rating tests in that AU) */
};

/* Everything a run holds, released in one place. */
struct run {
	struct cli c;
	int writing;               /* it writes to the device (mode.h, mode_writes) */
	const char *keeper;        /* who keeps its journal, for its lines ("--preserve") */
	int saving_stopped;        /* a signal came while --preserve saved: no request was made */
	uint64_t saved;            /* then: the bytes it had saved */
	struct preserve guard;     /* its claim, -o and journal (guard/preserve.h) */
	int put_back_said;         /* what the journal's end put back was said */
	struct dev *d;
	struct dev_tally written;  /* what the run wrote, as the device closed */
	struct vm_op *prog;
	struct vm_result *res;
	struct vm_plan plan;
	struct extents writes, changes; /* with a journal: what the program writes, and changes */
	FILE *out;                 /* the results: -o's file, or standard output */
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
	const char *stop_note;     /* else what a stop leaves, for the stop line ("before its verdict: no
				      report"; NULL: the rows or the program's) */
	int report_whole;          /* its report is whole after a stop too (--auto's): -o is kept */
	struct dev_tally checked;  /* what --auto --write's capacity check wrote (not --auto's own) */
	/* a card of a batch (run/batch.c): the mode also writes its --summary
	 * line to row, and the device just opened for the run goes through
	 * opened (preserve_setup's) */
	FILE *row;
	int (*opened)(void *ctx, struct dev **d, struct fb_err *e);
	void *opened_ctx;
};

/* ------------------------------------------------------------ the modes */

/* Each file's row (run/mode.h) names its functions; these are shared. */

/* A test kind's or a program's run (test.c): announce, save, run, print. */
int run_test(struct run *r, struct fb_err *e);
/* Reserve the journal's room for the most a capacity check saves, before
 * its first write (the journal on d, if any; capacity.c). */
int run_capacity_reserve(struct dev *d, const struct capacity_plan *p, struct fb_err *e);
/* What a capacity check writes of its signatures, for its announcement:
 * "2MiB of signatures at its start, 4KiB at up to 256 places anywhere on
 * DEV and a stretch of up to 4MiB at each of up to 2 edges it finds (at
 * most 11MiB of signatures in all)" (the flush, which writes back what it
 * read, is said apart). */
void run_capacity_writes(char *buf, size_t len, const struct capacity_plan *p, const char *where);
/* The most signatures it writes in all. */
uint64_t run_capacity_signatures(const struct capacity_plan *p);

/* ------------------------------------------------------------ shared */

/* The shared start and end of a run of a device (start.c): prepare
 * (everything before the first request: the device opened read-only and
 * checked, the program planned, the guard's start); finish (the data put
 * back, the results in place, the guard's end); end_guard (the guard's
 * end alone, keep_out: -o committed); release (what is left, also after a
 * failure: a journal not finished stays for --restore). */
int run_prepare(struct run *r, struct fb_err *e);
int run_finish(struct run *r, struct fb_err *e);
int run_end_guard(struct run *r, int keep_out, struct fb_err *e);
void run_release(struct run *r);

/* A batch (batch.c): every card named (or every removable one), pinned,
 * mapped, run in a thread each; the map, one table and each card's report.
 * 0, or -1 with e filled; *stopped: a signal stopped it. */
int run_batch(struct run *proto, int *stopped, struct fb_err *e);
/* A batch card's journal with --preserve=DIR (and --restore=DIR): DIR/ and
 * the name the card's journal has by default. */
void run_batch_journal(const char *device, const char *dir, char *buf, size_t len);


/* run_stop: 0, or the signal that asked the run to stop (SIGINT, SIGTERM,
 * SIGHUP), or RUN_STOP_OUTPUT when the results could not be written (a
 * reader that went away, a full disk): the VM stops at its next request
 * either way, and the run then ends as the cause wants.  run_restoring is
 * set while saved data are put back (a signal then says to wait). */
#define RUN_STOP_OUTPUT (-1)
extern volatile sig_atomic_t run_stop, run_restoring;

/* Commit an output file (one stopped by a signal says so); the results in
 * place (the -o file, or standard output flushed). */
int run_commit(struct outfile *o, struct fb_err *e);
int run_commit_out(struct outfile *of, struct fb_err *e);

/* -o and --plot of a run on saved results (no device): opened, and at the
 * end committed (rc 0) or left as they were; returns rc or the failure. */
int run_open_outputs(const struct cli *c, struct outfile *out, struct outfile *plot,
		     struct fb_err *e);
int run_close_outputs(struct outfile *out, struct outfile *plot, int rc, struct fb_err *e);

/* The device as the reports name it. */
void run_identify(const struct cli *c, const struct dev *d, struct identity *id);

/* --plot FILE: draw(f, ctx) into FILE, committed whole, or refused when
 * draw finds nothing to draw (non-zero). */
int run_plot_with(const struct cli *c, int (*draw)(FILE *f, const void *ctx), const void *ctx,
		  struct fb_err *e);

/* --plot: the chart of a test's results (res) or of --auto's (a). */
int run_plot(const struct cli *c, const struct vm_result *res, const struct auto_report *a,
	     struct fb_err *e);

/* Results printed whole (a table at the end, JSON, --auto's report) are
 * held in memory, then go out a line at a time: a stop while a slow reader
 * holds them back can then say how many lines went out.  run_hold gives the
 * stream to print them to (the output itself when memory is short). */
FILE *run_hold(struct run *r);
void run_let_go(struct run *r);

/* Writing the results failed (r->out_error): why, for the error line. */
int run_out_failed(struct run *r, struct fb_err *e);

/* A write test that cannot say on standard error which range it overwrites
 * (closed, full) does not write: status 1. */
int run_unannounced(const char *what, struct fb_err *e);

/* "flashbench: journal: PATH (room for 12MiB)": a --preserve journal
 * whose room is known before the first write. */
void run_announce_room(const char *journal, uint64_t bytes);

/* The areas a run writes, exactly and short, for its announcement:
 * "128MiB at 0 and 256MiB at 4GiB" (n of range[i] = { from, to }). */
void run_areas_text(char *buf, size_t len, const uint64_t range[][2], int n);
/* -v: the same areas in bytes: "flashbench:   bytes 0 to 134217727 and
 * ... of DEVICE"; what note() returns. */
int run_bytes_note(const uint64_t range[][2], int n, const char *device);

/* Put back the saved ranges the run wrote to (the others the device still
 * holds) and say so; a second signal does not interrupt this.  0 also
 * without a journal.  run_said_put_back says what a journal's end put back
 * (preserve_end's), once. */
int run_put_back(struct run *r, struct fb_err *e);
void run_said_put_back(struct run *r);

#endif
