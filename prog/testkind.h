/* testkind.h — the test-kind record: what one test is (its name, option,
 * whether it writes, its built-in program, the checks of its parameters,
 * the shape of its results, and its text, JSON and plot printers).  The
 * table of them is the product's (testkinds.c at the top); reports and
 * plots need only the record, so it lives here. */
#ifndef FLASHBENCH_TESTKIND_H
#define FLASHBENCH_TESTKIND_H

#include <stdint.h>

#include "lib/err.h"
#include "prog/printer.h"
#include "prog/programs.h"
#include "prog/results.h"
#include "vm.h"

struct json;

struct test_kind {
	const char *name;            /* "align" */
	char letter;                 /* 'a' for -a (0: a format of --program only) */
	const char *alias;           /* another long name ("findfat"), or NULL */
	int writes;                  /* overwrites the device */
	const char *help;            /* --help text ('\n' continues the line) */
	const char *brief;           /* one line, for the list of modes in the short --help */
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

#endif
