/* printer.h — what a test kind's printers are (prog/testkind.h's record takes
 * them): the text printer (report.h) and the chart (plot.h), and what they
 * know besides the result tree. */
#ifndef FLASHBENCH_PRINTER_H
#define FLASHBENCH_PRINTER_H

#include <stdio.h>

#include "vm.h"

struct test_kind;
struct test_params;

/* What a printer knows besides the results. */
struct print_ctx {
	const struct test_kind *kind;
	const char *device;
	const struct test_params *t;
	int verbose;                 /* -v */
};

/* Writes a test's results as text. */
typedef void text_printer(FILE *f, const struct vm_result *root, const struct print_ctx *p);
/* Writes one row of them (a line, or a line and its -v lines), as soon as
 * the row is measured. */
typedef void row_printer(FILE *f, const struct vm_result *row, const struct print_ctx *p);
/* Draws a test's chart; 0, or -1 when there is nothing to draw. */
typedef int plot_printer(FILE *f, const struct vm_result *root, const struct print_ctx *p);

#endif
