/* mode.h — what a mode is: the shape of a row of the mode table.  Like
 * git's commands[], a row gives a mode's option (its name, letter,
 * argument and help: the option parser makes the option from the row), the
 * groups of options that go with it, its properties as flags, and its
 * functions.  Each mode's row lives in its own file in run/ (run/NAME.c
 * defines `const struct mode mode_NAME`); the list of rows is modes.h's.
 * The command line, main()'s dispatch and every "does this run ..."
 * question read the rows (mode.c answers those), and nothing else asks
 * which mode a run is. */
#ifndef FLASHBENCH_MODE_H
#define FLASHBENCH_MODE_H

#include <stddef.h>

#include "lib/err.h"

struct cli;
struct dev;
struct run;
struct vm_op;

/* The groups of options (options.c gives each option one): a mode takes
 * an option when its row's `takes` has the option's group; an option of a
 * test kind (its `kind`) also goes with that kind. */
enum option_group {
	OPT_RESULTS = 1u << 0,      /* -o, --json, --plot: where the results go, and how */
	OPT_PROGRESS = 1u << 1,     /* --progress */
	OPT_GEOMETRY = 1u << 2,     /* -b, --offset, -c, -v: the classic tests' parameters */
	OPT_KIND_PARAMS = 1u << 3,  /* --interval-order, --fat-nr ...: each test kind's own */
	OPT_WRITE = 1u << 4,        /* --write */
	OPT_JOURNAL = 1u << 5,      /* --preserve, --preserve-volatile */
	OPT_SUMMARY = 1u << 6,      /* --summary */
	OPT_BUDGET = 1u << 7,       /* --budget */
	OPT_MAX_CACHE = 1u << 8,    /* --max-cache */
	OPT_DEVICE_CHANGED = 1u << 9, /* --device-changed */
	OPT_ERASE = 1u << 10,       /* -e: the erase block size */
	OPT_MARKS = 1u << 11,       /* --claim, --sustained: what a speed rating checks */
};

/* The sections of --help -v, in their order (options.c has their titles). */
enum help_section {
	SEC_AUTO, SEC_SAVED, SEC_PROGRAM, SEC_READ, SEC_WRITE, SEC_KEEP, SEC_PARAM, SEC_END
};

/* What a mode is:
 * MODE_DEVICE          needs a device (named after the options)
 * MODE_KIND            chosen by a test kind's option: the kind says whether it writes, and its
 *                      options and checks apply
 * MODE_WRITES          writes, always
 * MODE_WRITES_ASKED    writes with --write
 * MODE_WRITES_PROGRAM  writes when its program does (which then needs --write)
 * MODE_JOURNALED       always journaled: every range it writes is saved, then put back
 * MODE_JOURNAL_LATER   its journal is decided as it goes: the room once it knows what it writes,
 *                      and without --preserve a journal of its own for a part of it (--auto
 *                      --write's capacity check)
 * MODE_WHOLE_DEVICE    may write anywhere, found as it goes: claims the whole device
 * MODE_SAVED           reads saved results, no device: no signals caught, a reader that goes
 *                      away ends it as it does any filter
 * MODE_OWN_START       claims and opens its device itself, not through the shared start and end
 *                      of a run (--restore)
 * MODE_DEVICES         takes several devices (a batch mode; none yet)
 * MODE_ARG_OPTIONAL    its option's argument may be left out (--analyze[=FILE]) */
enum mode_flag {
	MODE_DEVICE = 1u << 0,
	MODE_KIND = 1u << 1,
	MODE_WRITES = 1u << 2,
	MODE_WRITES_ASKED = 1u << 3,
	MODE_WRITES_PROGRAM = 1u << 4,
	MODE_JOURNALED = 1u << 5,
	MODE_JOURNAL_LATER = 1u << 6,
	MODE_WHOLE_DEVICE = 1u << 7,
	MODE_SAVED = 1u << 8,
	MODE_OWN_START = 1u << 9,
	MODE_DEVICES = 1u << 10,
	MODE_ARG_OPTIONAL = 1u << 11,
};

struct mode {
	/* its option (a MODE_KIND row has none: each test kind has its own) */
	const char *name;              /* the option's long name; "test" for the test kinds' row */
	char letter;                   /* its short option (0: none) */
	const char *meta;              /* its argument, "FILE" (NULL: none) */
	size_t field;                  /* where the argument goes: offsetof(struct cli, ...) */
	const char *brief;             /* its line in the short --help */
	const char *help;              /* its entry in --help -v ('\n' continues a line) */
	enum help_section section;     /* where --help -v lists it: first in this section, */
	const char *help_after;        /* or just after this option */
	const char *usage;             /* what follows its option in a command line (its --help) */
	unsigned takes;                /* OPT_*: the groups of options that go with it */
	unsigned takes_writing;        /* MODE_KIND: the groups a test kind that writes takes too */
	unsigned flags;                /* MODE_* */
	/* the run: 0, or -1 with e filled (after the shared start, for a mode
	 * with MODE_DEVICE and no MODE_OWN_START) */
	int (*run)(struct run *r, struct fb_err *e);
	/* optional, in the order they are called: with the option checks;
	 * what follows the options (when not one device); before any input
	 * is read; once the inputs are checked; with the device's size and
	 * sector size */
	int (*check_args)(const struct cli *c, struct fb_err *e);
	int (*positional)(struct cli *c, int argc, char **argv, struct fb_err *e);
	int (*check)(const struct cli *c, struct fb_err *e);
	int (*check_input)(struct cli *c, struct fb_err *e);
	int (*check_device)(const struct cli *c, struct dev *d, struct fb_err *e);
	/* the program it runs, built and planned before the first request
	 * (NULL: the mode plans as it goes) */
	struct vm_op *(*build)(const struct cli *c, struct dev *d, struct fb_err *e);
};

/* What the run c asks for does: writes to the device; keeps a journal
 * from the start (--preserve, --capacity); makes one at some point (also
 * --auto --write's check); says how much it saves only once it knows what
 * it writes; claims the whole device. */
int mode_writes(const struct cli *c);
int mode_journaled(const struct cli *c);
int mode_journal_kept(const struct cli *c);
int mode_later_room(const struct cli *c);
int mode_whole_device(const struct cli *c);

#endif
