/* modes.h — the one table of modes: the ways flashbench runs (the classic
 * tests, --program, --auto, --capacity, --rating, --analyze, --compare,
 * --restore).
 * Like git's commands[], each row gives a mode's name (its option's), the
 * options that go with it, its properties as flags, and its functions; the
 * command line, main()'s dispatch and every "does this run ..." question
 * read the rows, and nothing else asks which mode a run is.  Adding a mode
 * is a row here, its option (options.c, ARG_MODE, named as the row) and a
 * file in run/ with its functions. */
#ifndef FLASHBENCH_MODES_H
#define FLASHBENCH_MODES_H

#include "lib/err.h"

struct cli;
struct dev;
struct run;
struct vm_op;

/* The runs an option applies to (a bit set; and to the test kind named in
 * the option's `kind`): each mode's bit, FOR_READ and FOR_WRITE for the
 * test kinds. */
enum {
	FOR_READ = 1,      /* every read-only test kind */
	FOR_WRITE = 2,     /* every write test kind */
	FOR_AUTO = 4, FOR_PROGRAM = 8, FOR_RESTORE = 16, FOR_ANALYZE = 32, FOR_COMPARE = 64,
	FOR_CAPACITY = 128, FOR_RATING = 256,
	FOR_TESTS = FOR_READ | FOR_WRITE | FOR_PROGRAM,
	FOR_ALL = FOR_TESTS | FOR_AUTO | FOR_CAPACITY | FOR_RATING,  /* every run of a device */
	FOR_SAVED = FOR_ANALYZE | FOR_COMPARE,          /* runs on saved results */
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
 * MODE_DEVICES         takes several devices (a batch mode; none yet) */
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
};

struct mode {
	const char *name;              /* its option's long name; "test" for the test kinds' */
	const char *usage;             /* what follows its option in a command line (its --help) */
	unsigned applies;              /* FOR_*: the options that go with it */
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

/* The rows, in the order errors list the runs an option goes with; the
 * last has a NULL name. */
extern const struct mode modes[];

/* The row of that name, or NULL. */
const struct mode *mode_named(const char *name);

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
