/* testkinds.h — the one table of test kinds.  Each entry says everything
 * about one test: its name (the output format, the JSON "test", the
 * progress line), its option, whether it writes, the program it runs, the
 * shape of results its printers read, and its text, JSON and plot printers.
 * The command line, the help, the output and the plots loop over this table;
 * a new test is one entry here plus its program. */
#ifndef FLASHBENCH_TESTKINDS_H
#define FLASHBENCH_TESTKINDS_H

#include <stdint.h>
#include <stdio.h>

#include "lib/err.h"
#include "prog/printer.h"
#include "prog/programs.h"
#include "prog/results.h"
#include "vm.h"

struct json;
struct test_kind;

struct test_kind {
	const char *name;            /* "align" */
	char letter;                 /* 'a' for -a (0: a format of --program only) */
	const char *alias;           /* another long name ("findfat"), or NULL */
	int writes;                  /* overwrites the device */
	const char *help;            /* --help text ('\n' continues the line) */
	/* the built-in program (scripts/programs/NAME.fbp), and the one run
	 * with --random if the kind takes it; NULL for a format only */
	const char *program, *program_random;
	/* checks of the parameters (dev_size and sector 0: before the device
	 * is known), or NULL */
	int (*check)(const struct test_params *t, const char *device, uint64_t dev_size, unsigned sector,
		     struct fb_err *e);
	struct result_shape shape;   /* what the printers read */
	text_printer *text;
	/* one row of the text, printed as soon as it is measured, and the
	 * depth of the rows in the result tree (1: the root's children);
	 * NULL and 0 when the text is printed whole at the end */
	row_printer *row;
	unsigned row_depth;
	void (*json_params)(struct json *j, const struct test_params *t);
	void (*json_results)(struct json *j, const struct vm_result *root);
	/* the chart, or NULL (no chart); 0 or -1 (nothing to draw) */
	plot_printer *plot;
};

extern const struct test_kind test_kinds[];    /* ends with a NULL name */

/* The kind of that name ("align", "tree"), or NULL. */
const struct test_kind *test_kind_named(const char *name);

#endif
